// Into the Dark in the browser: its orders given by pointing, its reach and its combat "why".
//
// The web piece of the into-the-dark plugin (PLUGIN.web_module): the page imports it from
// /rulesets/into-the-dark/into-the-dark.js when a game of Into the Dark starts, and calls the
// hooks it exports (the interface: the comment at the top of the page's static/app.js, and
// docs/web.md). The page's own modules are imported by their absolute address (/static/...).
//
// The engine's menu (state.menu: the legal orders of the decision) is the ground truth. Each order
// kind has a gesture or a button here; any kind without one is offered as it stands under "The
// engine's menu", so a new order of the rules is playable the day it exists.
// Geometry follows the engine (rulesets/into_the_dark/movement.py): a unit's view x, y is the centre
// of its rectangle, headings are degrees clockwise from north, a forward wheel pivots on the inside
// front corner; a deploy order places the centre of the front edge.
// Deployment: the unit (or dummy card) to place is dragged from its button onto the table (the
// units waiting to be placed are not drawn), or chosen and then placed by a click; the server rules
// on every point while it is dragged (POST .../check), and a drop is a click where it falls.

import { bearing, normalize } from "/static/board.js";
import { drawRotateHandle, removeRotateHandle } from "/static/handle.js";
import { diceEl, el, ruleLink } from "/static/log.js";
import { chooseCharge, hoverReach, inch, renderChargeChoices, round } from "/static/reach.js";

const rad = (a) => (a * Math.PI) / 180;
const link = (rule) => ruleLink(rule, `/rules/${rule.replace(":", "#")}`);

// ------------------------------------------------------------------------------- geometry
function forward(h) {
  return { x: Math.sin(rad(h)), y: Math.cos(rad(h)) };
}

function rightOf(h) {
  const f = forward(h);
  return { x: f.y, y: -f.x };
}

// The unit rectangle after a forward wheel of `a` degrees (+ = right): movement.wheel_fp.
export function wheelFp(u, a) {
  const f = forward(u.heading);
  const r = rightOf(u.heading);
  const side = a > 0 ? 1 : -1;
  const p = { x: u.x + (f.x * u.depth) / 2 + (side * r.x * u.frontage) / 2, y: u.y + (f.y * u.depth) / 2 + (side * r.y * u.frontage) / 2 };
  const ca = Math.cos(rad(a));
  const sa = Math.sin(rad(a));
  const dx = u.x - p.x;
  const dy = u.y - p.y;
  return { ...u, x: p.x + dx * ca + dy * sa, y: p.y - dx * sa + dy * ca, heading: normalize(u.heading + a) };
}

// A move bringing the unit's centre to `p`: a forward wheel toward it (at most 90°), then straight on.
export function moveTo(u, p) {
  let a = normalize(bearing(u, p) - u.heading);
  if (Math.abs(a) > 90) return null; // behind: about face first
  a = round(a, 2);
  const steps = [];
  let at = u;
  if (Math.abs(a) >= 1) {
    at = wheelFp(u, a);
    steps.push({ wheel: a });
  }
  const f = forward(at.heading);
  const d = round((p.x - at.x) * f.x + (p.y - at.y) * f.y, 2);
  if (d >= 0.05) steps.push({ fwd: d });
  if (!steps.length) return null;
  return { steps, end: { ...at, x: at.x + f.x * Math.max(d, 0), y: at.y + f.y * Math.max(d, 0) } };
}

function stepsText(steps) {
  return steps.map((s) => (s.fwd !== undefined ? `fwd ${s.fwd}` : s.wheel !== undefined ? `wheel ${s.wheel}` : s.back !== undefined ? `back ${s.back}` : "about")).join(" ");
}

// ------------------------------------------------------------------------------- labels
const FACE_WORDS = { column: "in column", figures: "figures turn" };

export function label(m, g) {
  const o = m.order;
  const name = (id) => g.unitName(id);
  switch (m.kind) {
    case "keep": return "Keep the initiative (move first)";
    case "pass": return "Pass the initiative (move second)";
    case "rally": return `Rally ${o.unit}`;
    case "activate": return `Order ${o.unit} to act`;
    case "hold": return "Hold";
    case "move": {
      const s = o.steps || [];
      if (s.length === 1 && s[0].about) return "About face";
      if (s.length === 2 && s[0].about) return `About face, then ${inch(s[1].fwd)} forward`;
      if (s.length === 1 && s[0].fwd !== undefined) return `Advance ${inch(s[0].fwd)}`;
      if (s.length === 1 && s[0].back !== undefined) return `Back up ${inch(s[0].back)}`;
      if (s.length === 1 && s[0].wheel !== undefined) return `Wheel ${s[0].wheel > 0 ? "right" : "left"} ${Math.abs(s[0].wheel)}°`;
      if (s.length === 2 && s[0].wheel !== undefined) return `Wheel ${s[0].wheel > 0 ? "right" : "left"} ${Math.abs(s[0].wheel)}°, advance ${inch(s[1].fwd)}`;
      return `Move: ${stepsText(s)}`;
    }
    case "charge": return `Charge ${name(o.target)}${o.steps && o.steps.length ? ` (${stepsText(o.steps)})` : ""}${o.impetuous ? ", impetuous" : ""}`;
    case "frontage": return `Frontage ${o.figures} figures`;
    case "shieldwall": return o.on ? "Form shieldwall" : "Leave the shieldwall";
    case "face": return `Face ${o.side} (${FACE_WORDS[o.how] || o.how})`;
    case "reform": return "Turn the figures back to the front";
    case "stand": return "Stand";
    case "countercharge": return o.impetuous ? "Counter-charge impetuously" : "Counter-charge";
    case "evade": return "Evade";
    case "fire": return `Fire at ${name(o.target)}`;
    case "decline": return "Let it pass";
    case "shoot": return `Shoot at ${name(o.target)}`;
    case "pursue": return "Pursue / follow up";
    case "resist": return "Test to hold the place";
    case "stop": return "Stop at its original position";
    case "continue": return "Continue the charge";
    case "allow": return "Let it through";
    case "refuse": return "Refuse";
    case "deploy": return `${o.unit.includes("dummy") ? "Dummy card" : name(o.unit)} at (${round(o.x, 1)}, ${round(o.y, 1)})`;
    case "turn": return `Turn to face ${o.side} (column)`;
    case "fallback": return `Fall back ${inch(o.distance)}`;
    case "careful": return `Careful move: ${stepsText(o.steps)}`;
    case "breakoff": return "Break off";
    case "declare": return `${name(o.unit)}: aim ${o.dice} ${o.dice === 1 ? "die" : "dice"} at ${g.unitName(o.at)}`;
    case "join": return `Join ${name(o.host)} (in its front rank)`;
    case "leave": return `${name(o.unit)}: leave his unit, on his own again`;
    case "command": return `${name(o.general)}: order ${name(o.unit)} (against its preferences)`;
    case "end": return "End";
    default: return m.text;
  }
}

const END_WORDS = { rally: "End the Rally phase", movement: "End your movement", fire: "End your missile fire", deploy: "End", declare: "No (more) dice at generals" };

// ------------------------------------------------------------------------------- state
// the example of the typed-order box
export const typedExample = "move r1 wheel -30 fwd 4";

// a new state: forget the unit being placed once the rules no longer offer to deploy it
export function onState(g) {
  if (!g.st.menu.some((m) => m.kind === "deploy" && m.unit === g.deployUnit)) g.deployUnit = null;
}

// ------------------------------------------------------------------------------- the unit panel
export function reachItems(g, r) {
  const items = [];
  const m = r.move;
  const moveLine = m.why_not ? `Cannot move: ${m.why_not.reason} ` : m.done ? "Has acted this turn" : m.now ? `${inch(m.left)} of its ${inch(m.max)} move left` : `Moves up to ${inch(m.max)}`;
  items.push(el("li", {}, moveLine, link(m.why_not ? m.why_not.rule : m.rule)));
  if (r.charges.length) {
    items.push(el("li", {}, r.charges_now ? "May charge: " : "Could charge with a fresh move: ",
      r.charges.map((c) => `${c.target} (${c.facings.map((f) => `${f.facing} ${inch(f.distance)}${f.impetuous ? ", impetuous too" : ""}`).join(", ")})`).join("; ")));
  } else {
    items.push(el("li", {}, r.charges_now ? "No charge reaches now." : "No charge reaches."));
  }
  if (r.shooting) {
    const s = r.shooting;
    items.push(el("li", {}, `${s.weapon_name}: close ${inch(s.close)}${s.long ? `, long ${inch(s.long)}` : ""}, ${s.mode}: `,
      s.problem ? `may not shoot (${s.problem})` : s.targets.length ? `can hit ${s.targets.join(", ")}` : "no target in range", link(s.rule)));
  }
  const zoc = Object.entries(r.zoc || {});
  if (zoc.length) items.push(el("li", { class: "small" }, `Zone of control ahead: ${zoc.map(([k, v]) => `${k} ${inch(v)}`).join(", ")}`));
  const why = Object.entries(r.charge_why_not);
  const shootWhy = r.shooting ? Object.entries(r.shooting.why_not) : [];
  if (why.length || shootWhy.length) {
    items.push(el("li", {}, el("details", {}, el("summary", {}, "Why not the others?"),
      el("ul", {}, why.map(([t, w]) => el("li", {}, `charge ${t}: ${w.reason} `, link(w.rule)))),
      shootWhy.length ? el("ul", {}, shootWhy.map(([t, w]) => el("li", {}, `shoot ${t}: ${w.reason} `, link(w.rule)))) : null)));
  }
  return items;
}

export function unitFlags(u) {
  const flags = [`${u.figures}/${u.original} figures, ${u.front} wide × ${u.ranks} rank${u.ranks === 1 ? "" : "s"}`, u.morale];
  if (u.disordered) flags.push("disordered");
  if (u.shieldwall) flags.push("in shieldwall");
  if (u.evading) flags.push("evading");
  if (u.in_melee) flags.push("in melee");
  if (u.acted) flags.push("acted");
  if (u.fired) flags.push("fired");
  if (u.charged) flags.push("charged");
  if (u.faced && u.faced.length) flags.push(`figures facing ${u.faced.join(", ")}`);
  if (u.missile) flags.push(u.missile);
  if (u.role && !u.general) flags.push(`${u.role} troops`);
  if (u.mixed && u.mixed.length) flags.push(`mixed: ${u.mixed.map((m) => `${m.figures} ${m.code} ${m.type}`).join(", ")}`);
  if (u.general) flags.push("a general's figure (LMM or LMF): one hit removes him, no value in combat");
  if (u.generals && u.generals.length) flags.push(`led by general ${u.generals.join(", ")}`);
  if (u.champions && u.champions.length) flags.push(`champion ${u.champions.join(", ")} in its front rank`);
  return flags;
}

// ------------------------------------------------------------------------------- turn handle
// The acting unit's rotate handle: a knob on the middle of its front edge (on the unit, so that a
// click on the table ahead is still a move there). Dragged round, the unit wheels
// forward (movement.wheel_fp: about the inside front corner, at most 90° either way, whole
// degrees): the ghost shows it, the server is asked (POST .../check) whether the rules allow that
// wheel as the unit's move (the outer corner's path against the allowance, the room to wheel) and
// the line under the table says so, with the clause if not; the release gives the order
// `move r1 wheel 30` if they allow it. A click on the table still gives a wheel and a straight run.
// the wheel a handle dragged to p asks for: whole degrees, at most 90 either way
export function wheelTo(u, p) {
  return Math.round(Math.max(-90, Math.min(90, normalize(bearing(u, p) - u.heading))));
}

function drawHandle(g, u) {
  const order = (w) => ({ kind: "move", unit: u.id, steps: [{ wheel: w }] });
  drawRotateHandle(g, {
    unit: u, at: u, verb: "wheel", cls: "itd-turn-handle", knobCls: "itd-turn-knob",
    title: `Drag to wheel ${u.id} (at most 90°, forward about its inside front corner)`,
    angleTo: (p) => wheelTo(u, p),
    ghost: (w) => ({ ...wheelFp(u, w), label: `wheel ${w}` }),
    words: (w, legal) => (legal ? `Wheel ${u.id} ${w > 0 ? "right" : "left"} ${Math.abs(w)}°` : `wheel ${w}`),
    order,
    send: (w) => g.send(order(w)),
  });
}

// ------------------------------------------------------------------------------- actions
export function renderActions(g, box, btn, group) {
  const st = g.st;
  const d = st.decision;
  const menu = st.menu;
  const sel = g.selected;
  if (d.kind === "unit" && sel === d.unit && g.units[sel] && !g.pendingCharge) drawHandle(g, g.units[sel]);
  else removeRotateHandle(g);
  const used = new Set();
  const take = (m) => { used.add(m); return m; };
  const buttons = (items, cls = "") => items.map((m) => btn(label(take(m), g), m.order, cls, m.text));

  if (g.pendingCharge) {
    const c = g.pendingCharge;
    renderChargeChoices(g, box, group, `Charge ${g.unitName(c.target)}: on which edge?`,
      c.facings.flatMap((f) => [
        f.order ? btn(`${f.facing} (${inch(f.distance)})`, f.order, "charge", f.text) : null,
        f.impetuous ? btn(`${f.facing}, impetuous`, f.impetuous.order, "charge", f.impetuous.text) : null,
      ]));
    return;
  }

  const k = d.kind;
  if (k === "deploy") {
    const units = [...new Set(menu.filter((m) => m.kind === "deploy").map((m) => m.unit))];
    const placing = g.deployUnit && units.includes(g.deployUnit) ? g.deployUnit : null;
    box.append(group(`Deploy your ${d.data.troops || ""}: drag what to place onto the table (or choose it, then click the table)`,
      units.map((uid) => el("button", { type: "button", class: `mode${placing === uid ? " on" : ""}`, "data-unit": uid,
        onclick: () => { g.deployUnit = uid; g.renderActions(); g.renderHint(); },
        onpointerdown: (e) => g.dragOnto(e, () => { g.deployUnit = uid; g.renderActions(); }) },
      uid.includes("dummy") ? `Dummy card ${uid.split("-").pop()}` : g.unitName(uid)))));
    const sugg = menu.filter((m) => m.kind === "deploy" && (!placing || m.unit === placing));
    if (sugg.length) box.append(group("Or at a place the rules suggest", buttons(sugg.slice(0, placing ? 6 : 9))));
    menu.filter((m) => m.kind === "deploy").forEach((m) => used.add(m));
  } else if (k === "unit" && sel === d.unit) {
    const r = g.reach;
    const mine = menu.filter((m) => m.unit === sel);
    box.append(group(`${sel} acts: click the table to move it there (a wheel, then straight on), or a highlighted enemy to charge`,
      ...buttons(mine.filter((m) => m.kind === "hold"))));
    if (r && r.charges.length) {
      box.append(group("Charge", r.charges.flatMap((c) => c.facings.flatMap((f) => [
        f.order ? btn(`${c.target} ${f.facing} (${inch(f.distance)})`, f.order, "charge", f.text) : null,
        f.impetuous ? btn(`${c.target} ${f.facing}, impetuous`, f.impetuous.order, "charge", f.impetuous.text) : null,
      ]))));
      mine.filter((m) => m.kind === "charge").forEach((m) => used.add(m));
    }
    const formation = mine.filter((m) => ["frontage", "shieldwall", "face", "reform", "turn"].includes(m.kind));
    if (formation.length) box.append(group("Formation instead of moving", buttons(formation)));
    const moves = mine.filter((m) => m.kind === "move");
    if (moves.length) box.append(group("The rules suggest", buttons(moves)));
    const hard = mine.filter((m) => ["fallback", "careful", "breakoff"].includes(m.kind));
    if (hard.length) box.append(group("Difficult maneuvers", buttons(hard)));
  } else if (k === "react" || k === "opportunity" || k === "pursue" || k === "chase" || k === "consent") {
    const title = {
      react: `${d.unit} is charged by ${g.unitName(d.data.charger)}${d.data.impetuous ? " (impetuously)" : ""} on its ${d.data.edge || "front"}`,
      opportunity: `${g.unitName(d.data.mover)} moved in ${d.unit}'s zone of control${g.reach && g.reach.charges.length ? ": click it to charge" : ""}`,
      pursue: `${d.unit}'s opponents fell back`,
      chase: `${g.unitName(d.data.target)} ran away from ${d.unit}'s charge (${inch(d.data.further)} more possible)`,
      consent: `${g.unitName(d.data.mover)} falls back through ${d.unit}`,
    }[k];
    const r = g.reach;
    if (k === "opportunity" && r && r.charges.length) {
      box.append(group(title, r.charges.flatMap((c) => c.facings.flatMap((f) => [
        f.order ? btn(`Charge ${c.target} ${f.facing} (${inch(f.distance)})`, f.order, "charge", f.text) : null,
        f.impetuous ? btn(`Charge ${c.target} ${f.facing}, impetuous`, f.impetuous.order, "charge", f.impetuous.text) : null,
      ]))));
      menu.filter((m) => m.kind === "charge").forEach((m) => used.add(m));
      box.append(group("Or", buttons(menu.filter((m) => m.kind !== "charge" && m.kind !== "end"))));
    } else {
      box.append(group(title, buttons(menu.filter((m) => m.kind !== "end"))));
    }
  } else if (k === "fire") {
    const shooters = [...new Set(menu.filter((m) => m.kind === "shoot").map((m) => m.unit))];
    if (sel && shooters.includes(sel)) {
      box.append(group(`${sel} shoots: click a target ringed on the table, or`, buttons(menu.filter((m) => m.kind === "shoot" && m.unit === sel))));
    }
    if (shooters.length) {
      box.append(group("Units that can shoot (click one)", shooters.map((uid) =>
        el("button", { type: "button", class: `mode${sel === uid ? " on" : ""}`, onclick: () => g.select(uid) }, g.unitName(uid)))));
    }
    menu.filter((m) => m.kind === "shoot").forEach((m) => used.add(m));
  } else if (k === "movement" || k === "rally") {
    const verb = k === "movement" ? "activate" : "rally";
    if (sel) {
      const mine = menu.filter((m) => m.unit === sel && m.kind === verb);
      if (mine.length) box.append(group(`${g.unitName(sel)}`, buttons(mine, "primary")));
      else if (g.units[sel] && st.you.includes(g.units[sel].side)) {
        box.append(el("div", { class: "small" }, k === "movement" ? `${sel} may not act now (see its panel).` : `${sel} has nothing to rally from.`));
      }
    }
    const rest = menu.filter((m) => m.kind === verb && m.unit !== sel);
    if (rest.length) box.append(group(k === "movement" ? "Units that may act (click one, or)" : "Units that may rally", buttons(rest)));
    const generals = menu.filter((m) => k === "movement" && (m.kind === "command" || m.kind === "leave"));
    if (generals.length) box.append(group("Generals' command actions; generals and champions leaving units", buttons(generals)));
  } else if (k === "initiative") {
    box.append(group("Initiative", buttons(menu)));
  }
  // any order without a gesture above: the engine's own menu, as it stands
  const others = menu.filter((m) => !used.has(m) && m.kind !== "end");
  if (others.length && k !== "movement" && k !== "rally") {
    box.append(el("details", { class: "group engine-menu", open: others.length <= 6 },
      el("summary", { class: "group-title" }, `The engine's menu (${others.length})`), buttons(others)));
  }
  const end = menu.find((m) => m.kind === "end");
  if (end) box.append(el("div", { class: "group" }, btn(END_WORDS[k] || "End", end.order, "end")));
}

// ------------------------------------------------------------------------------- pointing
export function onUnit(g, uid) {
  const st = g.st;
  const d = st.decision;
  const sel = g.selected;
  if (!st.your_turn || !d) return false;
  const r = g.reach;
  if ((d.kind === "unit" || d.kind === "opportunity") && sel === d.unit && r && r.charges_now) {
    const c = r.charges.find((x) => x.target === uid);
    if (c) {
      const opts = c.facings.flatMap((f) => [f.order, f.impetuous && f.impetuous.order]).filter(Boolean);
      if (opts.length === 1) g.send(opts[0]);
      else chooseCharge(g, c);
      return true;
    }
  }
  if (sel && uid !== sel) {
    const items = st.menu.filter((m) => m.unit === sel && m.target === uid && ["shoot", "fire"].includes(m.kind));
    if (items.length === 1) {
      g.send(items[0].order);
      return true;
    }
  }
  if (d.kind === "rally" && sel === uid) {
    const m = st.menu.find((x) => x.kind === "rally" && x.unit === uid);
    if (m) {
      g.send(m.order);
      return true;
    }
  }
  if (d.unit && uid !== d.unit && g.units[uid] && st.you.includes(g.units[uid].side) && d.kind === "unit") {
    g.renderHint(`${d.unit} is acting: finish its order first (or Hold).`);
    return true;
  }
  return false;
}

function deployCentre(x, y, heading, depth) {
  const f = forward(heading);
  return { x: x - (f.x * depth) / 2, y: y - (f.y * depth) / 2 };
}

function deployHeading(g, uid) {
  const m = g.st.menu.find((x) => x.kind === "deploy" && x.unit === uid);
  return m ? m.order.heading : 0;
}

// Is it your turn to place a unit or card (alternate deployment)?
function deploying(g) {
  const d = g.st && g.st.decision;
  return !!(g.st && g.st.your_turn && d && d.kind === "deploy");
}

function deployable(g, uid) {
  return g.st.menu.some((m) => m.kind === "deploy" && m.unit === uid);
}

// the deploy order putting the centre of g.deployUnit's front edge at q, facing the way the rules set
function deployOrder(g, q) {
  return { kind: "deploy", unit: g.deployUnit, x: round(q.x, 2), y: round(q.y, 2), heading: deployHeading(g, g.deployUnit) };
}

export function onTable(g, p) {
  const st = g.st;
  const d = st.decision;
  if (!st.your_turn || !d) return false;
  if (d.kind === "deploy" && g.deployUnit) {
    // a drop (or a click) a little outside the zone snaps to the nearest place the rules allow
    g.sendNear(p, (q) => deployOrder(g, q), null);
    return true;
  }
  if (d.kind === "unit" && g.selected === d.unit && g.units[d.unit]) {
    const u = g.units[d.unit];
    if (!moveTo(u, p)) {
      g.renderHint("Moves go forward (with forward wheels up to 90°): to go back, About face first.");
      return true;
    }
    // a click a little too far snaps to the nearest point the rules allow
    g.sendNear(p, (q) => { const mv = moveTo(u, q); return mv ? { kind: "move", unit: d.unit, steps: mv.steps } : null; }, u);
    return true;
  }
  return false;
}

// The order a click (or a drop) at p gives the unit acting (or the unit to place), and where it
// starts: the page asks the server about it while the unit is dragged.
export function orderAt(g, p) {
  const st = g.st;
  const d = st.decision;
  if (deploying(g)) return g.deployUnit && deployable(g, g.deployUnit) ? { order: deployOrder(g, p), from: null } : null;
  if (!(st.your_turn && d && d.kind === "unit" && g.selected === d.unit && g.units[d.unit])) return null;
  const u = g.units[d.unit];
  const mv = moveTo(u, p);
  return mv ? { order: { kind: "move", unit: d.unit, steps: mv.steps }, from: u } : null;
}

export function onHover(g, p, uid) {
  const st = g.st;
  const d = st.decision;
  const r = g.reach;
  if (uid && r && uid !== r.unit) {
    const s = r.shooting;
    return hoverReach(g, r, uid, s && s.targets.includes(uid) ? `${r.unit} can hit ${g.unitName(uid)} (${s.mode}, long range ${inch(s.range)})` : null,
      r.charge_why_not[uid] || (s && s.why_not[uid]));
  }
  if (g.turning) return true; // the rotate handle has the pointer: its ghost stays
  if (!st.your_turn || !d || uid) return false;
  if (d.kind === "deploy" && g.deployUnit) {
    const u = (g.allUnits || {})[g.deployUnit] || { frontage: 3, depth: 1 };
    const h = deployHeading(g, g.deployUnit);
    const c = deployCentre(p.x, p.y, h, u.depth);
    g.board.ghost({ ...u, x: c.x, y: c.y }, c.x, c.y, h, true, g.deployUnit);
    g.renderHint(`Place ${g.deployUnit} with its front edge centred at (${round(p.x, 1)}, ${round(p.y, 1)}), facing ${round(h, 0)}°`);
    return true;
  }
  if (d.kind === "unit" && g.selected === d.unit && g.units[d.unit]) {
    const u = g.units[d.unit];
    const mv = moveTo(u, p);
    if (!mv) {
      g.board.clearGhost();
      g.renderHint("Behind the unit: moves go forward only (About face first).");
      return true;
    }
    const left = r && r.unit === u.id ? r.move.left : null;
    g.board.ghost(u, mv.end.x, mv.end.y, mv.end.heading, true, stepsText(mv.steps));
    g.renderHint(`Move ${u.id}: ${stepsText(mv.steps)}${left !== null ? ` (${inch(left)} of movement left; the engine measures the wheel)` : ""}`);
    return true;
  }
  return false;
}

export function hint(g) {
  const d = g.st.decision;
  if (!g.st.your_turn || !d) return null;
  switch (d.kind) {
    case "deploy": return g.deployUnit ? `Drag ${g.deployUnit} (its button) to where its front edge should stand inside your deployment zone, or click there.` : "Drag a unit (or dummy card) to place from its button onto the table, or choose one.";
    case "movement": return "Click one of your units to see its reach, then order it to act.";
    case "unit": return "Click the table to move there (forward, wheels up to 90°), a highlighted enemy to charge, or a button.";
    case "fire": return "Click one of your shooters, then a ringed target.";
    case "rally": return "Click a unit to rally, or end the Rally phase.";
    default: return d.prompt;
  }
}

// ------------------------------------------------------------------------------- why
const WHY_TITLES = { fire: "Missile fire", melee: "Melee", "bonus-round": "Pursuit: bonus round", "morale-test": "Morale test", "control-test": "Control test" };

// The why of a combat roll (per group of figures) or of a morale / control test; null: the page's own.
export function renderWhy(c) {
  if (!((c.groups && c.groups.length) || c.test)) return null;
  const out = [
    el("h4", {}, WHY_TITLES[c.kind] || c.kind, ` · turn ${c.turn}`),
    el("p", {}, c.text),
    c.target && c.facing ? el("p", {}, `${c.attacker_name} against ${c.target_name}: ${c.facing}`) : "",
    ...whyDetails(c),
    c.hits !== null && c.hits !== undefined ? el("p", {}, el("b", {}, `${c.hits} hit${c.hits === 1 ? "" : "s"} in all`)) : "",
    el("h4", {}, "Rule applied"),
    el("p", {}, ruleLink(c.rule.rule, c.rule.url), " ", el("span", { class: "small" }, `${c.rule.section}: ${c.rule.text}`)),
  ];
  if (c.test && c.modifiers.length) {
    out.push(el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "modifier"), el("th", {}, ""), el("th", {}, "clause"))),
      el("tbody", {}, c.modifiers.map((m) => el("tr", {}, el("td", {}, m.name), el("td", {}, m.value > 0 ? `+${m.value}` : `${m.value}`),
        el("td", {}, ruleLink(m.rule, m.url), el("div", { class: "small" }, m.clause || "")))))));
  }
  return out;
}

// a combat roll per group of figures, or a morale / control test
function whyDetails(c) {
  const out = [];
  if (c.test) {
    const t = c.test;
    out.push(el("p", {}, `Test: ${t.reason}${t.tests.length > 1 ? ` (${t.tests.join("; ")})` : ""}`),
      el("div", { class: "sum" }, `${c.die} rolled `, diceEl({ faces: c.faces, die: c.die, by_side: null }, true),
        ` against ${t.target}+ (morale level ${t.morale_level}) → ${t.result}`),
      t.level_rule ? el("p", { class: "small" }, "Level: ", ruleLink(t.level_rule.rule, t.level_rule.url), ` ${t.level_rule.text}`) : "",
      t.result_rule ? el("p", { class: "small" }, "Result: ", ruleLink(t.result_rule.rule, t.result_rule.url), ` ${t.result_rule.text}`) : "");
  }
  for (const gr of c.groups || []) {
    out.push(el("div", { class: "group-why" },
      el("h4", {}, `${gr.label}: ${gr.dice} ${gr.dice === 1 ? "die" : "dice"} (${gr.rate})`),
      el("div", { class: "sum" }, "rolled ", gr.faces.length ? diceEl({ faces: gr.faces, die: c.die, by_side: null }, true) : "no dice",
        ` · armour ${gr.armour}, needs ${gr.need}+ → ${gr.hits} hit${gr.hits === 1 ? "" : "s"}`),
      gr.modifiers.length
        ? el("table", {}, el("tbody", {}, gr.modifiers.map((m) => el("tr", {}, el("td", {}, m.name), el("td", {}, m.value > 0 ? `+${m.value}` : `${m.value}`),
          el("td", {}, m.rule ? ruleLink(m.rule, m.url) : "", el("div", { class: "small" }, m.clause || ""))))))
        : el("p", { class: "small" }, "no modifiers"),
      el("p", { class: "small" }, gr.rule ? [ruleLink(gr.rule.rule, gr.rule.url), ` ${gr.rule.text}`] : "",
        gr.natural ? [" · ", ruleLink(gr.natural.rule, gr.natural.url), ` ${gr.natural.text}`] : "")));
  }
  if (c.notes && c.notes.length) out.push(el("ul", { class: "small" }, c.notes.map((n) => el("li", {}, n))));
  return out;
}
