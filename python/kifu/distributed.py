"""Long jobs over an archive on a Dask cluster: ``analyze``,
``positions(score="exact")`` and ``validate_theoretical``.

Each file's games are cut into tasks of ``games_per_task`` consecutive
games; a task judges (labels, checks) its games in Rust and writes its rows
as one Parquet part, under a temporary name renamed into place once
complete. A part is named by the file's content hash and the game range
(``WTH_2004-3f2a…-000000400-000000600.parquet``), so a second run with the
same output folder skips every part already written: a run stopped
anywhere (Ctrl-C, a lost worker, a cluster shut down) goes on where it
stopped. The parts together hold the rows the command line writes for the
same files (``kifu analyze --format csv``, ``kifu positions -o
OUT.parquet --score exact``, ``kifu validate --theoretical --format
json``), with the same columns and values, in input order part after
part; ``Run.table()`` reads them back as one pyarrow Table.

A sketch (it needs a running scheduler)::

    import kifu.distributed as kd
    run = kd.analyze(["WTH_2004.wtb"], "analysis/", client="tcp://scheduler:8786", empties=20)
    run.table().to_pandas()

``client`` is a ``dask.distributed.Client``, a scheduler's address, or
``None`` for a local cluster of one worker process per core (in a script,
under ``if __name__ == "__main__":``, as Dask's worker processes import
it). The files are
read by the workers under the names given: on a cluster, give paths every
worker sees (a shared file system). Needs ``dask[distributed]`` and
``pyarrow``.
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import _kifu
from .errors import UsageError

__all__ = ["analyze", "positions", "validate_theoretical", "Run", "parts_of"]

#: Games a task takes unless told: a few minutes of one core at 20
#: empties, small enough that a lost worker costs little.
GAMES_PER_TASK = 200

#: The manifest of an output folder: the job and its options, so that a
#: rerun with other options does not mix its parts with the old ones.
MANIFEST = "kifu-job.json"


@dataclass
class Run:
    """What a run left in its folder."""

    #: The output folder.
    out: Path
    #: Every part of the job, in input order (file, then game range).
    parts: List[Path]
    #: Parts written by this run.
    written: int = 0
    #: Parts found already written and skipped.
    skipped: int = 0
    #: Rows written by this run (``validate_theoretical``: contradicted
    #: scores).
    rows: int = 0
    #: ``validate_theoretical``: stored scores checked by this run.
    checked: int = 0
    #: Each file's number of games.
    games: Dict[str, int] = field(default_factory=dict)

    def table(self):
        """Every part as one pyarrow Table, in input order."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        tables = [pq.read_table(p) for p in self.parts]
        if not tables:
            raise UsageError("no parts: the inputs hold no games", argument="paths")
        return pa.concat_tables(tables)


def _content_hash(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


def parts_of(
    paths: Sequence[str], games_per_task: int, format: Optional[str] = None
) -> List[Tuple[str, int, int, str]]:
    """The tasks of a job over ``paths``: (path, start, end, part name),
    in input order; and each file's games counted on the way."""
    if games_per_task < 1:
        raise UsageError("games_per_task: at least 1", argument="games_per_task")
    tasks = []
    for path in paths:
        [(_, games)] = _kifu.count_games([path], format=format)
        stem = Path(path).name.split(".")[0] or "input"
        digest = _content_hash(path)
        for start in range(0, games, games_per_task):
            end = min(start + games_per_task, games)
            tasks.append((path, start, end, f"{stem}-{digest}-{start:09d}-{end:09d}.parquet"))
    return tasks


def _run_part(kind: str, path: str, start: int, end: int, final: str, options: Dict[str, Any]):
    """One task, on a worker: the part written under a temporary name and
    renamed into place; nothing done if it is there already."""
    if os.path.exists(final):
        return None
    tmp = f"{final}.tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    write = {
        "analyze": _kifu.analyze_part,
        "positions": _kifu.positions_part,
        "validate_theoretical": _kifu.validate_theoretical_part,
    }[kind]
    try:
        result = write(tmp, [path], games=(start, end), **options)
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, final)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return result


def _client(client):
    from dask.distributed import Client, LocalCluster

    if client is None:
        cluster = LocalCluster(
            n_workers=os.cpu_count() or 1, threads_per_worker=1, processes=True
        )
        return Client(cluster), True
    if isinstance(client, str):
        return Client(client), True
    return client, False


def _manifest(
    out: Path, kind: str, options: Dict[str, Any], identity: Dict[str, Any]
) -> None:
    # As JSON reads it back (a tuple is a list). `identity`: what the
    # options name but do not hold (the content of a weights file).
    job = {"job": kind, "kifu": _kifu.__version__, "options": options, **identity}
    wanted = json.loads(json.dumps(job, sort_keys=True))
    path = out / MANIFEST
    if path.exists():
        found = json.loads(path.read_text())
        if found != wanted:
            raise UsageError(
                f"out: {out} holds the parts of another job ({found}): give an empty folder",
                argument="out",
            )
        return
    tmp = out / f"{MANIFEST}.tmp-{os.getpid()}"
    tmp.write_text(json.dumps(wanted, indent=1, sort_keys=True))
    os.replace(tmp, path)


def _run(
    kind: str,
    paths: Union[str, os.PathLike, Sequence[Union[str, os.PathLike]]],
    out: Union[str, os.PathLike],
    client,
    options: Dict[str, Any],
    games_per_task: int,
    format: Optional[str],
    progress: bool,
    identity: Optional[Dict[str, Any]] = None,
) -> Run:
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = [os.fspath(p) for p in paths]
    if not paths:
        raise UsageError("paths: no file given", argument="paths")
    for key in ("unique", "shard", "games"):
        if key in options:
            raise UsageError(
                f"{key}: a distributed job takes every game of its files "
                "(its tasks are ranges of games)",
                argument=key,
            )
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    options = dict(options, format=format)
    _manifest(out, kind, dict(options, games_per_task=games_per_task), identity or {})
    tasks = parts_of(paths, games_per_task, format)
    run = Run(out=out, parts=[out / name for (_, _, _, name) in tasks])
    for path in paths:
        run.games[path] = 0
    for path, _, end, _ in tasks:
        run.games[path] = max(run.games[path], end)
    todo = [t for t in tasks if not (out / t[3]).exists()]
    run.skipped = len(tasks) - len(todo)
    if not todo:
        return run
    dask_client, own = _client(client)
    try:
        if progress:
            print(f"kifu.distributed: {len(todo)} tasks; dashboard: {dask_client.dashboard_link}")
        futures = [
            dask_client.submit(
                _run_part,
                kind,
                path,
                start,
                end,
                str(out / name),
                options,
                key=f"kifu-{kind}-{name}",
                pure=False,
                retries=2,
            )
            for (path, start, end, name) in todo
        ]
        if progress:
            from dask.distributed import progress as bar

            bar(futures)
        for result in dask_client.gather(futures):
            if result is None:
                run.skipped += 1
                continue
            run.written += 1
            if kind == "validate_theoretical":
                checked, rows = result
                run.checked += checked
                run.rows += rows
            else:
                run.rows += result
        # Every part is written: a temporary file left beside one is a
        # worker's that died while writing it (its own clean-up never ran).
        for part in run.parts:
            for stray in out.glob(f"{part.name}.tmp-*"):
                stray.unlink(missing_ok=True)
    finally:
        if own:
            cluster = getattr(dask_client, "cluster", None)
            dask_client.close()
            if cluster is not None:
                cluster.close()
    return run


def analyze(
    paths,
    out,
    client=None,
    *,
    empties: int = 20,
    depth: int = 10,
    moves: bool = False,
    hash_mb: int = 256,
    games_per_task: int = GAMES_PER_TASK,
    threads_per_task: int = 1,
    format: Optional[str] = None,
    progress: bool = True,
    selectivity: str = "careful",
    weights: Optional[Union[str, os.PathLike]] = None,
    **filters: Any,
) -> Run:
    """``kifu analyze --format csv`` (``--moves``: one row a move) over
    ``paths`` on a Dask cluster, as Parquet parts in the folder ``out``
    (``selectivity`` and ``weights`` as in ``kifu.analyze``).

    ``weights``, a file ``kifu train-eval`` wrote, is read by the workers
    under the name given, as the games are (on a cluster, a path every
    worker sees); the folder's manifest records its SHA-256, so a rerun
    with other weights, or the same name holding other weights, is refused
    rather than mixing the two runs' estimates.

    The exact values (``depth=0``, and every row's endgame part) equal the
    command line's; midgame estimates (``depth`` > 0) are a search's, which
    may differ in the last disc with what its table held before, as they
    do between the command line's runs on different thread counts."""
    options = dict(
        empties=empties,
        depth=depth,
        moves=moves,
        hash_mb=hash_mb,
        threads=threads_per_task,
        selectivity=selectivity,
        **filters,
    )
    identity = {}
    if weights is not None:
        options["weights"] = os.fspath(weights)
        # Read once here: a bad file fails before any task starts.
        identity["weights_sha256"] = _kifu.weights_digest(options["weights"])
    return _run(
        "analyze", paths, out, client, options, games_per_task, format, progress, identity
    )


def positions(
    paths,
    out,
    client=None,
    *,
    empties: str,
    score: str = "exact",
    symmetries: bool = False,
    all_games: bool = False,
    hash_mb: int = 256,
    games_per_task: int = GAMES_PER_TASK,
    threads_per_task: int = 1,
    format: Optional[str] = None,
    progress: bool = True,
    **filters: Any,
) -> Run:
    """``kifu positions -o OUT.parquet --score exact --empties A..B`` over
    ``paths`` on a Dask cluster, as Parquet parts in the folder ``out``
    (the columns of the command line's file: source, game, ply, empties,
    side, player, opponent, move, score)."""
    if not isinstance(empties, str):
        a, b = empties
        empties = f"{a}..{b}"
    options = dict(
        empties=empties,
        score=score,
        symmetries=symmetries,
        all_games=all_games,
        hash_mb=hash_mb,
        threads=threads_per_task,
        **filters,
    )
    return _run("positions", paths, out, client, options, games_per_task, format, progress)


def validate_theoretical(
    paths,
    out,
    client=None,
    *,
    hash_mb: int = 256,
    games_per_task: int = GAMES_PER_TASK,
    threads_per_task: int = 1,
    format: Optional[str] = None,
    progress: bool = True,
    **filters: Any,
) -> Run:
    """``kifu validate --theoretical --format json`` over WTHOR files on a
    Dask cluster: every stored theoretical score solved again at its
    file's depth; the parts hold the rows of the scores contradicted
    (file, game, status, depth, stored, solved, message) and
    ``Run.checked`` counts the scores checked."""
    options = dict(hash_mb=hash_mb, threads=threads_per_task, **filters)
    return _run("validate_theoretical", paths, out, client, options, games_per_task, format, progress)
