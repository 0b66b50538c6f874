// The game viewer: the game page of `kifu show --html` and the game view
// of `kifu serve`. A list of games, the board, buttons, keys and clicks to
// step, the move list, the graph, and with an analysis each position's
// value and each move's loss: exact, or a search's estimate before the
// exact part, marked `~`. The URL fragment (#game=3&move=25) opens a game
// at a move and follows the stepping.

import { BLACK, WHITE, colorName, other, counts, isOver, legalMoves, replay, startPosition, parseBoard, splitMoves, passed } from './othello.js';
import { Board } from './board.js';
import { renderMoveList, markCurrent } from './movelist.js';
import { Graph } from './graph.js';
import { GameList } from './gamelist.js';
import { element } from './dom.js';

function button(text, label, onClick) {
  const b = element('button', 'step', text);
  b.type = 'button';
  b.setAttribute('aria-label', label);
  b.title = label;
  b.addEventListener('click', onClick);
  return b;
}

// The games of a page's data (see kifu's src/web/page.rs): names are
// numbers into `data.names`, moves two characters a token.
export function decodeGames(data) {
  const name = (n) => (n === undefined ? null : data.names[n]);
  return data.games.map((g) => {
    const tokens = splitMoves(g.m || '');
    for (const [i, text] of g.u || []) tokens[i] = text;
    let analysis = null;
    if (g.a) {
      analysis = new Map();
      // `depth`: 0 for exact values, else the estimating search's depth
      // (pages from before estimates have no fifth element).
      for (const [index, best, value, bestMoves, depth = 0] of g.a.m) analysis.set(index, { best, value, bestMoves, depth });
    }
    return {
      black: name(g.b),
      white: name(g.w),
      event: name(g.e),
      date: g.d || null,
      result: g.r || '',
      opening: name(g.o),
      tokens,
      legal: g.n === undefined ? tokens.length : g.n,
      status: g.s === 'c' ? 'complete' : g.s === 'x' ? 'invalid' : 'incomplete',
      error: g.x || null,
      start: g.p ? parseBoard(g.p) : null,
      analysis,
      empties: g.a ? g.a.e : null,
      // The search that judged the moves before the exact part (0: none),
      // and the estimated loss from which a move counts as a mistake.
      depth: g.a && g.a.d ? g.a.d : 0,
      threshold: g.a && g.a.t ? g.a.t : 0,
    };
  });
}

// Replays a game's legal moves once, when it is opened.
function prepare(game) {
  const start = game.start || startPosition();
  const legal = game.tokens.slice(0, game.legal);
  const { steps, error } = replay(start, legal);
  if (error) {
    console.error(`kifu viewer: move ${error.index + 1} (${error.token}) does not replay: ${error.reason}`);
  }
  const played = steps.length - 1;
  const diffs = steps.map((s) => {
    const c = counts(s.position);
    return c.black - c.white;
  });
  const values = new Array(steps.length).fill(undefined);
  // Whether values[k] is a search's estimate rather than an exact value.
  const estimated = new Array(steps.length).fill(false);
  let losses = null;
  let bestMoves = null;
  let depths = null;
  let mistakes = null;
  if (game.analysis) {
    losses = new Array(played).fill(undefined);
    bestMoves = new Array(played).fill(undefined);
    depths = new Array(played).fill(undefined);
    mistakes = new Array(played).fill(false);
    const view = (v, color) => (color === BLACK ? v : -v);
    // In move order: where the exact part begins, its value replaces the
    // estimate of the position the last estimated move led to.
    for (const [index, a] of game.analysis) {
      if (index >= played) continue;
      const color = steps[index + 1].color;
      values[index] = view(a.best, color);
      values[index + 1] = view(a.value, color);
      estimated[index] = estimated[index + 1] = a.depth > 0;
      const loss = Math.max(0, a.best - a.value);
      losses[index] = loss;
      bestMoves[index] = a.bestMoves;
      depths[index] = a.depth;
      // Smaller estimated losses are within a search's error.
      mistakes[index] = loss > 0 && (a.depth === 0 || loss >= game.threshold);
    }
  }
  return { steps, diffs, values, estimated, losses, bestMoves, depths, mistakes, rest: game.tokens.slice(played) };
}

function scoreLine(position) {
  const c = counts(position);
  // Empty squares go to the winner.
  let black = c.black;
  let white = c.white;
  if (black > white) black += c.empty;
  else if (white > black) white += c.empty;
  else {
    black += c.empty / 2;
    white += c.empty / 2;
  }
  if (black > white) return `Black wins ${black}–${white}`;
  if (white > black) return `White wins ${white}–${black}`;
  return `Draw ${black}–${white}`;
}

function signed(v) {
  return v > 0 ? `+${v}` : v < 0 ? `−${-v}` : '0';
}

export function startViewer(root, games, { title = '', single = false, back = null } = {}) {
  root.textContent = '';
  root.classList.add('viewer');
  const state = { game: 0, move: 0, prepared: null, items: [] };
  let list = null;
  if (!single) {
    const listSection = element('section', 'list');
    listSection.setAttribute('aria-label', 'Games');
    listSection.append(element('h2', null, `${games.length} game${games.length === 1 ? '' : 's'}`));
    list = new GameList(listSection, games, (i) => open(i, 0));
    root.append(listSection);
  }
  const play = element('section', 'play');
  play.setAttribute('aria-label', 'Board');
  const heading = element('h2', 'game-title');
  const info = element('p', 'game-info');
  if (back) play.append(back);
  play.append(heading, info);
  const board = new Board(play, {
    label: 'Board',
    onSquare: (square) => {
      const next = state.prepared.steps[state.move + 1];
      if (next && next.square === square) go(state.move + 1);
    },
  });
  const controls = element('div', 'controls');
  controls.append(
    button('«', 'Start (Home)', () => go(0)),
    button('‹', 'Back one move (Left arrow)', () => go(state.move - 1)),
    button('›', 'Forward one move (Right arrow)', () => go(state.move + 1)),
    button('»', 'End (End)', () => go(state.prepared.steps.length - 1)),
  );
  if (!single) {
    controls.append(
      button('↑ game', 'Previous game (Page Up)', () => open(state.game - 1, 0)),
      button('↓ game', 'Next game (Page Down)', () => open(state.game + 1, 0)),
    );
  }
  const countsLine = element('p', 'counts');
  const status = element('p', 'status');
  status.setAttribute('aria-live', 'polite');
  const value = element('p', 'value');
  play.append(controls, countsLine, status, value);
  root.append(play);
  const side = element('section', 'record');
  side.setAttribute('aria-label', 'Moves and graph');
  side.append(element('h2', null, 'Moves'));
  const moves = element('ol', 'moves');
  side.append(moves);
  const summary = element('p', 'analysis');
  side.append(element('h2', null, 'Disc difference'));
  const graph = new Graph(side, (k) => go(k));
  const legend = element('p', 'legend');
  side.append(legend, summary);
  root.append(side);

  function open(index, move) {
    if (index < 0 || index >= games.length) return;
    state.game = index;
    const game = games[index];
    state.prepared = prepare(game);
    const names = `${game.black || '?'} – ${game.white || '?'}`;
    heading.textContent = single ? names : `Game ${index + 1}: ${names}`;
    info.textContent = [game.event, game.date, game.opening, game.result].filter(Boolean).join(' · ');
    state.items = renderMoveList(moves, { ...state.prepared, rest: state.prepared.rest }, (k) => go(k));
    graph.draw(state.prepared);
    legend.textContent = !game.analysis
      ? 'Disc difference after each move, Black above the line.'
      : state.prepared.estimated.some(Boolean)
        ? 'Line: disc difference after each move (Black above). Orange dashes: the exact value with perfect play; ' +
          `blue dots: a ${game.depth}-move search's estimate. Dots: mistakes, hollow where estimated.`
        : 'Line: disc difference after each move (Black above). Dashed: the exact value with perfect play. Dots: mistakes.';
    summary.textContent = analysisSummary(game, state.prepared);
    if (list) list.select(index);
    go(move, true);
  }

  function analysisSummary(game, p) {
    if (!game.analysis || !p.losses) return '';
    const plural = (n) => (n === 1 ? '' : 's');
    // Each side's losses and mistakes over the moves exact or estimated.
    const tally = (exact) => {
      const lost = { [BLACK]: 0, [WHITE]: 0 };
      const mistakes = { [BLACK]: 0, [WHITE]: 0 };
      p.losses.forEach((loss, i) => {
        if (loss === undefined || (p.depths[i] === 0) !== exact) return;
        const c = p.steps[i + 1].color;
        lost[c] += loss;
        if (p.mistakes[i]) mistakes[c] += 1;
      });
      return { lost, mistakes };
    };
    const first = p.depths.findIndex((d) => d === 0);
    let exact = 'the game ended before the exact part.';
    if (first >= 0) {
      const { lost, mistakes } = tally(true);
      exact =
        `Black lost ${lost[BLACK]} disc${plural(lost[BLACK])} in ${mistakes[BLACK]} mistake${plural(mistakes[BLACK])}, ` +
        `White ${lost[WHITE]} in ${mistakes[WHITE]}; perfect play from there: Black ${signed(p.values[first])}.`;
    }
    const from = first >= 0 ? `from move ${first + 1} (${game.empties} empties)` : '';
    const last = p.depths.findLastIndex((d) => d > 0);
    if (last < 0) return `Exact analysis${from ? ' ' + from : ''}: ${exact}`;
    const { lost, mistakes } = tally(false);
    return (
      `Estimates by a ${game.depth}-move search to move ${last + 1}` +
      (first >= 0 ? `, exact ${from}. ` : '; ') +
      `Estimated: Black lost ~${lost[BLACK]} disc${plural(lost[BLACK])} in ${mistakes[BLACK]} mistake${plural(mistakes[BLACK])} ` +
      `of ${game.threshold}+ discs, White ~${lost[WHITE]} in ${mistakes[WHITE]}.` +
      (first >= 0 ? ` Exact: ${exact}` : ` Then ${exact}`)
    );
  }

  function go(k, opening = false) {
    const p = state.prepared;
    k = Math.max(0, Math.min(p.steps.length - 1, k));
    if (k === state.move && !opening) return;
    state.move = k;
    const s = p.steps[k];
    const game = games[state.game];
    let position = s.position;
    const stuck = legalMoves(position).length === 0 && !isOver(position);
    board.draw(stuck ? passed(position) : position, { last: s.square, showLegal: true });
    const c = counts(position);
    countsLine.textContent = `● Black ${c.black}   ○ White ${c.white}   ${c.empty} empty`;
    countsLine.dataset.black = String(c.black);
    countsLine.dataset.white = String(c.white);
    let text = k === 0 ? 'Start position. ' : '';
    if (k > 0) {
      if (s.passBefore) text += `${colorName(other(s.color))} had no move and passed. `;
      text += s.square === null ? `Move ${k}: ${colorName(s.color)} passes. ` : `Move ${k}: ${colorName(s.color)} ${s.token.toLowerCase()}. `;
    }
    if (isOver(position)) {
      text += `Game over: ${scoreLine(position)}.`;
    } else if (stuck) {
      text += `${colorName(position.toMove)} has no move and must pass; ${colorName(other(position.toMove))} to move.`;
    } else {
      text += `${colorName(position.toMove)} to move.`;
    }
    if (k === p.steps.length - 1) {
      if (p.rest.length > 0 || game.error) {
        text += ` The record breaks the rules here: ${game.error || 'an illegal move'}.`;
      } else if (!isOver(position)) {
        text += ` The record ends here, unfinished${game.result ? ` (${game.result})` : ''}.`;
      }
    }
    status.textContent = text;
    value.textContent = '';
    if (p.values[k] !== undefined) {
      value.textContent = p.estimated[k]
        ? `Estimate: ~${signed(p.values[k])} for Black by a ${game.depth}-move search.`
        : `Exact value: ${signed(p.values[k])} for Black with perfect play.`;
      const next = p.losses && p.losses[k];
      if (next !== undefined) {
        const mover = colorName(p.steps[k + 1].color);
        const about = p.depths[k] > 0 ? '~' : '';
        value.textContent +=
          next > 0
            ? ` The move played next by ${mover} loses ${about}${next}; best: ${p.bestMoves[k]}.`
            : ` ${mover}'s next move is a best move${about ? ' by the search' : ''}.`;
      }
    }
    markCurrent(state.items, k);
    graph.mark(k);
    writeHash();
  }

  // The fragment follows the stepping once it pauses: browsers ignore
  // history updates that come too fast (a key held down).
  let hashTimer = null;
  function writeHash() {
    clearTimeout(hashTimer);
    hashTimer = setTimeout(writeHashNow, 80);
  }

  function writeHashNow() {
    const params = new URLSearchParams(location.hash.slice(1));
    if (!single) params.set('game', String(state.game + 1));
    params.set('move', String(state.move));
    const hash = '#' + params.toString();
    if (location.hash !== hash) history.replaceState(null, '', hash);
  }

  function readHash() {
    const params = new URLSearchParams(location.hash.slice(1));
    const game = single ? 0 : Number.parseInt(params.get('game') || '1', 10) - 1;
    const moveText = params.get('move');
    const move = moveText === 'end' ? Infinity : Number.parseInt(moveText || '0', 10);
    return {
      game: Number.isFinite(game) ? Math.max(0, Math.min(games.length - 1, game)) : 0,
      move: Number.isNaN(move) ? 0 : move,
    };
  }

  document.addEventListener('keydown', (event) => {
    const target = event.target;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT')) return;
    const keys = {
      ArrowRight: () => go(state.move + 1),
      ArrowLeft: () => go(state.move - 1),
      Home: () => go(0),
      End: () => go(state.prepared.steps.length - 1),
      PageDown: () => !single && open(state.game + 1, 0),
      PageUp: () => !single && open(state.game - 1, 0),
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  });
  window.addEventListener('hashchange', () => {
    const wanted = readHash();
    if (wanted.game !== state.game) open(wanted.game, wanted.move);
    else go(wanted.move);
  });
  if (title) document.title = title;
  if (games.length === 0) {
    root.textContent = 'No games.';
    return;
  }
  const first = readHash();
  open(first.game, first.move);
  // When the first game was shown (the browser tests time the page by it).
  root.dataset.ready = String(Math.round(performance.now()));
  return { open, go, state };
}
