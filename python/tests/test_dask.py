"""The Dask example, run on a local cluster of two worker processes: its
combined Arrow table equals one process's."""

from __future__ import annotations

import sys

import pytest

import kifu

pytest.importorskip("dask.distributed")


def test_the_dask_example_equals_one_process(corpus, root):
    sys.path.insert(0, str(root / "python" / "examples"))
    import dask_convert

    files = [str(p) for p in sorted((corpus / "wthor").glob("WTH_20*.wtb"))[:6]]
    files.append(str(corpus / "ggf" / "ntest-base.ggf"))
    combined = dask_convert.convert(files, workers=2)
    alone = kifu.table(files)
    assert combined.num_rows == alone.num_rows > 10_000
    assert combined.equals(alone)
