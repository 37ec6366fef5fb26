// shieldwall web page: a rotate handle, for any rule system's web piece whose units turn or wheel.
//
// A knob on the middle of a unit's front edge (at `at`: where the unit stands, or where its path so
// far ends). Dragged round, it asks for an angle (`spec.angleTo(p)`, whole degrees, 0 = none); the
// ghost shows the unit as that angle leaves it (`spec.ghost(a)` -> {x, y, heading, label}), the
// server is asked (POST .../check) whether the rules allow the order the angle gives
// (`spec.order(a)`), and the line under the table says so, with the clause if not. The release gives
// the order (`spec.send(a)`) when they allow it, and otherwise sends nothing and shows the refusal
// with its clause. While the knob has the pointer `g.turning` is true (a web piece's onHover keeps
// its ghost then). The rule system decides everything about the angle (a turn on the centre, a
// wheel about a corner, ...); this module only draws and drags.

import { el, ruleLink } from "./log.js";

const SVGNS = "http://www.w3.org/2000/svg";
const CLASS = "rotate-handle";

export function removeRotateHandle(g) {
  if (g.board.svg) g.board.svg.querySelectorAll(`.${CLASS}`).forEach((n) => n.remove());
}

// spec: {unit, at: {x, y, heading}, verb ("turn" / "wheel"), title, cls / knobCls (extra classes),
// angleTo(p), ghost(a), words(a, legal) (the angle in words, for the hint), order(a), send(a)}
export function drawRotateHandle(g, spec) {
  removeRotateHandle(g);
  const b = g.board;
  if (!b.svg) return;
  const u = spec.unit;
  const at = spec.at;
  const s = b.scale;
  const r = (at.heading * Math.PI) / 180;
  const front = { x: at.x + (Math.sin(r) * u.depth) / 2, y: at.y + (Math.cos(r) * u.depth) / 2 };
  const grp = document.createElementNS(SVGNS, "g");
  grp.setAttribute("class", `${CLASS} ${spec.cls || ""}`.trim());
  grp.setAttribute("data-turn", u.id);
  const knob = document.createElementNS(SVGNS, "circle");
  Object.entries({
    cx: front.x * s, cy: (b.depth - front.y) * s, r: s * Math.max(0.3, Math.min(0.45, u.depth / 2)), fill: "#ffd83b",
    stroke: "#000", "stroke-width": s * 0.08, class: `rotate-knob ${spec.knobCls || ""}`.trim(), role: "img",
    "aria-label": `rotate handle of ${u.id}: drag it round to ${spec.verb} the unit`,
  }).forEach(([k, v]) => knob.setAttribute(k, v));
  knob.style.cursor = "grab";
  const title = document.createElementNS(SVGNS, "title");
  title.textContent = spec.title;
  knob.append(title);
  grp.append(knob);
  b.svg.append(grp);
  knob.addEventListener("click", (e) => e.stopPropagation());
  knob.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || g.busy) return;
    e.stopPropagation();
    e.preventDefault();
    knob.setPointerCapture && knob.setPointerCapture(e.pointerId);
    drag(g, spec, knob, e);
  });
}

function drag(g, spec, knob, down) {
  const u = spec.unit;
  let seq = 0;
  let a = 0;
  g.turning = true;
  const ask = async (t) => {
    const n = ++seq;
    let r = null;
    try {
      r = await g.call("/check", { method: "POST", body: { order: spec.order(t) } });
    } catch {
      r = null;
    }
    return n === seq ? r : null; // a later angle was asked since
  };
  const show = (t, r) => {
    const end = spec.ghost(t);
    const ok = !r || r.legal;
    g.board.ghost(u, end.x, end.y, end.heading, ok, end.label);
    if (!r) return;
    if (r.legal) g.renderHint(`${spec.words(t, true)}: the rules allow it (release to give the order).`);
    else g.renderHint(`Not allowed: ${spec.words(t)}: ${r.reason}${r.rule ? ` (§${r.rule.split(":")[1]})` : ""}`);
  };
  const move = (m) => {
    if (m.pointerId !== down.pointerId) return;
    const t = spec.angleTo(g.board.toTable(m.clientX, m.clientY));
    if (t === a) return;
    a = t;
    if (!a) {
      g.board.clearGhost();
      return;
    }
    show(a, null);
    ask(a).then((r) => r && a === t && show(t, r));
  };
  const up = async (e) => {
    if (e.pointerId !== down.pointerId) return;
    knob.removeEventListener("pointermove", move);
    knob.removeEventListener("pointerup", up);
    knob.removeEventListener("pointercancel", up);
    g.board.dragged = true; // the release is not a click on the table
    g.turning = false;
    if (!a || e.type === "pointercancel") {
      g.board.clearGhost();
      return;
    }
    const t = a;
    const r = await ask(t);
    if (!r) return;
    show(t, r);
    if (r.legal) spec.send(t);
    else g.showMessage("bad", [el("b", {}, "Not allowed: "), `${spec.words(t)}: ${r.reason} `, r.rule ? ruleLink(r.rule, r.rule_url || `/rules/${r.rule.replace(":", "#")}`) : ""]);
  };
  knob.addEventListener("pointermove", move);
  knob.addEventListener("pointerup", up);
  knob.addEventListener("pointercancel", up);
}
