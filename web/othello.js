// Othello's rules for the pages: positions, legal moves and flips, and a
// record's replay with the passes it leaves out, as kifu replays it.
// Squares are numbered as kifu numbers them: a1 = 0, b1 = 1, ..., h1 = 7,
// a2 = 8, ..., h8 = 63.

export const EMPTY = 0;
export const BLACK = 1;
export const WHITE = 2;

const FILES = 'abcdefgh';
const DIRECTIONS = [[0, 1], [0, -1], [1, 0], [-1, 0], [1, 1], [1, -1], [-1, 1], [-1, -1]];

export function colorName(color) {
  return color === BLACK ? 'Black' : 'White';
}

export function other(color) {
  return color === BLACK ? WHITE : BLACK;
}

export function squareName(square) {
  return FILES[square % 8] + (Math.floor(square / 8) + 1);
}

// The square of a name such as `f5` or `F5`; -1 when it is none.
export function parseSquare(text) {
  if (typeof text !== 'string' || text.length !== 2) return -1;
  const column = FILES.indexOf(text[0].toLowerCase());
  const row = text.charCodeAt(1) - 49;
  return column < 0 || row < 0 || row > 7 ? -1 : row * 8 + column;
}

export function startPosition() {
  const cells = new Uint8Array(64);
  cells[27] = WHITE; // d4
  cells[28] = BLACK; // e4
  cells[35] = BLACK; // d5
  cells[36] = WHITE; // e5
  return { cells, toMove: BLACK };
}

// A board as kifu writes one: 64 squares (X or * Black, O White, - or .
// empty) and the side to move; null when it is not one.
export function parseBoard(text) {
  const squares = text.replace(/\s+/g, '');
  const match = /^([XxOo*.-]{64});?([XxOoBbWw*]);?$/.exec(squares);
  if (!match) return null;
  const cells = new Uint8Array(64);
  for (let i = 0; i < 64; i++) {
    const c = match[1][i].toUpperCase();
    cells[i] = c === 'X' || c === '*' ? BLACK : c === 'O' ? WHITE : EMPTY;
  }
  const side = match[2].toUpperCase();
  return { cells, toMove: side === 'X' || side === 'B' || side === '*' ? BLACK : WHITE };
}

// The board text kifu reads: `---...OX... X`.
export function boardText(position) {
  let out = '';
  for (const cell of position.cells) out += cell === BLACK ? 'X' : cell === WHITE ? 'O' : '-';
  return out + (position.toMove === BLACK ? ' X' : ' O');
}

// The discs `color` would flip by playing on `square` (none when the
// square is taken or the move flips nothing).
export function flips(position, square, color = position.toMove) {
  const cells = position.cells;
  if (cells[square] !== EMPTY) return [];
  const them = other(color);
  const row = Math.floor(square / 8);
  const column = square % 8;
  const out = [];
  for (const [dr, dc] of DIRECTIONS) {
    const line = [];
    let r = row + dr;
    let c = column + dc;
    while (r >= 0 && r < 8 && c >= 0 && c < 8 && cells[r * 8 + c] === them) {
      line.push(r * 8 + c);
      r += dr;
      c += dc;
    }
    if (line.length > 0 && r >= 0 && r < 8 && c >= 0 && c < 8 && cells[r * 8 + c] === color) {
      out.push(...line);
    }
  }
  return out;
}

export function legalMoves(position, color = position.toMove) {
  const out = [];
  for (let square = 0; square < 64; square++) {
    if (position.cells[square] === EMPTY && flips(position, square, color).length > 0) out.push(square);
  }
  return out;
}

export function isOver(position) {
  return legalMoves(position, BLACK).length === 0 && legalMoves(position, WHITE).length === 0;
}

export function counts(position) {
  let black = 0;
  let white = 0;
  for (const cell of position.cells) {
    if (cell === BLACK) black++;
    else if (cell === WHITE) white++;
  }
  return { black, white, empty: 64 - black - white };
}

// The position after `color` plays `square` (its flips known).
function placed(position, square, color, flipped) {
  const cells = position.cells.slice();
  cells[square] = color;
  for (const f of flipped) cells[f] = color;
  return { cells, toMove: other(color) };
}

export function passed(position) {
  return { cells: position.cells, toMove: other(position.toMove) };
}

// Plays one move token (a square, or -1 for a pass) as kifu's replay does:
// a square the side to move cannot play is the other side's after a pass
// the record left out, when the side to move has no move at all.
// Returns { position, color, passBefore, flipped } or { error }.
export function step(position, square) {
  const mover = position.toMove;
  const mine = legalMoves(position).length > 0;
  const theirs = legalMoves(position, other(mover)).length > 0;
  if (square < 0) {
    if (mine) return { error: `pass not allowed: ${colorName(mover)} has moves` };
    if (!theirs) return { error: 'move after the game ended' };
    return { position: passed(position), color: mover, passBefore: false, flipped: [] };
  }
  const flipped = flips(position, square, mover);
  if (flipped.length > 0) {
    return { position: placed(position, square, mover, flipped), color: mover, passBefore: false, flipped };
  }
  if (!mine && !theirs) return { error: 'move after the game ended' };
  if (!mine) {
    const theirFlips = flips(position, square, other(mover));
    if (theirFlips.length > 0) {
      return {
        position: placed(position, square, other(mover), theirFlips),
        color: other(mover),
        passBefore: true,
        flipped: theirFlips,
      };
    }
  }
  return { error: position.cells[square] !== EMPTY ? 'square occupied' : 'flips nothing' };
}

// Replays move tokens (square names, `--` or `pass` for a pass, anything
// else unreadable) from `start`: every position after each token, and the
// first error. steps[k] is the state after k tokens (steps[0] the start).
export function replay(start, tokens) {
  const steps = [{ position: start, token: null, color: null, square: null, passBefore: false, flipped: [] }];
  let position = start;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const square = token === '--' || token.toLowerCase() === 'pass' ? -1 : parseSquare(token);
    if (square < 0 && !(token === '--' || token.toLowerCase() === 'pass')) {
      return { steps, error: { index: i, token, reason: 'not a square' } };
    }
    const played = step(position, square);
    if (played.error) return { steps, error: { index: i, token, reason: played.error } };
    position = played.position;
    steps.push({
      position,
      token,
      color: played.color,
      square: square < 0 ? null : square,
      passBefore: played.passBefore,
      flipped: played.flipped,
    });
  }
  return { steps, error: null };
}

// Splits a move string of two-character tokens (`f5d6--c3`).
export function splitMoves(text) {
  const out = [];
  for (let i = 0; i + 1 < text.length; i += 2) out.push(text.slice(i, i + 2));
  return out;
}

// The 8 symmetries of the board, as maps of squares.
const SYMMETRIES = [
  (r, c) => [r, c],
  (r, c) => [c, r],
  (r, c) => [7 - r, c],
  (r, c) => [r, 7 - c],
  (r, c) => [7 - r, 7 - c],
  (r, c) => [7 - c, 7 - r],
  (r, c) => [c, 7 - r],
  (r, c) => [7 - c, r],
];

// Whether `a` is `b` or one of its images, with the same side to move.
export function sameUpToSymmetry(a, b) {
  if (a.toMove !== b.toMove) return false;
  for (const map of SYMMETRIES) {
    let same = true;
    for (let square = 0; square < 64 && same; square++) {
      const [r, c] = map(Math.floor(square / 8), square % 8);
      same = a.cells[r * 8 + c] === b.cells[square];
    }
    if (same) return true;
  }
  return false;
}
