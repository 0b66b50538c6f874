// The database browser of `kifu serve`: the board at a position with each
// next move's games, win rate and average score on its square, a click to
// go on, back and forward (the browser's history too), a position typed
// or pasted, filters, the games that reached the position a page at a
// time, and a click to open one in the viewer. Its data comes from the
// JSON API (/api/explore, /api/games).

import { BLACK, WHITE, colorName, counts, legalMoves, parseBoard, boardText, parseSquare, replay, startPosition, splitMoves, passed, step } from './othello.js';
import { Board } from './board.js';
import { renderGameRows } from './gamelist.js';
import { element, headedTable } from './dom.js';

const FILTERS = ['player', 'black', 'white', 'event', 'year', 'status', 'winner', 'opening'];
const PAGE = 50;

function percent(part, whole) {
  return whole === 0 ? '–' : `${Math.round((part * 100) / whole)}%`;
}

function short(n) {
  if (n >= 10000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(n);
}

// What the URL says: the position (moves or a board), the filters, the
// page of games.
function readState() {
  const params = new URLSearchParams(location.search);
  const state = { moves: params.get('moves') || '', board: params.get('board'), filters: {}, offset: 0 };
  for (const name of FILTERS) {
    const value = params.get(name);
    if (value) state.filters[name] = value;
  }
  state.offset = Math.max(0, Number.parseInt(params.get('offset') || '0', 10) || 0);
  return state;
}

function query(state, extra = {}) {
  const params = new URLSearchParams();
  if (state.board) params.set('board', state.board);
  else if (state.moves) params.set('moves', state.moves);
  for (const [name, value] of Object.entries(state.filters)) params.set(name, value);
  for (const [name, value] of Object.entries(extra)) params.set(name, String(value));
  return params.toString();
}

// The position of a state, replayed here as the server replays it; the
// moves as tokens of two characters (a pass `--`).
function positionOf(state) {
  if (state.board) return { position: parseBoard(state.board), tokens: [] };
  const tokens = splitMoves(state.moves);
  const { steps, error } = replay(startPosition(), tokens);
  return { position: error ? null : steps[steps.length - 1].position, tokens, last: steps[steps.length - 1].square };
}

async function getJson(url) {
  const response = await fetch(url);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || `${response.status}`);
  return body;
}

export function startBrowser(root) {
  let state = readState();
  let forward = [];
  let request = 0;

  const header = element('header', 'top');
  header.append(element('h1', null, 'kifu: games by position'));
  const about = element('p', 'about');
  header.append(about);
  root.append(header);

  const main = element('main', 'browser');
  const left = element('section', 'play');
  left.setAttribute('aria-label', 'Position');
  const board = new Board(left, { label: 'Position: each next move with its games, win rate and average score', onSquare: (square) => playMove(square) });
  const controls = element('div', 'controls');
  const stepButton = (text, label, onClick) => {
    const b = element('button', 'step', text);
    b.type = 'button';
    b.title = label;
    b.setAttribute('aria-label', label);
    b.addEventListener('click', onClick);
    controls.append(b);
    return b;
  };
  stepButton('«', 'Start position', () => navigate({ ...state, moves: '', board: null, offset: 0 }));
  const backButton = stepButton('‹', 'Back one move', () => back());
  const forwardButton = stepButton('›', 'Forward again', () => {
    const next = forward.pop();
    if (next) navigate(next, true);
  });
  left.append(controls);
  const status = element('p', 'status');
  status.setAttribute('aria-live', 'polite');
  const line = element('p', 'line');
  left.append(status, line);

  const entry = element('form', 'entry');
  const entryLabel = element('label', null, 'Position ');
  const entryInput = element('input');
  entryInput.name = 'position';
  entryInput.placeholder = 'moves (f5d6c3) or a board of 64 squares and the side to move';
  entryInput.autocomplete = 'off';
  entryLabel.append(entryInput);
  const entryGo = element('button', null, 'Go');
  entryGo.type = 'submit';
  entry.append(entryLabel, entryGo);
  entry.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = entryInput.value.trim();
    const asBoard = parseBoard(text);
    if (asBoard) {
      navigate({ ...state, board: boardText(asBoard), moves: '', offset: 0 });
      return;
    }
    // Moves in any case, with separators and move numbers, passes as
    // `pass` or `--`; anything else goes to the server as typed, which
    // says what is wrong with it.
    const cleaned = text.toLowerCase().replace(/\d+\.+/g, ' ');
    const tokens = cleaned.match(/[a-h][1-8]|pass|ps|pa|--/g) || [];
    const junk = cleaned.replace(/[a-h][1-8]|pass|ps|pa|--/g, '').replace(/[\s,;-]/g, '');
    const moves = junk ? text : tokens.map((t) => (t.length === 2 && t !== 'ps' && t !== 'pa' && t !== '--' ? t : '--')).join('');
    navigate({ ...state, moves, board: null, offset: 0 });
  });
  left.append(entry);

  const filters = element('form', 'filters');
  filters.append(element('h2', null, 'Filters'));
  const inputs = {};
  for (const name of FILTERS) {
    const label = element('label', null, name + ' ');
    let input;
    if (name === 'status' || name === 'winner') {
      input = element('select');
      const choices = name === 'status' ? ['', 'complete', 'incomplete', 'invalid'] : ['', 'black', 'white', 'draw'];
      for (const c of choices) {
        const option = element('option', null, c || 'any');
        option.value = c;
        input.append(option);
      }
    } else {
      input = element('input');
      input.placeholder = name === 'year' ? '2004 or 2000..2010' : 'any';
    }
    input.name = name;
    inputs[name] = input;
    label.append(input);
    filters.append(label);
  }
  const apply = element('button', null, 'Apply');
  apply.type = 'submit';
  const clear = element('button', null, 'Clear');
  clear.type = 'button';
  clear.addEventListener('click', () => navigate({ ...state, filters: {}, offset: 0 }));
  filters.append(apply, clear);
  filters.addEventListener('submit', (event) => {
    event.preventDefault();
    const chosen = {};
    for (const name of FILTERS) {
      const value = inputs[name].value.trim();
      if (value) chosen[name] = value;
    }
    navigate({ ...state, filters: chosen, offset: 0 });
  });
  left.append(filters);
  main.append(left);

  const right = element('section', 'answers');
  right.setAttribute('aria-label', 'Next moves and games');
  const error = element('p', 'error');
  error.setAttribute('role', 'alert');
  right.append(error);
  right.append(element('h2', null, 'Next moves'));
  const { table: movesTable, body: movesBody } = headedTable('next-moves', ['Move', 'Games', '%', 'Black', 'Draw', 'White', 'Avg. Black']);
  right.append(movesTable);
  const gamesTitle = element('h2', null, 'Games');
  right.append(gamesTitle);
  const { table: gamesTable, body: gamesBody } = headedTable('games', ['#', 'Black', 'White', 'Year', 'Result', 'Opening', 'File']);
  const wrap = element('div', 'games-wrap');
  wrap.append(gamesTable);
  right.append(wrap);
  const pager = element('div', 'pager');
  const previousPage = element('button', null, '← Previous page');
  previousPage.type = 'button';
  const nextPage = element('button', null, 'Next page →');
  nextPage.type = 'button';
  const pageText = element('span', 'page');
  pager.append(previousPage, pageText, nextPage);
  previousPage.addEventListener('click', () => navigate({ ...state, offset: Math.max(0, state.offset - PAGE) }));
  nextPage.addEventListener('click', () => navigate({ ...state, offset: state.offset + PAGE }));
  right.append(pager);
  main.append(right);
  root.append(main);

  getJson('/api/info').then((info) => {
    const names = info.sources.map((s) => s.split('/').pop());
    about.textContent = `${info.games} games from ${names.length > 4 ? `${names.length} files (${names[0]} … ${names[names.length - 1]})` : names.join(', ')}`;
    about.title = info.sources.join('\n');
  }).catch((e) => {
    about.textContent = `cannot reach the server: ${e.message}`;
  });

  function back() {
    if (state.board || !state.moves) {
      history.back();
      return;
    }
    const tokens = splitMoves(state.moves);
    tokens.pop();
    forward.push(state);
    navigate({ ...state, moves: tokens.join(''), offset: 0 }, true);
  }

  function playMove(square) {
    const { position } = positionOf(state);
    if (!position) return;
    const mover = legalMoves(position).length > 0 ? position : passed(position);
    const played = step(mover, square);
    if (played.error) return;
    forward = [];
    if (state.board) {
      navigate({ ...state, board: boardText(played.position), offset: 0 });
    } else {
      const pass = mover === position ? '' : '--';
      navigate({ ...state, moves: state.moves + pass + square_name(square), offset: 0 });
    }
  }

  function square_name(square) {
    return 'abcdefgh'[square % 8] + (Math.floor(square / 8) + 1);
  }

  function navigate(next, keepForward = false) {
    if (!keepForward) forward = [];
    state = next;
    history.pushState(null, '', '?' + query(state, state.offset ? { offset: state.offset } : {}));
    load();
  }

  window.addEventListener('popstate', () => {
    state = readState();
    load();
  });

  async function load() {
    const mine = ++request;
    for (const name of FILTERS) inputs[name].value = state.filters[name] || '';
    const { position, tokens, last } = positionOf(state);
    backButton.disabled = !state.board && !state.moves;
    forwardButton.disabled = forward.length === 0;
    line.textContent = state.board ? `Board: ${state.board}` : tokens.length ? `Moves: ${tokens.map((t) => (t === '--' ? 'pass' : t)).join(' ')}` : 'The start position.';
    let answer;
    let page;
    try {
      [answer, page] = await Promise.all([
        getJson('/api/explore?' + query(state)),
        getJson('/api/games?' + query(state, { offset: state.offset, limit: PAGE })),
      ]);
    } catch (e) {
      if (mine !== request) return;
      error.textContent = e.message;
      status.textContent = '';
      loaded();
      return;
    }
    if (mine !== request) return;
    error.textContent = '';
    const shown = position || parseBoard(answer.position);
    const mover = shown.toMove;
    const notes = new Map();
    answer.moves.forEach((row, rank) => {
      const square = parseSquare(row.move);
      const decided = row.games - row.unfinished;
      const wins = mover === BLACK ? row.black_wins : row.white_wins;
      const rate = percent(wins + row.draws / 2, decided);
      const average = row.avg_black_score === null ? '–' : (mover === BLACK ? row.avg_black_score : 64 - row.avg_black_score).toFixed(1);
      if (square >= 0) {
        notes.set(square, {
          rank,
          lines: [short(row.games), rate, average],
          label: `next move: ${row.games} games, ${colorName(mover)} scores ${rate}, average ${average} discs for ${colorName(mover)}`,
        });
      }
    });
    board.draw(shown, { last: last === undefined ? null : last, showLegal: true, notes });
    const c = counts(shown);
    status.textContent =
      `${colorName(mover)} to move. ${answer.games} game${answer.games === 1 ? '' : 's'} reached this position ` +
      `(any symmetry, any move order). Black ${c.black}, White ${c.white}.` +
      (answer.moves.length && answer.moves[0].move === 'pass' ? ` ${colorName(mover)} must pass.` : '');
    movesBody.textContent = '';
    for (const row of answer.moves) {
      const tr = element('tr');
      const decided = row.games - row.unfinished;
      const cell = element('td');
      const play = element('button', 'play-move', row.move);
      play.type = 'button';
      play.setAttribute('aria-label', `play ${row.move}`);
      play.addEventListener('click', () => {
        if (row.move === 'pass') {
          forward = [];
          if (state.board) navigate({ ...state, board: boardText(passed(shown)), offset: 0 });
          else navigate({ ...state, moves: state.moves + '--', offset: 0 });
        } else {
          playMove(parseSquare(row.move));
        }
      });
      cell.append(play);
      tr.append(cell);
      for (const text of [
        String(row.games),
        percent(row.games, answer.games),
        percent(row.black_wins, decided),
        percent(row.draws, decided),
        percent(row.white_wins, decided),
        row.avg_black_score === null ? '–' : row.avg_black_score.toFixed(2),
      ]) {
        tr.append(element('td', null, text));
      }
      movesBody.append(tr);
    }
    if (answer.moves.length === 0) {
      const tr = element('tr');
      const td = element('td', null, answer.games ? 'The games that reached it end here.' : 'No game reached this position.');
      td.colSpan = 7;
      tr.append(td);
      movesBody.append(tr);
    }
    gamesTitle.textContent = `Games (${page.total})`;
    const rows = page.games.map((g, i) => ({
      number: state.offset + i + 1,
      cells: [g.black, g.white, g.year ? String(g.year) : '', g.result, g.opening, `${g.source} #${g.index}`],
      label: `${state.offset + i + 1}: ${g.black || '?'} against ${g.white || '?'}, ${g.result}`,
      game: g,
    }));
    renderGameRows(gamesBody, rows, (row) => {
      const params = new URLSearchParams({ source: row.game.source, index: String(row.game.index), at: boardText(shown) });
      location.href = '/view#' + params.toString();
    });
    const end = Math.min(page.total, state.offset + page.games.length);
    pageText.textContent = page.total ? `${state.offset + 1}–${end} of ${page.total}` : 'none';
    previousPage.disabled = state.offset === 0;
    nextPage.disabled = end >= page.total;
    loaded();
  }

  // Says on the page that an answer is drawn (the browser tests wait for
  // it).
  function loaded() {
    root.dataset.loads = String(Number(root.dataset.loads || 0) + 1);
    root.dataset.query = query(state);
  }

  history.replaceState(null, '', '?' + query(state, state.offset ? { offset: state.offset } : {}));
  load();
}

startBrowser(document.getElementById('app'));
