"""The exceptions of kifu, each carrying the place the command line names.

Every error kifu raises is a :class:`KifuError`; the attributes say where
(``path``, ``line``, ``column``, ``byte``, ``game``, ``move``) and what
(``reason``, ``argument``), ``None`` where they do not apply. A bad game in
a stream is never an exception: it is a ``Game`` whose ``status`` is
``"invalid"``.

>>> import kifu
>>> try:
...     kifu.Board().play("a1")
... except kifu.IllegalMoveError as e:
...     print(e)
black a1: flips nothing
"""

from __future__ import annotations

from typing import Optional

__all__ = [
    "KifuError",
    "ParseError",
    "ReadError",
    "UsageError",
    "IllegalMoveError",
    "KifuWarning",
]


class KifuError(Exception):
    """Any error of kifu: the message is the command line's."""

    def __init__(
        self,
        message: str,
        *,
        path: Optional[str] = None,
        line: Optional[int] = None,
        column: Optional[int] = None,
        byte: Optional[int] = None,
        game: Optional[int] = None,
        move: Optional[int] = None,
        reason: Optional[str] = None,
        argument: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        self.byte = byte
        self.game = game
        self.move = move
        self.reason = reason
        self.argument = argument


class ParseError(KifuError, ValueError):
    """An input that cannot be read on from a place (a broken header, a
    record cut short, a Parquet file without a games column)."""


class ReadError(KifuError, OSError):
    """An input that cannot be opened or read (missing, a folder, an I/O
    failure)."""


class UsageError(KifuError, ValueError):
    """A bad argument: ``argument`` names it."""


class IllegalMoveError(KifuError, ValueError):
    """A move the rules refuse, on a :class:`kifu.Board`."""


class KifuWarning(UserWarning):
    """What kifu notes on the way (WTHOR name files not found, games a
    format cannot hold left out)."""
