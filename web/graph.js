// The graph of the disc difference (Black's discs minus White's) after
// each move; with an analysis, each analysed position's exact value
// (Black's final margin under perfect play), a search's estimates before
// it as a line of their own, and the mistakes as dots (hollow where
// estimated). A click goes to the nearest move. Shared by the game page
// and the browser's viewer.

const NS = 'http://www.w3.org/2000/svg';
const WIDTH = 600;
const HEIGHT = 160;
const PAD = 24;

function svg(tag, attributes) {
  const node = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

export class Graph {
  constructor(container, onGo) {
    this.onGo = onGo;
    this.root = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'graph', role: 'img' });
    container.append(this.root);
    this.root.addEventListener('click', (event) => {
      if (!this.moves) return;
      const box = this.root.getBoundingClientRect();
      const x = ((event.clientX - box.left) / box.width) * WIDTH;
      const k = Math.round(((x - PAD) / (WIDTH - 2 * PAD)) * this.moves);
      this.onGo(Math.max(0, Math.min(this.moves, k)));
    });
  }

  x(k) {
    return PAD + (this.moves === 0 ? 0 : (k * (WIDTH - 2 * PAD)) / this.moves);
  }

  y(diff) {
    return HEIGHT / 2 - (diff * (HEIGHT / 2 - 8)) / 64;
  }

  // `diffs[k]`: Black minus White after k moves; `values[k]`: the value
  // (Black's view) of the position after k moves, or undefined, and
  // `estimated[k]` whether it is a search's estimate; `losses[k - 1]`:
  // what move k lost, `mistakes[k - 1]` whether it is a mistake and
  // `depths[k - 1]` the depth of the search that estimated it (0: exact).
  // Without an analysis `losses`, `mistakes` and `depths` are null.
  draw({ diffs, values, estimated, losses, mistakes, depths }) {
    this.moves = diffs.length - 1;
    this.root.textContent = '';
    const scale = Math.max(16, ...diffs.map(Math.abs), ...values.filter((v) => v !== undefined).map(Math.abs));
    const y = (d) => this.y((d * 64) / scale);
    this.root.append(svg('rect', { x: 0, y: 0, width: WIDTH, height: HEIGHT, class: 'graph-bg' }));
    this.root.append(svg('rect', { x: PAD, y: 4, width: WIDTH - 2 * PAD, height: HEIGHT / 2 - 4, class: 'graph-black' }));
    this.root.append(svg('line', { x1: PAD, y1: HEIGHT / 2, x2: WIDTH - PAD, y2: HEIGHT / 2, class: 'axis' }));
    const label = (text, ty) => {
      const t = svg('text', { x: 2, y: ty, class: 'graph-label' });
      t.textContent = text;
      this.root.append(t);
    };
    label(`+${scale}`, 14);
    label(`−${scale}`, HEIGHT - 4);
    const path = diffs.map((d, k) => `${k === 0 ? 'M' : 'L'}${this.x(k).toFixed(1)},${y(d).toFixed(1)}`).join(' ');
    this.root.append(svg('path', { d: path, class: 'diff-line' }));
    const line = (ks, kind) => {
      if (ks.length === 0) return;
      const d = ks.map((k, i) => `${i === 0 ? 'M' : 'L'}${this.x(k).toFixed(1)},${y(values[k]).toFixed(1)}`).join(' ');
      this.root.append(svg('path', { d, class: kind }));
    };
    const known = values.map((v, k) => k).filter((k) => values[k] !== undefined);
    const exact = known.filter((k) => !estimated[k]);
    // The estimates, and the first exact value after them: the lines meet.
    const guessed = known.filter((k) => estimated[k] || (k > 0 && estimated[k - 1]));
    line(exact, 'value-line');
    line(guessed, 'estimate-line');
    (mistakes || []).forEach((mistake, i) => {
      if (mistake) {
        const k = i + 1;
        const loss = losses[i];
        const at = values[k] !== undefined ? values[k] : diffs[k];
        const kind = depths[i] > 0 ? 'mistake-dot estimate' : 'mistake-dot';
        const dot = svg('circle', { cx: this.x(k), cy: y(at), r: Math.min(3 + loss / 2, 9), class: kind });
        const title = svg('title', {});
        title.textContent = depths[i] > 0 ? `move ${k} loses ~${loss} (a ${depths[i]}-move search's estimate)` : `move ${k} loses ${loss}`;
        dot.append(title);
        this.root.append(dot);
      }
    });
    this.marker = svg('line', { x1: 0, y1: 4, x2: 0, y2: HEIGHT - 4, class: 'cursor' });
    this.root.append(this.marker);
    const final = diffs[diffs.length - 1];
    const marked = (mistakes || []).filter(Boolean).length;
    const guesses = known.length - exact.length;
    this.root.setAttribute(
      'aria-label',
      `Graph of the disc difference after each of ${this.moves} moves, from Black's side: ` +
        `highest ${Math.max(...diffs)}, lowest ${Math.min(...diffs)}, at the end ${final > 0 ? '+' : ''}${final}` +
        (guesses > 0 ? `; a search's estimates of ${guesses} positions` : '') +
        (known.length > 0 ? `; exact values of ${exact.length} positions, ${marked} mistakes marked` : ''),
    );
  }

  mark(k) {
    if (!this.marker) return;
    this.marker.setAttribute('x1', this.x(k));
    this.marker.setAttribute('x2', this.x(k));
    this.root.dataset.move = String(k);
  }
}
