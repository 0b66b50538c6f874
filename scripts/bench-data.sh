#!/usr/bin/env bash
# Reproducible inputs for the whole-command benchmarks, in target/bench-data/:
#   big.wtb   the corpus's federation games (wthor/WTH_*.wtb) repeated whole:
#             28 times = 1,490,860 games by default; big.JOU/big.TRN beside it
#   big.ggf   the same games as GGF (~700 MB), written by target/release/kifu
#   big.txt   the same games as transcripts (~180 MB), likewise
# Files already there with the right size are kept.
# Usage: scripts/bench-data.sh [GAMES]   (rounded up to whole repeats)
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${KIFU_CORPUS:-../shared/corpus}"
games="${1:-1490860}"
data=target/bench-data
kifu=target/release/kifu
mkdir -p "$data"
cargo build --release -q

size() { stat -L -c %s "$1" 2>/dev/null || echo 0; } # -L: the files may be links

# The expected size of big.wtb: a 16-byte header and 68 bytes a game.
block=0
for f in "$corpus"/wthor/WTH_*.wtb; do
  block=$((block + ($(size "$f") - 16) / 68))
done
repeats=$(((games + block - 1) / block))
if [ "$(size "$data/big.wtb")" != $((16 + 68 * block * repeats)) ] ||
  [ ! -f "$data/big.JOU" ] || [ ! -f "$data/big.TRN" ]; then
  python3 scripts/make-big-wthor.py "$corpus" "$data/big.wtb" "$games"
fi

# The right size of a converted file is only known once kifu has written it:
# it is kept in FILE.size, next to it. A file older than big.wtb is redone.
for to in ggf:big.ggf transcript:big.txt; do
  out="$data/${to#*:}"
  if [ "$out" -nt "$data/big.wtb" ] && [ "$(size "$out")" = "$(cat "$out.size" 2>/dev/null)" ]; then
    continue
  fi
  rm -f "$out.size"
  # Exit status 1 only says that some game is invalid; the file is complete.
  "$kifu" convert --quiet "$data/big.wtb" --to "${to%%:*}" -o "$out.part" 2>/dev/null || [ $? -eq 1 ]
  mv "$out.part" "$out"
  size "$out" >"$out.size"
done
ls -l "$data"/big.*
