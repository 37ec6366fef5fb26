// spi-dark-ages's piece of the page (the plugin's web_module): the hex board's reach and attack
// preview. Everything here comes from the engine's reach (GET .../reach/{unit}: reach.py): the
// hexes the selected unit can end in, shaded with their MP cost (the stop hexes in front of enemy
// missile units marked), a click on a shaded hex next to the unit steps into it, and in the Attack
// Allocation Phase the exact CRT preview of every attack it may join (odds, column, die modifier,
// each result with its probability), and the lines of fire of a missile unit to the enemy hexes in
// its range, each clear (green) or red up to the hex that blocks it (an X naming the rule). The
// sample charts are labelled: not SPI's. The hex-board tools (CCRR labels, stacks that open, the
// odds preview on a click at a target, the fire-line tool) are in spi-hexboard.js.

import { el } from "/static/log.js";
import {
  closePopup, drawOddsTags, fireLineAt, installTools, openOdds, openStack,
} from "./spi-hexboard.js";

const NS = "http://www.w3.org/2000/svg";

export const typedExample = "step a1 0";

function layer(g) {
  const svg = g.board && g.board.svg;
  if (!svg) return null;
  let lay = svg.querySelector("g.spi-reach");
  if (!lay) {
    lay = document.createElementNS(NS, "g");
    lay.setAttribute("class", "spi-reach");
    lay.setAttribute("pointer-events", "none");
    svg.append(lay);
  }
  return lay;
}

function shade(g, r) {
  const lay = layer(g);
  if (!lay) return;
  lay.replaceChildren();
  if (!r || !r.hexes) return;
  const s = g.board.scale;
  const depth = g.board.depth;
  for (const h of r.hexes) {
    const pts = [0, 60, 120, 180, 240, 300]
      .map((a) => {
        const t = (a * Math.PI) / 180;
        return `${(h.x + 0.95 * Math.sin(t)) * s},${(depth - h.y - 0.95 * Math.cos(t)) * s}`;
      })
      .join(" ");
    const poly = document.createElementNS(NS, "polygon");
    poly.setAttribute("points", pts);
    poly.setAttribute("class", "spi-reach-hex");
    poly.setAttribute("data-hex", h.hex);
    poly.setAttribute("data-mp", `${h.mp}`);
    poly.setAttribute("fill", h.stop ? "#d9480f" : h.order ? "#2b8a3e" : "#1c7ed6");
    poly.setAttribute("fill-opacity", h.mp === 0 ? "0.08" : "0.22");
    poly.setAttribute("stroke", "#ffffff");
    poly.setAttribute("stroke-width", s * 0.04);
    const t = document.createElementNS(NS, "text");
    t.setAttribute("x", h.x * s);
    t.setAttribute("y", (depth - h.y + 0.15) * s);
    t.setAttribute("font-size", s * 0.45);
    t.setAttribute("text-anchor", "middle");
    t.textContent = `${h.mp}`;
    lay.append(poly, t);
  }
}

function fireLines(g, r) {
  const lay = layer(g);
  if (!lay || !r || !r.fire_lines || !r.at) return;
  const s = g.board.scale;
  const depth = g.board.depth;
  const P = (x, y) => [x * s, (depth - y) * s];
  for (const f of r.fire_lines) {
    const [x1, y1] = P(r.at.x, r.at.y);
    const [x2, y2] = f.clear ? P(f.x, f.y) : P(f.bx, f.by);
    const line = document.createElementNS(NS, "line");
    Object.entries({ x1, y1, x2, y2, stroke: f.clear ? "#2b8a3e" : "#c92a2a", "stroke-width": s * 0.08, "stroke-dasharray": `${s * 0.3} ${s * 0.15}` })
      .forEach(([k, v]) => line.setAttribute(k, v));
    lay.append(line);
    if (!f.clear) {
      // the blocking hex: an X, its reason in the title
      const mark = document.createElementNS(NS, "text");
      mark.setAttribute("x", x2);
      mark.setAttribute("y", y2 + s * 0.25);
      mark.setAttribute("font-size", s * 0.8);
      mark.setAttribute("fill", "#c92a2a");
      mark.setAttribute("text-anchor", "middle");
      mark.textContent = "✕";
      const title = document.createElementNS(NS, "title");
      title.textContent = `fire at ${f.target} blocked at ${f.blocked_at} (${f.rule})`;
      mark.append(title);
      lay.append(mark);
    }
  }
}

export function onState(g) {
  installTools(g);
  closePopup();
  shade(g, g.reach);
  fireLines(g, g.reach);
}

export function reachItems(g, r) {
  shade(g, r);
  fireLines(g, r);
  drawOddsTags(g, r);
  const out = [];
  if (r.move) {
    out.push(el("li", {}, `MP: ${r.move.mp_left} of ${r.move.allowance}; ${r.hexes.length} hexes within reach`));
    if (r.move.why_not) out.push(el("li", {}, `may not move: ${r.move.why_not.reason} (${r.move.why_not.rule})`));
  }
  const stops = (r.hexes || []).filter((h) => h.stop).map((h) => h.hex);
  if (stops.length) out.push(el("li", {}, `stop hexes (front of enemy missile units): ${stops.join(", ")}`));
  for (const o of r.odds || []) {
    const res = Object.entries(o.results)
      .map(([k, v]) => `${k} ${(v.p * 100).toFixed(1)}%`)
      .join(", ");
    out.push(
      el("li", {}, `${o.table} on ${o.target}: ${o.attack} : ${o.defence}, column ${o.column}, die ${o.modifier >= 0 ? "+" : ""}${o.modifier} — ${res}`),
    );
  }
  for (const f of r.fire_lines || []) {
    out.push(el("li", {}, f.clear ? `line of fire to ${f.target}: clear` : `line of fire to ${f.target}: blocked at ${f.blocked_at} (${f.rule})`));
  }
  if ((r.odds || []).length && r.odds[0].label) out.push(el("li", {}, r.odds[0].label));
  return out;
}

// A click on a counter: the odds preview if the selected unit may attack its hex (reach.odds),
// else the list of the hex's counters if it holds several, else the page selects it.
export function onUnit(g, uid) {
  const u = g.units[uid];
  if (!u || !u.hex) return false;
  const stack = Object.values(g.units).filter((o) => o.hex === u.hex);
  const r = g.reach;
  const sel = g.selected && g.units[g.selected];
  if (r && sel && r.unit === sel.id && sel.side !== u.side) {
    const o = (r.odds || []).find((x) => x.target === u.hex);
    if (o) {
      openOdds(g, o, u, stack);
      return true;
    }
  }
  if (stack.length > 1) {
    openStack(g, stack);
    return true;
  }
  closePopup();
  return false;
}

export function onTable(g, p) {
  closePopup();
  if (g.spiFireTool) {
    const said = fireLineAt(g, p);
    g.renderHint(said || "Fire line: select a missile unit first, then click a hex in its range.");
    return true;
  }
  const r = g.reach;
  if (!r || !r.hexes || !g.st || !g.st.your_turn) return false;
  let best = null;
  let dist = 0.9;
  for (const h of r.hexes) {
    const d = Math.hypot(h.x - p.x, h.y - p.y);
    if (h.order && d < dist) {
      best = h;
      dist = d;
    }
  }
  if (!best) return false;
  g.send(best.order);
  return true;
}

export function hint(g) {
  const d = g.st && g.st.decision;
  if (!d) return null;
  if (d.kind === "move") return "Select a unit: its reach is shaded (MP to each hex); click a green hex to step, or use Turn / Done / End.";
  if (d.kind === "allocate") return "Select a unit, then click an enemy it may attack: the odds preview on the CRT and its Allocate button; End when done.";
  return null;
}
