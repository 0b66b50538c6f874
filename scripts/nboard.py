"""Shared parts of the NBoard scripts (nboard-match.py, bench-eval-accuracy.py).

Python 3 standard library only. An Othello board with its own move
generator, GGF text for NBoard's `set game`, and a driver for an NBoard
engine (NTest's instructions/Protocol.htm describes the protocol) that
waits for every reply with a timeout, so a hung or dead engine is
reported, never waited for.

NTest's quirks under NBoard, respected here:
  - in a GGF board it reads '*' as black and 'O' as white ('X' is
    misread): boards are written with '*' and 'O';
  - any input during a search aborts the search: a command is sent only
    once the previous command's reply has come (=== for go, the final
    `status` for hint, pong for ping);
  - `hint` before a `go` that follows `set depth` crashes it: the scripts
    use `go` (and hint only after a go, if at all);
  - it does not give the empty squares to the winner at the end: scores
    are computed here (empties to the winner, a draw is 32-32).
"""

import os
import queue
import shlex
import subprocess
import threading
import time

BLACK, WHITE = 0, 1
FULL = (1 << 64) - 1
NOT_A = 0xFEFEFEFEFEFEFEFE  # squares not in column a
NOT_H = 0x7F7F7F7F7F7F7F7F  # squares not in column h
# (shift, mask applied after the shift); bit index = 8 * row + column, a1 = 0.
DIRECTIONS = [
    (1, NOT_A), (-1, NOT_H), (8, FULL), (-8, FULL),
    (9, NOT_A), (7, NOT_H), (-7, NOT_A), (-9, NOT_H),
]


def _shift(bits, amount, mask):
    if amount > 0:
        return (bits << amount) & mask & FULL
    return (bits >> -amount) & mask


def square_name(index):
    return "abcdefgh"[index % 8] + str(index // 8 + 1)


def square_index(name):
    name = name.strip().lower()
    if len(name) != 2 or name[0] not in "abcdefgh" or name[1] not in "12345678":
        raise ValueError(f"not a square: {name!r}")
    return (int(name[1]) - 1) * 8 + "abcdefgh".index(name[0])


def popcount(bits):
    return bin(bits).count("1")


class Board:
    """A position: discs of the side to move and of the other side."""

    def __init__(self, black=None, white=None, side=BLACK):
        if black is None:
            black = (1 << square_index("d5")) | (1 << square_index("e4"))
            white = (1 << square_index("d4")) | (1 << square_index("e5"))
        self.black, self.white, self.side = black, white, side

    def copy(self):
        return Board(self.black, self.white, self.side)

    def own_other(self):
        if self.side == BLACK:
            return self.black, self.white
        return self.white, self.black

    def moves(self):
        own, other = self.own_other()
        empty = ~(own | other) & FULL
        legal = 0
        for amount, mask in DIRECTIONS:
            run = _shift(own, amount, mask) & other
            for _ in range(5):
                run |= _shift(run, amount, mask) & other
            legal |= _shift(run, amount, mask) & empty
        return legal

    def move_list(self):
        bits, out = self.moves(), []
        while bits:
            low = bits & -bits
            out.append(low.bit_length() - 1)
            bits ^= low
        return out

    def flips(self, index):
        own, other = self.own_other()
        flipped = 0
        start = 1 << index
        for amount, mask in DIRECTIONS:
            run, cursor = 0, _shift(start, amount, mask)
            while cursor & other:
                run |= cursor
                cursor = _shift(cursor, amount, mask)
            if cursor & own:
                flipped |= run
        return flipped

    def play(self, index):
        """Plays a legal move (raises ValueError on an illegal one)."""
        if not (self.moves() >> index) & 1:
            raise ValueError(f"illegal move {square_name(index)}")
        flipped = self.flips(index)
        own, other = self.own_other()
        own |= flipped | (1 << index)
        other &= ~flipped
        if self.side == BLACK:
            self.black, self.white = own, other
        else:
            self.white, self.black = own, other
        self.side ^= 1

    def pass_turn(self):
        self.side ^= 1

    def game_over(self):
        if self.moves():
            return False
        self.side ^= 1
        over = not self.moves()
        self.side ^= 1
        return over

    def empties(self):
        return 64 - popcount(self.black | self.white)

    def final_black_diff(self):
        """Black's disc difference, the empty squares to the winner."""
        b, w = popcount(self.black), popcount(self.white)
        empty = 64 - b - w
        if b > w:
            b += empty
        elif w > b:
            w += empty
        return b - w

    def ggf_board(self):
        """The board as GGF's BO[] value: '*' black (NTest misreads 'X')."""
        cells = []
        for i in range(64):
            if (self.black >> i) & 1:
                cells.append("*")
            elif (self.white >> i) & 1:
                cells.append("O")
            else:
                cells.append("-")
        return "8 " + "".join(cells) + " " + ("*" if self.side == BLACK else "O")

    def text(self):
        """64 squares a1..h8 ('X' black, 'O' white, '-' empty), then the side."""
        cells = "".join(
            "X" if (self.black >> i) & 1 else "O" if (self.white >> i) & 1 else "-"
            for i in range(64))
        return cells + " " + ("X" if self.side == BLACK else "O")


def replay(moves_text, board=None):
    """Replays concatenated moves ('f5d6...'), placing forced passes.

    Returns (board, moves as indices, passes included as None).
    Raises ValueError naming the move number on an illegal move."""
    board = board.copy() if board else Board()
    played = []
    text = moves_text.strip().lower()
    if len(text) % 2:
        raise ValueError(f"odd length move list: {moves_text!r}")
    for n in range(0, len(text), 2):
        token = text[n:n + 2]
        if token in ("pa", "ps", "--"):
            board.pass_turn()
            played.append(None)
            continue
        if not board.moves() and not board.game_over():
            board.pass_turn()
            played.append(None)
        try:
            index = square_index(token)
            board.play(index)
        except ValueError as err:
            raise ValueError(f"move {n // 2 + 1} ({token}): {err}") from None
        played.append(index)
    return board, played


def ggf_game(start, moves, black_name="black", white_name="white", clock=None,
             place="kifu"):
    """GGF text of a game from START (a Board) with MOVES (indices, None = pass).

    clock: None, or a GGF clock string for TI[] (both sides)."""
    parts = ["(;GM[Othello]", f"PC[{place}]",
             f"DT[{time.strftime('%Y.%m.%d_%H:%M:%S.UTC', time.gmtime())}]",
             f"PB[{black_name}]", f"PW[{white_name}]", "RE[?]"]
    if clock is not None:
        parts.append(f"TI[{clock}]")
    parts.append("TY[8]")
    parts.append(f"BO[{start.ggf_board()}]")
    side = start.side
    for index in moves:
        tag = "B" if side == BLACK else "W"
        parts.append(f"{tag}[{'PA' if index is None else square_name(index).upper()}]")
        side ^= 1
    parts.append(";)")
    return "".join(parts)


def ggf_clock(seconds, increment=0.0):
    """A GGF clock (TI[]) value: whole seconds as m:ss, optional increment."""
    def fmt(total):
        total = int(round(total))
        return f"{total // 60}:{total % 60:02d}"
    text = fmt(seconds)
    if increment:
        text += "/" + fmt(increment)
    return text


class EngineError(Exception):
    """The engine died, hung (no reply within the timeout) or answered nonsense."""


class Engine:
    """An NBoard engine in a child process: one command at a time."""

    def __init__(self, command, cwd=None, name=None, log=None, start_timeout=120.0):
        self.argv = shlex.split(command)
        self.cwd = cwd or None
        self.name = name or os.path.basename(self.argv[0])
        self.log = log
        self.ping_number = 0
        self.myname = None
        self.proc = None
        self.lines = queue.Queue()
        try:
            self.start(start_timeout)
        except EngineError:
            self.kill()  # no process left behind when the start fails
            raise

    def start(self, timeout):
        if self.cwd and not os.path.isdir(self.cwd):
            raise EngineError(f"{self.name}: no folder {self.cwd}")
        try:
            self.proc = subprocess.Popen(
                self.argv, cwd=self.cwd, stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                text=True, bufsize=1, errors="replace")
        except OSError as err:
            raise EngineError(f"{self.name}: cannot start {self.argv!r}: {err}") from None
        self.lines = queue.Queue()
        threading.Thread(target=self._read, args=(self.proc, self.lines),
                         daemon=True).start()
        self.send("nboard 2")
        self.sync(timeout)

    @staticmethod
    def _read(proc, lines):
        for line in proc.stdout:
            lines.put(line.rstrip("\r\n"))
        lines.put(None)  # end of output

    def _log(self, direction, text):
        if self.log:
            self.log.write(f"{time.time():.3f} {self.name} {direction} {text}\n")
            self.log.flush()

    def send(self, line):
        self._log(">", line)
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineError(f"{self.name}: the engine has exited "
                              f"(status {self.proc.poll()})") from None

    def read_line(self, deadline):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise EngineError(f"{self.name}: no reply in time")
        try:
            line = self.lines.get(timeout=remaining)
        except queue.Empty:
            raise EngineError(f"{self.name}: no reply in time") from None
        if line is None:
            self.lines.put(None)
            raise EngineError(f"{self.name}: the engine has exited "
                              f"(status {self.proc.wait(timeout=5)})")
        self._log("<", line)
        if line.startswith("set myname "):
            self.myname = line[len("set myname "):].strip()
        return line

    def sync(self, timeout):
        """ping N, then reads until pong N: everything sent is processed."""
        self.ping_number += 1
        self.send(f"ping {self.ping_number}")
        deadline = time.monotonic() + timeout
        while True:
            line = self.read_line(deadline)
            words = line.split()
            if words[:2] == ["pong", str(self.ping_number)]:
                return

    def go(self, timeout):
        """go, then reads until `=== MOVE[/eval[/time]]`.

        Returns (move text, eval or None, search lines seen, seconds)."""
        started = time.monotonic()
        self.send("go")
        deadline = started + timeout
        searches = []
        while True:
            line = self.read_line(deadline)
            if line.startswith("==="):
                seconds = time.monotonic() - started
                fields = line[3:].strip().split("/")
                move = fields[0].strip()
                value = None
                if len(fields) > 1 and fields[1].strip():
                    try:
                        value = float(fields[1])
                    except ValueError:
                        value = None
                return move, value, searches, seconds
            if line.startswith("search ") or line.startswith("book "):
                searches.append(line)

    def close(self):
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                self.send("quit")
            except EngineError:
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None
