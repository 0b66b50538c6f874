"""kifu.distributed on a real Dask cluster: a `dask scheduler` and two
`dask worker` processes on 127.0.0.1. Its Parquet parts equal the command
line's output; a worker killed in the middle of the run leaves the result
complete and equal; a run stopped and run again keeps the parts already
written and completes the rest."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("dask.distributed")
pq = pytest.importorskip("pyarrow.parquet")

import kifu.distributed as kd  # noqa: E402

DASK = Path(sys.executable).parent / "dask"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(args, log: Path) -> subprocess.Popen:
    # A session of its own: the nanny and its worker process are killed
    # together.
    return subprocess.Popen(
        [str(DASK), *args],
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=30)


@contextmanager
def dask_cluster(tmp: Path, workers: int = 2):
    """A scheduler and `workers` worker processes of one thread each; yields
    the address and the worker processes."""
    from dask.distributed import Client

    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [
        _start(
            ["scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            tmp / "scheduler.log",
        )
    ]
    try:
        for i in range(workers):
            procs.append(
                _start(
                    [
                        "worker", address, "--nthreads", "1", "--nworkers", "1",
                        "--no-dashboard", "--name", f"w{i}", "--memory-limit", "0",
                        "--local-directory", str(tmp / f"w{i}"),
                    ],
                    tmp / f"worker{i}.log",
                )
            )
        with Client(address, timeout=30) as client:
            client.wait_for_workers(workers, timeout=60)
        yield address, procs[1:]
    finally:
        for proc in reversed(procs):
            _stop(proc)


def _csv_rows(text: str):
    rows = list(csv.reader(io.StringIO(text)))
    return rows[0], [tuple(r) for r in rows[1:]]


def _as_csv(table):
    """The table's rows as the command line's CSV writes their fields."""

    def field(v):
        if v is None:
            return ""
        return str(v)

    cols = table.column_names
    return cols, [tuple(field(r[c]) for c in cols) for r in table.to_pylist()]


@pytest.fixture(scope="module")
def files(corpus):
    return [str(corpus / "wthor" / "WTH_1977.wtb"), str(corpus / "wthor" / "WTH_1980.wtb")]


ANALYZE = ["--format", "csv", "--depth", "0", "--empties", "14"]


def test_parts_equal_the_command_line(tmp_path, cli, corpus, files):
    with dask_cluster(tmp_path) as (address, _):
        run = kd.analyze(
            files, tmp_path / "analysis", address, empties=14, depth=0,
            games_per_task=40, progress=False,
        )
        header, rows = _csv_rows(cli("analyze", *files, *ANALYZE, "-q").stdout.decode())
        assert sum(run.games.values()) == len(rows) > 100
        assert run.written == len(run.parts) == 1 + 4  # 12 games, then 160 by 40
        assert _as_csv(run.table()) == (header, rows)

        moves = kd.analyze(
            files[:1], tmp_path / "moves", address, empties=12, depth=0, moves=True,
            games_per_task=5, progress=False,
        )
        header, rows = _csv_rows(
            cli("analyze", files[0], "--moves", "--format", "csv", "--depth", "0",
                "--empties", "12", "-q").stdout.decode()
        )
        assert _as_csv(moves.table()) == (header, rows)

        labels = kd.positions(
            files, tmp_path / "positions", address, empties="10..12", score="exact",
            games_per_task=60, progress=False,
        )
        cli("positions", *files, "--empties", "10..12", "--score", "exact", "-q",
            "-o", tmp_path / "cli.parquet")
        expected = pq.read_table(tmp_path / "cli.parquet")
        assert expected.num_rows > 300
        assert labels.table().equals(expected)

        # Scores copied from the games' ends and said to be from 14 empties:
        # many are not what perfect play from there gives.
        copied = tmp_path / "copied.wtb"
        cli("convert", files[1], "-q", "-o", copied, "--theoretical", "copy", "--depth", "14")
        checked = kd.validate_theoretical(
            [str(copied)], tmp_path / "theoretical", address, games_per_task=50, progress=False
        )
        done = cli("validate", copied, "--theoretical", "--format", "json")
        wrong = [
            json.loads(line)
            for line in done.stdout.decode().splitlines()
            if "wrong_theoretical" in line
        ]
        assert f"{checked.checked} theoretical scores checked" in done.stderr.decode()
        assert checked.checked == 160 and len(wrong) > 10
        assert checked.table().to_pylist() == wrong

        # A second run over the same folder finds every part written.
        again = kd.analyze(
            files, tmp_path / "analysis", address, empties=14, depth=0,
            games_per_task=40, progress=False,
        )
        assert (again.written, again.skipped) == (0, len(run.parts))
        # Other options in the same folder are refused, naming it.
        with pytest.raises(kd.UsageError, match="another job"):
            kd.analyze(files, tmp_path / "analysis", address, empties=16, depth=0,
                       games_per_task=40, progress=False)


def _wait_for(predicate, timeout=120.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_a_worker_killed_in_the_middle(tmp_path, cli, files):
    out = tmp_path / "analysis"
    with dask_cluster(tmp_path) as (address, workers):
        result = {}

        def drive():
            result["run"] = kd.analyze(
                files[1:], out, address, empties=16, depth=0, games_per_task=8,
                progress=False,
            )

        driver = threading.Thread(target=drive)
        driver.start()
        assert _wait_for(lambda: len(list(out.glob("*.parquet"))) >= 2)
        done_at_kill = len(list(out.glob("*.parquet")))
        _stop(workers[0])
        driver.join(timeout=300)
        assert not driver.is_alive()
    run = result["run"]
    assert done_at_kill < len(run.parts) == 20
    header, rows = _csv_rows(
        cli("analyze", files[1], "--format", "csv", "--depth", "0", "--empties", "16", "-q")
        .stdout.decode()
    )
    assert _as_csv(run.table()) == (header, rows)
    assert not list(out.glob("*.tmp-*"))


def test_a_run_stopped_and_resumed(tmp_path, cli, files):
    out = tmp_path / "analysis"
    script = textwrap.dedent(
        f"""
        import kifu.distributed as kd
        kd.analyze({files[1:]!r}, {str(out)!r}, {{address!r}}, empties=16, depth=0,
                   games_per_task=8, progress=False)
        """
    )
    with dask_cluster(tmp_path) as (address, _):
        driver = subprocess.Popen(
            [sys.executable, "-c", script.replace("{address!r}", repr(address))]
        )
        assert _wait_for(lambda: len(list(out.glob("*.parquet"))) >= 3)
        driver.kill()
        driver.wait()
        # The tasks under way when the driver died finish or are dropped;
        # wait until the scheduler holds none.
        from dask.distributed import Client

        def idle(client):
            if client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)):
                return False
            running = client.run(lambda dask_worker: dask_worker.state.executing_count)
            return not any(running.values())

        with Client(address, timeout=30) as client:
            assert _wait_for(lambda: idle(client))
        assert not list(out.glob("*.tmp-*"))
        early = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in out.glob("*.parquet")}
        assert 3 <= len(early) < 20
        run = kd.analyze(files[1:], out, address, empties=16, depth=0, games_per_task=8,
                         progress=False)
    assert run.skipped >= len(early) and run.written + run.skipped == 20
    assert run.written > 0
    for name, seen in early.items():
        p = out / name
        assert (p.stat().st_ino, p.stat().st_mtime_ns) == seen, name
    header, rows = _csv_rows(
        cli("analyze", files[1], "--format", "csv", "--depth", "0", "--empties", "16", "-q")
        .stdout.decode()
    )
    assert _as_csv(run.table()) == (header, rows)


def test_every_reader_takes_a_shard_or_a_range(corpus):
    import kifu

    paths = [str(corpus / "wthor" / "WTH_1977.wtb"), str(corpus / "wthor" / "WTH_1980.wtb")]
    every = [(g.index, g.black) for g in kifu.read(paths)]
    assert len(every) == 172
    for k in (1, 2, 3):
        # Counted across both files: shard k takes games k-1, k-1+3, …
        assert [(g.index, g.black) for g in kifu.read(paths, shard=(k, 3))] == every[k - 1 :: 3]
    assert [(g.index, g.black) for g in kifu.read(paths, shard="2/3")] == every[1::3]
    assert [(g.index, g.black) for g in kifu.read(paths, games=(10, 30))] == every[10:30]
    assert kifu.table(paths, games=(5, 15)).num_rows == 10
    for bad, says in [((0, 3), "K \\(which shard\\) must be from 1 to N = 3"), ("1/0", "N \\(the")]:
        with pytest.raises(kifu.UsageError, match=says) as err:
            list(kifu.read(paths, shard=bad))
        assert err.value.argument == "shard"
    with pytest.raises(kifu.UsageError, match="the end comes before the start"):
        list(kifu.read(paths, games=(9, 3)))
    with pytest.raises(kifu.UsageError, match="not with shard="):
        list(kifu.read(paths, shard=(1, 2), unique=True))


def test_analyze_by_trained_weights(tmp_path, cli, root, files):
    # As `kifu analyze --weights`: the workers estimate the midgame by the
    # file's weights; the folder's manifest records the file's digest, so
    # other weights under the same name are refused instead of mixed in.
    mine = tmp_path / "mine.zst"
    cli("train-eval", files[0], "--exact-empties", "12", "--generate", "16", "--reach", "6",
        "--seed", "5", "--epochs", "8", "--hash", "1", "-q", "-o", mine)
    args = dict(empties=14, depth=4, games_per_task=12, threads_per_task=1, progress=False)
    cli_args = [files[0], "--format", "csv", "--depth", "4", "--empties", "14", "-j", "1", "-q"]
    with dask_cluster(tmp_path) as (address, _):
        trained = kd.analyze(files[:1], tmp_path / "trained", address, weights=mine, **args)
        header, rows = _csv_rows(cli("analyze", *cli_args, "--weights", mine).stdout.decode())
        assert len(rows) == 12
        assert _as_csv(trained.table()) == (header, rows)
        builtin = kd.analyze(files[:1], tmp_path / "builtin", address, **args)
        _, builtin_rows = _csv_rows(cli("analyze", *cli_args).stdout.decode())
        assert _as_csv(builtin.table()) == (header, builtin_rows)
        assert builtin_rows != rows
        manifest = json.loads((tmp_path / "trained" / kd.MANIFEST).read_text())
        assert manifest["weights_sha256"] == hashlib.sha256(mine.read_bytes()).hexdigest()
        assert manifest["options"]["weights"] == str(mine)

        # The same name holding other weights: another job.
        mine.write_bytes((root / "src" / "eval" / "eval.zst").read_bytes())
        with pytest.raises(kd.UsageError, match="another job"):
            kd.analyze(files[:1], tmp_path / "trained", address, weights=mine, **args)
        # Not weights, or no file: refused before any folder is made.
        for bad in (Path(files[0]), tmp_path / "missing.zst"):
            with pytest.raises(kd.UsageError) as e:
                kd.analyze(files[:1], tmp_path / "bad", address, weights=bad, **args)
            assert e.value.argument == "weights"
            assert bad.name in str(e.value)
        assert not (tmp_path / "bad").exists()
