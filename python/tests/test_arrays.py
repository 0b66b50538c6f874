"""positions, tensors and tokens against the command line's files, byte
for byte."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import kifu


def test_positions_equal_the_cli_npy_byte_for_byte(corpus, cli, tmp_path):
    files = [corpus / "wthor" / "WTH_2004.wtb", corpus / "ggf" / "ntest-base.ggf"]
    for options, kwargs in [
        ([], {}),
        (["--symmetries", "--empties", "20..40"], {"symmetries": True, "empties": "20..40"}),
        (["--all-games", "--unique"], {"all_games": True, "unique": True}),
        (["--player", "tastet"], {"player": "tastet"}),
    ]:
        out = tmp_path / "p.npy"
        cli("positions", *files, *options, "-o", out)
        expected = np.load(out)
        got = kifu.positions(files, **kwargs)
        assert got.dtype == expected.dtype == kifu.POSITION_DTYPE
        assert got.tobytes() == expected.tobytes(), options


def test_tensors_equal_the_cli_npz(corpus, cli, tmp_path):
    path = corpus / "wthor" / "WTH_1984.wtb"
    out = tmp_path / "t.npz"
    cli("positions", path, "-o", out)
    expected = np.load(out)
    got = kifu.tensors(path)
    assert sorted(got) == sorted(expected.files)
    for name in expected.files:
        assert got[name].dtype == expected[name].dtype, name
        assert np.array_equal(got[name], expected[name]), name
    # The planes agree with the positions' bitboards.
    rows = kifu.positions(path)
    bits = (1 << np.arange(64, dtype=np.uint64))
    mine = (got["mine"].reshape(-1, 64) * bits).sum(axis=1, dtype=np.uint64)
    assert np.array_equal(mine, rows["player"])
    assert np.array_equal(got["move"], rows["move"])


def replay_side(moves):
    """The side to move at each disc placed, from a Board (the replay)."""
    board = kifu.Board()
    sides = []
    for m in moves:
        if m is None:
            board.pass_()
            continue
        sides.append(0 if board.side_to_move == "black" else 1)
        board.play(m)
    return sides


def test_tensors_take_the_mover_from_the_replay_after_a_pass(corpus):
    path = corpus / "wthor" / "WTH_2004.wtb"
    passing = [g for g in kifu.read(path, status="complete") if None in g.moves]
    assert len(passing) >= 5
    t = kifu.tensors(path)
    by_game = {}
    for i, game in enumerate(t["game"]):
        by_game.setdefault(int(game), []).append(i)
    for g in passing[:20]:
        rows = by_game[g.index]
        sides = replay_side(g.moves)
        assert t["side"][rows].tolist() == sides
        parity = [i % 2 for i in range(len(rows))]
        assert sides != parity  # move parity is wrong after the pass
        board = kifu.Board()
        for row, m in zip(rows, [m for m in g.moves if m]):
            if board.must_pass():
                board.pass_()
            assert t["mine"][row].reshape(64).tolist() == [
                bool(board.player >> i & 1) for i in range(64)
            ]
            assert int(t["legal"][row].sum()) == len(board.legal_moves())
            flipped = board.flips(m)
            assert t["flipped"][row].reshape(64).tolist() == [bool(flipped >> i & 1) for i in range(64)]
            board.play(m)


def othello_world_token(square: str) -> int:
    """othello_world's mapping, written out: its board index
    8 * letter + digit - 1, the four centre squares taken out, from 1."""
    index = (ord(square[0]) - ord("a")) * 8 + int(square[1]) - 1
    centre = [27, 28, 35, 36]
    assert index not in centre
    return index - sum(c < index for c in centre) + 1


def test_the_vocabulary_is_othello_world_s():
    squares = [f"{c}{r}" for c in "abcdefgh" for r in range(1, 9)]
    playable = [s for s in squares if s not in ("d4", "d5", "e4", "e5")]
    assert kifu.TOKEN_OF == {s: othello_world_token(s) for s in playable}
    assert [kifu.TOKEN_OF[s] for s in ["f5", "d3", "c4", "e6"]] == [41, 27, 20, 34]
    assert sorted(kifu.SQUARE_OF) == list(range(1, 61))


def test_tokens_equal_the_cli_and_round_trip(corpus, cli, tmp_path):
    path = corpus / "wthor" / "WTH_2004.wtb"
    out = tmp_path / "t.npy"
    cli("convert", path, "-o", out)
    from_cli = np.load(out)
    got = kifu.tokens(path)
    assert got.dtype == np.int8 and got.shape == from_cli.shape
    assert np.array_equal(got, from_cli)
    assert [kifu.SQUARE_OF[t] for t in got[0] if t] == [
        m for m in next(kifu.read(path)).moves if m
    ]
    # Back: every row replayed, the same moves.
    back = [g.move_string for g in kifu.read(out)]
    assert back == [g.move_string for g in kifu.read(path)]
    # Any integer dtype.
    wide = tmp_path / "wide.npy"
    np.save(wide, got.astype(np.int64))
    assert [g.move_string for g in kifu.read(wide)] == back


def random_tokens(rng: random.Random, games: int):
    rows = []
    for _ in range(games):
        board, row = kifu.Board(), []
        while not board.is_over():
            if board.must_pass():
                board.pass_()
                continue
            m = rng.choice(board.legal_moves())
            board.play(m)
            row.append(kifu.TOKEN_OF[m])
        rows.append(row)
    return rows


def test_a_hugging_face_style_parquet_reads_and_checks(tmp_path, cli):
    rng = random.Random(10)
    rows = random_tokens(rng, 200)
    rows[7] = rows[7][:10] + [99] + rows[7][11:]  # a number that is no token
    for column in ["tokens", "input_ids", "games", "seq"]:
        path = tmp_path / f"{column}.parquet"
        pq.write_table(pa.table({"id": list(range(200)), column: rows}), path, row_group_size=64)
        extra = {} if column != "seq" else {"moves_column": "seq"}
        games = list(kifu.read(path, **extra))
        assert len(games) == 200
        assert games[7].status == "invalid" and games[7].error == (11, "not a square")
        assert all(g.status == "complete" for i, g in enumerate(games) if i != 7)
        assert [kifu.TOKEN_OF[m] for m in games[3].moves if m] == rows[3]
        args = ["--moves-column", "seq"] if column == "seq" else []
        done = cli("validate", path, *args)
        assert done.returncode == 1
        assert b"200 games read: 199 complete, 0 incomplete, 1 invalid" in done.stdout
    # int8 lists, nulls, and the CLI's token npy from it.
    small = tmp_path / "small.parquet"
    pq.write_table(pa.table({"tokens": pa.array(rows[:5], type=pa.list_(pa.int8()))}), small)
    out = tmp_path / "small.npy"
    cli("convert", small, "-o", out)
    assert np.load(out)[2][: len(rows[2])].tolist() == rows[2]


def test_splits_without_leakage(corpus, cli, tmp_path):
    path = corpus / "wthor" / "WTH_2004.wtb"
    train, valid = tmp_path / "train.npy", tmp_path / "valid.npy"
    done = cli("split", path, path, "--ratio", "0.8", "--seed", "5", "-o", train, "-o", valid)
    assert b"duplicates found" in done.stderr
    a, b = kifu.tokens(train), kifu.tokens(valid)
    assert len(a) + len(b) == 2 * len(kifu.tokens(path))
    # No game of the validation part is a game of the training part under
    # any symmetry: excluding the training part leaves every one.
    assert len(list(kifu.read(valid, exclude=train))) == len(b)
    assert list(kifu.read(valid, exclude=valid)) == []
    # The same seed, the same split.
    again = tmp_path / "again.npy"
    cli("split", path, path, "--ratio", "0.8", "--seed", "5", "-o", again, "-o", tmp_path / "v2.npy")
    assert np.array_equal(np.load(again), np.load(train))
