"""Every reader, through kifu.read and kifu.table, against the command
line's CSV of the same file (kifu convert --to csv)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

import kifu


def corpus_files(corpus: Path):
    return [
        corpus / "wthor" / "WTH_2004.wtb",
        corpus / "wthor" / "playok" / "PLAYOK_2023.wtb",
        corpus / "ggf" / "ntest-base.ggf",
        corpus / "ggf" / "nboard-test.ggf",
        corpus / "snippets" / "edax-manual-example.sgf",
        corpus / "snippets" / "playok-reversi-2020-05-05.pgn",
        corpus / "transcripts" / "xot" / "xot-small-list.txt",
        corpus / "logbook" / "logbook-first3000.gam",
        corpus / "csv" / "othello_dataset.csv",
    ]


def cli_rows(cli, path: Path, fmt=None):
    args = ["convert", path, "--to", "csv"] + (["--from", fmt] if fmt else [])
    out = cli(*args).stdout.decode()
    return list(csv.DictReader(io.StringIO(out)))


def as_text(value) -> str:
    return "" if value is None else str(value)


def check_against_cli(cli, path: Path, fmt=None):
    expected = cli_rows(cli, path, fmt)
    assert expected, path
    games = list(kifu.read(path, format=fmt))
    assert len(games) == len(expected), path
    for game, row in zip(games, expected):
        assert str(game.index) == row["index"]
        assert game.status == row["status"], (path, game.index)
        assert game.move_string == row["moves"], (path, game.index)
        assert as_text(game.black) == row["black_player"]
        assert as_text(game.white) == row["white_player"]
        assert as_text(game.event) == row["event"]
        assert as_text(game.date) == row["date"]
        assert as_text(game.black_score) == row["black_score"]
        assert as_text(game.winner) == row["winner"]
        assert as_text(game.opening) == row["opening"]
        if game.error:
            assert as_text(game.error[0]) == row["error_move"]
            assert game.error[1] == row["error"]
        # The moves with passes: the squares are the CSV's moves.
        played = "".join(m for m in game.moves if m is not None)
        if game.status != "invalid":
            assert played == row["moves"]
            assert game.moves.count(None) == int(row["passes"])
        assert {k: as_text(v) for k, v in game.row_dict().items()} == {
            k: v for k, v in row.items() if k != "source"
        } | {"source": str(path)}
    table = kifu.table(path, format=fmt)
    assert table.num_rows == len(expected)
    for got, row in zip(table.to_pylist(), expected):
        assert {k: as_text(v) for k, v in got.items()} == dict(row), (path, row["index"])


def test_every_corpus_reader_agrees_with_the_cli(corpus, cli):
    for path in corpus_files(corpus):
        check_against_cli(cli, path)


def test_kifu_own_outputs_read_back_alike(corpus, cli, tmp_path):
    """JSON Lines, score sheets, Parquet and tokens written by the command
    line read back through the package as the command line reads them."""
    source = corpus / "wthor" / "WTH_1984.wtb"
    for ext in ["jsonl", "sheet", "parquet", "npy", "sgf", "pgn", "ggf", "txt", "csv"]:
        out = tmp_path / f"games.{ext}"
        cli("convert", source, "-o", out)
        check_against_cli(cli, out)


def test_filters_choose_as_the_cli_does(corpus, cli):
    path = corpus / "wthor" / "WTH_2004.wtb"
    out = cli("convert", path, "--to", "csv", "--player", "tastet", "--year", "2004",
              "--opening", "tiger").stdout.decode()
    expected = [r["index"] for r in csv.DictReader(io.StringIO(out))]
    got = [str(g.index) for g in kifu.read(path, player="tastet", year=2004, opening="tiger")]
    assert got == expected and got


def test_a_pandas_table(corpus):
    df = kifu.table(corpus / "wthor" / "WTH_1984.wtb", as_pandas=True, status="complete")
    assert len(df) > 0
    assert (df["black_score"] + df["white_score"] == 64).all()
    assert set(df["status"]) == {"complete"}


def test_compressed_and_many_inputs(corpus, tmp_path):
    import gzip

    source = corpus / "wthor" / "WTH_1984.wtb"
    packed = tmp_path / "WTH_1984.wtb.gz"
    packed.write_bytes(gzip.compress(source.read_bytes()))
    plain = [g.move_string for g in kifu.read(source)]
    both = [g.move_string for g in kifu.read([source, packed])]
    assert both == plain + plain
