"""Convert a set of game files on a Dask cluster, one task per file, and
combine the results as one Arrow table.

kifu already uses every core of one machine; for an archive spread over
many machines, each worker converts its files with the kifu package and
the driver gathers the Arrow tables. The same shape serves `kifu.analyze`
(hours of CPU for a whole archive) or `kifu.positions`.

    python examples/dask_convert.py OUT.parquet FILE...

runs it on a local cluster of two worker processes; give a scheduler's
address in KIFU_DASK_SCHEDULER to use a real cluster instead.
"""

from __future__ import annotations

import os
import sys
from typing import List, Optional, Sequence

import pyarrow as pa

import kifu


def convert_one(path: str) -> pa.Table:
    """One task: the game table of one file (one thread: the cluster
    gives each worker its share of the machine)."""
    return kifu.table(path, jobs=1)


def convert(paths: Sequence[str], workers: int = 2, address: Optional[str] = None) -> pa.Table:
    """The game tables of `paths`, converted on a Dask cluster (a local
    one of `workers` processes unless `address` names a scheduler), in the
    order of `paths`."""
    from dask.distributed import Client, LocalCluster

    if address:
        with Client(address) as client:
            tables: List[pa.Table] = client.gather(client.map(convert_one, list(paths)))
    else:
        with LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
        ) as cluster, Client(cluster) as client:
            tables = client.gather(client.map(convert_one, list(paths)))
    return pa.concat_tables(tables)


def main(argv: Sequence[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    import pyarrow.parquet as pq

    out, paths = argv[0], argv[1:]
    table = convert(paths, address=os.environ.get("KIFU_DASK_SCHEDULER"))
    pq.write_table(table, out)
    print(f"{table.num_rows} games from {len(paths)} files written to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
