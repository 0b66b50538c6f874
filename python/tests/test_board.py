"""kifu.Board against the command line's `show` on random games, and the
rules."""

from __future__ import annotations

import random

import numpy as np
import pytest

import kifu


def diagram_of_show(cli, moves: str) -> str:
    out = cli("show", moves, "--ascii", "--color", "never").stdout.decode()
    lines = out.splitlines()
    start = lines.index("  a b c d e f g h")
    return "\n".join(lines[start : start + 10]) + "\n"


def random_game(rng: random.Random, plies: int):
    board, moves = kifu.Board(), []
    while not board.is_over() and len(moves) < plies:
        if board.must_pass():
            board.pass_()
            continue
        m = rng.choice(board.legal_moves())
        assert board.play(m) >= 1
        moves.append(m)
    return board, moves


def test_board_draws_what_show_draws_on_random_games(cli):
    rng = random.Random(2026)
    for _ in range(25):
        board, moves = random_game(rng, rng.randrange(1, 61))
        text = "".join(moves)
        assert board.diagram(ascii=True) == diagram_of_show(cli, text), text
        assert kifu.Board.from_moves(text) == board
        # The bitboards agree with the diagram.
        rows = board.diagram(ascii=True).splitlines()[1:9]
        for r, line in enumerate(rows):
            cells = line[2:-2:2]
            for c, cell in enumerate(cells):
                i = 8 * r + c
                assert (cell == "X") == bool(board.black >> i & 1)
                assert (cell == "O") == bool(board.white >> i & 1)


def test_the_rules():
    b = kifu.Board()
    assert b.legal_moves() == ["d3", "c4", "f5", "e6"]
    assert b.discs() == (2, 2) and b.side_to_move == "black"
    with pytest.raises(kifu.IllegalMoveError) as e:
        b.play("a1")
    assert "flips nothing" in str(e.value)
    with pytest.raises(kifu.IllegalMoveError):
        b.pass_()
    with pytest.raises(kifu.UsageError) as e:
        b.play("z9")
    assert e.value.argument == "square"
    assert b.play(37) == 1  # f5 by index
    assert b.side_to_move == "white" and b.last_move == "f5"
    planes = b.to_numpy()
    assert planes.shape == (2, 8, 8) and planes[0].sum() == 1 and planes[1].sum() == 4
    # The 8 images: distinct here, each with the same discs.
    images = b.symmetries()
    assert len(images) == 8 and images[0] == b
    assert len({im.to_text() for im in images}) == 8
    assert all(im.discs() == b.discs() for im in images)


def test_a_whole_game_scores_as_the_federation_does():
    b = kifu.Board.from_moves("f5d6c5f6e7f4g5e6e3")
    assert b.is_over()
    assert b.discs() == (13, 0) and b.score() == (64, 0)
    assert kifu.Board(b.to_text()) == b


def test_solve_gives_exact_values():
    text = "OOOOO----OXXOO--XXOOXOOOOOXOOXOOOOXXOOXOXXXOOXOO-XXXXO-O-OOOOOO- X"
    r = kifu.solve(kifu.Board(text), all_moves=True)
    assert r["value"] == 18 and r["best_moves"] == ["a2"] and r["empties"] == 10
    assert r["moves"]["a2"] == 18 and all(v <= 18 for v in r["moves"].values())
    assert set(r["moves"]) == set(kifu.Board(text).legal_moves())
    with pytest.raises(kifu.UsageError) as e:
        kifu.solve(kifu.Board())
    assert "max_empties" in str(e.value)


def test_solve_with_a_table_larger_than_the_machine():
    # A petabyte asked for: a smaller table, the same answer, no crash.
    text = "OOOOO----OXXOO--XXOOXOOOOOXOOXOOOOXXOOXOXXXOOXOO-XXXXO-O-OOOOOO- X"
    r = kifu.solve(kifu.Board(text), hash_mb=10**9)
    assert r["value"] == 18 and r["best_moves"] == ["a2"]
