#!/usr/bin/env python3
"""Plays two NBoard engines against each other (SPEC section 12, "Strength").

Each opening is played twice, each engine having Black once. Either fixed
depth (`set depth N` to each engine) or equal time: a game clock for each
side in NBoard's GGF (TI[]), every move sent with its time (`move F5//1.23`)
so the engine's clock runs, and a large `set depth` so the clock decides.
Python 3 standard library only (scripts/nboard.py beside it).

Usage:
  scripts/nboard-match.py --engine1 'CMD' [--dir1 DIR] --engine2 'CMD' [--dir2 DIR]
      [--depth N | --depth1 N --depth2 N] [--move-time S | --clock S [--increment S]]
      [--openings FILE [--plies N] [--sample K [--seed S]]] [--first K]
      [--games-out FILE] [--csv FILE] [--log FILE]

Examples (NTest built by scripts/build-ntest.sh into target/peers/ntest):
  # NTest against itself at depth 2 and 4, four openings (eight games)
  scripts/nboard-match.py --engine1 ./ntest --dir1 target/peers/ntest/run \\
      --engine2 ./ntest --dir2 target/peers/ntest/run --depth1 2 --depth2 4 --first 4
  # kifu against NTest at equal depth, then at 2 s a move on average
  scripts/nboard-match.py --engine1 'target/release/kifu engine' --name1 kifu \\
      --engine2 ./ntest --dir2 target/peers/ntest/run --depth 8
  # (at equal time kifu on one thread, as NTest: `kifu engine -j 1`)
  scripts/nboard-match.py --engine1 'target/release/kifu engine -j 1' --name1 kifu \\
      --engine2 ./ntest --dir2 target/peers/ntest/run-clock --move-time 2
  (NTest follows the clock only from run-clock/, whose parameters.txt gives
  it match-time search; from run/ it searches to `set depth` whatever the
  clock says.)

Openings: by default the built-in list below: the named lines of 8 to 12
plies in the project's openings list (/work/shared/openings.tsv: Zebra's,
Gatliff's, NBoard's, Edax's and Egaroucid's names) that NTest (no book,
build-ntest.sh's run folder) rates within 2 discs of even at depth 20: 23
lines, 46 games; made with --rate-openings. --openings FILE takes one
opening a line (moves concatenated, `f5d6c3...`, optionally after a name
and a tab; a TSV with a `moves` column is read by that column); lines
starting with # are skipped. --plies N cuts each to its first N plies,
dropping shorter ones and repeats, so a transcript file of real games
gives many openings: 300 games from 150 openings of WTH_2014, as
docs/analysis.md measured,

  target/release/kifu convert WTH_2014.wtb -o games.txt
  scripts/nboard-match.py --openings games.txt --plies 10 --sample 150 \
      --seed 5 --depth 8 --fresh --engine1 ... --engine2 ...

Every move is checked legal by the script's own move generator; passes are
played by the script (`move PA` to both engines), never asked for. A game
ends as a loss for an engine that dies, does not answer within the timeout
(--timeout, or its clock plus --grace in clock mode) or plays an illegal
move; the reason is printed, the game is scored 64-0 against it, and the
engine is restarted for the next game (--fresh: both engines before every
game, so that no hash table carries over and NTest's games repeat). Scores give the empty squares to the
winner. The result table gives wins/draws/losses, score % (a draw is half),
mean disc difference, per colour.
"""

import argparse
import csv
import os
import random
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nboard  # noqa: E402
from nboard import BLACK, WHITE, Board, Engine, EngineError  # noqa: E402

# (name, moves, NTest's depth-20 value for Black, in discs): the lines of
# 8-12 plies of /work/shared/openings.tsv that NTest (commit b2dd603, no
# book) rates within 2 discs of even, in that file's order. Made with:
#   awk -F'\t' 'NR>1 && length($2)>=16 && length($2)<=24 {print $1"\t"$2}' \
#     /work/shared/openings.tsv >candidates.tsv
#   scripts/nboard-match.py --engine1 ./ntest --dir1 target/peers/ntest/run \
#     --depth1 20 --openings candidates.tsv --rate-openings
# (33 candidates; 10 rated beyond 2 discs, all for White, were left out.)
BUILTIN_OPENINGS = [
    ('Aubrey (Feldborg continuation)', "f5d6c3d3c4b3d2f4", -0.25),
    ('Rose-Bill', "f5d6c3d3c4f4c5b3c2", -1.69),
    ('Tamenori', "f5d6c3d3c4f4c5b3c2e6", -1.31),
    ('Grand Central', "f5d6c3d3c4f4c5b4", +0.02),
    ('Kung', "f5d6c3d3c4f4f6b4", +0.62),
    ("Comp'Oth", "f5d6c3d3c4f4f6f3", -1.18),
    ('Lightning bolt', "f5d6c3d3c4f4f6f3e3", -1.77),
    ('Scorpion', "f5d6c3d3c4f4f6f3e6e7", -1.41),
    ('Scorpion (New)', "f5d6c3d3c4f4f6f3e6e7d7", -1.19),
    ('Scorpion (Classic)', "f5d6c3d3c4f4f6f3e6e7f7", -1.27),
    ('No-Kung', "f5d6c3d3c4f4f6g5", -0.70),
    ('No-Cat (Continuation)', "f5d6c4g5c6c5d7d3b4c3e3f3", -0.99),
    ('Ralle', "f5d6c5f4e3c6d3f3", -0.28),
    ('Rotating Flat', "f5d6c5f4e3c6d3f6e6d7g4c4", -1.98),
    ('8-Shot', "f5d6c5f4e3c6d3g5", -0.81),
    ('Tanida Buffalo', "f5f6e6f4c3d6f3c4c5b4", -1.65),
    ('Landau', "f5f6e6f4e3c5c4d3c3", -0.09),
    ('Maruoka', "f5f6e6f4e3c5c4d3f3e2", +0.08),
    ('Tanida', "f5f6e6f4e3c5c4e7", +0.27),
    ('Sailboat', "f5f6e6f4e3c5c4e7b5e2", -1.40),
    ('Bat (Kling Alternative)', "f5f6e6f4e3c5g5d6g6", -0.36),
    ('Bat (Piau Continuation 2)', "f5f6e6f4e3c5g5g3g4f3g6", -1.70),
    ('Pyramid', "f5f6e6f4g6c5g4g5f3e3c4", -1.51),
]


def read_openings(path):
    out = []
    with open(path, encoding="utf-8") as handle:
        rows = [line.rstrip("\n") for line in handle]
    header = rows[0].split("\t") if rows else []
    moves_col = header.index("moves") if "moves" in header else None
    name_col = header.index("name") if "name" in header else None
    if moves_col is not None:
        rows = rows[1:]
    for number, line in enumerate(rows, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split("\t")
        if moves_col is not None:
            moves = fields[moves_col].strip()
            name = fields[name_col].strip() if name_col is not None else moves
        elif len(fields) >= 2:
            name, moves = fields[0].strip(), fields[1].strip()
        else:
            moves = fields[0].strip()
            name = moves
        out.append((name, moves.lower()))
    return out


def cut_openings(openings, plies):
    """Each opening's first PLIES plies (two characters each), in order,
    without the ones shorter than that or seen before; an opening named by
    its moves is named by the cut moves."""
    out, seen = [], set()
    for name, moves in openings:
        cut = moves[:2 * plies]
        if len(cut) < 2 * plies or cut in seen:
            continue
        seen.add(cut)
        out.append((cut if name.lower() == moves else name, cut))
    return out


class Side:
    """One engine of the match and its settings."""

    def __init__(self, label, command, cwd, name, depth, log):
        self.label = label
        self.command = command
        self.cwd = cwd
        self.name = name
        self.depth = depth
        self.log = log
        self.engine = None

    def ensure(self, start_timeout):
        if self.engine is None:
            self.engine = Engine(self.command, cwd=self.cwd, name=self.name,
                                 log=self.log, start_timeout=start_timeout)
            self.engine.send(f"set depth {self.depth}")
            self.engine.send("set contempt 0")
            self.engine.sync(start_timeout)
        return self.engine

    def restart(self):
        if self.engine is not None:
            self.engine.kill()
            self.engine = None

    def close(self):
        if self.engine is not None:
            self.engine.close()
            self.engine = None


def play_game(black, white, opening_moves, args):
    """Plays one game. Returns a dict: diff (Black's, empties to the winner),
    moves (text), forfeit (label of the side at fault or None), reason,
    seconds per colour, moves per colour, over-clock flags."""
    start = Board()
    board, played = nboard.replay(opening_moves)
    sides = {BLACK: black, WHITE: white}
    seconds = {BLACK: 0.0, WHITE: 0.0}
    counts = {BLACK: 0, WHITE: 0}
    clock = None
    if args.clock:
        clock = nboard.ggf_clock(args.clock, args.increment)
    remaining = {BLACK: float(args.clock or 0), WHITE: float(args.clock or 0)}
    over = {BLACK: False, WHITE: False}
    result = {"forfeit": None, "reason": ""}
    colour_at_fault = None
    try:
        for colour in (BLACK, WHITE):
            colour_at_fault = colour
            engine = sides[colour].ensure(args.start_timeout)
            engine.send("set game " + nboard.ggf_game(
                start, played, black.name, white.name, clock, place="nboard-match"))
            engine.sync(args.timeout)
        while not board.game_over():
            colour = board.side
            if not board.moves():
                board.pass_turn()
                played.append(None)
                for c in (BLACK, WHITE):
                    colour_at_fault = c
                    sides[c].engine.send("move PA")
                continue
            colour_at_fault = colour
            engine = sides[colour].engine
            if args.clock:
                timeout = max(remaining[colour], 0) + args.grace + 30
            else:
                timeout = args.timeout
            move, value, _, spent = engine.go(timeout)
            seconds[colour] += spent
            counts[colour] += 1
            if args.clock:
                remaining[colour] -= spent
                if remaining[colour] < -args.grace:
                    over[colour] = True
                    if args.forfeit_on_time:
                        raise EngineError(f"{sides[colour].name}: out of time "
                                          f"({-remaining[colour]:.1f} s over its clock)")
                remaining[colour] += args.increment
            try:
                index = nboard.square_index(move)
                board.play(index)
            except ValueError:
                legal = " ".join(sorted(nboard.square_name(i) for i in board.move_list()))
                raise EngineError(f"{sides[colour].name}: illegal move {move!r} at move "
                                  f"{len(played) + 1} (legal: {legal})") from None
            played.append(index)
            for c in (BLACK, WHITE):
                colour_at_fault = c
                sides[c].engine.send(f"move {move.upper()}//{spent:.2f}")
        diff = board.final_black_diff()
    except EngineError as err:
        result["forfeit"] = sides[colour_at_fault].label
        result["reason"] = str(err)
        sides[colour_at_fault].restart()
        diff = -64 if colour_at_fault == BLACK else 64
    result.update({
        "diff": diff,
        "moves": "".join(nboard.square_name(i) for i in played if i is not None),
        "seconds": seconds, "counts": counts, "over": over,
    })
    return result


class Tally:
    def __init__(self):
        self.rows = {}

    def add(self, key, diff):
        row = self.rows.setdefault(key, [0, 0, 0, 0, 0])  # games, w, d, l, sum diff
        row[0] += 1
        row[1 if diff > 0 else 2 if diff == 0 else 3] += 1
        row[4] += diff

    def line(self, key, title):
        games, wins, draws, losses, total = self.rows.get(key, [0, 0, 0, 0, 0])
        if games == 0:
            return f"{title:<26} {0:>5}"
        score = 100.0 * (wins + draws / 2) / games
        return (f"{title:<26} {games:>5} {wins:>5} {draws:>5} {losses:>5} "
                f"{score:>7.1f} {total / games:>+8.2f}")


def rate_openings(args, openings):
    """Prints each opening with engine1's value at --depth1, the side to move's."""
    side = Side("1", args.engine1, args.dir1, args.name1, args.depth1, args.log_handle)
    engine = side.ensure(args.start_timeout)
    print("name\tmoves\tplies\tvalue_black")
    for name, moves in openings:
        board, played = nboard.replay(moves)
        engine.send("set game " + nboard.ggf_game(Board(), played, place="nboard-match"))
        engine.sync(args.timeout)
        _, value, _, _ = engine.go(args.timeout)
        value = 0.0 if value is None else value
        black_value = value if board.side == BLACK else -value
        print(f"{name}\t{moves}\t{len(played)}\t{black_value:+.2f}", flush=True)
    side.close()


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine1", required=True, help="first engine's command line")
    parser.add_argument("--dir1", help="its working folder (default: this one)")
    parser.add_argument("--name1", help="its name in the table (default: from the command)")
    parser.add_argument("--engine2", help="second engine's command line")
    parser.add_argument("--dir2")
    parser.add_argument("--name2")
    parser.add_argument("--depth", type=int, help="`set depth` for both engines")
    parser.add_argument("--depth1", type=int)
    parser.add_argument("--depth2", type=int)
    parser.add_argument("--clock", type=float, default=0.0,
                        help="equal time: seconds on each side's game clock (GGF TI[])")
    parser.add_argument("--increment", type=float, default=0.0,
                        help="seconds added to a side's clock after each of its moves")
    parser.add_argument("--move-time", type=float,
                        help="equal time, S seconds a move on average: --clock 30*S")
    parser.add_argument("--grace", type=float, default=5.0,
                        help="seconds over its clock before a side counts as over time")
    parser.add_argument("--forfeit-on-time", action="store_true",
                        help="a side over its clock by more than --grace loses the game")
    parser.add_argument("--openings", help="openings file (default: the built-in list)")
    parser.add_argument("--first", type=int, help="only the first K openings")
    parser.add_argument("--plies", type=int,
                        help="cut every opening to its first N plies (shorter ones and "
                             "repeats dropped): a file of whole games gives openings")
    parser.add_argument("--sample", type=int, metavar="K",
                        help="K openings drawn at random (with --seed) after --plies")
    parser.add_argument("--seed", type=int, default=1,
                        help="random seed for --sample (default 1)")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds to wait for any reply at fixed depth (default 600)")
    parser.add_argument("--start-timeout", type=float, default=120.0,
                        help="seconds for an engine to start and answer ping (default 120)")
    parser.add_argument("--games-out", help="write the games as a transcript file, "
                                            "one game a line (finished games only)")
    parser.add_argument("--csv", help="write one CSV row a game")
    parser.add_argument("--log", help="write every protocol line (both ways, timed)")
    parser.add_argument("--rate-openings", action="store_true",
                        help="print engine1's value (Black's view) of each opening at "
                             "--depth1 instead of playing; the built-in list was made so")
    parser.add_argument("--fresh", action="store_true",
                        help="restart both engines before every game (no hash table or "
                             "other state carried from game to game: NTest's games then "
                             "repeat exactly)")
    parser.add_argument("--quiet", action="store_true", help="no line per game")
    args = parser.parse_args()

    if args.move_time:
        args.clock = 30 * args.move_time
    if args.clock:
        default_depth = 60  # large: the clock decides
    else:
        default_depth = None
    args.depth1 = args.depth1 or args.depth or default_depth
    args.depth2 = args.depth2 or args.depth or default_depth
    if args.depth1 is None or (args.depth2 is None and not args.rate_openings):
        parser.error("give --depth (or --depth1 and --depth2), or a clock "
                     "(--move-time or --clock)")
    if not args.engine2 and not args.rate_openings:
        parser.error("--engine2 is required (except with --rate-openings)")
    args.engine2 = args.engine2 or "-"
    for label in ("1", "2"):
        command = getattr(args, "engine" + label)
        if not getattr(args, "name" + label):
            setattr(args, "name" + label,
                    os.path.basename(command.split()[0]) + "#" + label)
    if args.name1 == args.name2:
        args.name1 += "#1"
        args.name2 += "#2"
    args.log_handle = open(args.log, "w", encoding="utf-8") if args.log else None

    if args.openings:
        openings = read_openings(args.openings)
        source = args.openings
    else:
        openings = [(name, moves) for name, moves, _ in BUILTIN_OPENINGS]
        source = "the built-in list"
    if args.plies is not None:
        openings = cut_openings(openings, args.plies)
    if args.sample is not None:
        random.Random(args.seed).shuffle(openings)
        openings = openings[:args.sample]
    if args.first:
        openings = openings[:args.first]
    for name, moves in openings:
        try:
            board, _ = nboard.replay(moves)
        except ValueError as err:
            sys.exit(f"nboard-match.py: opening {name!r} ({moves}): {err}")
        if board.game_over():
            sys.exit(f"nboard-match.py: opening {name!r} ends the game")
    if not openings:
        sys.exit("nboard-match.py: no openings")

    if args.rate_openings:
        rate_openings(args, openings)
        return

    one = Side("1", args.engine1, args.dir1, args.name1, args.depth1, args.log_handle)
    two = Side("2", args.engine2, args.dir2, args.name2, args.depth2, args.log_handle)
    mode = (f"clock {nboard.ggf_clock(args.clock, args.increment)} a side "
            f"(set depth {args.depth1}/{args.depth2})" if args.clock
            else f"depth {args.depth1} vs {args.depth2}")
    print(f"# {one.name} vs {two.name}: {len(openings)} openings from {source}, "
          f"both colours, {mode}", flush=True)

    tally = Tally()
    games_out = open(args.games_out, "w", encoding="utf-8") if args.games_out else None
    csv_out = None
    if args.csv:
        csv_handle = open(args.csv, "w", encoding="utf-8", newline="")
        csv_out = csv.writer(csv_handle)
        csv_out.writerow(["game", "opening", "black", "white", "black_diff", "forfeit",
                          "reason", "black_seconds", "white_seconds", "black_moves",
                          "white_moves", "black_over_clock", "white_over_clock", "moves"])
    time_used = {"1": [0.0, 0], "2": [0.0, 0]}
    over_clock = {"1": 0, "2": 0}
    forfeits = {"1": 0, "2": 0}
    pair_points = []
    number = 0
    started = time.monotonic()
    try:
        for name, moves in openings:
            points = 0.0
            for black, white in ((one, two), (two, one)):
                number += 1
                if args.fresh:
                    one.close()
                    two.close()
                game = play_game(black, white, moves, args)
                diff = game["diff"]
                # From engine 1's view.
                diff1 = diff if black is one else -diff
                tally.add(("1", "all"), diff1)
                tally.add(("1", "black" if black is one else "white"), diff1)
                points += 1.0 if diff1 > 0 else 0.5 if diff1 == 0 else 0.0
                for colour, side in ((BLACK, black), (WHITE, white)):
                    time_used[side.label][0] += game["seconds"][colour]
                    time_used[side.label][1] += game["counts"][colour]
                    over_clock[side.label] += game["over"][colour]
                if game["forfeit"]:
                    forfeits[game["forfeit"]] += 1
                if not args.quiet:
                    b, w = (32 + diff // 2, 32 - diff // 2)
                    note = f"  LOSS BY {game['reason']}" if game["forfeit"] else ""
                    print(f"game {number:>3} {name[:28]:<28} {black.name} (B) {b:>2}-{w:<2} "
                          f"{white.name} (W){note}", flush=True)
                if games_out and not game["forfeit"]:
                    games_out.write(game["moves"] + "\n")
                    games_out.flush()
                if csv_out:
                    csv_out.writerow([
                        number, name, black.name, white.name, diff,
                        {"1": one.name, "2": two.name}.get(game["forfeit"], ""),
                        game["reason"], f"{game['seconds'][BLACK]:.2f}",
                        f"{game['seconds'][WHITE]:.2f}", game["counts"][BLACK],
                        game["counts"][WHITE], int(game["over"][BLACK]),
                        int(game["over"][WHITE]), game["moves"]])
                    csv_handle.flush()
            pair_points.append(points)
    finally:
        one.close()
        two.close()
        if games_out:
            games_out.close()
        if csv_out:
            csv_handle.close()

    elapsed = time.monotonic() - started
    print()
    print(f"Results for {one.name} against {two.name} ({mode}, {number} games, "
          f"{elapsed:.0f} s):")
    print(f"{'':<26} {'games':>5} {'wins':>5} {'draws':>5} {'losses':>5} "
          f"{'score%':>7} {'discs':>8}")
    print(tally.line(("1", "all"), f"{one.name} (all)"))
    print(tally.line(("1", "black"), f"{one.name} as Black"))
    print(tally.line(("1", "white"), f"{one.name} as White"))
    won = sum(1 for p in pair_points if p > 1)
    lost = sum(1 for p in pair_points if p < 1)
    print(f"opening pairs (both colours): {one.name} ahead {won}, even "
          f"{len(pair_points) - won - lost}, behind {lost}")
    for label, side in (("1", one), ("2", two)):
        total, moves = time_used[label]
        per_move = total / moves if moves else 0.0
        extra = f", over its clock in {over_clock[label]} games" if args.clock else ""
        print(f"{side.name}: {moves} moves, {total:.1f} s, {per_move:.3f} s a move"
              f"{extra}, forfeits {forfeits[label]}")
    if args.games_out:
        print(f"games written to {args.games_out}")


if __name__ == "__main__":
    main()
