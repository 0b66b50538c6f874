#!/usr/bin/env python3
"""Accuracy of midgame estimates against exact values (SPEC section 12).

Picks N positions (default 40) at 24 empty squares from real games of a
WTHOR file (games drawn at random with a seed; the position is the one
before the move played with 24 squares empty, after a forced pass if the
side to move has none), solves each exactly with `kifu solve --format csv`,
then asks for a depth-D estimate (default 8) of each:
  - an NBoard engine, NTest by default (`set game` with the position,
    `set depth D`, `go`: its `=== MOVE/EVAL` answer; never `hint`, which
    crashes NTest when it comes before a `go` after `set depth`);
  - kifu: `kifu eval --depth D --format csv`, and its static evaluation
    (`--depth 0`), if kifu has the command (otherwise says so and goes on
    without it).
Prints, per estimator side by side: mean absolute error in discs against
the exact value, how often the estimate's best move is an exact best move
(kifu's first listed best move; the engine's played move), the mean signed
error, and the time; then the best moves position by position (where only
one of the two is right, which one, with an exact McNemar test of the
difference). Python 3 standard library only (scripts/nboard.py).

Usage:
  scripts/bench-eval-accuracy.py [--wthor FILE] [--count N] [--seed S]
      [--depth D] [--empties E] [--kifu PATH] [--weights FILE] [--ntest-dir DIR]
      [--engine CMD] [--no-engine] [--no-kifu] [--csv OUT] [--reuse CSV]
      [--log FILE]
Defaults: the corpus's WTH_2014.wtb (/work/shared/corpus/wthor, or
$KIFU_CORPUS/wthor); if that file is missing the newest WTH_*.wtb there,
named in the output. NTest from target/peers/ntest/run
(scripts/build-ntest.sh), `./ntest x` in that folder; kifu from
target/release/kifu. The SPEC wants the positions held by no training
input: choose --wthor accordingly once kifu's evaluation is trained.

Example:
  scripts/bench-eval-accuracy.py --count 40 --depth 8 --csv target/accuracy.csv
"""

import argparse
import csv
import io
import math
import os
import random
import statistics
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nboard  # noqa: E402
from nboard import Board, Engine, EngineError  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def default_wthor():
    corpus = os.environ.get("KIFU_CORPUS", "/work/shared/corpus")
    folder = os.path.join(corpus, "wthor")
    wanted = os.path.join(folder, "WTH_2014.wtb")
    if os.path.isfile(wanted):
        return wanted, None
    try:
        files = sorted(f for f in os.listdir(folder)
                       if f.upper().startswith("WTH_") and f.lower().endswith(".wtb"))
    except OSError:
        files = []
    if not files:
        sys.exit(f"bench-eval-accuracy.py: no WTH_2014.wtb nor any WTH_*.wtb in {folder}; "
                 "give --wthor FILE")
    chosen = os.path.join(folder, files[-1])
    return chosen, f"{wanted} is missing: using {chosen}"


def read_wthor(path):
    """The games of a WTHOR .wtb file: lists of move indices (a1 = 0)."""
    with open(path, "rb") as handle:
        data = handle.read()
    if len(data) < 16:
        sys.exit(f"bench-eval-accuracy.py: {path} is too short for a WTHOR file")
    count = int.from_bytes(data[4:8], "little")
    if data[12] not in (0, 8):
        sys.exit(f"bench-eval-accuracy.py: {path}: unsupported board size {data[12]}")
    games = []
    for n in range(min(count, (len(data) - 16) // 68)):
        record = data[16 + 68 * n: 16 + 68 * (n + 1)]
        moves = []
        for byte in record[8:68]:
            if byte == 0:
                break
            row, col = divmod(byte, 10)
            if not (1 <= row <= 8 and 1 <= col <= 8):
                moves = None
                break
            moves.append((row - 1) * 8 + col - 1)
        if moves:
            games.append(moves)
    return games


def position_at(moves, empties):
    """The board before the move played with EMPTIES squares empty (after a
    forced pass), and the moves that led there as text; None if the game
    is illegal or ends earlier."""
    board = Board()
    text = []
    for index in moves:
        if board.empties() == empties:
            break
        if not board.moves():
            if board.game_over():
                return None
            board.pass_turn()
        try:
            board.play(index)
        except ValueError:
            return None
        text.append(nboard.square_name(index))
    if board.empties() != empties or board.game_over():
        return None
    if not board.moves():
        board.pass_turn()
    return board, "".join(text)


def pick_positions(path, count, empties, seed):
    games = read_wthor(path)
    order = list(range(len(games)))
    random.Random(seed).shuffle(order)
    seen, picked = set(), []
    for number in order:
        found = position_at(games[number], empties)
        if found is None:
            continue
        board, moves = found
        key = (board.black, board.white, board.side)
        if key in seen:
            continue
        seen.add(key)
        picked.append({"game": number + 1, "moves": moves, "board": board})
        if len(picked) == count:
            break
    return picked, len(games)


def run_kifu_csv(kifu, args, positions_file):
    """Runs kifu with ARGS on the positions file; returns its CSV rows."""
    command = [kifu] + args + [positions_file]
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({proc.returncode}): "
                           f"{proc.stderr.strip()[-800:]}")
    return list(csv.DictReader(io.StringIO(proc.stdout)))


def read_reuse(path):
    """Exact values of an earlier run's --csv: position -> (value, best moves)."""
    known = {}
    with open(path, encoding="utf-8", newline="") as handle:
        for line in csv.DictReader(handle):
            if line.get("position") and line.get("exact") not in (None, ""):
                known[line["position"]] = (int(line["exact"]), moves_of(line["exact_best"]))
    return known


def kifu_has_eval(kifu):
    proc = subprocess.run([kifu, "eval", "--help"], capture_output=True, text=True)
    return proc.returncode == 0 and "--depth" in proc.stdout


def moves_of(text):
    return [m.strip().lower() for m in (text or "").split() if m.strip()]


def summary(name, rows, value_key, move_key, seconds_key):
    errors, signed, hits, with_move, seconds = [], [], 0, 0, 0.0
    for row in rows:
        value = row.get(value_key)
        if value is None:
            continue
        errors.append(abs(value - row["exact"]))
        signed.append(value - row["exact"])
        move = row.get(move_key) if move_key else None
        if move:
            with_move += 1
            hits += move in row["exact_best"]
        seconds += row.get(seconds_key) or 0.0
    if not errors:
        return None
    return {
        "name": name, "n": len(errors), "mae": statistics.mean(errors),
        "bias": statistics.mean(signed), "max": max(errors),
        "best": (100.0 * hits / with_move) if with_move else None,
        "with_move": with_move, "seconds": seconds,
    }


def paired_best_moves(rows):
    """Over the positions both the engine and kifu's search named a move
    for: (both right, only the engine right, only kifu right, neither)."""
    counts = [0, 0, 0, 0]
    for row in rows:
        engine, kifu = row.get("engine_move"), row.get("kifu_move")
        if not engine or not kifu:
            continue
        e, k = engine in row["exact_best"], kifu in row["exact_best"]
        counts[0 if e and k else 1 if e else 2 if k else 3] += 1
    return tuple(counts) if sum(counts) else None


def mcnemar_p(b, c):
    """The exact two-sided McNemar test: the chance, were either side as
    likely to be the one right where only one is, of a split of the
    b + c discordant positions at least as uneven as b to c."""
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wthor", help="WTHOR file (default: the corpus's WTH_2014.wtb)")
    parser.add_argument("--count", type=int, default=40, help="positions (default 40)")
    parser.add_argument("--empties", type=int, default=24,
                        help="empty squares of each position (default 24)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--depth", type=int, default=8, help="estimate depth (default 8)")
    parser.add_argument("--kifu", default=os.path.join(ROOT, "target/release/kifu"),
                        help="kifu binary (default target/release/kifu)")
    parser.add_argument("--weights", metavar="FILE",
                        help="kifu's estimates by these weights (kifu eval --weights; "
                             "as kifu train-eval writes them) instead of the built-in ones")
    parser.add_argument("--solve-threads", type=int,
                        help="kifu solve --threads (default: kifu's, one per core)")
    parser.add_argument("--no-kifu", action="store_true",
                        help="skip kifu's estimates (the exact values still come from kifu)")
    parser.add_argument("--engine", default="./ntest x",
                        help="NBoard engine command (default './ntest x', NTest)")
    parser.add_argument("--engine-dir", "--ntest-dir", dest="engine_dir",
                        default=os.path.join(ROOT, "target/peers/ntest/run"),
                        help="its working folder (default target/peers/ntest/run)")
    parser.add_argument("--engine-name", default="NTest")
    parser.add_argument("--no-engine", action="store_true", help="skip the NBoard engine")
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds to wait for any engine reply (default 300)")
    parser.add_argument("--csv", help="write positions and results as CSV")
    parser.add_argument("--reuse", metavar="CSV",
                        help="take exact values from an earlier run's --csv where it has "
                             "the position (solving 24 empties takes seconds each)")
    parser.add_argument("--log", help="write the NBoard protocol lines")
    args = parser.parse_args()

    if args.wthor:
        wthor, note = args.wthor, None
    else:
        wthor, note = default_wthor()
    if note:
        print(f"# {note}")
    picked, games = pick_positions(wthor, args.count, args.empties, args.seed)
    print(f"# {len(picked)} positions at {args.empties} empties from {games} "
          f"games of {wthor} (seed {args.seed}); estimates at depth {args.depth}", flush=True)
    if len(picked) < args.count:
        print(f"# only {len(picked)} games reach {args.empties} empties", flush=True)
    if not picked:
        sys.exit(1)
    if not os.access(args.kifu, os.X_OK):
        sys.exit(f"bench-eval-accuracy.py: no kifu binary at {args.kifu} "
                 "(cargo build --release, or --kifu PATH); it solves the positions")

    rows = [{"n": i + 1, "game": p["game"], "moves": p["moves"],
             "position": p["board"].text(), "board": p["board"]}
            for i, p in enumerate(picked)]
    os.makedirs(os.path.join(ROOT, "target"), exist_ok=True)
    positions_file = os.path.join(ROOT, "target", f"accuracy-positions-{os.getpid()}.txt")
    with open(positions_file, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(row["position"] + "\n")

    try:
        # Exact values: from --reuse where it has the position, else kifu solve.
        started = time.monotonic()
        known = read_reuse(args.reuse) if args.reuse else {}
        missing = [row for row in rows if row["position"] not in known]
        for row in rows:
            if row["position"] in known:
                row["exact"], row["exact_best"] = known[row["position"]]
        if missing:
            solve_file = positions_file + ".solve"
            with open(solve_file, "w", encoding="utf-8") as handle:
                for row in missing:
                    handle.write(row["position"] + "\n")
            solve_args = ["solve", "--format", "csv", "--quiet"]
            if args.solve_threads:
                solve_args += ["--threads", str(args.solve_threads)]
            try:
                solved = run_kifu_csv(args.kifu, solve_args, solve_file)
            finally:
                os.remove(solve_file)
            if len(solved) != len(missing):
                sys.exit(f"bench-eval-accuracy.py: kifu solve gave {len(solved)} rows "
                         f"for {len(missing)} positions")
            for row, line in zip(missing, solved):
                row["exact"] = int(line["value"])
                row["exact_best"] = moves_of(line["best_moves"])
        print(f"# {len(missing)} solved exactly by kifu in {time.monotonic() - started:.1f} s"
              f"{f', {len(rows) - len(missing)} taken from {args.reuse}' if args.reuse else ''}",
              flush=True)

        # kifu's estimates.
        kifu_note = None
        if args.no_kifu:
            kifu_note = "kifu's estimates skipped (--no-kifu)"
        elif not kifu_has_eval(args.kifu):
            kifu_note = (f"kifu's estimates skipped: {args.kifu} has no `eval` command "
                         "with --depth yet")
        else:
            for depth, prefix in ((args.depth, "kifu"), (0, "static")):
                weights = ["--weights", args.weights] if args.weights else []
                lines = run_kifu_csv(args.kifu, ["eval", "--depth", str(depth),
                                                 "--format", "csv"] + weights, positions_file)
                if len(lines) != len(rows):
                    sys.exit(f"bench-eval-accuracy.py: kifu eval gave {len(lines)} rows "
                             f"for {len(rows)} positions")
                for row, line in zip(rows, lines):
                    row[prefix + "_value"] = float(line["value"])
                    best = moves_of(line.get("best_moves"))
                    row[prefix + "_move"] = best[0] if best else None
                    row[prefix + "_seconds"] = float(line.get("seconds") or 0.0)
                    row[prefix + "_exact"] = line.get("exact", "")
        if kifu_note:
            print(f"# {kifu_note}", flush=True)

        # The NBoard engine's estimates.
        engine_note = None
        if args.no_engine:
            engine_note = f"{args.engine_name} skipped (--no-engine)"
        else:
            log = open(args.log, "w", encoding="utf-8") if args.log else None
            engine = None
            try:
                engine = Engine(args.engine, cwd=args.engine_dir, name=args.engine_name,
                                log=log)
                engine.send(f"set depth {args.depth}")
                engine.send("set contempt 0")
                engine.sync(args.timeout)
                for row in rows:
                    engine.send("set game " + nboard.ggf_game(
                        row["board"], [], place="bench-eval-accuracy"))
                    engine.sync(args.timeout)
                    move, value, _, seconds = engine.go(args.timeout)
                    row["engine_move"] = move.strip().lower()[:2]
                    row["engine_value"] = value if value is not None else 0.0
                    row["engine_seconds"] = seconds
            except EngineError as err:
                engine_note = f"{args.engine_name} stopped: {err}"
                if engine:
                    engine.kill()
                    engine = None
            finally:
                if engine:
                    engine.close()
                if log:
                    log.close()
        if engine_note:
            print(f"# {engine_note}", flush=True)
    finally:
        os.remove(positions_file)

    results = []
    for name, prefix in ((f"{args.engine_name} d{args.depth}", "engine"),
                         (f"kifu d{args.depth}", "kifu"), ("kifu static", "static")):
        s = summary(name, rows, prefix + "_value", prefix + "_move", prefix + "_seconds")
        if s:
            results.append(s)
    print()
    print(f"{'estimator':<16} {'positions':>9} {'MAE discs':>9} {'best move':>9} "
          f"{'bias':>7} {'max err':>7} {'seconds':>8}")
    for s in results:
        best = f"{s['best']:.0f} %" if s["best"] is not None else "-"
        print(f"{s['name']:<16} {s['n']:>9} {s['mae']:>9.2f} {best:>9} "
              f"{s['bias']:>+7.2f} {s['max']:>7.1f} {s['seconds']:>8.2f}")
    if not results:
        print("(no estimates)")
    paired = paired_best_moves(rows)
    if paired:
        both, only_engine, only_kifu, neither = paired
        print(f"\nbest move, position by position: both right {both}, only "
              f"{args.engine_name} {only_engine}, only kifu {only_kifu}, neither {neither}; "
              f"two-sided exact McNemar p = {mcnemar_p(only_engine, only_kifu):.3f}")

    if args.csv:
        fields = ["n", "game", "moves", "position", "empties", "exact", "exact_best",
                  "engine_value", "engine_move", "engine_seconds",
                  "kifu_value", "kifu_move", "kifu_seconds",
                  "static_value", "static_move"]
        with open(args.csv, "w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(fields)
            for row in rows:
                out = dict(row)
                out["empties"] = args.empties
                out["exact_best"] = " ".join(row.get("exact_best", []))
                writer.writerow(["" if out.get(f) is None else out.get(f) for f in fields])
        print(f"positions and results written to {args.csv}")


if __name__ == "__main__":
    main()
