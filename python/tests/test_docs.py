"""Every docstring example runs."""

from __future__ import annotations

import doctest
import os

import kifu
import kifu.errors


def test_the_docstring_examples_run(root):
    os.chdir(root)
    for module in [kifu, kifu.errors]:
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0, module
        assert result.attempted > 0, module
    for obj in [kifu.Board, kifu.Game]:
        finder = doctest.DocTestFinder()
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        for test in finder.find(obj, obj.__name__, globs={"kifu": kifu}):
            runner.run(test)
        assert runner.failures == 0, obj
        assert runner.tries > 0, obj
