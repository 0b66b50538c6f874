#!/usr/bin/env bash
# The Python package's speed targets (SPEC section 10), whole processes,
# RUNS times each (default 5), alternated, medians to quote:
#   1. kifu.positions over big.wtb against `kifu positions big.wtb -o out.npy`
#   2. a 24 M-game token Parquet file validated: `kifu validate` and
#      kifu.tokens (every game replayed and checked)
# Needs target/bench-data/big.wtb (scripts/bench-data.sh), the package
# installed in PYTHON's environment (default target/venv-python/bin/python,
# as scripts/ci-python.sh makes it) and pyarrow; the token file is made
# once by scripts/make-token-parquet.py (about 1.5 GB; not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
python="${PYTHON:-target/venv-python/bin/python}"
kifu=target/release/kifu
data=target/bench-data
cargo build --release -q
[ -f "$data/big.wtb" ] || scripts/bench-data.sh
[ -f "$data/tokens-24m.parquet" ] || "$python" scripts/make-token-parquet.py "$data/tokens-24m.parquet"

time_it() { # label, command...
  local start end
  start=$(date +%s.%N)
  "${@:2}" > /dev/null 2>&1 || [ $? -eq 1 ]
  end=$(date +%s.%N)
  printf '%s %.2f\n' "$1" "$(echo "$end - $start" | bc)"
}

for i in $(seq "$runs"); do
  rm -f "$data/out.npy"
  time_it cli-positions-npy "$kifu" positions "$data/big.wtb" -o "$data/out.npy"
  sync
  time_it python-positions "$python" -c "import kifu; a = kifu.positions('$data/big.wtb'); print(len(a))"
  time_it cli-validate-tokens "$kifu" validate --quiet "$data/tokens-24m.parquet"
  time_it python-tokens "$python" -c "import kifu; print(len(kifu.tokens('$data/tokens-24m.parquet')))"
done | python3 -c '
import statistics, sys
runs = {}
for line in sys.stdin:
    name, seconds = line.split()
    runs.setdefault(name, []).append(float(seconds))
for name, t in sorted(runs.items()):
    print(f"{name:22} median {statistics.median(t):.2f} s  ({min(t):.2f}-{max(t):.2f}, {len(t)} runs)")
'
rm -f "$data/out.npy"
