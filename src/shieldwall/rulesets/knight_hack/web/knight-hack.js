// Knight Hack in the browser: its percentile "why", its reach lines and its unit flags.
//
// The web piece of the knight-hack plugin (PLUGIN.web_module): the page imports it from
// /rulesets/knight-hack/knight-hack.js when a game of Knight Hack starts and calls the hooks it
// exports (the interface: the comment at the top of the page's static/app.js, and docs/web.md).
// Orders are given from the engine's menu (the generic actions panel): every legal order is a button.
// With hand deployment (ruling R51) the unit to place is dragged (or a click puts its centre) within
// its side's zone, drawn on the table, facing g.deployHeading (buttons turn it); while it is dragged
// the page asks the server about the point, and a refused drop says why, with the clause. A unit
// hidden in ambush is placed the same way, but its decision names no unit (the other side sees the
// decision): the unit is the one the menu's deploy orders name (the page's dragUnit hook).
//
// The why of a roll (GET .../combat; rulesets/knight_hack/explain.py) has one group per d100 rolled:
// its face r, the target number T with every term that made it (chart, weapon, each modifier, each
// with its clause), the thresholds T, T/2 and T/4 ("that number or less … half … half again",
// Clarification 3), the chart's automatic casualties and the casualties inflicted.

import { diceEl, el, ruleLink } from "/static/log.js";
import { inZone, round, zoneOf } from "/static/reach.js";

const link = (rule) => ruleLink(rule, `/rules/${rule.replace(":", "#")}`);
const sign = (v) => (typeof v === "number" ? `${v >= 0 ? "+" : ""}${v}` : "");
const num = (x) => (Number.isInteger(x) ? `${x}` : `${Math.round(x * 100) / 100}`);

function termsTable(terms, total, totalLabel) {
  return el("table", { class: "kh-terms" },
    el("thead", {}, el("tr", {}, el("th", {}, "what counts"), el("th", {}, ""), el("th", {}, "clause"))),
    el("tbody", {},
      terms.map((m) => el("tr", {}, el("td", {}, m.name), el("td", {}, sign(m.value)),
        el("td", {}, m.rule ? ruleLink(m.rule, m.url) : "", el("div", { class: "small" }, m.clause || "")))),
      el("tr", { class: "kh-total" }, el("td", {}, el("b", {}, totalLabel)), el("td", {}, el("b", {}, `${total}`)), el("td", {}, ""))));
}

// one d100: the face against T, T/2, T/4 (the band the face fell in is marked)
function percentile(gr) {
  const r = gr.faces[0];
  const th = gr.thresholds;
  const band = (n, x) => el("td", { class: r <= x && (n === 3 || r > (n === 1 ? th.two : th.three)) ? "kh-hit" : "" },
    `r ≤ ${num(x)}`, el("div", { class: "small" }, `${n} casualt${n === 1 ? "y" : "ies"}`));
  return el("div", { class: "group-why kh-roll" },
    el("h4", {}, gr.label),
    el("div", { class: "sum" }, "d100 rolled ", diceEl({ faces: gr.faces, die: "d100", by_side: null }, true),
      ` against T = ${gr.need} → `, el("b", { class: "kh-casualties" }, `${gr.hits} casualt${gr.hits === 1 ? "y" : "ies"}`)),
    el("table", { class: "kh-thresholds" },
      el("thead", {}, el("tr", {}, el("th", {}, "T"), el("th", {}, "T/2"), el("th", {}, "T/4"))),
      el("tbody", {}, el("tr", {}, band(1, th.one), band(2, th.two), band(3, th.three)))),
    gr.automatic ? el("p", { class: "small" }, `Chart: ${gr.automatic} automatic casualt${gr.automatic === 1 ? "y" : "ies"} `,
      gr.natural ? ruleLink(gr.natural.rule, gr.natural.url) : "") : "",
    gr.modifiers.length ? termsTable(gr.modifiers, gr.need, "T") : el("p", { class: "small" }, "no terms"),
    gr.rule ? el("p", { class: "small" }, ruleLink(gr.rule.rule, gr.rule.url), ` ${gr.rule.text}`) : "");
}

// a new state: the unit to place (hand deployment) faces as the scenario set it; the banner
export function onState(g) {
  const uid = deployUnit(g);
  if (uid && g.deployUnit !== uid) {
    g.deployUnit = uid;
    g.deployHeading = g.units[uid].heading;
  }
  // a unit hidden in ambush: the decision names no unit, so the page selects it (its reach draws the zone)
  if (uid && !g.st.decision.unit) g.selected = uid;
  banner(g);
}

// ------------------------------------------------------------------------------- deployment
// The unit you place now (hand deployment), or null: the decision's, or (hidden in ambush) the menu's.
function deployUnit(g) {
  const st = g.st;
  const d = st && st.decision;
  if (!(st && st.your_turn && d && d.kind === "deploy")) return null;
  const uid = d.unit || (st.menu.find((m) => m.kind === "deploy") || {}).unit;
  return uid && g.units[uid] ? uid : null;
}

function deployOrder(g, uid, q) {
  return { kind: "deploy", unit: uid, x: round(q.x, 3), y: round(q.y, 3), heading: round(((g.deployHeading % 360) + 360) % 360, 3) };
}



// a unit hidden in ambush is dragged too, though its decision names no unit
export function dragUnit(g) {
  return deployUnit(g);
}

export function defaultMode(g) {
  return deployUnit(g) ? "deploy" : null;
}

export function hint(g) {
  const uid = deployUnit(g);
  if (!uid) return null;
  return `Deploy ${g.unitName(uid)}${g.units[uid].hidden ? " (hidden in ambush)" : ""}: drag it within your deployment zone (outlined), or click where its centre should stand.`;
}

export function renderActions(g, box, btn, group) {
  const uid = deployUnit(g);
  if (uid) {
    const z = zoneOf(g, g.units[uid].side);
    box.append(group(`Deploy ${g.unitName(uid)} within your zone${z ? ` (x ${z[0]}–${z[2]}, y ${z[1]}–${z[3]})` : ""}`,
      el("span", { class: "small" }, `facing ${round(g.deployHeading, 1)}° `),
      ...[["↺ 45°", -45], ["↻ 45°", 45], ["About face", 180]].map(([label, a]) =>
        el("button", { type: "button", onclick: () => { g.deployHeading = (g.deployHeading + a + 360) % 360; g.renderActions(); } }, label)),
      link("knight-hack:deployment")));
    // the engine's menu: the scenario's place (when the rules allow it) first, then a grid of places
    const u = g.units[uid];
    const places = g.st.menu.filter((m) => m.kind === "deploy").slice(0, 8);
    box.append(group("Places the rules allow", places.map((m) =>
      btn(m.order.x === u.x && m.order.y === u.y ? "The scenario's place" : `(${m.order.x}, ${m.order.y})`, m.order, "", m.text))));
    return;
  }
  g.menuActions(box, btn, group);
}

export function onTable(g, p) {
  const uid = deployUnit(g);
  if (!uid) return false;
  // a drop (or a click) a little outside the zone snaps to the nearest place the rules allow
  const u = g.units[uid];
  g.sendNear(p, (q) => deployOrder(g, uid, q), { x: u.x, y: u.y });
  return true;
}

export function orderAt(g, p) {
  const uid = deployUnit(g);
  if (!uid) return null;
  const u = g.units[uid];
  return { order: deployOrder(g, uid, p), from: { x: u.x, y: u.y } };
}

export function onHover(g, p, uid) {
  const mine = deployUnit(g);
  if (!mine || uid) return false;
  const u = g.units[mine];
  const ok = inZone(u, p.x, p.y, g.deployHeading, zoneOf(g, u.side));
  g.board.ghost(u, p.x, p.y, g.deployHeading, ok, ok ? "in the zone" : "outside the zone");
  g.renderHint(`Place ${mine}'s centre at (${round(p.x, 1)}, ${round(p.y, 1)}), facing ${round(g.deployHeading, 0)}°${ok ? "" : " — outside your deployment zone"}`);
  return true;
}

// the sample tables' banner ("illustrative sample tables — not the published Knight Hack charts")
// above the table whenever the battle plays on them (the view's label; null on user tables)
function banner(g) {
  const label = g.st && g.st.view ? g.st.view.label : null;
  let node = document.getElementById("kh-label");
  if (!label) {
    if (node) node.remove();
    return;
  }
  if (!node) {
    node = el("p", { id: "kh-label", class: "small kh-label" });
    const board = document.getElementById("board");
    if (board) board.before(node);
  }
  node.textContent = label;
}

export function renderWhy(c) {
  if (!((c.groups && c.groups.length) || c.test)) return null;
  const out = [el("h4", {}, c.kind, ` · turn ${c.turn}`), el("p", {}, c.text)];
  for (const gr of c.groups || []) out.push(percentile(gr));
  if (c.test) {
    const t = c.test;
    out.push(el("p", {}, `Morale test: ${t.reason}`),
      t.automatic
        ? el("div", { class: "sum" }, `Morale level ${t.morale_level}: over 100 cannot fail, no die rolled → ${t.result}`)
        : el("div", { class: "sum" }, "d100 rolled ", diceEl({ faces: c.faces, die: "d100", by_side: null }, true),
          ` against the morale level ${t.morale_level} (pass on ${t.target} or less) → ${t.result}`),
      c.modifiers.length ? termsTable(c.modifiers, t.morale_level, "morale level") : "",
      t.level_rule ? el("p", { class: "small" }, "Level: ", ruleLink(t.level_rule.rule, t.level_rule.url), ` ${t.level_rule.text}`) : "");
  }
  if (c.notes && c.notes.length) out.push(el("ul", { class: "small" }, c.notes.map((n) => el("li", {}, n))));
  out.push(el("h4", {}, "Rule applied"),
    el("p", {}, ruleLink(c.rule.rule, c.rule.url), " ", el("span", { class: "small" }, `${c.rule.section}: ${c.rule.text}`)));
  return out;
}

export function reachItems(g, r) {
  const items = [];
  if (r.deploy) {
    const z = r.deploy.zone;
    items.push(el("li", {}, `To be placed wholly within ${r.side}'s deployment zone (x ${z[0]}–${z[2]}, y ${z[1]}–${z[3]}) `, link(r.deploy.rule)));
  }
  const m = r.move;
  items.push(el("li", {}, r.in_melee ? "In melee: it does not move" : `Moves up to ${num(m.radius)} in.`, " ", link(m.rule)));
  items.push(r.charges.length
    ? el("li", {}, r.charges_now ? "May charge: " : "Could charge: ",
      r.charges.map((c) => `${c.target} (${c.facing}, ${num(c.distance)} in.)`).join("; "))
    : el("li", {}, "No charge reaches."));
  if (r.shooting) {
    const s = r.shooting;
    items.push(el("li", {}, `Shoots ${num(s.range)} in.: `, s.targets.length ? s.targets.join(", ") : "no target in arc and range", " ", link(s.rule)));
  }
  const why = Object.entries(r.charge_why_not || {});
  if (why.length) {
    items.push(el("li", {}, el("details", {}, el("summary", {}, "Why not the others?"),
      el("ul", {}, why.map(([t, w]) => el("li", {}, `charge ${t}: ${w.reason} `, link(w.rule)))))));
  }
  return items;
}

export function unitFlags(u) {
  const flags = [`${u.figures}/${u.muster} figures, ${u.frontage} wide`, `class ${u.class}`, u.status];
  if (u.in_melee) flags.push("in melee");
  if (u.must_charge) flags.push("must charge the closest enemy");
  if (u.hidden) flags.push("hidden in ambush");
  if (u.deployed === false) flags.push("not yet deployed (stands where the scenario put it)");
  return flags;
}
