#!/usr/bin/env bash
# The shipped evaluation, made again: kifu train-eval on the corpus's
# WTHOR years (WTH_2014 held out for the measurement), the Logistello
# book games, the PlayOK games and generated lines, writing
# src/eval/eval.zst and src/eval/manifest.json. The same inputs,
# parameters and seed give the same file: compare the new manifest's
# weights.sha256 with the committed one (git diff src/eval/manifest.json).
# About 30 minutes on 2 busy cores (labels ~10, fit ~3, the measurement's
# 200 exact solves ~10); never run in CI.
#
#   scripts/train-eval.sh [EXTRA FLAGS]
#   OUT=target/eval-1.zst MANIFEST=target/eval-1.json scripts/train-eval.sh
#
# OUT and MANIFEST write elsewhere than the crate's files (a trial run).
# EXTRA FLAGS go to kifu train-eval, e.g. --labels-cache FILE to keep the
# labels for another fit (the cache is read only under the same inputs
# and labelling parameters, and changes no result). KIFU=path/to/kifu
# runs that binary instead of building the release one.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${KIFU_CORPUS:-../shared/corpus}"
if [ -z "${KIFU:-}" ]; then
  cargo build --release --quiet
  KIFU=target/release/kifu
fi
inputs=()
for f in "$corpus"/wthor/WTH_*.wtb; do
  case "$f" in *WTH_2014.wtb) ;; *) inputs+=("$f") ;; esac
done
inputs+=("$corpus/wthor/misc/Logistello_book_1999.wtb" "$corpus/wthor/playok/PLAYOK_2023.wtb")
exec "$KIFU" train-eval "${inputs[@]}" \
  --exact-empties 14 --generate 20000 --reach 10 --seed 2026 \
  --epochs 12 --ridge 20 --window 6 --hash 16 \
  --test "$corpus/wthor/WTH_2014.wtb" --test-positions 200 --test-empties 20..24 \
  -o "${OUT:-src/eval/eval.zst}" --manifest "${MANIFEST:-src/eval/manifest.json}" "$@"
