"""Streaming a large file keeps memory bounded: a child interpreter reads
a file many times its own peak memory."""

from __future__ import annotations

import subprocess
import sys


def test_reading_a_large_file_streams(corpus, cli, tmp_path):
    one = tmp_path / "one.txt"
    files = sorted((corpus / "wthor").glob("WTH_*.wtb"))
    cli("convert", *files, "-o", one)
    text = one.read_bytes()
    big = tmp_path / "big.txt"
    with open(big, "wb") as out:
        for _ in range(20):
            out.write(text)
    size_mb = big.stat().st_size / 2**20
    assert size_mb > 100
    script = (
        "import resource, sys, kifu\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "n = sum(1 for g in kifu.read(sys.argv[1]) if g.status == 'complete')\n"
        "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(n, (after - before) // 1024)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(big)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    games, grown_mb = map(int, done.stdout.split())
    assert games > 1_000_000
    # The games are read a few thousand ahead: tens of MB at most, never
    # the file's hundreds.
    assert grown_mb < 64, f"peak memory grew by {grown_mb} MB reading {size_mb:.0f} MB"
