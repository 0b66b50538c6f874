// The board: 64 squares as buttons in a grid with coordinates around it,
// discs, the last move marked, legal moves shown, and text drawn on
// squares (the browser's next moves). Shared by the game page and the
// database browser.

import { BLACK, WHITE, EMPTY, squareName, legalMoves } from './othello.js';
import { element } from './dom.js';

export class Board {
  // `onSquare(square)` is called when a square is clicked (or chosen by
  // keyboard); `label` names the board for screen readers.
  constructor(container, { onSquare, label }) {
    this.onSquare = onSquare;
    this.root = element('div', 'board');
    this.root.setAttribute('role', 'group');
    this.root.setAttribute('aria-label', label);
    const files = 'abcdefgh';
    const corner = () => this.root.append(element('span', 'coord corner'));
    const fileRow = () => {
      corner();
      for (const f of files) this.root.append(element('span', 'coord file', f));
      corner();
    };
    fileRow();
    this.squares = [];
    for (let row = 0; row < 8; row++) {
      this.root.append(element('span', 'coord rank', String(row + 1)));
      for (let column = 0; column < 8; column++) {
        const square = row * 8 + column;
        const button = element('button', 'square');
        button.type = 'button';
        button.dataset.square = squareName(square);
        button.append(element('span', 'disc'), element('span', 'note'));
        button.addEventListener('click', () => this.onSquare && this.onSquare(square));
        this.root.append(button);
        this.squares.push(button);
      }
      this.root.append(element('span', 'coord rank', String(row + 1)));
    }
    fileRow();
    container.append(this.root);
  }

  // Draws `position`: `last` the square of the last move (or null),
  // `showLegal` marks the side to move's legal moves, `notes` maps a square
  // to { lines: [text...], label, rank } drawn on it.
  draw(position, { last = null, showLegal = true, notes = new Map() } = {}) {
    const legal = new Set(showLegal ? legalMoves(position) : []);
    for (let square = 0; square < 64; square++) {
      const button = this.squares[square];
      const cell = position.cells[square];
      const note = notes.get(square);
      button.classList.toggle('black', cell === BLACK);
      button.classList.toggle('white', cell === WHITE);
      button.classList.toggle('last', square === last);
      button.classList.toggle('legal', cell === EMPTY && legal.has(square) && !note);
      button.classList.toggle('noted', Boolean(note));
      button.classList.toggle('top', Boolean(note && note.rank === 0));
      const text = button.querySelector('.note');
      text.textContent = '';
      if (note) {
        for (const line of note.lines) text.append(element('span', null, line));
      }
      let label = squareName(square) + ': ';
      if (cell === BLACK) label += 'black';
      else if (cell === WHITE) label += 'white';
      else label += note ? note.label : legal.has(square) ? 'empty, legal move' : 'empty';
      if (square === last) label += ', last move';
      button.setAttribute('aria-label', label);
      button.dataset.cell = cell === BLACK ? 'X' : cell === WHITE ? 'O' : '-';
      // Only squares a click does something on are in the tab order.
      const active = Boolean(note) || (cell === EMPTY && legal.has(square));
      button.tabIndex = active ? 0 : -1;
      button.setAttribute('aria-disabled', active ? 'false' : 'true');
    }
  }
}
