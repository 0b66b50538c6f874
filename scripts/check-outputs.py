#!/usr/bin/env python3
"""Reads kifu's training and analytics outputs with real clients.

Usage: scripts/check-outputs.py KIFU INPUT [WORKDIR]

Runs `kifu positions INPUT` to CSV, npy and Parquet (and `kifu convert
INPUT` to CSV and Parquet), then loads them with NumPy (`np.load`, no
pickle), pyarrow and DuckDB and checks row counts, types and values
against kifu's own CSV. Needs numpy, pyarrow and duckdb (.ci/run makes a
venv with them). Exits non-zero on the first mismatch.
"""

import csv
import os
import re
import subprocess
import sys
import tempfile

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

NPY_FIELDS = [
    ("player", "<u8"),
    ("opponent", "<u8"),
    ("move", "u1"),
    ("ply", "u1"),
    ("empties", "u1"),
    ("side", "u1"),
    ("score", "i1"),
    ("game", "<u4"),
]

checks = 0


def check(ok, what):
    global checks
    checks += 1
    if not ok:
        sys.exit(f"check-outputs: FAILED: {what}")


def kifu(binary, *args):
    result = subprocess.run([binary, *args], capture_output=True, text=True)
    if result.returncode not in (0, 1):
        sys.exit(f"check-outputs: {' '.join(args)} failed:\n{result.stderr}")
    return result


def square_index(name):
    return (int(name[1]) - 1) * 8 + (ord(name[0]) - ord("a"))


def check_positions(binary, source, work):
    paths = {to: os.path.join(work, f"positions.{to}") for to in ("csv", "npy", "parquet")}
    for path in paths.values():
        kifu(binary, "positions", source, "--all-games", "-q", "-o", path)
    with open(paths["csv"], newline="") as f:
        rows = list(csv.DictReader(f))
    check(len(rows) > 0, "positions: the CSV has rows")

    # NumPy: the structured dtype, read without pickle.
    arr = np.load(paths["npy"], allow_pickle=False)
    check(arr.dtype == np.dtype(NPY_FIELDS), f"npy dtype {arr.dtype}")
    check(arr.dtype.itemsize == 25, "npy records are 25 bytes")
    check(arr.shape == (len(rows),), f"npy shape {arr.shape} vs {len(rows)} CSV rows")
    player = np.array([int(r["player"]) for r in rows], dtype=np.uint64)
    opponent = np.array([int(r["opponent"]) for r in rows], dtype=np.uint64)
    check(np.array_equal(arr["player"], player), "npy player = CSV player")
    check(np.array_equal(arr["opponent"], opponent), "npy opponent = CSV opponent")
    check(
        np.array_equal(arr["move"], np.array([square_index(r["move"]) for r in rows])),
        "npy move = CSV move as a square index",
    )
    for field in ("ply", "empties"):
        check(
            np.array_equal(arr[field], np.array([int(r[field]) for r in rows])),
            f"npy {field} = CSV {field}",
        )
    check(
        np.array_equal(arr["side"], np.array([r["side"] == "white" for r in rows])),
        "npy side = CSV side",
    )
    score = np.array([int(r["score"]) if r["score"] else -128 for r in rows])
    check(np.array_equal(arr["score"], score), "npy score = CSV score, -128 for none")
    # Bit i is square i: the discs never overlap, the move is empty.
    check(not np.any(arr["player"] & arr["opponent"]), "player and opponent are disjoint")
    move_bits = np.left_shift(np.uint64(1), arr["move"].astype(np.uint64))
    check(not np.any(move_bits & (arr["player"] | arr["opponent"])), "the move is an empty square")
    discs = np.array([bin(int(p | o)).count("1") for p, o in zip(arr["player"], arr["opponent"])])
    check(np.array_equal(discs + arr["empties"], np.full(len(rows), 64)), "discs + empties = 64")

    # pyarrow: the CSV's columns, typed.
    table = pq.read_table(paths["parquet"])
    expected = {
        "source": pa.string(),
        "game": pa.int64(),
        "ply": pa.uint8(),
        "empties": pa.uint8(),
        "side": pa.string(),
        "player": pa.uint64(),
        "opponent": pa.uint64(),
        "move": pa.string(),
        "score": pa.int8(),
    }
    check(table.schema.names == list(rows[0].keys()), f"parquet columns {table.schema.names}")
    for name, kind in expected.items():
        check(table.schema.field(name).type == kind, f"parquet {name}: {table.schema.field(name).type}")
    check(table.num_rows == len(rows), "parquet rows = CSV rows")
    columns = table.to_pydict()
    for name in expected:
        want = [r[name] for r in rows]
        got = columns[name]
        if name not in ("source", "side", "move"):
            want = [int(v) if v != "" else None for v in want]
        check(got == want, f"parquet {name} = CSV {name}")

    # DuckDB: a query over the Parquet file agrees with the CSV.
    con = duckdb.connect()
    n, black = con.execute(
        "SELECT count(*), count(*) FILTER (WHERE side = 'black') FROM read_parquet(?)",
        [paths["parquet"]],
    ).fetchone()
    check(n == len(rows), "duckdb count")
    check(black == sum(r["side"] == "black" for r in rows), "duckdb black rows")
    kind = con.execute(
        "SELECT typeof(player) FROM read_parquet(?) LIMIT 1", [paths["parquet"]]
    ).fetchone()[0]
    check(kind == "UBIGINT", f"duckdb reads player as {kind}")
    return len(rows)


def check_table(binary, source, work):
    """`convert --to parquet` against `convert --to csv`, when kifu has it."""
    formats = kifu(binary, "formats").stdout
    if not re.search(r"^parquet\s", formats, re.MULTILINE):
        print("check-outputs: this kifu has no convert --to parquet; skipped")
        return 0
    csv_path = os.path.join(work, "games.csv")
    pq_path = os.path.join(work, "games.parquet")
    kifu(binary, "convert", source, "-q", "-o", csv_path)
    kifu(binary, "convert", source, "-q", "-o", pq_path)
    with open(csv_path, newline="") as f:
        reader = csv.DictReader(f)
        header = reader.fieldnames
        rows = list(reader)
    table = pq.read_table(pq_path)
    check(table.schema.names == header, f"convert parquet columns {table.schema.names}")
    check(table.num_rows == len(rows), "convert parquet rows = CSV rows")
    columns = table.to_pydict()
    for name in header:
        for want, got in zip((r[name] for r in rows), columns[name]):
            if want == "":
                ok = got is None
            elif isinstance(got, str):
                ok = got == want
            else:
                ok = got == int(want)
            check(ok, f"convert parquet {name}: {got!r} vs CSV {want!r}")
    for name in ("index", "move_count", "black_discs", "black_score"):
        check(pa.types.is_integer(table.schema.field(name).type), f"convert parquet {name} is an integer")
    con = duckdb.connect()
    n = con.execute("SELECT count(*) FROM read_parquet(?)", [pq_path]).fetchone()[0]
    check(n == len(rows), "duckdb count of the games")
    return len(rows)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    binary, source = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(dir=sys.argv[3] if len(sys.argv) == 4 else None) as work:
        positions = check_positions(binary, source, work)
        games = check_table(binary, source, work)
    print(
        f"check-outputs: {positions} positions and {games} games of {source} read by "
        f"numpy {np.__version__}, pyarrow {pa.__version__}, duckdb {duckdb.__version__}: "
        f"{checks} passed, 0 failed"
    )


if __name__ == "__main__":
    main()
