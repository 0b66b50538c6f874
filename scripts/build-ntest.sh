#!/usr/bin/env bash
# Builds NTest (Chris Welty's Othello engine, github.com/weltyc/ntest, GPLv3),
# the SPEC's strength peer (section 12), outside the project, from a snapshot
# of its repository, and makes a run folder in which `./ntest x` speaks the
# NBoard protocol (scripts/nboard-match.py, scripts/bench-eval-accuracy.py).
# Nothing of NTest is committed to kifu: not its code, not its coefficients
# (they come with its repository, src/resource/coefficients), not the build.
# Usage: scripts/build-ntest.sh SNAPSHOT [OUT]
#   SNAPSHOT: a checkout of NTest (a folder holding src/CMakeLists.txt), or
#     a git directory of it (bare, or a work tree's .git): for example
#       git clone https://github.com/weltyc/ntest /work/peers/ntest-src
#     (built and measured at commit b2dd603, 2021).
#   OUT (default target/peers/ntest): OUT/src is the source, OUT/build the
#     CMake build, OUT/run the run folder: ntest, parameters.txt,
#     coefficients/, resource/solver*.txt and TestGames.ggf (NTest runs
#     self-tests on it at every start and crashes without it); OUT/run-clock
#     the same folder for play against the clock (below). Prints the run
#     folder's path last.
# Needs cmake, make, g++ (Debian: apt-get install cmake g++ make) and an
# x86-64 CPU with SSE4.2 (NTest builds with -msse4.2). NICE (default 10)
# and JOBS (default 1) set the compiler's niceness and parallelism.
# In the run folder, parameters.txt's first engine line gets book flag 0:
# NTest then neither reads nor writes an opening book, so every game and
# every estimate comes from its search alone and runs repeat exactly
# (NTEST_BOOK=1 keeps NTest's own parameters.txt, which learns a book in
# coefficients/ as it plays).
# Under NBoard, `set depth N` keeps the search kind of parameters.txt's line
# 2 and gives it N: in run/ that is "s" (a selective search to depth N;
# NTest then ignores the clock), in run-clock/ it is "m" (match time: NTest
# spends the time left on its GGF clock, TI[] in `set game` less the times
# sent with each `move`, and N only sets an unused match length), which is
# how scripts/nboard-match.py --move-time/--clock plays it.
# NTest's quirks under NBoard (the scripts work around them):
#   - in a GGF board (BO[8 ...]) it reads '*' as black, 'O' as white; an
#     'X' for black is misread;
#   - any input during a search aborts the search: send the next command
#     only after the reply (=== for go, status for hint, pong for ping);
#   - `hint` before a `go` that follows `set depth` crashes it;
#   - at the end of a game it does not give the empty squares to the winner.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
snapshot=$1
out=${2:-target/peers/ntest}
nice_level=${NICE:-10}
jobs=${JOBS:-1}
for tool in cmake make g++; do
  if ! command -v "$tool" >/dev/null; then
    echo "build-ntest.sh: $tool is missing (Debian: apt-get update && apt-get install cmake g++ make)" >&2
    exit 2
  fi
done
if ! grep -q sse4_2 /proc/cpuinfo 2>/dev/null; then
  echo "build-ntest.sh: warning: this CPU does not report SSE4.2; NTest's build asks for it" >&2
fi

mkdir -p "$out"
out=$(cd "$out" && pwd -P)
# The source: copied from a checkout, or checked out of a git directory.
rm -rf "$out/src.new"
mkdir -p "$out/src.new"
if [ -f "$snapshot/src/CMakeLists.txt" ]; then
  (cd "$snapshot" && tar --exclude=.git --exclude=./build --exclude=./run -cf - .) | tar -xf - -C "$out/src.new"
elif git --git-dir="$snapshot" rev-parse --verify -q HEAD >/dev/null 2>&1; then
  git --git-dir="$snapshot" --work-tree="$out/src.new" checkout -f HEAD -- .
  git --git-dir="$snapshot" rev-parse HEAD >"$out/src.new/COMMIT"
elif git --git-dir="$snapshot/.git" rev-parse --verify -q HEAD >/dev/null 2>&1; then
  git --git-dir="$snapshot/.git" --work-tree="$out/src.new" checkout -f HEAD -- .
  git --git-dir="$snapshot/.git" rev-parse HEAD >"$out/src.new/COMMIT"
else
  echo "build-ntest.sh: $snapshot is neither an NTest checkout (src/CMakeLists.txt) nor a git directory" >&2
  rm -rf "$out/src.new"
  exit 2
fi
if [ ! -f "$out/src.new/src/CMakeLists.txt" ] || [ ! -d "$out/src.new/src/resource/coefficients" ]; then
  echo "build-ntest.sh: $snapshot does not look like NTest (no src/CMakeLists.txt or src/resource/coefficients)" >&2
  rm -rf "$out/src.new"
  exit 2
fi
# The same source as last time: keep the old tree (and the build's up-to-date
# objects with it).
if [ -d "$out/src" ] && diff -rq "$out/src" "$out/src.new" >/dev/null 2>&1; then
  rm -rf "$out/src.new"
else
  rm -rf "$out/src"
  mv "$out/src.new" "$out/src"
fi

# The build: NTest's own CMake files, release flags; only the ntest target
# (its tests and randomEvalGen are not needed).
mkdir -p "$out/build"
(
  cd "$out/build"
  nice -n "$nice_level" cmake -DCMAKE_BUILD_TYPE=Release "$out/src/src" >cmake.log 2>&1 ||
    { tail -20 cmake.log >&2; exit 1; }
  nice -n "$nice_level" make -j"$jobs" ntest >make.log 2>&1 ||
    { tail -30 make.log >&2; exit 1; }
)

# The run folder: what `ntest x` reads at start.
run="$out/run"
mkdir -p "$run"
cp "$out/build/ntest" "$run/ntest"
cp "$out/src/src/resource/parameters.txt" "$run/parameters.txt"
cp "$out/src/src/resource/TestGames.ggf" "$run/TestGames.ggf"
rm -rf "$run/coefficients" "$run/resource"
cp -r "$out/src/src/resource/coefficients" "$run/coefficients"
cp -r "$out/src/src/resource/resource" "$run/resource"
if [ "${NTEST_BOOK:-0}" != 1 ]; then
  # Line 2 (the engine `ntest x` plays with): "set tag search blackDraw
  # whiteDraw blackRand whiteRand book negamax display..." — book flag 0.
  awk 'NR == 2 { $7 = 0 } { print }' "$run/parameters.txt" >"$run/parameters.txt.new"
  mv "$run/parameters.txt.new" "$run/parameters.txt"
fi

# The clock folder: the same files, line 2's search kind "m" (match time).
clock="$out/run-clock"
rm -rf "$clock"
mkdir -p "$clock"
for item in ntest coefficients resource TestGames.ggf; do
  ln -s "../run/$item" "$clock/$item"
done
awk 'NR == 2 { $2 = "m30" } { print }' "$run/parameters.txt" >"$clock/parameters.txt"

# A smoke test: the start position at depth 4 must give a move. Standard
# input stays open until the reply: its end reads as "quit" to NTest, which
# also aborts a search under way.
smoke="$out/smoke.out"
rm -f "$smoke"
(
  cd "$run"
  {
    printf 'nboard 2\nset depth 4\nset game (;GM[Othello]PC[kifu]PB[a]PW[b]RE[?]TI[0]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)\ngo\n'
    for _ in $(seq 600); do
      grep -q '^===' "$smoke" 2>/dev/null && break
      sleep 0.1
    done
    printf 'quit\n'
  } | timeout 90 ./ntest x >"$smoke" 2>&1 || true
)
reply=$(grep -m1 '^===' "$smoke" || true)
case "$reply" in
  "=== "[CDEFcdef][3456]*) ;;
  *)
    echo "build-ntest.sh: the built NTest did not answer 'go' (got: ${reply:-nothing}; its output: $smoke); try: cd $run && ./ntest x" >&2
    exit 1
    ;;
esac
echo "NTest built: $run (start: cd $run && ./ntest x; first reply: $reply)"
echo "$run"
