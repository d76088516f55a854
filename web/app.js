// Tianyuan web board: draws the board, keeps the game, and talks to the engine through the
// JSON API of `pbrain-tianyuan serve` (README, "Web board"). No build step, no library.
'use strict';

// ---- Coordinates -------------------------------------------------------------------------
// Notation: column letter from `a` on the left, row number from 1 (h8 = protocol 7,7).
// The board is drawn with row 1 at the top ('screen', as Piskvork and SGF viewers) or at the
// bottom ('book', as renju books): `state.orientation`, chosen on the page and remembered in
// localStorage (docs/rules.md §1). Only the drawing turns over, never the notation.
const ORIENTATIONS = ['screen', 'book'];
const ORIENTATION_KEY = 'tianyuan-orientation';
// SGF rows: the row letter is written as `size - 1 - y` (as the match runner's SGF records).
const SGF_FLIP_ROWS = false;

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const RULES = ['renju', 'freestyle', 'standard', 'caro', 'caro-exact'];
const MODES = ['black', 'white', 'analysis', 'off'];
const CELL = 40;
const MARGIN = 46;
const SVG_NS = 'http://www.w3.org/2000/svg';

function toNotation(x, y) { return LETTERS[x] + (y + 1); }

function parseNotation(text, size) {
  const m = /^([a-zA-Z])(\d{1,2})$/.exec(text.trim());
  if (!m) return null;
  const x = LETTERS.indexOf(m[1].toLowerCase());
  const y = parseInt(m[2], 10) - 1;
  if (x < 0 || x >= size || y < 0 || y >= size) return null;
  return { x, y };
}

// ---- State -------------------------------------------------------------------------------
const state = {
  rule: 'renju',
  size: 15,
  moves: [],          // notation, from black
  mode: 'black',      // black | white | analysis | off
  timeMs: 1000,
  numbers: false,
  orientation: 'screen', // screen (row 1 at the top) | book (row 1 at the bottom)
  pos: null,          // the answer of /api/position for the current moves
  info: null,         // the engine's latest report for the current position
  ghosts: [],         // the principal variation drawn on the board
  maxTimeMs: 60000,
};

let generation = 0;   // bumped on every change of position or settings
let fromAddress = false; // the position came from the address (?rule=&size=&moves=)
const addressNotes = []; // what was wrong with the address, shown once
let positionError = null; // why the server refused the current position
let running = null;   // the search in progress: { cancelled, stopSent, promise, play }
let shownMoves = null; // the move list last written into the text field

const $ = (id) => document.getElementById(id);

function colorToMove(n) { return n % 2 === 0 ? 'black' : 'white'; }

function humanColor() {
  return state.mode === 'black' || state.mode === 'white' ? state.mode : null;
}

function engineColor() {
  const h = humanColor();
  return h ? (h === 'black' ? 'white' : 'black') : null;
}

function gameOver() {
  return !!(state.pos && (state.pos.result || state.pos.winner || state.pos.full));
}

function positionFields() {
  return { rule: state.rule, size: state.size, moves: state.moves.join(',') };
}

// ---- Server calls ------------------------------------------------------------------------
class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

async function api(path, body) {
  const resp = await fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await resp.json().catch(() => ({ error: resp.statusText }));
  if (!resp.ok) throw new ApiError(resp.status, data.error || resp.statusText);
  return data;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Reads a server-sent event stream from a fetch response; calls onEvent(name, data).
async function readEvents(resp, onEvent) {
  const reader = resp.body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
    let cut;
    while ((cut = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      let name = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const i = line.indexOf(':');
        const field = i < 0 ? line : line.slice(0, i);
        const val = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
        if (field === 'event') name = val;
        else if (field === 'data') data.push(val);
      }
      if (data.length) onEvent(name, JSON.parse(data.join('\n')));
    }
  }
}

// Starts a search of the current position. With `play`, its move is played when it ends
// (unless the position changed meanwhile).
function startSearch(play) {
  const gen = generation;
  const search = { cancelled: false, stopWanted: false, stopSent: false, done: false, id: null, play };
  // Stops this search (not another one): the stream's `start` event names its id.
  search.sendStop = () => {
    search.stopWanted = true;
    if (search.done || search.stopSent || search.id === null) return;
    search.stopSent = true;
    api('/api/stop', { id: search.id }).catch(() => {});
  };
  search.promise = (async () => {
    try {
      const body = Object.assign(positionFields(), { time_ms: Math.min(state.timeMs, state.maxTimeMs) });
      for (let attempt = 0; ; attempt++) {
        const resp = await fetch('/api/analyze/stream', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (resp.status === 429 && attempt < 40 && !search.cancelled) {
          // Another search (one being stopped, or another tab's) still holds the engine.
          await sleep(250);
          continue;
        }
        if (!resp.ok) {
          const e = await resp.json().catch(() => ({ error: resp.statusText }));
          throw new ApiError(resp.status, e.error || resp.statusText);
        }
        let result = null;
        await readEvents(resp, (name, data) => {
          if (name === 'start') {
            search.id = data.id;
            if (search.stopWanted) search.sendStop();
          } else if (name === 'info') {
            if (!search.cancelled && data.pv_index === 0) showInfo(data, false);
          } else if (name === 'result') {
            result = data;
          } else if (name === 'error') {
            throw new ApiError(500, data.error);
          }
        });
        return result;
      }
    } finally {
      search.done = true;
    }
  })();
  running = search;
  updateControls();
  search.promise.then((result) => {
    if (running === search) running = null;
    if (search.cancelled || gen !== generation || !result) return;
    showInfo(result, true);
    if (search.play) playMove(result.move);
  }).catch((e) => {
    if (running === search) running = null;
    if (!search.cancelled) showMessage(e.message);
  }).finally(() => {
    updateControls();
  });
}

// Stops the running search and waits until it has ended; its result is dropped.
async function cancelSearch() {
  const search = running;
  if (!search) return;
  search.cancelled = true;
  search.sendStop();
  try { await search.promise; } catch (e) { /* dropped */ }
  if (running === search) running = null;
}

// ---- Game flow ---------------------------------------------------------------------------
// Called after every change: asks the server about the new position, draws it, and starts
// the engine if it is its turn (or analysis mode is on).
async function positionChanged() {
  const gen = ++generation;
  await cancelSearch();
  if (gen !== generation) return;
  let pos;
  try {
    pos = await api('/api/position', positionFields());
  } catch (e) {
    if (gen !== generation) return;
    if (fromAddress) {
      // The address's moves are refused as a whole (no prefix kept): say why, start empty.
      fromAddress = false;
      addressNotes.push(`moves=${state.moves.join(',')}: ${e.message}; the board starts empty`);
      state.moves = [];
      showAddressNotes();
      positionChanged();
      return;
    }
    state.pos = null;
    positionError = e.message;
    showMessage(e.message);
    render();
    return;
  }
  if (gen !== generation) return;
  fromAddress = false;
  positionError = null;
  state.pos = pos;
  // The last report stays in the panel (the engine's move in a game); its line goes.
  state.ghosts = [];
  save();
  render();
  if (gameOver()) return;
  if (state.mode === 'analysis') startSearch(false);
  else if (engineColor() === pos.to_move) startSearch(true);
}

function playMove(point) {
  if (!point || point === 'none') return;
  state.moves.push(point);
  showMessage('');
  positionChanged();
}

function onPointClick(point) {
  if (gameOver()) {
    showMessage('The game is over: undo or start a new game.', true);
    return;
  }
  if (!state.pos || state.moves.includes(point)) return;
  const toMove = colorToMove(state.moves.length);
  if (humanColor() && humanColor() !== toMove) {
    showMessage('The engine is thinking: wait, or press Stop to make it move now.', true);
    return;
  }
  const bad = (state.pos.forbidden || []).find((f) => f.point === point);
  if (bad) {
    showMessage(`${point} is forbidden for black (${bad.kind}).`);
    return;
  }
  playMove(point);
}

function undo() {
  if (!state.moves.length) return;
  state.moves.pop();
  // In a game, undo back to the player's own turn.
  const h = humanColor();
  while (h && state.moves.length && colorToMove(state.moves.length) !== h) state.moves.pop();
  showMessage('');
  positionChanged();
}

function newGame() {
  state.moves = [];
  state.info = null;
  clearInfo();
  showMessage('');
  positionChanged();
}

// ---- Drawing -----------------------------------------------------------------------------
function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

function px(x) { return MARGIN + x * CELL; }
// The y of board row `y` (0 = row 1): row 1 on the top line, or the bottom one in 'book'.
function py(y) { return MARGIN + (state.orientation === 'book' ? state.size - 1 - y : y) * CELL; }

function starPoints(n) {
  const c = (n - 1) / 2;
  const pts = [];
  if (n % 2 === 1) pts.push([c, c]);
  if (n >= 13) {
    for (const a of [3, n - 4]) for (const b of [3, n - 4]) pts.push([a, b]);
  }
  return pts;
}

// Draws the parts that change only with the board size and the orientation: wood, grid,
// labels, click targets.
function drawStatic() {
  const n = state.size;
  const board = $('board');
  if (board.dataset.size === String(n) && board.dataset.orientation === state.orientation) return;
  const span = 2 * MARGIN + (n - 1) * CELL;
  board.setAttribute('viewBox', `0 0 ${span} ${span}`);
  board.replaceChildren();
  board.dataset.size = n;
  board.dataset.orientation = state.orientation;
  svg('rect', { class: 'wood', x: 1, y: 1, width: span - 2, height: span - 2, rx: 6 }, board);
  const grid = svg('g', {}, board);
  for (let i = 0; i < n; i++) {
    svg('line', { class: 'line', x1: px(0), y1: py(i), x2: px(n - 1), y2: py(i) }, grid);
    svg('line', { class: 'line', x1: px(i), y1: py(0), x2: px(i), y2: py(n - 1) }, grid);
  }
  for (const [x, y] of starPoints(n)) svg('circle', { class: 'star', cx: px(x), cy: py(y), r: 4 }, grid);
  const labels = svg('g', {}, board);
  for (let i = 0; i < n; i++) {
    for (const yy of [MARGIN / 2 - 4, span - MARGIN / 2 + 4]) {
      svg('text', { class: 'label', x: px(i), y: yy }, labels).textContent = LETTERS[i];
    }
    for (const xx of [MARGIN / 2 - 4, span - MARGIN / 2 + 4]) {
      svg('text', { class: 'label', x: xx, y: py(i) }, labels).textContent = String(i + 1);
    }
  }
  svg('g', { id: 'dynamic' }, board);
  const hits = svg('g', { id: 'hits' }, board);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const point = toNotation(x, y);
      const c = svg('circle', { class: 'hit', cx: px(x), cy: py(y), r: CELL / 2, 'data-point': point }, hits);
      svg('title', {}, c).textContent = point;
    }
  }
}

// Draws the stones, the forbidden points and the engine's line.
function render() {
  const n = state.size;
  drawStatic();
  const board = $('board');
  board.dataset.stones = state.moves.length;
  const dyn = $('dynamic');
  dyn.replaceChildren();
  const stones = svg('g', { id: 'stones' }, dyn);
  state.moves.forEach((m, i) => {
    const p = parseNotation(m, n);
    if (!p) return;
    const color = colorToMove(i);
    svg('circle', {
      class: `stone ${color}`, cx: px(p.x), cy: py(p.y), r: CELL * 0.46, 'data-point': m,
    }, stones);
    if (state.numbers) {
      svg('text', { class: `num on-${color}`, x: px(p.x), y: py(p.y) }, stones).textContent = String(i + 1);
    }
  });
  const last = state.moves.length ? parseNotation(state.moves[state.moves.length - 1], n) : null;
  if (last && !state.numbers) svg('circle', { class: 'last', cx: px(last.x), cy: py(last.y), r: 5 }, stones);
  const marks = svg('g', { id: 'forbidden' }, dyn);
  if (state.pos && !gameOver()) {
    for (const f of state.pos.forbidden || []) {
      const p = parseNotation(f.point, n);
      if (!p) continue;
      const g = svg('g', { class: 'forbidden', 'data-point': f.point, 'data-kind': f.kind }, marks);
      const d = CELL * 0.22;
      svg('line', { x1: px(p.x) - d, y1: py(p.y) - d, x2: px(p.x) + d, y2: py(p.y) + d }, g);
      svg('line', { x1: px(p.x) - d, y1: py(p.y) + d, x2: px(p.x) + d, y2: py(p.y) - d }, g);
    }
  }
  const ghosts = svg('g', { id: 'ghosts' }, dyn);
  const taken = new Set(state.moves);
  state.ghosts.forEach((m, i) => {
    const p = parseNotation(m, n);
    if (!p || taken.has(m)) return;
    taken.add(m);
    const color = colorToMove(state.moves.length + i);
    const g = svg('g', { class: `ghost${i === 0 ? ' best' : ''}`, 'data-point': m }, ghosts);
    svg('circle', { class: `stone ${color}`, cx: px(p.x), cy: py(p.y), r: CELL * 0.42 }, g);
    svg('text', { class: `num on-${color}`, x: px(p.x), y: py(p.y) }, g).textContent = String(i + 1);
  });
  renderStatus();
  updateControls();
}

function scoreText(r, side) {
  if (r.win_in !== null && r.win_in !== undefined) {
    const other = side === 'black' ? 'white' : 'black';
    return r.win_in > 0 ? `${cap(side)} wins in ${r.win_in}` : `${cap(other)} wins in ${-r.win_in}`;
  }
  const s = r.score;
  return `${s > 0 ? '+' : ''}${s} for ${side}`;
}

function cap(s) { return s.charAt(0).toUpperCase() + s.slice(1); }

function fmtCount(n) {
  if (n >= 1e9) return (n / 1e9).toFixed(2) + 'G';
  if (n >= 1e6) return (n / 1e6).toFixed(2) + 'M';
  if (n >= 1e4) return (n / 1e3).toFixed(1) + 'k';
  return String(n);
}

// Shows a search report (an `info` event or the final result) and draws its line.
function showInfo(r, final) {
  const side = colorToMove(state.moves.length);
  state.info = r;
  state.ghosts = r.pv || [];
  $('depth').textContent = r.depth + (final ? '' : '…');
  $('score').textContent = scoreText(r, side);
  $('nodes').textContent = fmtCount(r.nodes);
  $('nps').textContent = fmtCount(r.nps) + '/s';
  $('pv').textContent = (r.pv || []).join(' ') || '–';
  $('engine').dataset.depth = r.depth;
  $('engine').dataset.final = final ? '1' : '0';
  render();
}

function clearInfo() {
  for (const id of ['depth', 'score', 'nodes', 'nps', 'pv']) $(id).textContent = '–';
  delete $('engine').dataset.depth;
}

function renderStatus() {
  const el = $('status');
  const pos = state.pos;
  if (!pos) {
    el.textContent = positionError ? `No position: ${positionError}` : 'Reading the position…';
    el.dataset.winner = '';
    return;
  }
  let text;
  // How the game ended, as the server words it (a five, black's foul and the rule, a full board).
  if (pos.result) text = cap(pos.result.text);
  else if (pos.winner) text = `${cap(pos.winner)} wins`;
  else if (pos.full) text = 'Draw: the board is full';
  else {
    const side = pos.to_move;
    text = `${cap(side)} to move · move ${state.moves.length + 1}`;
    if (running && !running.cancelled) text += running.play ? ' · engine thinking…' : ' · analysing…';
  }
  el.textContent = text;
  el.dataset.winner = pos.winner || '';
}

function updateControls() {
  const thinking = !!(running && !running.cancelled);
  $('stop').disabled = !thinking;
  $('undo').disabled = state.moves.length === 0;
  $('go').disabled = gameOver() || (thinking && running.play);
  const locked = gameOver() || (humanColor() && state.pos && humanColor() !== state.pos.to_move);
  $('board').classList.toggle('locked', !!locked);
  // The move list follows the game, but never overwrites what is being typed there.
  const text = state.moves.join(',');
  if (text !== shownMoves && document.activeElement !== $('movesText')) {
    $('movesText').value = text;
    shownMoves = text;
  }
  renderStatus();
}

function showMessage(text, info) {
  const el = $('message');
  el.textContent = text;
  el.classList.toggle('info', !!info);
}

// ---- Files and text ----------------------------------------------------------------------
function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function playerNames() {
  if (state.mode === 'black') return ['Player', 'Tianyuan'];
  if (state.mode === 'white') return ['Tianyuan', 'Player'];
  return ['Black', 'White'];
}

// psq as the engine writes it (src/gamefile.rs): the stones, the names, result code 0 and
// the rule line `rule=<name>` (Piskvork reads nothing after the names).
function toPsq() {
  const n = state.size;
  let s = `Piskvorky ${n}x${n}, 11:11, 0\n`;
  for (const m of state.moves) {
    const p = parseNotation(m, n);
    s += `${p.x + 1},${p.y + 1},0\n`;
  }
  const [b, w] = playerNames();
  return s + `${b}\n${w}\n0\nrule=${state.rule}\n`;
}

function sgfPoint(p) {
  const row = SGF_FLIP_ROWS ? state.size - 1 - p.y : p.y;
  return LETTERS[p.x] + LETTERS[row];
}

function toSgf() {
  const [b, w] = playerNames();
  let s = `(;FF[4]GM[4]CA[UTF-8]AP[tianyuan-web]SZ[${state.size}]RU[${state.rule}]PB[${b}]PW[${w}]`;
  if (state.pos && state.pos.winner) s += `RE[${state.pos.winner === 'black' ? 'B' : 'W'}+]`;
  s += '\n';
  state.moves.forEach((m, i) => {
    const p = parseNotation(m, state.size);
    s += `;${i % 2 === 0 ? 'B' : 'W'}[${sgfPoint(p)}]`;
    if ((i + 1) % 12 === 0) s += '\n';
  });
  return s + ')\n';
}

// Reads a psq record, an SGF record or a move list; returns { size, rule?, moves }.
function parseGame(text) {
  const t = text.replace(/^\uFEFF/, '').trim();
  if (t.startsWith('Piskvorky')) {
    const lines = t.split(/\r?\n/);
    const m = /^Piskvorky\s*(\d+)\s*[xX]\s*(\d+)/.exec(lines[0]);
    if (!m) throw new Error('psq: the first line gives no board size');
    const w = parseInt(m[1], 10);
    const h = parseInt(m[2], 10);
    if (w !== h) throw new Error(`psq: a ${w}x${h} board; this page shows square boards`);
    const moves = [];
    let i = 1;
    for (; i < lines.length; i++) {
      const line = lines[i];
      const mm = /^\s*(\d+)\s*,\s*(\d+)\s*(,\s*-?\d+\s*)?$/.exec(line);
      if (!mm) break;
      const x = parseInt(mm[1], 10) - 1;
      const y = parseInt(mm[2], 10) - 1;
      if (x < 0 || y < 0 || x >= w || y >= w) throw new Error(`psq: stone ${line.trim().slice(0, 32)} is off the board`);
      moves.push(toNotation(x, y));
    }
    // The rule line of our records, or a Gomocup tournament line `0,Freestyle15_1`.
    let rule;
    for (const line of lines.slice(i)) {
      const ours = /^rule=([a-z-]+)\s*$/i.exec(line.trim());
      const gomocup = /^\d+,\s*(freestyle|standard|renju|caro)/i.exec(line.trim());
      const name = ours ? ours[1] : gomocup ? gomocup[1] : null;
      if (name && RULES.includes(name.toLowerCase())) rule = name.toLowerCase();
    }
    return { size: w, rule, moves };
  }
  if (t.startsWith('(')) {
    const sz = /SZ\[(\d+)(?::(\d+))?\]/.exec(t);
    const size = sz ? parseInt(sz[1], 10) : 15;
    if (sz && sz[2] && sz[2] !== sz[1]) throw new Error('SGF: this page shows square boards');
    const ru = /RU\[([^\]]*)\]/.exec(t);
    // The main line: stop at the first variation's end.
    let main = t;
    const firstClose = t.indexOf(')');
    if (firstClose > 0) main = t.slice(0, firstClose);
    const moves = [];
    const re = /;\s*(?:[A-Z]+\[[^\]]*\]\s*)*?([BW])\[([a-z]{2})?\]/g;
    let mm;
    while ((mm = re.exec(main)) !== null) {
      if (!mm[2]) continue;
      const x = LETTERS.indexOf(mm[2][0]);
      const r = LETTERS.indexOf(mm[2][1]);
      const y = SGF_FLIP_ROWS ? size - 1 - r : r;
      if (x >= size || y < 0 || y >= size) throw new Error(`SGF: point ${mm[2]} is off the board`);
      moves.push(toNotation(x, y));
    }
    const rule = ru && RULES.includes(ru[1].toLowerCase()) ? ru[1].toLowerCase() : undefined;
    return { size, rule, moves };
  }
  // A move list: `#` starts a comment; our tools write `# rule=<name>` first.
  let rule;
  const body = t.split(/\r?\n/).map((line) => {
    const cut = line.indexOf('#');
    if (cut < 0) return line;
    const m = /^rule=([a-z-]+)\s*$/i.exec(line.slice(cut + 1).trim());
    if (m && RULES.includes(m[1].toLowerCase())) rule = m[1].toLowerCase();
    return line.slice(0, cut);
  }).join('\n');
  return { rule, moves: parseMoveList(body, state.size) };
}

function parseMoveList(text, size) {
  const parts = text.split(/[\s,;]+/).filter((s) => s.length);
  return parts.map((s) => {
    if (!parseNotation(s, size)) throw new Error(`bad point '${s}' for a ${size}x${size} board`);
    return s.toLowerCase();
  });
}

async function loadGame(game) {
  const old = { size: state.size, rule: state.rule, moves: state.moves };
  if (game.size) {
    if (game.size < 5 || game.size > 22) throw new Error(`board size ${game.size} is outside 5..22`);
    state.size = game.size;
  }
  if (game.rule) state.rule = game.rule;
  state.moves = game.moves;
  try {
    await api('/api/position', positionFields());
  } catch (e) {
    Object.assign(state, old);
    throw e;
  }
  // After loading, the engine does not take over a game in progress by surprise.
  if (humanColor() && colorToMove(state.moves.length) !== humanColor()) state.mode = 'analysis';
  syncSelects();
  showMessage(`Loaded ${state.moves.length} moves.`, true);
  positionChanged();
}

async function copyPosition() {
  const text = `--rule ${state.rule} --size ${state.size} --moves ${state.moves.join(',') || '-'}`;
  try {
    await navigator.clipboard.writeText(text);
    showMessage('Copied: ' + text, true);
  } catch (e) {
    const input = $('movesText');
    input.value = text;
    input.select();
    const ok = document.execCommand && document.execCommand('copy');
    showMessage(ok ? 'Copied: ' + text : 'Copy this: ' + text, true);
  }
}

// ---- Settings ----------------------------------------------------------------------------
function save() {
  try {
    localStorage.setItem('tianyuan-board', JSON.stringify({
      rule: state.rule, size: state.size, moves: state.moves, mode: state.mode,
      timeMs: state.timeMs, numbers: state.numbers,
    }));
  } catch (e) { /* private mode */ }
}

// The orientation is a preference of the reader, kept apart from the game and its settings:
// neither an address that opens a position nor `?fresh` changes it.
function saveOrientation() {
  try { localStorage.setItem(ORIENTATION_KEY, state.orientation); } catch (e) { /* private mode */ }
}

function restoreOrientation() {
  try {
    const o = localStorage.getItem(ORIENTATION_KEY);
    if (ORIENTATIONS.includes(o)) state.orientation = o;
  } catch (e) { /* private mode */ }
}

// Settings and game from the last visit, unless the address says otherwise: `?fresh` starts
// afresh, and `?rule=R&size=N&moves=h8,h9` opens that position. What the address gets wrong
// (a size outside 5..22, an unknown rule or mode, a move that is not a point of the board)
// is said in the message line, never replaced silently; bad moves are dropped as a whole.
function restore() {
  restoreOrientation();
  const q = new URLSearchParams(location.search);
  if (q.has('fresh')) return;
  if (q.has('moves') || q.has('rule') || q.has('size')) {
    fromAddress = true;
    if (q.has('rule')) {
      const r = q.get('rule').toLowerCase();
      const byNumber = { 0: 'freestyle', 1: 'standard', 4: 'renju', 8: 'caro', 9: 'caro-exact' };
      const rule = RULES.includes(r) ? r : byNumber[r];
      if (rule) state.rule = rule;
      else addressNotes.push(`rule=${q.get('rule')} is not a rule (${RULES.join(', ')}); playing ${state.rule}`);
    }
    if (q.has('size')) {
      const text = q.get('size');
      const n = /^\d{1,3}$/.test(text.trim()) ? parseInt(text, 10) : NaN;
      if (n >= 5 && n <= 22) state.size = n;
      else addressNotes.push(`size=${text} is not a board size this page shows (5 to 22, square); showing ${state.size}×${state.size}`);
    }
    const moves = (q.get('moves') || '').split(',').map((m) => m.trim()).filter((m) => m.length && m !== '-');
    const bad = moves.find((m) => !parseNotation(m, state.size));
    if (bad !== undefined) {
      addressNotes.push(`moves: '${bad.slice(0, 32)}' is not a point of the ${state.size}×${state.size} board; the board starts empty`);
      fromAddress = false;
    } else {
      state.moves = moves.map((m) => m.toLowerCase());
    }
    if (q.has('mode')) {
      const m = q.get('mode');
      if (MODES.includes(m)) state.mode = m;
      else addressNotes.push(`mode=${m} is not a mode (${MODES.join(', ')})`);
    }
    return;
  }
  try {
    const s = JSON.parse(localStorage.getItem('tianyuan-board') || 'null');
    if (s && typeof s === 'object') {
      for (const k of ['rule', 'size', 'moves', 'mode', 'timeMs', 'numbers']) {
        if (k in s) state[k] = s[k];
      }
    }
  } catch (e) { /* ignore */ }
}

// Shows what was wrong with the address (see `restore`).
function showAddressNotes() {
  if (addressNotes.length) showMessage(`The address was not used as given: ${addressNotes.join('; ')}.`);
}

// Keeps restored settings within what the page offers.
function sanitize() {
  if (!RULES.includes(state.rule)) state.rule = 'renju';
  if (!(Number.isInteger(state.size) && state.size >= 5 && state.size <= 22)) state.size = 15;
  if (!MODES.includes(state.mode)) state.mode = 'black';
  if (!Array.isArray(state.moves) || !state.moves.every((m) => typeof m === 'string')) state.moves = [];
  state.moves = state.moves.map((m) => m.trim().toLowerCase());
  state.numbers = !!state.numbers;
  if (!ORIENTATIONS.includes(state.orientation)) state.orientation = 'screen';
}

function syncSelects() {
  $('rule').value = state.rule;
  $('size').value = String(state.size);
  $('mode').value = state.mode;
  $('time').value = String(state.timeMs);
  $('numbers').checked = state.numbers;
  $('orientation').value = state.orientation;
}

function init() {
  for (let n = 5; n <= 22; n++) {
    const o = document.createElement('option');
    o.value = String(n);
    o.textContent = `${n}×${n}`;
    $('size').appendChild(o);
  }
  restore();
  sanitize();
  syncSelects();
  showAddressNotes();
  if ($('time').value !== String(state.timeMs)) { state.timeMs = 1000; $('time').value = '1000'; }
  $('board').addEventListener('click', (ev) => {
    const t = ev.target.closest('.hit');
    if (t) onPointClick(t.dataset.point);
  });
  $('new').addEventListener('click', newGame);
  $('undo').addEventListener('click', undo);
  $('stop').addEventListener('click', () => { if (running) running.sendStop(); });
  $('go').addEventListener('click', async () => {
    if (gameOver()) return;
    await cancelSearch();
    generation++;
    startSearch(true);
  });
  $('mode').addEventListener('change', () => { state.mode = $('mode').value; showMessage(''); positionChanged(); });
  $('rule').addEventListener('change', () => { state.rule = $('rule').value; positionChanged(); });
  $('size').addEventListener('change', () => {
    state.size = parseInt($('size').value, 10);
    state.moves = [];
    positionChanged();
  });
  $('time').addEventListener('change', () => { state.timeMs = parseInt($('time').value, 10); save(); });
  $('numbers').addEventListener('change', () => { state.numbers = $('numbers').checked; save(); render(); });
  $('orientation').addEventListener('change', () => {
    state.orientation = $('orientation').value;
    saveOrientation();
    render();
  });
  const setMoves = () => {
    try {
      loadGame({ moves: parseMoveList($('movesText').value, state.size) }).catch((e) => showMessage(e.message));
    } catch (e) {
      showMessage(e.message);
    }
  };
  $('setMoves').addEventListener('click', setMoves);
  $('movesText').addEventListener('keydown', (ev) => { if (ev.key === 'Enter') setMoves(); });
  $('copy').addEventListener('click', copyPosition);
  $('savePsq').addEventListener('click', () => download('game.psq', toPsq(), 'text/plain'));
  $('saveSgf').addEventListener('click', () => download('game.sgf', toSgf(), 'application/x-go-sgf'));
  $('load').addEventListener('change', async () => {
    const file = $('load').files[0];
    $('load').value = '';
    if (!file) return;
    try {
      await loadGame(parseGame(await file.text()));
    } catch (e) {
      showMessage(e.message);
    }
  });
  api('/api/health').then((h) => { state.maxTimeMs = h.max_time_ms; }).catch(() => {});
  render();
  positionChanged();
}

init();
