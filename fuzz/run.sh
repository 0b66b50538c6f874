#!/usr/bin/env bash
# Runs every fuzz target for a fixed time: fuzz/run.sh [SECONDS_EACH].
# Needs cargo-fuzz; on a stable toolchain RUSTC_BOOTSTRAP=1 lets it use the
# sanitizer flags. New inputs go to a scratch corpus, not into the seeds.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-20}"
export RUSTC_BOOTSTRAP=1
cargo fuzz build -O
for target in $(cargo fuzz list); do
  scratch="target/corpus/$target"
  mkdir -p "$scratch"
  seeds="corpus/$target"
  if [ ! -d "$seeds" ]; then
    echo "fuzz: $target has no seed folder $seeds" >&2
    exit 1
  fi
  echo "fuzz: $target for ${seconds}s"
  status=0
  cargo fuzz run -O "$target" "$scratch" "$seeds" -- \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=0 \
    >"$scratch.log" 2>&1 || status=$?
  grep -E "^#[0-9]+ +DONE|Done|ERROR|panicked|SUMMARY" "$scratch.log" || true
  if [ "$status" -ne 0 ]; then
    echo "fuzz: $target failed (exit $status): see fuzz/$scratch.log" >&2
    exit 1
  fi
  if [ -n "$(ls -A artifacts/"$target" 2>/dev/null)" ]; then
    echo "fuzz: $target found a crash: see fuzz/artifacts/$target" >&2
    exit 1
  fi
done
