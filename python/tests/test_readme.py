"""Every example of python/README.md runs (the package's page cannot
drift from the package): its ``>>>`` lines are a doctest, run from the
repository's root on the bundled fixtures."""

from __future__ import annotations

import doctest
import os

import kifu


def test_the_readme_examples_run(root):
    os.chdir(root)
    result = doctest.testfile(
        str(root / "python" / "README.md"),
        module_relative=False,
        globs={"kifu": kifu},
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert result.failed == 0, result
    assert result.attempted >= 20, result
