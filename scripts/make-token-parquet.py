#!/usr/bin/env python3
"""Writes a Parquet file of Othello-GPT token games for the benchmarks, as
the Hugging Face sets store them (a `tokens` column, a list of integers
per game, othello_world's vocabulary): make-token-parquet.py OUT.parquet
[GAMES] [DISTINCT].

DISTINCT random legal games (default 250,000, played to the end with
kifu.Board, seeded) are repeated, each repeat shuffled, up to GAMES
(default 24,000,000), in row groups of 1,000,000 games: every game is
still replayed and checked when read. Needs the kifu package and pyarrow.
"""

import random
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import kifu


def random_games(n: int, seed: int = 2026):
    rng = random.Random(seed)
    token = kifu.TOKEN_OF
    games = []
    for _ in range(n):
        board, row = kifu.Board(), []
        while True:
            moves = board.legal_moves()
            if not moves:
                if board.is_over():
                    break
                board.pass_()
                continue
            m = rng.choice(moves)
            board.play(m)
            row.append(token[m])
        games.append(row)
    return games


def main() -> None:
    out = sys.argv[1]
    total = int(sys.argv[2]) if len(sys.argv) > 2 else 24_000_000
    distinct = int(sys.argv[3]) if len(sys.argv) > 3 else 250_000
    games = random_games(min(distinct, total))
    lengths = np.array([len(g) for g in games], dtype=np.int32)
    flat = np.concatenate([np.array(g, dtype=np.int64) for g in games])
    starts = np.concatenate([[0], np.cumsum(lengths)])
    rng = np.random.default_rng(7)
    schema = pa.schema([("tokens", pa.list_(pa.int64()))])
    group = 1_000_000
    with pq.ParquetWriter(out, schema, compression="snappy") as writer:
        written = 0
        while written < total:
            n = min(group, total - written)
            pick = rng.integers(0, len(games), n)
            lens = lengths[pick]
            offsets = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
            values = np.concatenate([flat[starts[i] : starts[i + 1]] for i in pick])
            array = pa.ListArray.from_arrays(pa.array(offsets), pa.array(values))
            writer.write_table(pa.table({"tokens": array}, schema=schema), row_group_size=group)
            written += n
    print(f"{out}: {total} games ({len(games)} distinct)", file=sys.stderr)


if __name__ == "__main__":
    main()
