#!/usr/bin/env bash
# The Python package's tests (SPEC section 10), as CI runs them (.ci/run
# calls this script): a fresh virtual environment with pinned versions from
# PyPI, the package installed the way users install it (pip install
# ./python, maturin building the wheel), then pytest. Runs from the repo
# root with KIFU_CORPUS set; about 6-8 minutes on 2 cores, most of it the
# release build of the extension.
set -euo pipefail
cd "$(dirname "$0")/.."

export KIFU_CORPUS="${KIFU_CORPUS:-$(pwd)/../shared/corpus}"
venv=target/venv-python
rm -rf "$venv"
python3 -m venv "$venv"
# The build backend runs the maturin it finds on the PATH: the venv's.
export PATH="$(pwd)/$venv/bin:$PATH"
pip() { "$venv/bin/python" -m pip --disable-pip-version-check "$@"; }
pip install --quiet \
  numpy==2.4.6 pyarrow==26.0.1 pandas==3.1.1 dask==2026.8.0 distributed==2026.8.0 \
  pytest==9.2.0 maturin==1.16.0
# --no-build-isolation: the wheel is built by the pinned maturin above.
pip install --no-build-isolation ./python

# The tests compare the package with the command line's outputs.
cargo build --release --quiet
export KIFU_BIN="$(pwd)/target/release/kifu"
"$venv/bin/python" -m pytest python/tests -q -p no:cacheprovider
