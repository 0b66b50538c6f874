"""Shared fixtures: the repository, the corpus, the kifu command line."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _corpus() -> Path:
    return Path(os.environ.get("KIFU_CORPUS", ROOT.parent / "shared" / "corpus"))


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def corpus() -> Path:
    path = _corpus()
    if not path.is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"the corpus is missing: {path}")
        pytest.skip(f"no corpus at {path} (set KIFU_CORPUS)")
    return path


@pytest.fixture(scope="session")
def kifu_bin() -> Path:
    given = os.environ.get("KIFU_BIN")
    candidates = [Path(given)] if given else [
        ROOT / "target" / "release" / "kifu",
        ROOT / "target" / "debug" / "kifu",
    ]
    for path in candidates:
        if path.is_file():
            return path
    pytest.fail("the kifu command line is not built: cargo build --release (or set KIFU_BIN)")


@pytest.fixture(scope="session")
def cli(kifu_bin: Path):
    """Runs kifu with arguments; returns the completed process."""

    def run(*args: object, check: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run(
            [str(kifu_bin), *map(str, args)], capture_output=True, check=False
        )
        if check and done.returncode not in (0, 1):
            raise AssertionError(f"kifu {args} failed: {done.stderr.decode()}")
        return done

    return run
