#!/usr/bin/env python3
"""NTest's exact solve of an OBF file's positions, one at a time: the peer
beside `KIFU_BENCH_FFO` (cargo bench --bench solve).

    scripts/ntest-solve.py FILE.obf [--first N] [--count N] [--ntest-dir DIR]

Each position goes to NTest over NBoard (`set depth 60`, which makes it
solve exactly up to 47 empties, `set game`, `go`); prints the move, the
value NTest answered, the value listed in the file for that move (the
best listed score) and the wall seconds of the `go`, then the total. NTest
searches on one thread. Build it first with scripts/build-ntest.sh (GPLv3,
built outside the project, never committed); standard library only.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nboard  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def positions(path):
    """(line number, Board, best listed score) of each OBF line."""
    with open(path, encoding="ascii") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            fields = line.strip().split(";")
            board = fields[0].strip()
            cells, side = board[:64], board[-1].upper()
            if len(cells) != 64 or side not in "XO":
                sys.exit(f"{path}:{number}: not an OBF position")
            b = nboard.Board(side=nboard.BLACK if side == "X" else nboard.WHITE)
            b.black = sum(1 << i for i, c in enumerate(cells) if c.upper() == "X")
            b.white = sum(1 << i for i, c in enumerate(cells) if c.upper() == "O")
            scores = [int(f.split(":")[1]) for f in fields[1:] if ":" in f]
            yield number, b, max(scores) if scores else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("obf")
    parser.add_argument("--first", type=int, default=1,
                        help="first position, counted from 1 (default 1)")
    parser.add_argument("--count", type=int, default=None,
                        help="how many (default all)")
    parser.add_argument("--label", type=int, default=None,
                        help="number printed for the first position "
                             "(e.g. 40 for fforum-40-59.obf; default --first)")
    parser.add_argument("--ntest-dir", default=os.path.join(ROOT, "target/peers/ntest/run"),
                        help="NTest's run folder (default target/peers/ntest/run)")
    parser.add_argument("--timeout", type=float, default=3600.0,
                        help="seconds allowed a position (default 3600)")
    args = parser.parse_args()
    chosen = list(positions(args.obf))[args.first - 1:]
    if args.count is not None:
        chosen = chosen[:args.count]
    label = args.label if args.label is not None else args.first
    try:
        engine = nboard.Engine("./ntest x", cwd=args.ntest_dir, name="ntest")
    except nboard.EngineError as err:
        sys.exit(f"ntest-solve: {err} (build it with scripts/build-ntest.sh)")
    total, wrong = 0.0, 0
    try:
        for i, (number, board, listed) in enumerate(chosen):
            engine.send("set depth 60")
            engine.send("set game " + nboard.ggf_game(board, []))
            engine.sync(60)
            move, value, _, seconds = engine.go(args.timeout)
            total += seconds
            answered = None if value is None else int(round(value))
            mark = ""
            if listed is not None and answered is not None and answered != listed:
                mark = "  (differs)"
                wrong += 1
            print(f"#{label + i:<3} line {number:<3} {move:<3} {answered!s:>4} "
                  f"listed {listed!s:>4} {seconds:8.2f} s{mark}", flush=True)
    except nboard.EngineError as err:
        sys.exit(f"ntest-solve: {err}")
    finally:
        engine.close()
    print(f"total {total:.2f} s, {len(chosen)} positions, {wrong} differing from the file")


if __name__ == "__main__":
    main()
