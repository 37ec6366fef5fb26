// Helpers for a rule system's web module (imported as /static/reach.js): numbers in table inches,
// and the words about a selected unit's reach r (GET .../reach/{unit}: r.unit, r.charges with their
// facings, r.charges_now, r.charge_why_not) that every module's hover and charge gestures say.

import { el } from "./log.js";

// v rounded to n decimals; a distance in inches as the page writes it
export const round = (v, n = 2) => Math.round(v * 10 ** n) / 10 ** n;
export const inch = (v) => `${round(v, 2)}"`;

// The pointer over unit uid, another than the reach's own: the hint of charging it (each facing it
// can reach, how far), else `canShoot` (the module's line about shooting it, or null), else why it
// cannot be charged (`whyNot`, a {reason, rule}, or null). Always handled: returns true.
export function hoverReach(g, r, uid, canShoot, whyNot) {
  g.board.clearGhost();
  const c = r.charges.find((x) => x.target === uid);
  if (c) return g.renderHint(`${r.charges_now ? "Charge" : "Could charge"} ${g.unitName(uid)}: ${c.facings.map((f) => `${f.facing} ${inch(f.distance)}`).join(", ")}`), true;
  if (canShoot) return g.renderHint(canShoot), true;
  if (whyNot) return g.renderHint(`${r.unit} cannot charge ${uid}: ${whyNot.reason} (§${whyNot.rule.split(":")[1]})`), true;
  return true;
}

// A click on the target of a charge with a choice to make: remember it (g.pendingCharge) and show
// the choices (the actions panel); `renderChargeChoices` draws them, with a Cancel button.
export function chooseCharge(g, c) {
  g.pendingCharge = c;
  g.renderActions();
}

export function renderChargeChoices(g, box, group, title, buttons) {
  box.append(group(title, buttons,
    el("button", { type: "button", onclick: () => { g.pendingCharge = null; g.renderActions(); } }, "Cancel")));
}

// the side's deployment zone [x0, y0, x1, y1] (the view's), or null
export function zoneOf(g, side) {
  const dep = g.st.view.deployment;
  return dep && dep.zones ? dep.zones[side] : null;
}

// whether a unit u (frontage, depth) standing at (x, y) facing h lies within zone z (a preview
// while dragging: the server decides)
export function inZone(u, x, y, h, z) {
  if (!z) return true;
  const r = (h * Math.PI) / 180;
  const [fx, fy, rx, ry] = [Math.sin(r), Math.cos(r), Math.cos(r), -Math.sin(r)];
  return [[1, 1], [1, -1], [-1, 1], [-1, -1]].every(([a, b]) => {
    const cx = x + (fx * a * u.depth) / 2 + (rx * b * u.frontage) / 2;
    const cy = y + (fy * a * u.depth) / 2 + (ry * b * u.frontage) / 2;
    return cx >= z[0] - 1e-6 && cx <= z[2] + 1e-6 && cy >= z[1] - 1e-6 && cy <= z[3] + 1e-6;
  });
}
