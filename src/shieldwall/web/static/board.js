// The table: the server's SVG (render_svg) shown as is, with clicks turned into table inches.
//
// The SVG draws a table point (x, y) at (x * scale, (depth - y) * scale); it carries data-scale and
// data-table-depth. Units are <g class="unit" data-unit="ID"> in the units layer (<g class="units">;
// a rule system's drawing may put more marks with data-unit inside a unit), reach highlights hl-*
// with data-unit.

const SVGNS = "http://www.w3.org/2000/svg";
export const UNIT_SELECTOR = ".unit[data-unit], .units [data-unit], .hl-charge-target[data-unit], .hl-shoot-target[data-unit], .hl-active[data-unit]";

export class Board {
  // canDrag(uid): whether unit uid may be dragged to where it should go (the unit being moved);
  // its drag shows the ghost as the pointer does (onMove) and its drop is a click there (onDrop);
  // a drag that ends in no drop (a pinch, a cancelled touch) calls onDragCancel
  constructor(el, { onUnit, onTable, onMove, onLeave, canDrag, onDrop, onDrag, onDragCancel }) {
    this.el = el;
    this.svg = null;
    this.scale = 16;
    this.depth = 36;
    this.width = 48;
    this.full = null; // the server's viewBox: the whole table and its margins, {x, y, w, h}
    this.zoom = null; // {k, cx, cy}: k times the whole table, centred on (cx, cy) in SVG units; null: fit
    this.listeners = [];
    this.tool = null; // a tool that takes the presses on the table ({down, drag, up, cancel}: the ruler)
    this.onMove = onMove;
    this.canDrag = canDrag || (() => false);
    this.onDrop = onDrop || (() => {});
    this.onDrag = onDrag || (() => {});
    this.onDragCancel = onDragCancel || (() => {});
    this.dragged = false; // the last press dragged the table (its click is not a click)
    this.touches = new Map(); // the fingers on the table: pointerId -> {x, y} (client pixels)
    this.pinch = null; // two fingers down: {d, k, p} at their start (distance, zoom, SVG point between them)
    this.gesture = 0; // counts pinches: a press's drag started before one is not a drag any more
    el.addEventListener("pointerdown", (e) => this.touchDown(e));
    el.addEventListener("pointermove", (e) => this.touchMove(e));
    for (const end of ["pointerup", "pointercancel"]) el.addEventListener(end, (e) => this.touchUp(e));
    el.addEventListener("wheel", (e) => {
      if (!this.svg) return;
      e.preventDefault();
      this.zoomAt(Math.pow(1.0015, -e.deltaY * (e.deltaMode === 1 ? 30 : 1)), e.clientX, e.clientY);
    }, { passive: false });
    el.addEventListener("pointerdown", (e) => this.press(e));
    el.addEventListener("click", (e) => {
      if (!this.svg) return;
      if (this.dragged) {
        this.dragged = false;
        return;
      }
      if (this.tool) return; // a tool (the ruler) has the pointer: no orders, no selection
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
    const [x, y, w, h] = (this.svg.getAttribute("viewBox") || `0 0 ${this.width * this.scale} ${this.depth * this.scale}`)
      .split(/[\s,]+/).map(Number);
    const same = this.full && this.full.w === w && this.full.h === h && this.full.x === x && this.full.y === y;
    this.full = { x, y, w, h };
    if (!same) this.zoom = null; // another table: see all of it
    this.applyView();
    this.pathLayer = document.createElementNS(SVGNS, "g");
    this.pathLayer.setAttribute("class", "page-path");
    this.pathLayer.setAttribute("pointer-events", "none");
    this.overlay = document.createElementNS(SVGNS, "g");
    this.overlay.setAttribute("class", "page-overlay");
    this.overlay.setAttribute("pointer-events", "none");
    this.svg.append(this.pathLayer, this.overlay);
  }

  // ------------------------------------------------------------------ zoom and pan
  // The view is the SVG's viewBox: the server's drawing is vector, so it stays crisp at any zoom.

  onView(fn) {
    this.listeners.push(fn);
  }

  view() {
    const f = this.full;
    if (!f) return null;
    if (!this.zoom) return { ...f };
    const { k, cx, cy } = this.zoom;
    return { x: cx - f.w / k / 2, y: cy - f.h / k / 2, w: f.w / k, h: f.h / k };
  }

  // the zoom: 1 = the whole table; at most 24 times (a 6' table then shows 3" across)
  get k() {
    return this.zoom ? this.zoom.k : 1;
  }

  setZoom(k, cx, cy) {
    const f = this.full;
    if (!f) return;
    k = Math.min(24, Math.max(1, k));
    if (k <= 1.0001) {
      this.zoom = null;
    } else {
      const [hw, hh] = [f.w / k / 2, f.h / k / 2];
      cx = Math.min(f.x + f.w - hw, Math.max(f.x + hw, cx));
      cy = Math.min(f.y + f.h - hh, Math.max(f.y + hh, cy));
      this.zoom = { k, cx, cy };
    }
    this.applyView();
  }

  applyView() {
    if (!this.svg || !this.full) return;
    const v = this.view();
    this.svg.setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
    this.el.classList.toggle("zoomed", !!this.zoom);
    for (const fn of this.listeners) fn(v, this);
  }

  // zoom by `factor` keeping the point under the client pixel (px, py) where it is (default: the centre)
  zoomAt(factor, px, py) {
    if (!this.svg || !this.full) return;
    const v = this.view();
    let p = { x: v.x + v.w / 2, y: v.y + v.h / 2 };
    if (px !== undefined) p = this.toSvg(px, py);
    const k1 = Math.min(24, Math.max(1, this.k * factor));
    const r = this.k / k1;
    const [x0, y0] = [p.x - (p.x - v.x) * r, p.y - (p.y - v.y) * r];
    this.setZoom(k1, x0 + (v.w * r) / 2, y0 + (v.h * r) / 2);
  }

  fit() {
    this.zoom = null;
    this.applyView();
  }

  // pan by a fraction of the view (the arrow keys)
  panBy(fx, fy) {
    const v = this.view();
    if (!v || !this.zoom) return;
    this.setZoom(this.k, v.x + v.w / 2 + fx * v.w, v.y + v.h / 2 + fy * v.h);
  }

  // centre the view on a table point (the minimap)
  centreOn(x, y) {
    if (!this.zoom) return;
    this.setZoom(this.k, x * this.scale, (this.depth - y) * this.scale);
  }

  // ------------------------------------------------------------------ touch
  // Two fingers pinch: the zoom follows the distance between them, and the table point that was
  // between them stays between them (so moving both pans). One finger is a press like the mouse's
  // (a drag of the background pans when zoomed in). The board's CSS has touch-action: none, so the
  // browser leaves these gestures to the page.

  midpoint() {
    const [a, b] = [...this.touches.values()];
    return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, d: Math.hypot(a.x - b.x, a.y - b.y) };
  }

  touchDown(e) {
    if (e.pointerType !== "touch" || !this.svg) return;
    this.touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (this.touches.size !== 2) return;
    const m = this.midpoint();
    this.pinch = { d: Math.max(m.d, 1), k: this.k, p: this.toSvg(m.x, m.y) };
    this.gesture++;
    this.dragged = true; // no click, no order from a pinch
    this.el.classList.remove("dragging", "panning");
    // a tool's press the first finger began (the ruler's measure) is undone: the pinch is not a measure
    if (this.tool && this.tool.cancel) this.tool.cancel();
  }

  touchMove(e) {
    if (!this.touches.has(e.pointerId)) return;
    this.touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (!this.pinch || this.touches.size < 2) return;
    const m = this.midpoint();
    const k = Math.min(24, Math.max(1, (this.pinch.k * m.d) / this.pinch.d));
    const v = this.view();
    this.setZoom(k, v.x + v.w / 2, v.y + v.h / 2);
    if (!this.zoom) return;
    // the view moved so that the pinch's table point is under the fingers' midpoint again
    const q = this.toSvg(m.x, m.y);
    this.setZoom(k, this.zoom.cx + this.pinch.p.x - q.x, this.zoom.cy + this.pinch.p.y - q.y);
  }

  touchUp(e) {
    if (!this.touches.delete(e.pointerId)) return;
    if (this.touches.size < 2) this.pinch = null;
  }

  // A press on the table: a drag of the background pans (when zoomed in), or, with a tool that
  // claims the press (the ruler), goes to it. A press that moved more than 4 px is not a click.
  // A second finger makes it a pinch: the press's drag stops there.
  press(e) {
    if (!this.svg || e.button !== 0 || this.touches.size > 1) return;
    this.dragged = false;
    const gesture = this.gesture;
    if (this.tool && this.tool.down && this.tool.down(this.toTable(e.clientX, e.clientY), e)) {
      this.el.setPointerCapture && this.el.setPointerCapture(e.pointerId);
      const move = (m) => {
        if (gesture !== this.gesture || m.pointerId !== e.pointerId) return;
        this.dragged = this.dragged || Math.hypot(m.clientX - e.clientX, m.clientY - e.clientY) > 4;
        this.tool.drag && this.tool.drag(this.toTable(m.clientX, m.clientY), m);
      };
      const up = (u) => {
        if (u.pointerId !== e.pointerId) return;
        this.el.removeEventListener("pointermove", move);
        this.el.removeEventListener("pointerup", up);
        if (gesture !== this.gesture) return;
        this.tool && this.tool.up && this.tool.up(this.toTable(u.clientX, u.clientY), u);
      };
      this.el.addEventListener("pointermove", move);
      this.el.addEventListener("pointerup", up);
      return;
    }
    const hit = e.target.closest(UNIT_SELECTOR);
    if (hit && this.canDrag(hit.getAttribute("data-unit"))) {
      this.dragUnit(e, gesture);
      return;
    }
    if (!this.zoom || hit) return;
    const start = { x: e.clientX, y: e.clientY, cx: this.zoom.cx, cy: this.zoom.cy };
    const ppu = this.svg.getScreenCTM().a; // client pixels per SVG unit
    const move = (m) => {
      if (gesture !== this.gesture || m.pointerId !== e.pointerId) return;
      const [dx, dy] = [m.clientX - start.x, m.clientY - start.y];
      if (!this.dragged && Math.hypot(dx, dy) <= 4) return;
      if (!this.dragged) {
        this.dragged = true;
        this.el.classList.add("panning");
        this.el.setPointerCapture && this.el.setPointerCapture(e.pointerId);
      }
      this.setZoom(this.k, start.cx - dx / ppu, start.cy - dy / ppu);
    };
    const up = (u) => {
      if (u.pointerId !== e.pointerId) return;
      this.el.removeEventListener("pointermove", move);
      this.el.removeEventListener("pointerup", up);
      this.el.classList.remove("panning");
    };
    this.el.addEventListener("pointermove", move);
    this.el.addEventListener("pointerup", up);
  }

  // Drag the unit being moved: the ghost follows the pointer, the drop gives the order there (and
  // snaps like a click). A press that does not move is a click on the unit. A finger drags as the
  // mouse does (pointer events); a drag that a second finger turns into a pinch, or that the
  // browser cancels (pointercancel), gives no order and takes its ghost away (onDragCancel).
  dragUnit(e, gesture) {
    const move = (m) => {
      if (gesture !== this.gesture || m.pointerId !== e.pointerId) return;
      if (!this.dragged && Math.hypot(m.clientX - e.clientX, m.clientY - e.clientY) <= 4) return;
      if (!this.dragged) {
        this.dragged = true;
        this.el.classList.add("dragging");
        this.el.setPointerCapture && this.el.setPointerCapture(e.pointerId);
      }
      const p = this.toTable(m.clientX, m.clientY);
      this.onMove(p, null, m);
      this.onDrag(p);
    };
    const end = (u, drop) => {
      if (u.pointerId !== e.pointerId) return;
      this.el.removeEventListener("pointermove", move);
      this.el.removeEventListener("pointerup", up);
      this.el.removeEventListener("pointercancel", cancel);
      this.el.classList.remove("dragging");
      if (!this.dragged) return;
      if (drop && gesture === this.gesture) this.onDrop(this.toTable(u.clientX, u.clientY), u);
      else this.onDragCancel();
    };
    const up = (u) => end(u, true);
    const cancel = (u) => end(u, false);
    this.el.addEventListener("pointermove", move);
    this.el.addEventListener("pointerup", up);
    this.el.addEventListener("pointercancel", cancel);
  }

  // The keys of the table: + and - zoom, the arrows pan, 0 fits the whole table. Returns true if
  // the key was the table's.
  key(e) {
    if (!this.svg || e.ctrlKey || e.metaKey || e.altKey) return false;
    const pan = { ArrowLeft: [-0.15, 0], ArrowRight: [0.15, 0], ArrowUp: [0, -0.15], ArrowDown: [0, 0.15] }[e.key];
    if (e.key === "+" || e.key === "=") this.zoomAt(1.25);
    else if (e.key === "-" || e.key === "_") this.zoomAt(0.8);
    else if (e.key === "0") this.fit();
    else if (pan && this.zoom) this.panBy(...pan);
    else return false;
    return true;
  }

  // a click's tolerance: 16 screen pixels in table units at the present zoom
  tolerance() {
    return 16 / (this.svg.getScreenCTM().a * this.scale);
  }

  toSvg(cx, cy) {
    const pt = this.svg.createSVGPoint();
    pt.x = cx;
    pt.y = cy;
    return pt.matrixTransform(this.svg.getScreenCTM().inverse());
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

  // A mark where a drop at the pointer would put the unit's centre: green if the rules allow it
  // (`snapped`: the nearest legal point, a dashed line from the pointer to it), red if not.
  mark(at, ok, from = null) {
    if (!this.overlay) return;
    this.overlay.querySelectorAll(".drop-mark").forEach((n) => n.remove());
    const s = this.scale;
    const px = 1 / this.svg.getScreenCTM().a;
    const g = document.createElementNS(SVGNS, "g");
    g.setAttribute("class", `drop-mark ${ok ? "ok" : "bad"}`);
    const colour = ok ? "#5ee07a" : "#ff6b5e";
    const [cx, cy] = [at.x * s, (this.depth - at.y) * s];
    if (from) {
      const line = document.createElementNS(SVGNS, "line");
      Object.entries({ x1: from.x * s, y1: (this.depth - from.y) * s, x2: cx, y2: cy, stroke: colour,
        "stroke-width": 2 * px, "stroke-dasharray": `${4 * px} ${3 * px}` }).forEach(([k, v]) => line.setAttribute(k, v));
      g.append(line);
    }
    const c = document.createElementNS(SVGNS, "circle");
    Object.entries({ cx, cy, r: 7 * px, fill: "none", stroke: colour, "stroke-width": 3 * px })
      .forEach(([k, v]) => c.setAttribute(k, v));
    g.append(c);
    this.overlay.append(g);
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
