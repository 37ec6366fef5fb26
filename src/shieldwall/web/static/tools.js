// The tools around the table: zoom and pan (buttons, keys; the wheel and the drag are the board's),
// the minimap of a zoomed table. None of them knows a rule system: they work on the server's SVG.

const SVGNS = "http://www.w3.org/2000/svg";
const $ = (sel) => document.querySelector(sel);

// the keys of the table are not taken from a field being typed in
function typing(e) {
  const t = e.target;
  return t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));
}

export function installViewTools(board) {
  $("#zoom-in").onclick = () => board.zoomAt(1.25);
  $("#zoom-out").onclick = () => board.zoomAt(0.8);
  $("#zoom-fit").onclick = () => board.fit();
  document.addEventListener("keydown", (e) => {
    if (typing(e)) return;
    if (board.key(e)) e.preventDefault();
  });
  const mini = new Minimap($("#minimap"), board);
  board.onView((v) => {
    $("#zoom-level").textContent = `${Math.round(board.k * 100)}%`;
    mini.update(v);
  });
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
      copy.querySelectorAll(".page-overlay, .page-path, .page-ruler").forEach((n) => n.remove());
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
