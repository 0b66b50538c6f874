#!/usr/bin/env bash
# The exact solver timed on Edax's FFO problems and on real games, beside
# Edax where EDAX names its binary. Prints wall and CPU seconds of each run.
#
#   scripts/bench-solve.sh [SETS]      SETS: any of 1-19 20-39 40-49 40-59 games
#                                      theory (default: 1-19 20-39 games theory)
#
# - ffo N-M: kifu solve --one-best (a value and a best move, as Edax's -solve
#   gives) on one thread, and Edax -n 1 -l 60 -solve on the same file; 40-59
#   also on every core.
# - games: kifu analyze of WTH_1984.wtb (587 games) from 20 empties (every move's value,
#   loss and best moves) on every core, games/s.
# - theory: kifu validate --theoretical of WTH_1977.wtb (12 games re-solved
#   from 24 empties) on every core, games/s.
#
# EDAX=path/to/lEdax-x86-64-v3 EDAX_EVAL=path/to/eval.dat adds Edax. Edax is
# built outside this project (see scripts/peers-edax.sh for the build line);
# its eval.dat cannot be downloaded here: an all-zero file of the layout its
# eval_open reads (two magic words, three u32 versions, a double date, 61
# plies of 114,364 int16 weights) lets it start, and then its move ordering
# above about 15 empties is weakened: say so beside every ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${KIFU_CORPUS:-../shared/corpus}"
obf="$corpus/positions/obf"
sets=("$@")
[ ${#sets[@]} -eq 0 ] && sets=(1-19 20-39 games theory)
cargo build --release --quiet
kifu="$(realpath "${KIFU:-target/release/kifu}")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

timed() { # label, command…: wall and CPU seconds
  local label="$1"
  shift
  /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err" || true
  read -r wall user sys <"$tmp/time"
  printf '%-44s wall %8.2f s  cpu %8.2f s\n' "$label" "$wall" "$(echo "$user + $sys" | bc)"
}

ffo_file() { # 1-19 20-39 40-49 40-59 → the file (40-49: the first ten of 40-59)
  case "$1" in
    40-49) head -n 10 "$obf/fforum-40-59.obf" >"$tmp/40-49.obf"; echo "$tmp/40-49.obf" ;;
    *) echo "$obf/fforum-$1.obf" ;;
  esac
}

echo "$("$kifu" --version), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
for set in "${sets[@]}"; do
  case "$set" in
    games)
      file="$corpus/wthor/WTH_1984.wtb"
      timed "kifu analyze WTH_1984 --empties 20" "$kifu" analyze "$file" --depth 0 --empties 20 --format csv -q
      n=$(($(wc -l <"$tmp/out") - 1))
      echo "  $n games: $(echo "scale=2; $n / $wall" | bc) games/s"
      ;;
    theory)
      file="$corpus/wthor/WTH_1977.wtb"
      timed "kifu validate --theoretical WTH_1977 (P3=24)" "$kifu" validate --theoretical "$file" -q
      echo "  12 games: $(echo "scale=3; 12 / $wall" | bc) games/s; $(tail -n1 "$tmp/out")"
      ;;
    *)
      file="$(ffo_file "$set")"
      # 40-59 on every core only (#59 has 34 empties: past the default
      # --max-empties, and hours on one thread).
      if [ "$set" != 40-59 ]; then
        timed "kifu solve ffo $set, one thread" "$kifu" solve "$file" --one-best -j 1 --format csv -q
        awk -F, 'NR > 1 { n += $8 } END { printf "  %d nodes\n", n }' "$tmp/out"
      fi
      if [ "$set" = 40-59 ] || [ "$set" = 40-49 ]; then
        timed "kifu solve ffo $set, every core" "$kifu" solve "$file" --one-best --max-empties 34 --format csv -q
        awk -F, 'NR > 1 { n += $8; printf "  #%d %s empties %s s\n", NR + 38, $3, $9 } END { printf "  %d nodes\n", n }' "$tmp/out"
      fi
      if [ -n "${EDAX:-}" ]; then
        timed "edax -solve ffo $set, one thread" "$EDAX" -eval-file "${EDAX_EVAL:?EDAX_EVAL names eval.dat}" -n 1 -l 60 -solve "$file"
        grep -E 'nodes|Mn/s' "$tmp/out" | tail -n 1 | sed 's/^/  edax: /' || true
      fi
      ;;
  esac
done
