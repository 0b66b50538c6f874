// The move list: every move token numbered as kifu numbers them, the
// passes the record left out said in words, the current move marked,
// mistakes (with an analysis) marked with what they lost, `~` before a
// search's estimate. A click on a move goes there. Shared by the game page
// and the browser's viewer.

import { colorName } from './othello.js';
import { element } from './dom.js';

// `game.steps` is the replay (steps[k] after k tokens); `game.rest` the
// tokens after the first illegal one; `losses[k]` what token k lost,
// `mistakes[k]` whether that makes it a mistake, `depths[k]` the depth of
// the search that estimated it (0: exact).
export function renderMoveList(list, game, onGo) {
  list.textContent = '';
  const items = [];
  const start = element('li', 'start');
  const startButton = element('button', 'move', 'start');
  startButton.type = 'button';
  startButton.addEventListener('click', () => onGo(0));
  start.append(startButton);
  list.append(start);
  items.push(startButton);
  for (let k = 1; k < game.steps.length; k++) {
    const s = game.steps[k];
    if (s.passBefore) {
      const pass = element('li', 'pass', `${colorName(s.color === 1 ? 2 : 1)} passes`);
      list.append(pass);
    }
    const li = element('li', s.color === 1 ? 'by-black' : 'by-white');
    const button = element('button', 'move');
    button.type = 'button';
    const what = s.square === null ? 'pass' : s.token.toLowerCase();
    button.append(element('span', 'number', `${k}.`), ' ', element('span', 'token', what));
    let label = `move ${k}, ${colorName(s.color)} ${s.square === null ? 'passes' : what}`;
    const loss = game.losses ? game.losses[k - 1] : undefined;
    if (loss !== undefined) {
      const depth = game.depths[k - 1];
      const about = depth > 0 ? '~' : '';
      const discs = `${loss} disc${loss === 1 ? '' : 's'}`;
      if (game.mistakes[k - 1]) {
        li.classList.add('mistake');
        if (depth > 0) li.classList.add('estimate');
        button.append(' ', element('span', 'loss', `${about}−${loss}`));
        label += depth > 0 ? `, a mistake by a ${depth}-move search's estimate: loses about ${discs}` : `, a mistake: loses ${discs}`;
        const best = game.bestMoves[k - 1];
        if (best) {
          button.title = `loses ${about}${loss}; best: ${best}`;
          label += `; best ${best}`;
        }
      } else if (loss > 0) {
        label += `, loses about ${discs} by a ${depth}-move search's estimate`;
      } else {
        li.classList.add('best');
      }
    }
    button.setAttribute('aria-label', label);
    button.addEventListener('click', () => onGo(k));
    li.append(button);
    list.append(li);
    items.push(button);
  }
  for (const token of game.rest) {
    const li = element('li', 'unplayed', token);
    li.title = 'not played: the record breaks the rules before it';
    list.append(li);
  }
  return items;
}

export function markCurrent(items, k) {
  items.forEach((button, i) => {
    if (i === k) {
      button.setAttribute('aria-current', 'step');
      button.parentElement.classList.add('current');
    } else {
      button.removeAttribute('aria-current');
      button.parentElement.classList.remove('current');
    }
  });
  // Keeps the current move in sight within the list (the list scrolls,
  // never the page).
  const current = items[k] && items[k].parentElement;
  const list = current && current.parentElement;
  if (list && list.clientHeight > 0) {
    const top = current.offsetTop;
    if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }
}
