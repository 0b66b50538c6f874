"""Broken inputs of every format: an exception with its place, or games
marked invalid — never a crash of the interpreter."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import kifu

FORMATS = ["txt", "ggf", "sgf", "pgn", "wtb", "csv", "jsonl", "sheet", "obf", "npy", "parquet"]


def consume(path, **kwargs):
    """Everything the package makes of a file: games, table, arrays; any
    error must be a kifu.KifuError."""
    out = {}
    for name, call in [
        ("read", lambda: [g.status for g in kifu.read(path, **kwargs)]),
        ("table", lambda: kifu.table(path, **kwargs).num_rows),
        ("positions", lambda: len(kifu.positions(path, all_games=True, **kwargs))),
        ("tokens", lambda: len(kifu.tokens(path, **kwargs))),
        ("tensors", lambda: len(kifu.tensors(path, all_games=True, **kwargs)["move"])),
    ]:
        try:
            out[name] = call()
        except kifu.KifuError as e:
            assert str(e)
            out[name] = e
    return out


def test_missing_files_and_folders_are_read_errors(tmp_path):
    with pytest.raises(kifu.ReadError) as e:
        list(kifu.read(tmp_path / "nope.txt"))
    assert e.value.path == str(tmp_path / "nope.txt") and isinstance(e.value, OSError)
    with pytest.raises(kifu.ReadError) as e:
        kifu.positions(tmp_path)
    assert "is a directory" in str(e.value)


def test_bad_arguments_are_usage_errors_naming_them(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("f5d6\n")
    cases = [
        ({"year": "20x4"}, "year"),
        ({"status": "done"}, "status"),
        ({"winner": "nobody"}, "winner"),
        ({"colour": "black"}, "colour"),
        ({"format": "docx"}, "format"),
        ({"exclude": 5}, "exclude"),
    ]
    for kwargs, argument in cases:
        with pytest.raises(kifu.UsageError) as e:
            list(kifu.read(path, **kwargs))
        assert e.value.argument == argument, kwargs
    with pytest.raises(kifu.UsageError) as e:
        kifu.positions(path, empties="a..b")
    assert e.value.argument == "empties"
    with pytest.raises(kifu.UsageError):
        kifu.read(12)


def test_an_invalid_game_is_a_game_with_its_place(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("f5d6\nf5d6c5f4e3f6d3f3d7\nf5 i9\n")
    games = list(kifu.read(path))
    assert [g.status for g in games] == ["incomplete", "invalid", "invalid"]
    assert games[1].error == (7, "flips nothing")
    assert (games[1].error_line, games[1].error_column) == (2, 13)
    assert games[2].error == (2, "not a square")


def test_cut_and_foreign_binaries_are_parse_errors_with_places(tmp_path, corpus):
    wtb = (corpus / "wthor" / "WTH_1984.wtb").read_bytes()
    cut = tmp_path / "cut.wtb"
    cut.write_bytes(wtb[: 16 + 68 * 5 + 20])
    games = []
    with pytest.raises(kifu.ParseError) as e:
        for g in kifu.read(cut):
            games.append(g)
    assert len(games) == 5 and e.value.path == str(cut)
    floats = tmp_path / "f.npy"
    np.save(floats, np.zeros((3, 60)))
    with pytest.raises(kifu.ParseError) as e:
        kifu.tokens(floats)
    assert "<f8 is no token array" in str(e.value)
    junk = tmp_path / "j.parquet"
    junk.write_bytes(b"PAR1" + b"\x00" * 40 + b"PAR1")
    with pytest.raises(kifu.ParseError) as e:
        list(kifu.read(junk))
    assert "Parquet" in str(e.value)
    import pyarrow as pa
    import pyarrow.parquet as pq

    nogames = tmp_path / "n.parquet"
    pq.write_table(pa.table({"x": [1, 2]}), nogames)
    with pytest.raises(kifu.ParseError) as e:
        list(kifu.read(nogames))
    assert "expected a list of integer tokens named tokens, input_ids, games" in str(e.value)


def test_random_damage_in_every_format_never_crashes(corpus, cli, tmp_path):
    """Each format's file, damaged at random, read by every function in a
    child interpreter: it must end normally (games, or kifu errors)."""
    source = corpus / "wthor" / "WTH_1984.wtb"
    rng = random.Random(7)
    damaged = []
    for ext in FORMATS:
        clean = tmp_path / f"clean.{ext}"
        if ext == "obf":
            clean.write_text(
                "--XXXXX--OOOXX-O-OOOOXXXXOOOXXXXOOOOXXX-OOOXXXXX-OOOXXX--OOOXX-- X; G8:+18; H1:+12;\n"
            )
        else:
            cli("convert", source, "-o", clean)
        data = bytearray(clean.read_bytes())
        for k in range(4):
            bad = bytearray(data)
            for _ in range(1 + k * 3):
                i = rng.randrange(len(bad))
                bad[i] = rng.randrange(256)
            if k == 3:
                bad = bad[: rng.randrange(len(bad))]
            path = tmp_path / f"bad{k}.{ext}"
            path.write_bytes(bytes(bad))
            damaged.append(str(path))
    script = (
        "import sys, kifu\n"
        "sys.path.insert(0, %r)\n"
        "from test_errors import consume\n"
        "for p in sys.argv[1:]:\n"
        "    consume(p)\n"
        "print('done', len(sys.argv) - 1)\n" % str(Path(__file__).parent)
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *damaged], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == f"done {len(damaged)}"
