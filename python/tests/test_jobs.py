"""The jobs the package shares with the command line give the same answers:
``kifu.analyze`` is ``kifu analyze --format json``, game by game and move
by move (one library job runs both). Exact values are compared (``depth=0``:
a midgame estimate may take a deeper result from a table the threads
share, so estimates agree only run against run on one thread)."""

from __future__ import annotations

import json

import kifu


def test_analyze_equals_the_cli_json(corpus, cli):
    files = [corpus / "wthor" / "WTH_2004.wtb"]
    args = ["--player", "tastet", "--empties", "14", "--depth", "0"]
    done = cli("analyze", *files, *args, "--format", "json")
    expected = [json.loads(line) for line in done.stdout.decode().splitlines()]
    got = kifu.analyze(files, empties=14, depth=0, player="tastet")
    assert len(expected) > 10
    assert len(got) == len(expected)
    for mine, theirs in zip(got, expected):
        # Node counts depend on the threads' timing: every value does not.
        theirs.pop("nodes")
        assert mine == theirs


def test_analyze_takes_the_same_filters_as_the_cli(corpus, cli):
    files = [corpus / "wthor" / "WTH_2004.wtb"]
    done = cli("analyze", *files, "--year", "2004", "--winner", "white",
               "--black", "tastet", "--empties", "12", "--depth", "2",
               "--format", "json")
    expected = [json.loads(line)["game"] for line in done.stdout.decode().splitlines()]
    got = kifu.analyze(files, empties=12, depth=2, year=2004, winner="white", black="tastet")
    assert [g["game"] for g in got] == expected
    assert all(g["midgame_depth"] == 2 for g in got)
    assert all(not m["exact"] for g in got for m in g["moves"] if m["empties"] > 12)
