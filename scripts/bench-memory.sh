#!/usr/bin/env bash
# Peak memory of `kifu convert` on >= 1 GB inputs: a GGF file made of the
# corpus's GGS games repeated, and a transcript file made of the Kaggle
# games repeated. Prints games, seconds, MB/s and peak RSS for each.
# Usage: scripts/bench-memory.sh [SIZE_MB] [RUNS]   (default 1024 MB, 5 runs)
# KIFU=path measures another build on the same files.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${KIFU_CORPUS:-../shared/corpus}"
size_mb="${1:-1024}"
runs="${2:-5}"
data=target/bench-data
mkdir -p "$data"
cargo build --release -q

python3 - "$corpus" "$data" "$size_mb" <<'PY'
import sys
from pathlib import Path
corpus, data, size_mb = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
target = size_mb * 1024 * 1024
def repeat(lines, out):
    if out.exists() and out.stat().st_size >= target:
        return
    block = "".join(l if l.endswith("\n") else l + "\n" for l in lines).encode()
    with out.open("wb") as f:
        written = 0
        while written < target:
            f.write(block)
            written += len(block)
ggf = [l for l in (corpus / "ggf" / "ntest-TestGames.ggf").read_text().splitlines() if l.strip()]
repeat(ggf, data / "mem.ggf")
moves = (corpus / "csv" / "othello_dataset.csv").read_text().splitlines()[1:]
repeat([m.split(",")[2] for m in moves], data / "mem.txt")
PY

kifu="$(realpath "${KIFU:-target/release/kifu}")"
for input in "$data/mem.ggf" "$data/mem.txt"; do
  for run in $(seq "$runs"); do
    bytes=$(stat -L -c %s "$input")
    /usr/bin/time -f "%e %M" -o "$data/time.txt" \
      "$kifu" convert --quiet "$input" --to csv -o "$data/out.csv" 2> "$data/summary.txt" || true
    read -r secs rss < "$data/time.txt"
    games=$(grep -o '[0-9]* games read' "$data/summary.txt" | cut -d' ' -f1)
    python3 -c "import sys; b,s,r,g=int(sys.argv[1]),float(sys.argv[2]),int(sys.argv[3]),sys.argv[4]; print(f'{sys.argv[5]} run {sys.argv[6]}: {b/2**20:,.0f} MB, {g} games in {s:.1f} s = {b/2**20/s:,.0f} MB/s, peak RSS {r/1024:.1f} MB')" "$bytes" "$secs" "$rss" "$games" "$input" "$run"
  done
done
rm -f "$data/out.csv"
