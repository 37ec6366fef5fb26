// spi-dark-ages's hex-board tools (imported by spi-dark-ages.js): CCRR hex labels on every hex
// (toggled, remembered), stacks that open (a click on a hex of several counters lists them; choose
// one), the odds preview before an attack (a click on an enemy the selected unit may attack: the
// exact CRT distribution from the engine's reach, and the button that allocates it), and the
// fire-line tool (from the selected missile unit to any hex in range, the blocking hex outlined in
// red with the clause that blocks it). Everything shown comes from the view or the engine's reach.

import { el } from "/static/log.js";

const NS = "http://www.w3.org/2000/svg";
const SQ3 = Math.sqrt(3);
const LABELS_KEY = "shieldwall.spi.labels";

// --------------------------------------------------------------------------------- geometry
// The table point (x east, y north, hex radius 1) of the centre of 0-based column c, row r
// (odd rows shifted half a hex east: picture.centre).
export function centre(rows, c, r) {
  return { x: SQ3 * (c + (r & 1) / 2) + SQ3 / 2, y: 1.5 * rows + 0.5 - (1.5 * r + 1) };
}

export function ccrr(c, r) {
  return `${String(c + 1).padStart(2, "0")}${String(r + 1).padStart(2, "0")}`;
}

function svgPoint(g, x, y) {
  return [x * g.board.scale, (g.board.depth - y) * g.board.scale];
}

function hexPoints(g, x, y, k = 0.95) {
  return [0, 60, 120, 180, 240, 300]
    .map((a) => {
      const t = (a * Math.PI) / 180;
      return svgPoint(g, x + k * Math.sin(t), y + k * Math.cos(t)).join(",");
    })
    .join(" ");
}

function svgEl(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// A layer of the board's SVG by class (made on first use, on top, no pointer events).
export function layer(g, cls) {
  const svg = g.board && g.board.svg;
  if (!svg) return null;
  let lay = svg.querySelector(`g.${cls}`);
  if (!lay) {
    lay = svgEl("g", { class: cls, "pointer-events": "none" });
    svg.append(lay);
  }
  return lay;
}

// The client (screen) position of table point (x, y), for the popups.
function screenAt(g, x, y) {
  const svg = g.board.svg;
  const m = svg && svg.getScreenCTM();
  if (!m) return { left: 100, top: 100 };
  const [sx, sy] = svgPoint(g, x, y);
  const p = new DOMPoint(sx, sy).matrixTransform(m);
  return { left: p.x, top: p.y };
}

// --------------------------------------------------------------------------------- hex labels
export function labelsOn() {
  return localStorage.getItem(LABELS_KEY) !== "off";
}

export function drawLabels(g) {
  const svg = g.board && g.board.svg;
  const map = g.st && g.st.view && g.st.view.map;
  if (!svg || !map) return;
  const old = svg.querySelector("g.spi-ccrr");
  if (old) old.remove();
  if (!labelsOn()) return;
  const lay = layer(g, "spi-ccrr");
  const s = g.board.scale;
  for (let r = 0; r < map.rows; r++) {
    for (let c = 0; c < map.cols; c++) {
      const p = centre(map.rows, c, r);
      const [x, y] = svgPoint(g, p.x, p.y + 0.5);
      lay.append(svgEl("text", {
        x, y, "font-size": s * 0.42, "text-anchor": "middle", fill: "#343a40", "fill-opacity": "0.8",
        "font-family": "monospace", class: "spi-hexlabel", "data-hex": ccrr(c, r),
      }, ccrr(c, r)));
    }
  }
  // over the terrain, under the counters and the reach shading
  const terrain = svg.querySelector("g.terrain-layer");
  if (terrain) terrain.after(lay);
}

// Redraw the labels whenever the page puts a new SVG on the board (installed once per page).
function watchBoard(g) {
  if (g.spiWatch || !g.board || !g.board.el) return;
  g.spiWatch = new MutationObserver(() => {
    if (g.board.svg && !g.board.svg.querySelector("g.spi-ccrr") && labelsOn()) drawLabels(g);
  });
  g.spiWatch.observe(g.board.el, { childList: true });
}

// --------------------------------------------------------------------------------- toolbar
export function installTools(g) {
  watchBoard(g);
  let bar = document.getElementById("spi-tools");
  if (!bar) {
    const labels = el("button", { type: "button", id: "spi-labels", "aria-pressed": String(labelsOn()), title: "Show or hide the CCRR label of every hex" }, "Hex labels");
    labels.onclick = () => {
      localStorage.setItem(LABELS_KEY, labelsOn() ? "off" : "on");
      labels.setAttribute("aria-pressed", String(labelsOn()));
      drawLabels(g);
    };
    const fire = el("button", { type: "button", id: "spi-fire-tool", "aria-pressed": "false", title: "Fire line: select a missile unit, then click any hex in its range" }, "Fire line");
    fire.onclick = () => {
      g.spiFireTool = !g.spiFireTool;
      fire.setAttribute("aria-pressed", String(!!g.spiFireTool));
      if (!g.spiFireTool) clearFireTool(g);
      g.renderHint(g.spiFireTool ? "Fire line: click a hex in range of the selected missile unit." : undefined);
    };
    bar = el("div", { id: "spi-tools", class: "spi-tools", style: "display:flex;gap:.4em;margin:.3em 0" }, labels, fire);
    const board = document.getElementById("board");
    const wrap = board && board.parentElement;
    if (wrap && wrap.parentElement) wrap.parentElement.insertBefore(bar, wrap);
  }
  drawLabels(g);
}

// --------------------------------------------------------------------------------- popups
export function closePopup() {
  const old = document.getElementById("spi-popup");
  if (old) old.remove();
}

function popup(g, at, title, children) {
  closePopup();
  const pos = screenAt(g, at.x, at.y);
  const close = el("button", { type: "button", class: "spi-close", title: "Close" }, "×");
  close.onclick = closePopup;
  const box = el("div", {
    id: "spi-popup", class: "spi-popup", role: "dialog", "aria-label": title,
    style: `position:fixed;left:${Math.round(pos.left + 12)}px;top:${Math.round(pos.top + 12)}px;z-index:50;`
      + "background:#fff;border:1px solid #495057;border-radius:4px;padding:.4em .6em;box-shadow:0 2px 8px #0004;max-width:28em;font-size:.9em",
  }, el("div", { style: "display:flex;justify-content:space-between;gap:1em" }, el("b", {}, title), close), ...children);
  // keyboard: Escape closes the popup (and gives the focus back to the table)
  box.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      closePopup();
      const board = document.getElementById("board");
      if (board) board.focus();
    }
  });
  document.body.append(box);
  return box;
}

function counterText(u) {
  const marks = [u.panicked ? "panicked" : null, u.demoralized && !u.panicked ? "demoralized" : null, u.in_contact ? "in contact" : null]
    .filter(Boolean);
  return `${u.name} [${u.id}] (${u.side}, class ${u.class}, facing ${u.facing})${marks.length ? " — " + marks.join(", ") : ""}`;
}

// The counters of a stack: a list; a click on one selects it.
export function openStack(g, units) {
  const items = units.map((u) => {
    const b = el("button", { type: "button", class: "spi-stack-item", "data-unit": u.id, style: "display:block;width:100%;text-align:left;margin:.15em 0" }, counterText(u));
    b.onclick = () => {
      closePopup();
      g.select(u.id);
    };
    return b;
  });
  popup(g, units[0], `Hex ${units[0].hex}: ${units.length} counters`, items);
  items[0].focus(); // a keyboard player chooses with Tab and Enter at once
}

// The odds preview of one attack of the selected unit (reach.odds): odds, column, die modifier,
// every result with its probability, the notes with their clauses; a button allocates it.
export function openOdds(g, o, at, defenders) {
  const results = Object.entries(o.results).map(([k, v]) =>
    el("tr", {}, el("td", {}, k), el("td", { style: "text-align:right" }, `${(v.p * 100).toFixed(1)}%`), el("td", { class: "small" }, v.probability)));
  const your = g.st && g.st.your_turn && g.st.decision && g.st.decision.kind === "allocate";
  const go = el("button", { type: "button", id: "spi-odds-go", disabled: !your }, `Allocate: ${o.order}`);
  go.onclick = () => {
    closePopup();
    g.send(o.order);
  };
  popup(g, at, `${o.table === "melee" ? "Melee" : "Fire"} on ${o.target}`, [
    el("div", { class: "spi-odds-line" }, `${o.units.join(" + ")}: ${o.attack} against ${o.defence} — column ${o.column}, die ${o.modifier >= 0 ? "+" : ""}${o.modifier}`),
    el("div", { class: "small" }, `defenders: ${defenders.map((u) => `${u.name} [${u.id}]`).join(", ")}`),
    el("table", { class: "spi-odds-results" }, el("tbody", {}, results)),
    el("ul", { class: "small" }, (o.notes || []).map((n) => el("li", {}, n))),
    el("div", { class: "small" }, o.label || ""),
    go,
  ]);
}

// Odds tags on the board: the column of each attack the selected unit may join, on its target.
export function drawOddsTags(g, r) {
  const lay = layer(g, "spi-odds-tags");
  if (!lay) return;
  lay.replaceChildren();
  if (!r || !r.odds) return;
  const s = g.board.scale;
  const byHex = Object.fromEntries((g.st.view.units || []).filter((u) => !u.removed).map((u) => [u.hex, u]));
  for (const o of r.odds) {
    const u = byHex[o.target];
    if (!u) continue;
    const [x, y] = svgPoint(g, u.x, u.y - 0.55);
    lay.append(
      svgEl("rect", { x: x - s * 0.55, y: y - s * 0.3, width: s * 1.1, height: s * 0.42, rx: s * 0.08, fill: o.table === "melee" ? "#fff3bf" : "#e7f5ff", stroke: "#495057", "stroke-width": s * 0.03 }),
      svgEl("text", { x, y: y + s * 0.02, "font-size": s * 0.3, "text-anchor": "middle", class: "spi-odds-tag", "data-hex": o.target }, `${o.table === "melee" ? "M" : "F"} ${o.column}`),
    );
  }
}

// --------------------------------------------------------------------------------- fire-line tool
export function clearFireTool(g) {
  const lay = layer(g, "spi-fire-tool");
  if (lay) lay.replaceChildren();
}

// The line from the selected missile unit to the fire_tool hex nearest p (within a hex), the
// blocking hex outlined; -> the line's words, or null (no missile unit selected, no hex in range).
export function fireLineAt(g, p) {
  const r = g.reach;
  if (!r || !r.fire_tool || !r.at) return null;
  let best = null;
  let dist = 0.9;
  for (const f of r.fire_tool) {
    const d = Math.hypot(f.x - p.x, f.y - p.y);
    if (d < dist) {
      best = f;
      dist = d;
    }
  }
  const lay = layer(g, "spi-fire-tool");
  if (!lay) return null;
  lay.replaceChildren();
  if (!best) return null;
  const s = g.board.scale;
  const [x1, y1] = svgPoint(g, r.at.x, r.at.y);
  const [x2, y2] = svgPoint(g, best.x, best.y);
  lay.append(svgEl("line", { x1, y1, x2, y2, stroke: best.clear ? "#2b8a3e" : "#c92a2a", "stroke-width": s * 0.1, class: "spi-fire-line", "data-hex": best.target }));
  if (best.clear) return `line of fire to ${best.target}: clear`;
  lay.append(
    svgEl("polygon", { points: hexPoints(g, best.bx, best.by), fill: "#c92a2a", "fill-opacity": "0.25", stroke: "#c92a2a", "stroke-width": s * 0.12, class: "spi-block", "data-hex": best.blocked_at }),
    svgEl("text", { x: svgPoint(g, best.bx, best.by)[0], y: svgPoint(g, best.bx, best.by)[1] + s * 0.25, "font-size": s * 0.8, fill: "#c92a2a", "text-anchor": "middle" }, "✕"),
  );
  return `line of fire to ${best.target}: blocked at ${best.blocked_at} (${best.rule})`;
}
