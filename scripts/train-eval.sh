#!/usr/bin/env bash
# The shipped evaluation, made again: kifu train-eval on the corpus's
# WTHOR years (WTH_2014 held out for the measurement), the Logistello
# book games, the PlayOK games and generated lines, writing
# src/eval/eval.zst and src/eval/manifest.json. The same inputs,
# parameters and seed give the same file: compare the new manifest's
# weights.sha256 with the committed one (git diff src/eval/manifest.json).
#
# Rounds: the first fits weights to labels exact from 14 empties and,
# before that, the line's exact value propagated back (WORK/round-0.zst);
# each of the ROUNDS after it labels those earlier positions by a depth-4
# search on the round before's weights instead, and the last writes the
# crate's file, measured on 200 held-out positions. Every round reads
# the exact labels from one cache (WORK/labels), so only the first
# solves. About 8 minutes for the first round on 2 cores, 18 for each
# search round, 10 for the last round's measurement; never run in CI.
#
#   scripts/train-eval.sh [EXTRA FLAGS]
#   OUT=target/eval-1.zst MANIFEST=target/eval-1.json scripts/train-eval.sh
#
# OUT and MANIFEST write elsewhere than the crate's files (a trial run);
# WORK (default target/train-eval) holds the rounds' weights, manifests
# and the labels' cache; ROUNDS (default 1) the search rounds (0: the
# propagated labels alone); FROM=K starts at round K on WORK's
# round-(K-1).zst from an earlier run (the same weights as running it
# again: every round is deterministic). EXTRA FLAGS go to every round's kifu
# train-eval. KIFU=path/to/kifu runs that binary instead of building the
# release one.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${KIFU_CORPUS:-../shared/corpus}"
work="${WORK:-target/train-eval}"
rounds="${ROUNDS:-1}"
from="${FROM:-0}"
if [ -z "${KIFU:-}" ]; then
  cargo build --release --quiet
  KIFU=target/release/kifu
fi
mkdir -p "$work"
inputs=()
for f in "$corpus"/wthor/WTH_*.wtb; do
  case "$f" in *WTH_2014.wtb) ;; *) inputs+=("$f") ;; esac
done
inputs+=("$corpus/wthor/misc/Logistello_book_1999.wtb" "$corpus/wthor/playok/PLAYOK_2023.wtb")
recipe=(--exact-empties 14 --generate 20000 --reach 10 --seed 2026
  --epochs 12 --ridge 20 --window 6 --hash 16 --labels-cache "$work/labels")

# round K: kifu train-eval writing $1 and $2, the rest of the flags after them
round() {
  local out=$1 manifest=$2
  shift 2
  "$KIFU" train-eval "${inputs[@]}" "${recipe[@]}" -o "$out" --manifest "$manifest" "$@"
}

last_out="${OUT:-src/eval/eval.zst}"
last_manifest="${MANIFEST:-src/eval/manifest.json}"
measure=(--test "$corpus/wthor/WTH_2014.wtb" --test-positions 200 --test-empties 20..24)
if [ "$from" -gt "$rounds" ]; then
  echo "train-eval.sh: FROM=$from is past the last round ($rounds)" >&2
  exit 2
fi
previous=""
if [ "$from" -gt 0 ]; then
  previous="$work/round-$((from - 1)).zst"
fi
for k in $(seq "$from" "$rounds"); do
  if [ "$k" = "$rounds" ]; then
    out=$last_out manifest=$last_manifest more=("${measure[@]}")
  else
    out="$work/round-$k.zst" manifest="$work/round-$k.json" more=()
  fi
  if [ -n "$previous" ]; then
    more+=(--search-depth 4 --label-weights "$previous")
  fi
  echo "train-eval.sh: round $k of $rounds -> $out" >&2
  round "$out" "$manifest" "${more[@]}" "$@"
  previous=$out
done
