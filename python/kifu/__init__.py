"""kifu: Othello (Reversi) game records for Python and machine learning.

Reads WTHOR, GGF, SGF, PGN, transcripts, CSV, JSON Lines, score sheets,
Parquet and Othello-GPT token arrays (compressed too), replays every move
on a bitboard to prove it legal, and hands back games, tables and arrays.
The work runs in Rust (the kifu library the ``kifu`` command is built on),
on every core, with the GIL released.

>>> import kifu
>>> board = kifu.Board.from_moves("f5d6c3")
>>> board.side_to_move, board.discs()
('white', (5, 2))

Functions that read games take one path or a list of paths, ``format=``
(default: from the extension, then the content) and the filters of the
command line as keyword arguments: ``player``, ``black``, ``white``,
``event``, ``year`` (``2004``, ``"2000..2010"`` or ``(2000, 2010)``),
``status`` (``"complete"`` or a list), ``winner``, ``opening``,
``position`` (moves or a board), ``exclude`` (files whose games, under any
of the 8 symmetries, are left out), ``unique``, and the reading options
``moves_column``, ``names`` (WTHOR name files) and ``jobs`` (threads,
0 for every core), and the part of the games to take: ``shard`` (``(k,
n)`` or ``"k/n"``: shard k of n, as ``--shard``) or ``games`` (``(start,
end)``: the games start..end, counted from 0 over every file). Long jobs
over an archive on a Dask cluster are in :mod:`kifu.distributed`.
"""

from __future__ import annotations

import os
import warnings
from typing import Any, Dict, Iterable, List, Optional, Union

import numpy as np

from . import _kifu
from .errors import (
    IllegalMoveError,
    KifuError,
    KifuWarning,
    ParseError,
    ReadError,
    UsageError,
)

__version__ = _kifu.__version__

Board = _kifu.Board
Game = _kifu.Game
GameStream = _kifu.GameStream

Paths = Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]]

#: The dtype of ``kifu.positions`` and of ``kifu positions --to npy``.
POSITION_DTYPE = np.dtype(
    [
        ("player", "<u8"),
        ("opponent", "<u8"),
        ("move", "u1"),
        ("ply", "u1"),
        ("empties", "u1"),
        ("side", "u1"),
        ("score", "i1"),
        ("game", "<u4"),
    ]
)

#: The token of each square (Othello-GPT's vocabulary): ``"a1"`` is 1,
#: ``"f5"`` 41, ``"h8"`` 60; d4, e4, d5 and e5 have none. 0 is padding.
TOKEN_OF: Dict[str, int] = dict(_kifu.vocabulary())

#: The square of each token 1..60.
SQUARE_OF: Dict[int, str] = {t: s for s, t in TOKEN_OF.items()}

#: ``score`` in a position without one (``all_games=True``).
NO_SCORE = -128

__all__ = [
    "Board",
    "Game",
    "GameStream",
    "read",
    "table",
    "positions",
    "tokens",
    "tensors",
    "solve",
    "analyze",
    "POSITION_DTYPE",
    "TOKEN_OF",
    "SQUARE_OF",
    "NO_SCORE",
    "KifuError",
    "ParseError",
    "ReadError",
    "UsageError",
    "IllegalMoveError",
    "KifuWarning",
]


def read(paths: Paths, format: Optional[str] = None, **filters: Any) -> GameStream:
    """Stream the games of one or more files as :class:`kifu.Game` objects.

    Every game is replayed and checked on the way, in threads of kifu's
    own; memory stays bounded whatever the size of the input (a few
    thousand games are read ahead). A game that breaks the rules comes as
    a ``Game`` with ``status == "invalid"`` and its ``error``; an input
    that cannot be read raises :class:`kifu.ReadError` or
    :class:`kifu.ParseError` with its place, after the games before it.

    >>> import kifu, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "games.txt")
    >>> _ = open(path, "w").write("f5d6c3d3c4\\nf5d6c5f6e7f4g5e6e3\\nf5e5\\n")
    >>> [(g.index, g.status, g.error) for g in kifu.read(path)]
    [(1, 'incomplete', None), (2, 'complete', None), (3, 'invalid', (2, 'square occupied'))]
    >>> [g.moves[:3] for g in kifu.read(path, opening="tiger")]
    [['f5', 'd6', 'c3']]
    """
    return _kifu.read(paths, format, **filters)


def table(
    paths: Paths, format: Optional[str] = None, as_pandas: bool = False, **filters: Any
) -> Any:
    """The game table (``kifu convert --to csv``'s columns, typed) as a
    ``pyarrow.Table``, or a ``pandas.DataFrame`` with ``as_pandas=True``.

    Needs pyarrow (and pandas for ``as_pandas``).

    >>> import kifu, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "games.txt")
    >>> _ = open(path, "w").write("f5d6c5f6e7f4g5e6e3\\n")
    >>> t = kifu.table(path)
    >>> t.column("black_score").to_pylist(), t.column("winner").to_pylist()
    ([64], ['black'])
    """
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as e:  # pragma: no cover - depends on the machine
        raise ImportError("kifu.table needs pyarrow: pip install pyarrow") from e
    data = _kifu.table_parquet(paths, format, **filters)
    result = pq.read_table(pa.BufferReader(data))
    if as_pandas:
        return result.to_pandas()
    return result


def positions(
    paths: Paths,
    format: Optional[str] = None,
    *,
    empties: Union[None, int, str, tuple] = None,
    symmetries: bool = False,
    all_games: bool = False,
    **filters: Any,
) -> np.ndarray:
    """The training positions of ``kifu positions``: a structured array of
    :data:`POSITION_DTYPE`, the same records as its ``.npy``, byte for byte.

    One row per position in which the side to move places a disc, in every
    complete game (``all_games=True``: incomplete ones too, and invalid
    ones up to their first bad move, with ``score`` -128). ``empties``
    keeps positions with that many empty squares (``20``, ``"20..40"`` or
    ``(20, 40)``); ``symmetries`` adds each position's 7 other images;
    ``unique=True`` keeps the first row of each distinct position.

    >>> import kifu, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "games.txt")
    >>> _ = open(path, "w").write("f5d6c5f6e7f4g5e6e3\\n")
    >>> a = kifu.positions(path)
    >>> len(a), a["score"][:2].tolist(), a["side"][:2].tolist()
    (9, [64, -64], [0, 1])
    """
    raw = _kifu.positions_bytes(paths, format, empties, symmetries, all_games, **filters)
    return raw.view(POSITION_DTYPE)


def tokens(paths: Paths, format: Optional[str] = None, **filters: Any) -> np.ndarray:
    """Othello-GPT tokens: an ``int8`` array of shape ``[games, 60]``,
    each game's squares as tokens (:data:`TOKEN_OF`), 0-padded — what
    ``kifu convert --to tokens`` writes.

    A game the vocabulary cannot hold (another start, a move on a centre
    square) is left out and named in one :class:`kifu.KifuWarning`.

    >>> import kifu, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "games.txt")
    >>> _ = open(path, "w").write("f5d6c3d3c4\\n")
    >>> kifu.tokens(path)[0, :6].tolist()
    [41, 28, 19, 27, 20, 0]
    """
    raw, left_out = _kifu.token_bytes(paths, format, **filters)
    if left_out:
        shown = "; ".join(left_out[:5])
        more = f" (and {len(left_out) - 5} more)" if len(left_out) > 5 else ""
        warnings.warn(
            f"{len(left_out)} games tokens cannot hold were left out: {shown}{more}",
            KifuWarning,
            stacklevel=2,
        )
    return raw.reshape(-1, 60)


def tensors(
    paths: Paths,
    format: Optional[str] = None,
    *,
    empties: Union[None, int, str, tuple] = None,
    all_games: bool = False,
    **filters: Any,
) -> Dict[str, np.ndarray]:
    """Per-move tensors, as ``kifu positions --to npz`` writes them: for
    each disc placed, the board before the move as the side to move sees
    it, with the side to move taken from the replay (a pass never shifts
    them).

    A dict of arrays with one row per move: ``mine``, ``theirs``,
    ``empty``, ``legal``, ``flipped`` (``bool``, ``[n, 8, 8]``, row 1 to 8,
    column a to h), ``move`` (square index 0-63), ``ply``, ``side``
    (0 black, 1 white), ``score`` (final, from the mover's side) and
    ``game`` (its number in the run).

    >>> import kifu, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "games.txt")
    >>> _ = open(path, "w").write("f5d6c5f6e7f4g5e6e3\\n")
    >>> t = kifu.tensors(path)
    >>> t["legal"].shape, int(t["legal"][0].sum()), int(t["flipped"][0].sum())
    ((9, 8, 8), 4, 1)
    """
    arrays = _kifu.tensor_arrays(paths, format, empties, all_games, **filters)
    out: Dict[str, np.ndarray] = {}
    for name, value in arrays.items():
        if name in ("mine", "theirs", "empty", "legal", "flipped"):
            out[name] = value.view(np.bool_).reshape(-1, 8, 8)
        else:
            out[name] = value
    return out


def solve(
    board: Union["Board", str],
    *,
    all_moves: bool = False,
    hash_mb: int = 256,
    max_empties: int = 30,
) -> Dict[str, Any]:
    """The exact value of a position (``kifu solve``): the final disc
    difference for the side to move under perfect play, empties to the
    winner; its best moves and a best line; ``all_moves=True`` adds every
    legal move's value (``moves``). ``board`` is a :class:`kifu.Board` or
    moves from the start. ``hash_mb`` bounds the solver's table: 16 MB
    for 20 empty squares or fewer, twice that for each one beyond, and
    never more than a quarter of the machine's memory.

    >>> import kifu
    >>> board = kifu.Board("OOOOO----OXXOO--XXOOXOOOOOXOOXOOOOXXOOXOXXXOOXOO-XXXXO-O-OOOOOO- X")
    >>> r = kifu.solve(board)
    >>> r["value"], r["best_moves"], r["line"][:5]
    (18, ['a2'], ['a2', 'g7', 'h8', 'a8', 'a7'])
    """
    if isinstance(board, str):
        board = Board.from_moves(board)
    return _kifu.solve(board, all_moves, hash_mb, max_empties)


def analyze(
    paths: Paths,
    format: Optional[str] = None,
    *,
    empties: int = 20,
    depth: int = 10,
    hash_mb: int = 256,
    selectivity: str = "careful",
    weights: Optional[Union[str, "os.PathLike[str]"]] = None,
    **filters: Any,
) -> List[Dict[str, Any]]:
    """Each game judged (``kifu analyze``): exactly from its first position
    with at most ``empties`` empty squares, and before that by a
    ``depth``-move search (estimates, each move's ``exact`` False; 0 for
    the endgame only): each move's value, the best moves and the loss, per
    game as a dict with the CSV's fields and a ``moves`` list.
    ``selectivity`` is how boldly the search cuts its tree (``"off"``,
    ``"careful"``, ``"bold"``: several times faster at a depth, a little
    less sure), as ``--selectivity``. ``weights`` is a file ``kifu
    train-eval`` wrote, the search's evaluation instead of the built-in
    one (``--weights``; the exact part is the same with any weights).

    >>> import kifu, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "games.txt")
    >>> _ = open(path, "w").write("f5d6c5f6e7f4g5e6e3\\n")
    >>> [g["black_loss"] for g in kifu.analyze(path)]
    [0]
    """
    return _kifu.analyze(paths, format, empties, depth, hash_mb, selectivity,
                         None if weights is None else os.fspath(weights), **filters)
