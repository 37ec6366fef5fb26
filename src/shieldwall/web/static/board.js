// The table: the server's SVG (render_svg) shown as is, with clicks turned into table inches.
//
// The SVG draws a table point (x, y) at (x * scale, (depth - y) * scale); it carries data-scale and
// data-table-depth. Units are <g class="unit" data-unit="ID"> in the units layer (<g class="units">;
// a rule system's drawing may put more marks with data-unit inside a unit), reach highlights hl-*
// with data-unit.

const SVGNS = "http://www.w3.org/2000/svg";
const UNIT_SELECTOR = ".unit[data-unit], .units [data-unit], .hl-charge-target[data-unit], .hl-shoot-target[data-unit], .hl-active[data-unit]";

export class Board {
  constructor(el, { onUnit, onTable, onMove, onLeave }) {
    this.el = el;
    this.svg = null;
    this.scale = 16;
    this.depth = 36;
    this.width = 48;
    el.addEventListener("click", (e) => {
      if (!this.svg) return;
      const hit = e.target.closest(UNIT_SELECTOR);
      if (hit) {
        onUnit(hit.getAttribute("data-unit"), e);
        return;
      }
      const p = this.toTable(e.clientX, e.clientY);
      if (p.x < 0 || p.y < 0 || p.x > this.width || p.y > this.depth) return;
      onTable(p, e);
    });
    el.addEventListener("mousemove", (e) => {
      if (!this.svg) return;
      const hit = e.target.closest(UNIT_SELECTOR);
      onMove(this.toTable(e.clientX, e.clientY), hit ? hit.getAttribute("data-unit") : null, e);
    });
    el.addEventListener("mouseleave", () => onLeave && onLeave());
  }

  show(svgText) {
    this.el.innerHTML = svgText;
    this.svg = this.el.querySelector("svg");
    if (!this.svg) return;
    this.scale = parseFloat(this.svg.getAttribute("data-scale") || "16");
    this.depth = parseFloat(this.svg.getAttribute("data-table-depth") || "36");
    this.width = parseFloat(this.svg.getAttribute("data-table-width") || "48");
    this.svg.removeAttribute("width");
    this.svg.removeAttribute("height");
    this.svg.setAttribute("preserveAspectRatio", "xMidYMin meet");
    this.pathLayer = document.createElementNS(SVGNS, "g");
    this.pathLayer.setAttribute("class", "page-path");
    this.pathLayer.setAttribute("pointer-events", "none");
    this.overlay = document.createElementNS(SVGNS, "g");
    this.overlay.setAttribute("class", "page-overlay");
    this.overlay.setAttribute("pointer-events", "none");
    this.svg.append(this.pathLayer, this.overlay);
  }

  // The legs of a path being built (shift+click), from the unit's centre.
  drawPath(points) {
    if (!this.pathLayer) return;
    this.pathLayer.replaceChildren();
    if (points.length < 2) return;
    const s = this.scale;
    const line = document.createElementNS(SVGNS, "polyline");
    line.setAttribute("points", points.map((p) => `${p.x * s},${(this.depth - p.y) * s}`).join(" "));
    Object.entries({ fill: "none", stroke: "#ffd83b", "stroke-width": s * 0.15, "stroke-dasharray": `${s * 0.5} ${s * 0.2}` })
      .forEach(([k, v]) => line.setAttribute(k, v));
    this.pathLayer.append(line);
    for (const p of points.slice(1)) {
      const dot = document.createElementNS(SVGNS, "circle");
      Object.entries({ cx: p.x * s, cy: (this.depth - p.y) * s, r: s * 0.3, fill: "#ffd83b", stroke: "#000", "stroke-width": s * 0.05 })
        .forEach(([k, v]) => dot.setAttribute(k, v));
      this.pathLayer.append(dot);
    }
  }

  // client (screen) pixels -> table inches
  toTable(cx, cy) {
    const pt = this.svg.createSVGPoint();
    pt.x = cx;
    pt.y = cy;
    const u = pt.matrixTransform(this.svg.getScreenCTM().inverse());
    return { x: u.x / this.scale, y: this.depth - u.y / this.scale };
  }

  // table inches -> client (screen) pixels (used by the end-to-end test too)
  toScreen(x, y) {
    const pt = this.svg.createSVGPoint();
    pt.x = x * this.scale;
    pt.y = (this.depth - y) * this.scale;
    const c = pt.matrixTransform(this.svg.getScreenCTM());
    return { x: c.x, y: c.y };
  }

  unitElement(uid) {
    return this.svg ? this.svg.querySelector(`.unit[data-unit="${CSS.escape(uid)}"]`) : null;
  }

  clearGhost() {
    if (this.overlay) this.overlay.replaceChildren();
  }

  // A pale outline of where a unit would stand (a preview only: the server rules on the move).
  ghost(unit, x, y, heading, ok, label) {
    if (!this.overlay) return;
    this.clearGhost();
    const s = this.scale;
    const [cx, cy] = [x * s, (this.depth - y) * s];
    const [ux, uy] = [unit.x * s, (this.depth - unit.y) * s];
    const line = document.createElementNS(SVGNS, "line");
    Object.entries({ x1: ux, y1: uy, x2: cx, y2: cy, stroke: ok ? "#fffbe0" : "#ff6b5e",
      "stroke-width": s * 0.12, "stroke-dasharray": `${s * 0.4} ${s * 0.25}` })
      .forEach(([k, v]) => line.setAttribute(k, v));
    const rect = document.createElementNS(SVGNS, "rect");
    const w = unit.frontage * s;
    const d = unit.depth * s;
    Object.entries({ x: -w / 2, y: -d / 2, width: w, height: d,
      transform: `translate(${cx} ${cy}) rotate(${heading})`,
      fill: ok ? "#fffbe0" : "#ff6b5e", "fill-opacity": 0.35, stroke: ok ? "#fffbe0" : "#ff6b5e",
      "stroke-width": s * 0.12 })
      .forEach(([k, v]) => rect.setAttribute(k, v));
    const front = document.createElementNS(SVGNS, "line");
    Object.entries({ x1: -w / 2, y1: -d / 2, x2: w / 2, y2: -d / 2,
      transform: `translate(${cx} ${cy}) rotate(${heading})`, stroke: "#ffd83b", "stroke-width": s * 0.25 })
      .forEach(([k, v]) => front.setAttribute(k, v));
    const text = document.createElementNS(SVGNS, "text");
    Object.entries({ x: cx, y: cy - d / 2 - s * 0.5, "text-anchor": "middle", "font-size": s * 0.8,
      "font-weight": "bold", fill: "#fff", stroke: "#000", "stroke-width": s * 0.08, "paint-order": "stroke" })
      .forEach(([k, v]) => text.setAttribute(k, v));
    text.textContent = label;
    this.overlay.append(line, rect, front, text);
  }
}

// Degrees clockwise from north (table y up), as the engine measures headings.
export function bearing(from, to) {
  return (Math.atan2(to.x - from.x, to.y - from.y) * 180) / Math.PI;
}

export function normalize(a) {
  let r = ((a + 180) % 360 + 360) % 360 - 180;
  if (r === -180) r = 180;
  return r;
}
