// The game view of `kifu serve` (/view#source=…&index=N&at=BOARD): one
// game from /api/game in the viewer, opened where it reached the position
// the browser showed.

import { startViewer } from './viewer.js';
import { parseBoard, replay, sameUpToSymmetry, startPosition } from './othello.js';

// The viewer's game from a JSON Lines object (SPEC section 2).
function fromJson(g) {
  const tokens = (g.plies || []).filter((p) => !p.implicit).map((p) => p.move);
  const otherBoard = g.start && /^\d+x\d+ /.test(g.start);
  let result = g.recorded_result || '';
  if (g.status === 'complete') result = `${g.black_score}-${g.white_score}`;
  else if (g.status === 'invalid') result = 'invalid';
  return {
    black: g.black_player,
    white: g.white_player,
    event: g.event,
    date: g.date,
    result,
    opening: g.opening,
    tokens,
    legal: otherBoard ? 0 : g.error_move ? g.error_move - 1 : tokens.length,
    status: g.status,
    error: g.error ? (g.error_move ? `move ${g.error_move}: ${g.error}` : g.error) : null,
    start: g.start && !otherBoard ? parseBoard(g.start) : null,
    analysis: null,
  };
}

async function main() {
  const root = document.getElementById('app');
  const params = new URLSearchParams(location.hash.slice(1));
  const back = document.createElement('a');
  back.href = '/';
  back.className = 'back';
  back.textContent = '← back to the games';
  back.addEventListener('click', (event) => {
    if (history.length > 1) {
      event.preventDefault();
      history.back();
    }
  });
  const response = await fetch('/api/game?' + new URLSearchParams({ source: params.get('source') || '', index: params.get('index') || '' }));
  const body = await response.json();
  if (!response.ok) {
    root.textContent = `Cannot open the game: ${body.error}`;
    root.prepend(back);
    return;
  }
  const game = fromJson(body);
  if (!params.has('move') && params.get('at')) {
    const target = parseBoard(params.get('at'));
    const { steps } = replay(game.start || startPosition(), game.tokens.slice(0, game.legal));
    const at = target ? steps.findIndex((s) => sameUpToSymmetry(s.position, target)) : -1;
    if (at >= 0) {
      params.set('move', String(at));
      history.replaceState(null, '', '#' + params.toString());
    }
  }
  startViewer(root, [game], { single: true, back, title: `${game.black || '?'} – ${game.white || '?'}: kifu` });
}

main();
