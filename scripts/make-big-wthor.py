#!/usr/bin/env python3
"""Writes a large WTHOR database by repeating the federation games of the
corpus: make-big-wthor.py CORPUS_DIR OUT.wtb [GAMES]. The player and
tournament files are copied beside it so the games keep their names."""

import shutil
import struct
import sys
from pathlib import Path


def main() -> None:
    corpus, out = Path(sys.argv[1]), Path(sys.argv[2])
    target = int(sys.argv[3]) if len(sys.argv) > 3 else 1_000_000
    records = []
    for path in sorted((corpus / "wthor").glob("WTH_*.wtb")):
        data = path.read_bytes()
        (count,) = struct.unpack_from("<I", data, 4)
        records.append(data[16 : 16 + 68 * count])
    block = b"".join(records)
    per_block = len(block) // 68
    repeats = -(-target // per_block)
    games = per_block * repeats
    header = bytes([20, 26, 11, 21]) + struct.pack("<IHHBBBB", games, 0, 0, 8, 0, 24, 0)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as f:
        f.write(header)
        for _ in range(repeats):
            f.write(block)
    shutil.copyfile(corpus / "wthor" / "WTH.JOU", out.with_suffix(".JOU"))
    shutil.copyfile(corpus / "wthor" / "WTH.TRN", out.with_suffix(".TRN"))
    print(f"{out}: {games} games, {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
