#!/usr/bin/env bash
# Whole-command timing of `kifu convert` WTHOR -> CSV on >= 1 million games,
# with peak memory. Usage: scripts/bench-convert.sh [GAMES] [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${KIFU_CORPUS:-../shared/corpus}"
games="${1:-1000000}"
jobs="${2:-2}"
data=target/bench-data
cargo build --release -q
[ -f "$data/big.wtb" ] || python3 scripts/make-big-wthor.py "$corpus" "$data/big.wtb" "$games"
n=$(python3 -c "import struct,sys; print(struct.unpack_from('<I', open(sys.argv[1],'rb').read(8), 4)[0])" "$data/big.wtb")
for run in 1 2 3; do
  /usr/bin/time -f "%e %M" -o "$data/time.txt" \
    target/release/kifu convert --quiet --jobs "$jobs" "$data/big.wtb" --to csv -o "$data/big.csv" 2>/dev/null || true
  read -r secs rss < "$data/time.txt"
  python3 -c "import sys; g,s,r=int(sys.argv[1]),float(sys.argv[2]),int(sys.argv[3]); print(f'run {sys.argv[4]}: {g} games in {s:.2f} s = {g/s:,.0f} games/s, peak RSS {r/1024:.1f} MB')" "$n" "$secs" "$rss" "$run"
done
