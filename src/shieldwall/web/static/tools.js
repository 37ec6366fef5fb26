// The tools around the table: zoom and pan (buttons, keys; the wheel and the drag are the board's),
// the minimap of a zoomed table. None of them knows a rule system: they work on the server's SVG.

const SVGNS = "http://www.w3.org/2000/svg";
const $ = (sel) => document.querySelector(sel);

// the keys of the table are not taken from a field being typed in
function typing(e) {
  const t = e.target;
  return t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));
}

// `lengthUnit()`: the rule system's unit of length ("inch", "pace", "hex"), for the ruler.
export function installViewTools(board, lengthUnit) {
  $("#zoom-in").onclick = () => board.zoomAt(1.25);
  $("#zoom-out").onclick = () => board.zoomAt(0.8);
  $("#zoom-fit").onclick = () => board.fit();
  const ruler = new Ruler(board, lengthUnit);
  $("#ruler").onclick = () => ruler.toggle();
  document.addEventListener("keydown", (e) => {
    if (typing(e)) return;
    if (e.key === "Escape" && ruler.on) ruler.toggle(false);
    else if ((e.key === "r" || e.key === "R") && !e.ctrlKey && !e.metaKey && !e.altKey) ruler.toggle();
    else if (board.key(e)) e.preventDefault();
  });
  const mini = new Minimap($("#minimap"), board);
  board.onView((v) => {
    $("#zoom-level").textContent = `${Math.round(board.k * 100)}%`;
    mini.update(v);
    ruler.draw();
  });
  return { ruler };
}

// A distance in the rule system's unit: 7.25" or 7.25 paces.
export function lengthText(d, unit) {
  const v = Math.round(d * 100) / 100;
  if (!unit || unit === "inch") return `${v}"`;
  return `${v} ${unit}${v === 1 ? "" : unit.endsWith("s") ? "" : "s"}`;
}

// The ruler: while it is out, a press on the table starts a measure and the release ends it (a
// drag); the line and its length stay until the next measure. It takes the table's presses: no
// order is given and nothing is selected while it is out.
class Ruler {
  constructor(board, lengthUnit) {
    this.board = board;
    this.lengthUnit = lengthUnit;
    this.on = false;
    this.a = null;
    this.b = null;
    this.before = null;
  }

  toggle(on = !this.on) {
    this.on = on;
    this.board.tool = on ? this : null;
    this.board.el.classList.toggle("mode-ruler", on);
    $("#ruler").classList.toggle("on", on);
    if (!on) this.a = this.b = null;
    this.draw();
  }

  down(p) {
    this.before = { a: this.a, b: this.b };
    this.a = p;
    this.b = p;
    this.draw();
    return true;
  }

  // the measure begun is not one (a second finger made the press a pinch): the last one is back
  cancel() {
    if (!this.before) return;
    ({ a: this.a, b: this.b } = this.before);
    this.before = null;
    this.draw();
  }

  drag(p) {
    this.b = p;
    this.draw();
  }

  up(p) {
    this.b = p;
    this.draw();
  }

  distance() {
    return this.a && this.b ? Math.hypot(this.b.x - this.a.x, this.b.y - this.a.y) : null;
  }

  draw() {
    const b = this.board;
    const d = this.distance();
    $("#ruler-readout").textContent = d === null ? "" : lengthText(d, this.lengthUnit());
    if (!b.svg) return;
    b.svg.querySelectorAll(".page-ruler").forEach((n) => n.remove());
    if (d === null) return;
    const s = b.scale;
    const px = 1 / b.svg.getScreenCTM().a; // one screen pixel in SVG units
    const [x1, y1, x2, y2] = [this.a.x * s, (b.depth - this.a.y) * s, this.b.x * s, (b.depth - this.b.y) * s];
    const g = document.createElementNS(SVGNS, "g");
    g.setAttribute("class", "page-ruler");
    g.setAttribute("pointer-events", "none");
    const mk = (tag, attrs) => {
      const n = document.createElementNS(SVGNS, tag);
      for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
      g.append(n);
      return n;
    };
    mk("line", { x1, y1, x2, y2, stroke: "#000", "stroke-width": 5 * px, "stroke-linecap": "round" });
    mk("line", { x1, y1, x2, y2, stroke: "#fff", "stroke-width": 2.5 * px, "stroke-dasharray": `${s} ${s}` });
    for (const [cx, cy] of [[x1, y1], [x2, y2]]) mk("circle", { cx, cy, r: 4 * px, fill: "#ffd83b", stroke: "#000", "stroke-width": px });
    // the length beside the far end, on the side away from the line
    const right = x2 >= x1;
    const t = mk("text", { x: x2 + (right ? 9 : -9) * px, y: y2 + (y2 >= y1 ? 16 : -8) * px, "text-anchor": right ? "start" : "end", "font-size": 15 * px,
      "font-weight": "bold", fill: "#fff", stroke: "#000", "stroke-width": 3 * px, "paint-order": "stroke" });
    t.textContent = lengthText(d, this.lengthUnit());
    b.svg.append(g);
  }
}

// The points around a click p, nearest first, within `tol` table units: 8 rings, on each the point
// back toward `from` (the unit) first, then 16 around; none off the table. At most 136.
export function nearPoints(p, from, tol, board) {
  const out = [];
  const back = from ? Math.atan2(from.y - p.y, from.x - p.x) : 0;
  for (let i = 1; i <= 8; i++) {
    const r = (tol * i) / 8;
    for (let j = 0; j <= 16; j++) {
      const a = j === 0 ? back : back + (Math.PI * 2 * j) / 16 + Math.PI / 16;
      const q = { x: p.x + r * Math.cos(a), y: p.y + r * Math.sin(a) };
      if (q.x >= 0 && q.y >= 0 && q.x <= board.width && q.y <= board.depth) out.push(q);
    }
  }
  return out;
}

// A small drawing of the whole table with the part in view outlined; a click there looks there.
// Shown only while zoomed in.
class Minimap {
  constructor(el, board) {
    this.el = el;
    this.board = board;
    this.src = null; // the board's SVG the copy was made from
    this.rect = null;
    el.addEventListener("click", (e) => {
      const svg = this.el.querySelector("svg");
      if (!svg) return;
      const pt = svg.createSVGPoint();
      pt.x = e.clientX;
      pt.y = e.clientY;
      const u = pt.matrixTransform(svg.getScreenCTM().inverse());
      board.centreOn(u.x / board.scale, board.depth - u.y / board.scale);
    });
  }

  update(v) {
    const b = this.board;
    if (!b.zoom) {
      this.el.hidden = true;
      return;
    }
    if (this.src !== b.svg) {
      this.src = b.svg;
      const copy = b.svg.cloneNode(true);
      copy.querySelectorAll(".page-overlay, .page-path, .page-ruler, .page-kbd, .page-ranges").forEach((n) => n.remove());
      const f = b.full;
      copy.setAttribute("viewBox", `${f.x} ${f.y} ${f.w} ${f.h}`);
      copy.setAttribute("pointer-events", "none");
      this.rect = document.createElementNS(SVGNS, "rect");
      this.rect.setAttribute("class", "view-rect");
      this.rect.setAttribute("stroke-width", "2");
      this.rect.setAttribute("vector-effect", "non-scaling-stroke");
      copy.append(this.rect);
      this.el.replaceChildren(copy);
    }
    for (const [k, val] of Object.entries({ x: v.x, y: v.y, width: v.w, height: v.h })) this.rect.setAttribute(k, val);
    this.el.hidden = false;
  }
}
