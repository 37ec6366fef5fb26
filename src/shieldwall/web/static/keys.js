// Keyboard play: a keyboard pointer on the table that does what the mouse does. It knows no rule
// system: a key press at the pointer is a click there, so every gesture of a rule system's web
// piece (select, move, charge, shoot, deploy...) works from the keyboard as it does with the mouse.
//
//   n / Shift+N        the pointer to the next / previous unit on the table (it is named below)
//   Shift+arrows       move the pointer by its step; [ and ] halve and double the step
//   Enter or Space     a click at the pointer (the table must have the focus: Tab to it, or n)
//   Shift+Enter        a shift+click at the pointer (One Hour: one more leg of a path)
//   a                  the focus to the first order of the actions panel (then Tab, Enter)
//   e                  the End button of the phase, if the actions panel has one
//   t                  the focus back to the table
//   ?                  show or hide this list under the table
// The view's own keys stay: + and - zoom, the arrows pan, 0 fits, R the ruler, Esc cancels. With
// the ruler out, Enter sets the ruler's first end at the pointer, a second Enter its far end.

import { UNIT_SELECTOR } from "./board.js";

const SVGNS = "http://www.w3.org/2000/svg";
const $ = (sel) => document.querySelector(sel);

function typing(e) {
  const t = e.target;
  return t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));
}

export class KeyPointer {
  // g: the page's GameView (units, board, onHover, dragPreview, canDrag, selected)
  constructor(g) {
    this.g = g;
    this.board = g.board;
    this.p = null; // the pointer, in table units; null until a key moves it
    this.step = 1; // table units per Shift+arrow
    this.measuring = false; // the ruler's first end is set
    this.board.onView(() => this.draw());
    document.addEventListener("keydown", (e) => this.key(e));
  }

  onBoard(e) {
    const t = e.target;
    return t === this.board.el || t === document.body || (t && this.board.el.contains(t));
  }

  key(e) {
    if (typing(e) || e.ctrlKey || e.metaKey || e.altKey) return;
    const g = this.g;
    if (!g.st) return;
    if (e.key === "Escape" || e.key === "r" || e.key === "R") {
      // the ruler goes in or out (tools.js): a measure in progress is dropped
      setTimeout(() => {
        if (!this.board.tool) this.measuring = false;
        this.announce();
      }, 0);
      return;
    }
    const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (e.shiftKey && arrows[e.key]) {
      const [dx, dy] = arrows[e.key];
      const p = this.p || this.start();
      this.moveTo({ x: p.x + dx * this.step, y: p.y + dy * this.step });
    } else if (e.key === "n" || e.key === "N") {
      this.nextUnit(e.key === "N" ? -1 : 1);
    } else if (e.key === "[" || e.key === "]") {
      this.step = Math.min(8, Math.max(0.125, e.key === "]" ? this.step * 2 : this.step / 2));
      this.announce();
    } else if ((e.key === "Enter" || e.key === " ") && this.onBoard(e)) {
      this.click(e.shiftKey);
    } else if (e.key === "a") {
      const b = $("#actions button:not(:disabled)");
      if (b) b.focus();
    } else if (e.key === "e") {
      const end = $("#actions button.end:not(:disabled)");
      if (end) {
        end.focus();
        end.click();
      }
    } else if (e.key === "t") {
      this.board.el.focus();
    } else if (e.key === "?") {
      const help = $("#keys-help");
      if (help) help.open = !help.open;
    } else {
      return;
    }
    e.preventDefault();
  }

  // where the pointer starts: the selected unit, else the middle of the table
  start() {
    const u = this.g.selected && this.g.units[this.g.selected];
    return u ? { x: u.x, y: u.y } : { x: this.board.width / 2, y: this.board.depth / 2 };
  }

  // the units in the order n steps through them: those of the side to play first, then by id
  order() {
    const d = this.g.st.decision;
    const side = d ? d.side : null;
    return Object.values(this.g.units)
      .filter((u) => typeof u.x === "number" && typeof u.y === "number")
      .sort((a, b) => (a.side === side ? 0 : 1) - (b.side === side ? 0 : 1) || String(a.id).localeCompare(String(b.id))
        || 0);
  }

  nextUnit(dir) {
    const list = this.order();
    if (!list.length) return;
    const here = this.unitAt();
    const i = here ? list.findIndex((u) => u.id === here) : -1;
    const u = list[(i + dir + list.length) % list.length];
    this.board.el.focus({ preventScroll: true });
    this.moveTo({ x: u.x, y: u.y });
  }

  moveTo(p) {
    const b = this.board;
    this.p = { x: Math.min(b.width, Math.max(0, p.x)), y: Math.min(b.depth, Math.max(0, p.y)) };
    // keep the pointer in view when zoomed in
    const v = b.view();
    const s = b.scale;
    if (b.zoom && v) {
      const [sx, sy] = [this.p.x * s, (b.depth - this.p.y) * s];
      if (sx < v.x || sx > v.x + v.w || sy < v.y || sy > v.y + v.h) b.centreOn(this.p.x, this.p.y);
    }
    this.draw();
    const uid = this.unitAt();
    const g = this.g;
    g.onHover(this.p, uid);
    if (this.measuring && b.tool) b.tool.drag(this.p);
    else if (!uid && g.selected && g.canDrag(g.selected)) g.dragPreview(this.p);
    this.announce();
  }

  // the element a click at the pointer would land on, and its screen point
  target() {
    const s = this.board.toScreen(this.p.x, this.p.y);
    const hit = document.elementFromPoint(s.x, s.y);
    return { s, hit: hit && this.board.el.contains(hit) ? hit : null };
  }

  unitAt() {
    if (!this.p || !this.board.svg) return null;
    const { hit } = this.target();
    const u = hit && hit.closest(UNIT_SELECTOR);
    return u ? u.getAttribute("data-unit") : null;
  }

  click(shift) {
    const b = this.board;
    if (!this.p) this.moveTo(this.start());
    if (b.tool) {
      // the ruler: the first Enter sets its near end, the second its far end
      if (!this.measuring) {
        b.tool.down(this.p);
        this.measuring = true;
      } else {
        b.tool.up(this.p);
        this.measuring = false;
      }
      this.announce();
      return;
    }
    const { s, hit } = this.target();
    const init = { bubbles: true, cancelable: true, clientX: s.x, clientY: s.y, shiftKey: shift, button: 0 };
    if (hit) {
      hit.dispatchEvent(new MouseEvent("click", init));
    } else {
      // the pointer is under something drawn over the table (the minimap): the table's click
      this.g.onTable(this.p, { shiftKey: shift, clientX: s.x, clientY: s.y });
    }
    setTimeout(() => this.draw(), 0);
  }

  announce() {
    const box = $("#key-pointer");
    if (!box) return;
    if (!this.p) {
      box.textContent = "";
      return;
    }
    const uid = this.unitAt();
    const r = (v) => Math.round(v * 100) / 100;
    const what = uid ? ` · on ${this.g.unitName(uid)}` : "";
    const ruler = this.board.tool ? (this.measuring ? " · ruler: Enter sets the far end" : " · ruler: Enter sets the near end") : "";
    box.textContent = `Pointer (${r(this.p.x)}, ${r(this.p.y)}), step ${this.step}${what}${ruler}`;
  }

  // the pointer: a cross in a ring, drawn above the table (not in the minimap, never clickable)
  draw() {
    const b = this.board;
    if (!b.svg) return;
    b.svg.querySelectorAll(".page-kbd").forEach((n) => n.remove());
    if (!this.p) return;
    const s = b.scale;
    const px = 1 / b.svg.getScreenCTM().a;
    const [cx, cy] = [this.p.x * s, (b.depth - this.p.y) * s];
    const g = document.createElementNS(SVGNS, "g");
    g.setAttribute("class", "page-kbd");
    g.setAttribute("pointer-events", "none");
    const mk = (tag, attrs) => {
      const n = document.createElementNS(SVGNS, tag);
      for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
      g.append(n);
    };
    mk("circle", { cx, cy, r: 11 * px, fill: "none", stroke: "#000", "stroke-width": 4 * px });
    mk("circle", { cx, cy, r: 11 * px, fill: "none", stroke: "#ffd83b", "stroke-width": 2 * px });
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      mk("line", { x1: cx + dx * 5 * px, y1: cy + dy * 5 * px, x2: cx + dx * 16 * px, y2: cy + dy * 16 * px,
        stroke: "#ffd83b", "stroke-width": 2 * px });
    }
    b.svg.append(g);
  }
}
