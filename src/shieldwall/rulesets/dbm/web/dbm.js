// DBM 3.2 in the browser: deployment by hand (ruling R45) by dragging; every other decision from
// the engine's menu.
//
// The web piece of the dbm-3.2 plugin (PLUGIN.web_module): the page imports it from
// /rulesets/dbm-3.2/dbm.js when a game of DBM starts, and calls the hooks it exports (the
// interface: the comment at the top of the page's static/app.js, and docs/web.md).
//
// With the parameter hand_deployment each command is placed whole, the largest first: its general
// (the decision's unit, selected) is dragged, or a click puts it, and the command's other elements
// keep their places in the chosen formation (line or deep) around it. The side's zone is shaded
// green and the rectangles of the commands already placed red (a command's rectangle may touch
// them but not intersect them: dbm-3.2:deploy.rectangle). While dragging, the page asks the server
// (POST .../check) about the point; a drop the rules refuse shows the refusal and its clause.

import { el, ruleLink } from "/static/log.js";
import { round } from "/static/reach.js";

const SVGNS = "http://www.w3.org/2000/svg";
const link = (rule) => ruleLink(rule, `/rules/${rule.replace(":", "#")}`);

export const typedExample = "advance red1";

// ------------------------------------------------------------------------------- deployment
function next(g) {
  const d = g.st && g.st.decision;
  const dep = g.st && g.st.view.deployment;
  if (!(g.st && g.st.your_turn && d && d.kind === "deploy" && dep && dep.next)) return null;
  return dep.next;
}

// the formation being placed and its elements' offsets from the middle of the front edge
function layout(g) {
  const n = next(g);
  return n ? n.layouts[g.dbmLayout] || n.layouts.line : null;
}

// the general's offset: the pointer stands for the general's centre
function generalOffset(g) {
  const d = g.st.decision;
  const e = layout(g).elements.find((x) => x.id === d.unit);
  return e ? { dx: e.dx, dy: e.dy } : { dx: 0, dy: 0 };
}

function placeOrder(g, q) {
  const n = next(g);
  const o = generalOffset(g);
  return `place ${n.command}:${g.dbmLayout}@${round(q.x - o.dx, 1).toFixed(1)},${round(q.y - o.dy, 1).toFixed(1)}`;
}

// the rectangle [x0, y0, x1, y1] of the command with its general's centre at p (a preview)
function rectangleAt(g, p) {
  const o = generalOffset(g);
  let box = null;
  for (const e of layout(g).elements) {
    const u = g.units[e.id];
    if (!u) continue;
    const cx = p.x - o.dx + e.dx;
    const cy = p.y - o.dy + e.dy;
    const b = [cx - u.frontage / 2, cy - u.depth / 2, cx + u.frontage / 2, cy + u.depth / 2];
    box = box ? [Math.min(box[0], b[0]), Math.min(box[1], b[1]), Math.max(box[2], b[2]), Math.max(box[3], b[3])] : b;
  }
  return box;
}

function clash(a, b) {
  return Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > 0.05 && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > 0.05;
}

// why the preview at p is not legal (the server decides), or null
function previewWhy(g, p) {
  const n = next(g);
  const dep = g.st.view.deployment;
  const z = dep.zones[n.side];
  const box = rectangleAt(g, p);
  if (!box) return null;
  if (box[0] < z[0] - 1e-6 || box[1] < z[1] - 1e-6 || box[2] > z[2] + 1e-6 || box[3] > z[3] + 1e-6) return "outside the zone";
  const hit = Object.entries(dep.placed).find(([, b]) => clash(box, b));
  return hit ? `intersects ${hit[0]}` : null;
}

function rect(box, s, depth, attrs) {
  const r = document.createElementNS(SVGNS, "rect");
  Object.entries({ x: box[0] * s, y: (depth - box[3]) * s, width: (box[2] - box[0]) * s, height: (box[3] - box[1]) * s, ...attrs })
    .forEach(([k, v]) => r.setAttribute(k, v));
  return r;
}

// The side's zone (green) and the rectangles already placed (red), under the page's own layers.
function shade(g) {
  const b = g.board;
  if (!b.svg) return;
  b.svg.querySelectorAll(".dbm-deploy").forEach((x) => x.remove());
  const n = next(g);
  if (!n) return;
  const dep = g.st.view.deployment;
  const s = b.scale;
  const layer = document.createElementNS(SVGNS, "g");
  layer.setAttribute("class", "dbm-deploy");
  layer.setAttribute("pointer-events", "none");
  const z = dep.zones[n.side];
  const zone = rect(z, s, b.depth, { class: "dbm-zone", fill: "#9fe0a0", "fill-opacity": 0.22, stroke: "#2e7d32",
    "stroke-width": s * 2, "stroke-dasharray": `${s * 12} ${s * 6}` });
  const title = document.createElementNS(SVGNS, "title");
  title.textContent = `${n.side}'s deployment zone: ${n.command}'s rectangle goes wholly within it (${n.rule}, ruling R45)`;
  zone.append(title);
  layer.append(zone);
  for (const [name, box] of Object.entries(dep.placed)) {
    const r = rect(box, s, b.depth, { class: "dbm-taken", "data-command": name, fill: "#ff6b5e", "fill-opacity": 0.28,
      stroke: "#c92a2a", "stroke-width": s * 1.5 });
    const t = document.createElementNS(SVGNS, "title");
    t.textContent = `${name}'s rectangle: touching is allowed, intersecting is not (${n.rule})`;
    r.append(t);
    layer.append(r);
  }
  b.svg.insertBefore(layer, b.pathLayer || null);
}

// the command's other elements as ghosts beside the general's (board.ghost draws that one)
function ghostCommand(g, p, ok) {
  const o = generalOffset(g);
  const b = g.board;
  const s = b.scale;
  const colour = ok ? "#fffbe0" : "#ff6b5e";
  for (const e of layout(g).elements) {
    const u = g.units[e.id];
    if (!u || e.id === g.st.decision.unit) continue;
    const cx = p.x - o.dx + e.dx;
    const cy = p.y - o.dy + e.dy;
    b.overlay.append(rect([cx - u.frontage / 2, cy - u.depth / 2, cx + u.frontage / 2, cy + u.depth / 2], s, b.depth,
      { fill: colour, "fill-opacity": 0.3, stroke: colour, "stroke-width": s * 1.2 }));
  }
}

// ------------------------------------------------------------------------------- hooks
export function onState(g) {
  const n = next(g);
  if (n && g.dbmCommand !== n.command) {
    g.dbmCommand = n.command;
    g.dbmLayout = "line";
  }
}

export function defaultMode(g) {
  return next(g) ? "deploy" : null;
}

export function renderActions(g, box, btn, group) {
  shade(g);
  const n = next(g);
  if (!n) {
    g.menuActions(box, btn, group);
    return;
  }
  const lay = (name, label) => el("button", { type: "button", class: `mode${g.dbmLayout === name ? " on" : ""}`,
    onclick: () => { g.dbmLayout = name; g.board.clearGhost(); g.renderActions(); g.renderHint(); } }, label);
  const z = g.st.view.deployment.zones[n.side];
  box.append(group(`Place ${n.command}: drag its general (${g.st.decision.unit}) within your zone (x ${z[0]}–${z[2]}, y ${z[1]}–${z[3]} paces), or click where the general should stand`,
    lay("line", "Line"), lay("deep", "Deep"), " ", link(n.rule)));
  const s = layout(g).suggested;
  const here = g.st.menu.find((m) => m.text === `place ${n.command}:${g.dbmLayout}@${s[0].toFixed(1)},${s[1].toFixed(1)}`);
  if (here) box.append(group("Or", btn("The seeded procedure's place", here.order)));
}

export function hint(g) {
  const n = next(g);
  if (n) return `Drag ${g.st.decision.unit} (${n.command}'s general) within your deployment zone (green); ${n.command} follows in ${g.dbmLayout}. Red: rectangles already placed.`;
  return null;
}

export function onTable(g, p) {
  if (!next(g)) return false;
  const u = g.units[g.st.decision.unit];
  g.sendNear(p, (q) => placeOrder(g, q), { x: u.x, y: u.y });
  return true;
}

export function orderAt(g, p) {
  if (!next(g)) return null;
  const u = g.units[g.st.decision.unit];
  return { order: placeOrder(g, p), from: { x: u.x, y: u.y } };
}

export function onHover(g, p, uid) {
  if (!next(g) || uid) return false;
  shade(g);
  const u = g.units[g.st.decision.unit];
  const why = previewWhy(g, p);
  g.board.ghost(u, p.x, p.y, u.heading, !why, why || "in the zone");
  ghostCommand(g, p, !why);
  g.renderHint(`Place ${u.id} at (${round(p.x, 1)}, ${round(p.y, 1)}) paces${why ? ` — ${why}` : ""}`);
  return true;
}
