// Lists of games as tables: one row a game (number, players, event or
// year, result, opening), each opened by a click or Enter. The game page
// lists the file's games with a search box; the browser lists the games
// that reached the position, a page at a time. Shared by both.

import { element, headedTable } from './dom.js';

// Fills `tbody` with `rows` ({ number, cells: [text...], label }); a click
// on a row (or Enter on its button) calls `onOpen(row)`.
export function renderGameRows(tbody, rows, onOpen, current = null) {
  tbody.textContent = '';
  for (const row of rows) {
    const tr = element('tr');
    if (current !== null && row.number === current) {
      tr.classList.add('current');
      tr.setAttribute('aria-current', 'true');
    }
    const first = element('td');
    const button = element('button', 'open', String(row.number));
    button.type = 'button';
    button.setAttribute('aria-label', `open game ${row.label}`);
    button.addEventListener('click', (event) => {
      event.stopPropagation();
      onOpen(row);
    });
    first.append(button);
    tr.append(first);
    for (const cell of row.cells) tr.append(element('td', null, cell || '–'));
    tr.addEventListener('click', () => onOpen(row));
    tbody.append(tr);
  }
}

// The game page's list: every game of the file, searched by any words of
// its row (players, event, date, result, opening).
export class GameList {
  constructor(container, games, onSelect) {
    this.games = games;
    this.onSelect = onSelect;
    this.current = null;
    this.shown = 200;
    if (games.length > 5) {
      const label = element('label', 'search');
      label.append('Search ');
      this.search = element('input');
      this.search.type = 'search';
      this.search.placeholder = 'player, event, year, opening…';
      this.search.addEventListener('input', () => {
        this.shown = 200;
        this.render();
      });
      label.append(this.search);
      container.append(label);
    }
    const { table, body } = headedTable('games', ['#', 'Black', 'White', 'Event', 'Date', 'Result', 'Opening']);
    this.body = body;
    const wrap = element('div', 'games-wrap');
    wrap.append(table);
    this.more = element('p', 'more');
    container.append(wrap, this.more);
    this.texts = games.map((g) => [g.black, g.white, g.event, g.date, g.result, g.opening].join(' ').toLowerCase());
    this.render();
  }

  matches() {
    const words = this.search ? this.search.value.toLowerCase().split(/\s+/).filter(Boolean) : [];
    const out = [];
    for (let i = 0; i < this.games.length; i++) {
      if (words.every((w) => this.texts[i].includes(w))) out.push(i);
    }
    return out;
  }

  render() {
    const found = this.matches();
    const rows = found.slice(0, this.shown).map((i) => {
      const g = this.games[i];
      return {
        number: i + 1,
        cells: [g.black, g.white, g.event, g.date, g.result, g.opening],
        label: `${i + 1}: ${g.black || '?'} against ${g.white || '?'}, ${g.result || ''}`,
      };
    });
    renderGameRows(this.body, rows, (row) => this.onSelect(row.number - 1), this.current === null ? null : this.current + 1);
    this.more.textContent = '';
    if (found.length > this.shown) {
      this.more.append(`${found.length - this.shown} more games match. `);
      const button = element('button', null, 'Show more');
      button.type = 'button';
      button.addEventListener('click', () => {
        this.shown += 500;
        this.render();
      });
      this.more.append(button);
    } else if (this.search && this.search.value) {
      this.more.textContent = `${found.length} of ${this.games.length} games match.`;
    }
  }

  select(index) {
    this.current = index;
    for (const tr of this.body.children) {
      const number = Number(tr.querySelector('button.open').textContent);
      const on = number === index + 1;
      tr.classList.toggle('current', on);
      if (on) tr.setAttribute('aria-current', 'true');
      else tr.removeAttribute('aria-current');
    }
  }
}
