// Range bands, arcs of fire and lines of sight from the selected unit (GET .../ranges/{unit}: the
// rule system's plugin computes them from its rules data; this file only draws polygons and lines).
// **Ranges** under the table (or the key L) shows or hides them; they follow the selection.

import { el, ruleLink } from "./log.js";

const SVGNS = "http://www.w3.org/2000/svg";
const $ = (sel) => document.querySelector(sel);
const FILL = { range: "#3b8bff", corridor: "#3b8bff", arc: "#ffd83b" };

function typing(e) {
  const t = e.target;
  return t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));
}

export class RangesTool {
  constructor(g) {
    this.g = g;
    this.on = false;
    this.data = null; // the last answer, for g.selected
    this.asked = null;
    const btn = $("#ranges");
    btn.onclick = () => this.toggle();
    document.addEventListener("keydown", (e) => {
      if (typing(e) || e.ctrlKey || e.metaKey || e.altKey || (e.key !== "l" && e.key !== "L")) return;
      e.preventDefault();
      this.toggle();
    });
    g.board.onView(() => this.draw());
  }

  // the rule system draws ranges (GET /api/rulesets: `ranges`)
  get available() {
    return !!this.g.rules.ranges;
  }

  toggle(on = !this.on) {
    this.on = on && this.available;
    $("#ranges").classList.toggle("on", this.on);
    $("#ranges").setAttribute("aria-pressed", String(this.on));
    this.refresh();
  }

  // ask again for the selected unit (after a selection or a new state)
  async refresh() {
    $("#ranges").hidden = !this.available;
    const uid = this.g.selected;
    if (!this.on || !uid) {
      this.data = null;
      this.asked = null;
      this.draw();
      return;
    }
    const key = `${uid}@${this.g.st ? this.g.st.version : ""}`;
    if (key === this.asked && this.data) {
      this.draw();
      return;
    }
    this.asked = key;
    try {
      const r = await this.g.call(`/ranges/${encodeURIComponent(uid)}`);
      if (this.asked !== key) return;
      this.data = r;
    } catch {
      this.data = null;
    }
    this.draw();
  }

  draw() {
    const b = this.g.board;
    const info = $("#ranges-info");
    if (b.svg) b.svg.querySelectorAll(".page-ranges").forEach((n) => n.remove());
    const r = this.on && this.data && this.data.unit === this.g.selected && !this.g.replay ? this.data : null;
    if (!r) {
      info.replaceChildren();
      info.hidden = true;
      return;
    }
    if (b.svg) this.drawSvg(b, r);
    const seen = r.sight.filter((s) => s.visible);
    const unseen = r.sight.filter((s) => !s.visible);
    const name = (uid) => this.g.unitName(uid);
    const verb = r.sight_label || "sees"; // the lines' meaning: "sees", "may shoot at", "may charge"
    info.replaceChildren(
      el("b", {}, `From ${name(r.unit)}: `),
      ...r.shapes.filter((s) => s.label).flatMap((s) => [s.label, s.rule ? ruleLink(s.rule, `/rules/${s.rule.replace(":", "#")}`) : "", " · "]),
      seen.length ? `${verb} ${seen.map((s) => s.unit).join(", ")}` : `${verb} no enemy`,
      seen.length && seen[0].rule ? ruleLink(seen[0].rule, `/rules/${seen[0].rule.replace(":", "#")}`) : "",
      ...unseen.map((s) => el("div", { class: "unseen" }, `not ${s.unit}: ${s.why || "out of sight"} `,
        s.rule ? ruleLink(s.rule, `/rules/${s.rule.replace(":", "#")}`) : "")),
    );
    info.hidden = false;
  }

  drawSvg(b, r) {
    const s = b.scale;
    const px = 1 / b.svg.getScreenCTM().a;
    const pt = ([x, y]) => [x * s, (b.depth - y) * s];
    const g = document.createElementNS(SVGNS, "g");
    g.setAttribute("class", "page-ranges");
    g.setAttribute("pointer-events", "none");
    const mk = (tag, attrs, parent = g) => {
      const n = document.createElementNS(SVGNS, tag);
      for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
      parent.append(n);
      return n;
    };
    const u = this.g.units[r.unit];
    // the shapes stop at the table's edges
    const clip = mk("clipPath", { id: "page-ranges-clip" });
    mk("rect", { x: 0, y: 0, width: b.width * s, height: b.depth * s }, clip);
    const shapes = mk("g", { "clip-path": "url(#page-ranges-clip)" });
    // the words go at the point of each outline farthest ahead of the unit: a band's just beyond
    // it, an arc's just inside it
    const h = u && typeof u.heading === "number" ? (u.heading * Math.PI) / 180 : 0;
    const ahead = ([x, y]) => x * Math.sin(h) - y * Math.cos(h); // SVG y grows down the table
    for (const shape of r.shapes) {
      const colour = FILL[shape.kind] || "#3b8bff";
      const pts = shape.points.map(pt);
      mk("polygon", { points: pts.map((p) => p.join(",")).join(" "), class: `range-shape range-${shape.kind}`,
        fill: colour, "fill-opacity": shape.kind === "arc" ? 0.1 : 0.12, stroke: colour, "stroke-width": 2 * px,
        "stroke-dasharray": shape.kind === "arc" ? `${6 * px} ${4 * px}` : "none" }, shapes);
      if (!shape.label) continue;
      const far = pts.reduce((a, p) => (ahead(p) > ahead(a) ? p : a), pts[0]);
      const inside = shape.kind === "arc";
      const x = Math.min(b.width * s - 60 * px, Math.max(60 * px, far[0]));
      const y = Math.min(b.depth * s - 4 * px, Math.max(14 * px, far[1] + (inside ? 16 : -5) * px));
      const t = mk("text", { x, y, "text-anchor": "middle", "font-size": 12 * px, "font-weight": "bold",
        fill: "#fff", stroke: "#000", "stroke-width": 3 * px, "paint-order": "stroke", class: "range-label" });
      t.textContent = shape.label;
    }
    for (const line of r.sight) {
      const [a, c] = [pt(line.from), pt(line.to)];
      mk("line", { x1: a[0], y1: a[1], x2: c[0], y2: c[1], class: `sight ${line.visible ? "seen" : "unseen"}`, "data-unit": line.unit,
        stroke: line.visible ? "#5ee07a" : "#ff6b5e", "stroke-width": 2 * px, "stroke-dasharray": line.visible ? "none" : `${5 * px} ${4 * px}` });
    }
    // under the page's overlay (ghost, drop mark) and the keyboard pointer
    b.svg.insertBefore(g, b.svg.querySelector(".page-path, .page-overlay, .page-kbd"));
  }
}
