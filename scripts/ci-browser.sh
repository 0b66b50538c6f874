#!/usr/bin/env bash
# The pages in a real browser (SPEC section 11): installs Debian's chromium
# and chromium-driver when missing, then runs scripts/browser/test_pages.py
# (Python's standard library only: a small WebDriver client drives headless
# Chromium through chromedriver). Run from the repository root after
# `cargo build --release`, with KIFU_CORPUS set; .ci/run calls it.
#   KIFU_SHOTS=docs scripts/ci-browser.sh   also saves the screenshots of docs/ (README.md and docs/serve.md show them)
set -euo pipefail
cd "$(dirname "$0")/.."
export KIFU_CORPUS="${KIFU_CORPUS:-$(pwd)/../shared/corpus}"
export KIFU="${KIFU:-$(pwd)/target/release/kifu}"

if [ ! -x "$KIFU" ]; then
  cargo build --release
fi
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  echo "ci-browser: installing Debian's chromium and chromium-driver"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
chromium --version 2>/dev/null | grep -v '^\[' || true
chromedriver --version

timeout 600 python3 scripts/browser/test_pages.py -v
