"""The jobs the package shares with the command line give the same answers:
``kifu.analyze`` is ``kifu analyze --format json``, game by game and move
by move (one library job runs both). Exact values are compared (``depth=0``:
a midgame estimate may take a deeper result from a table the threads
share, so estimates agree only run against run on one thread)."""

from __future__ import annotations

import json

import pytest

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


def test_analyze_selectivity_changes_estimates_only(corpus):
    # As `--selectivity`: the exact part is the solver's whatever the
    # midgame search cuts; a name it does not know is a usage error.
    files = [corpus / "wthor" / "WTH_1977.wtb"]
    args = dict(empties=12, depth=6, black="Woch", white="Heiberg")
    careful = kifu.analyze(files, **args)
    bold = kifu.analyze(files, selectivity="bold", **args)
    assert len(careful) == len(bold) == 1
    pairs = list(zip(careful[0]["moves"], bold[0]["moves"]))
    assert len(pairs) == len(careful[0]["moves"]) == len(bold[0]["moves"])
    assert any(not c["exact"] for c, _ in pairs)
    for c, b in pairs:
        assert (c["move"], c["exact"]) == (b["move"], b["exact"])
        if c["exact"]:
            assert c == b
    with pytest.raises(kifu.UsageError) as e:
        kifu.analyze(files, selectivity="wild", **args)
    assert e.value.argument == "selectivity"


def test_analyze_by_trained_weights(corpus, cli, tmp_path):
    # As `--weights`: a file `kifu train-eval` wrote judges the midgame,
    # the exact part is the solver's whatever the weights, and a file that
    # is not weights (or none) is a usage error naming the argument.
    year = corpus / "wthor" / "WTH_1977.wtb"
    mine = tmp_path / "mine.zst"
    cli("train-eval", year, "--exact-empties", "12", "--generate", "16", "--reach", "6",
        "--seed", "5", "--epochs", "8", "--hash", "1", "-q", "-o", mine)
    args = dict(empties=12, depth=4, black="Woch", white="Heiberg")
    builtin = kifu.analyze([year], **args)
    trained = kifu.analyze([year], weights=mine, **args)
    assert len(builtin) == len(trained) == 1
    pairs = list(zip(builtin[0]["moves"], trained[0]["moves"]))
    assert len(pairs) == len(builtin[0]["moves"]) == len(trained[0]["moves"])
    for b, t in pairs:
        assert (b["move"], b["exact"]) == (t["move"], t["exact"])
        if b["exact"]:
            assert b == t
    assert any(b["value"] != t["value"] for b, t in pairs if not b["exact"])
    for bad in (year, tmp_path / "missing.zst"):
        with pytest.raises(kifu.UsageError) as e:
            kifu.analyze([year], weights=bad, **args)
        assert e.value.argument == "weights"
        assert bad.name in str(e.value)
