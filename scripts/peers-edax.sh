#!/usr/bin/env bash
# kifu against Edax (github.com/abulmo/edax-reversi), the SPEC's other peer:
# Edax's "base convert big.wtb out.txt" turns WTHOR into its text format, one
# game a line of moves (upper case, no names), the same lines as kifu's
# `convert --to transcript` but for the letter case. Both convert big.wtb
# (scripts/bench-data.sh) RUNS times each, alternately; prints every run, the
# medians and the ratios (wall time and CPU time), and checks that the two
# outputs hold the same games.
# Usage: EDAX=path/to/lEdax-x86-64-v3 scripts/peers-edax.sh [RUNS]
#   (default 3 runs; KIFU=path times another kifu; EDAX_EVAL=path gives Edax
#   a real data/eval.dat instead of the all-zero one made here, which Edax
#   needs only to start: converting never evaluates a position)
# Building Edax (Linux x86-64, gcc; no eval.dat needed for this script):
#   git clone https://github.com/abulmo/edax-reversi && cd edax-reversi/src
#   mkdir -p ../bin && make build CC=gcc ARCH=x86-64-v3 OS=linux
#   then EDAX=$PWD/../bin/lEdax-x86-64-v3
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
kifu="${KIFU:-target/release/kifu}"
edax="${EDAX:-}"
if [ -z "$edax" ] || [ ! -x "$edax" ] || [ -d "$edax" ]; then
  echo "peers-edax.sh: set EDAX to an Edax binary (EDAX=${edax:-<unset>} is not an executable file)." >&2
  echo "Build Edax with gcc: git clone https://github.com/abulmo/edax-reversi," >&2
  echo "  cd edax-reversi/src && mkdir -p ../bin && make build CC=gcc ARCH=x86-64-v3 OS=linux" >&2
  echo "  (ARCH=x86-64-v2 or x86-64 on older CPUs), then EDAX=\$PWD/../bin/lEdax-x86-64-v3 $0" >&2
  exit 2
fi
data=target/bench-data
peers=target/peers
scripts/bench-data.sh >/dev/null
mkdir -p "$peers"
# Edax reads its commands as words split at spaces: absolute paths, no spaces.
root=$(pwd -P)
case "$root" in *[[:space:]]*)
  echo "peers-edax.sh: Edax cannot take paths with spaces: $root" >&2
  exit 2
  ;;
esac

# Edax will not start without an evaluation file: 28 header bytes ("XADE",
# "LAVE", version 4.4.0, date 0) and 61 plies of 114,364 weights, all zero.
eval_file="${EDAX_EVAL:-$peers/edax-eval.dat}"
if [ -z "${EDAX_EVAL:-}" ] && [ "$(stat -c %s "$eval_file" 2>/dev/null || echo 0)" != 13952436 ]; then
  {
    printf 'XADELAVE\004\000\000\000\004\000\000\000\000\000\000\000'
    head -c $((8 + 61 * 114364 * 2)) /dev/zero
  } >"$eval_file"
fi
# The whole session: the command, then end of input (a "quit" line would
# cancel the queued command). Edax ends by printing statistics; stdout is
# dropped. -book-file /dev/null: no opening book is read or written;
# -l 1: the empty book Edax then makes costs no search; -n 1: one thread.
echo "base convert $root/$data/big.wtb $root/$peers/edax.txt" >"$peers/edax-commands"
edax_args=(-eval-file "$eval_file" -book-file /dev/null -l 1 -n 1)

games=$(($(stat -L -c %s "$data/big.wtb") / 68)) # 16 header bytes: rounds down
times=$peers/edax-times
# shellcheck source=scripts/peer-timing.sh
. scripts/peer-timing.sh
for _ in $(seq "$runs"); do
  # Each run from no output, the last run's written back to disk first
  # (freeing its pages would fall into this run's time); Edax also adds
  # the games to an existing output file.
  rm -f "$peers/kifu.txt" "$peers/edax.txt"
  sync
  time_run kifu "$kifu" convert "$data/big.wtb" --to transcript -o "$peers/kifu.txt"
  rm -f "$peers/edax.txt"
  sync
  time_run edax "$edax" "${edax_args[@]}" <"$peers/edax-commands"
done
if [ ! -s "$peers/edax.txt" ]; then
  echo "peers-edax.sh: Edax wrote no $peers/edax.txt; try by hand:" >&2
  echo "  $edax ${edax_args[*]} <$peers/edax-commands" >&2
  exit 1
fi
echo "games: kifu $(wc -l <"$peers/kifu.txt"), edax $(wc -l <"$peers/edax.txt"), big.wtb $games"
if tr a-h A-H <"$peers/kifu.txt" | cmp -s - "$peers/edax.txt"; then
  echo "outputs: the same games, move for move (Edax writes upper case)"
else
  echo "outputs: DIFFER beyond letter case; first difference:"
  tr a-h A-H <"$peers/kifu.txt" | cmp - "$peers/edax.txt" || true
fi
ratios edax Edax
rm -f "$peers/kifu.txt" "$peers/edax.txt"
