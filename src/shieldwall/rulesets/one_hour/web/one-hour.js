// One Hour Dark Ages in the browser: its orders given by pointing, its reach and its combat "why".
//
// The web piece of the one-hour-dark-ages plugin (PLUGIN.web_module): the page imports it from
// /rulesets/one-hour-dark-ages/one-hour.js when a game of One Hour starts, and calls the hooks it
// exports (the interface: the comment at the top of the page's static/app.js, and docs/web.md).
// The page's own modules are imported by their absolute address (/static/...).
//
// A unit rolls its move, then goes where a click puts its centre (Move), or faces where a click
// points (Turn); shift+click adds legs to a path; a click on a highlighted enemy charges it. Its
// own state lives on the page's GameView `g`: g.path (the legs so far) and g.faceTravel.
// With hand deployment (ruling R50) the unit to place is dragged (or a click puts its centre)
// within its side's zone, facing g.deployHeading; the server rules on every point.
// The unit being moved carries a rotate handle (a knob on the middle of its front edge, at the end
// of the path so far): dragged round it turns the unit on its centre ("Units Turn by rotating on
// their center or center front up to 180°"), the server is asked about the turn while dragging,
// and the release gives it (a turn at the end of the path) if the rules allow it.

import { bearing, normalize } from "/static/board.js";
import { drawRotateHandle, removeRotateHandle } from "/static/handle.js";
import { diceEl, el, ruleLink } from "/static/log.js";
import { chooseCharge, hoverReach, inch, inZone, renderChargeChoices, round, zoneOf } from "/static/reach.js";

const link = (rule) => ruleLink(rule, `/rules/${rule.replace(":", "#")}`);

// ------------------------------------------------------------------------------- state
// the example of the typed-order box
export const typedExample = "move r1 turn 30@front go 14,9";

// a new state: no path in progress; the unit to place faces as the scenario set it
export function onState(g) {
  g.path = [];
  const d = g.st.decision;
  const u = d && d.kind === "deploy" && g.units[d.unit];
  if (u && g.deployUnit !== d.unit) {
    g.deployUnit = d.unit;
    g.deployHeading = u.heading;
  }
}

// the pointer mode: "move" for the unit that has rolled its move, "deploy" for the unit to place
export function defaultMode(g) {
  const d = g.st && g.st.decision;
  if (g.st && g.st.your_turn && d && d.kind === "deploy") return "deploy";
  if (g.st && g.st.your_turn && d && d.kind === "move" && g.selected === d.unit) return "move";
  return null;
}

// ------------------------------------------------------------------------------- deployment
// Is it your turn to place a unit (hand deployment)?
function deploying(g) {
  const d = g.st && g.st.decision;
  return !!(g.st && g.st.your_turn && d && d.kind === "deploy" && g.units[d.unit]);
}

// the deploy order for the unit's centre at q, facing g.deployHeading
function deployOrder(g, q) {
  const d = g.st.decision;
  return { kind: "deploy", unit: d.unit, x: round(q.x, 3), y: round(q.y, 3), heading: round(((g.deployHeading % 360) + 360) % 360, 3) };
}



// Escape: forget the path being built
export function cancel(g) {
  clearPath(g);
}

// ------------------------------------------------------------------------------- paths
// Where the unit would stand after the path built so far: {x, y, heading}.
function pathEnd(g, u) {
  let at = { x: u.x, y: u.y, heading: u.heading };
  for (const step of g.path || []) {
    if (step.go) at = { ...at, x: step.go[0], y: step.go[1] };
    else at = { ...at, heading: at.heading + step.turn };
  }
  return at;
}

function pathPoints(g, u) {
  return [{ x: u.x, y: u.y }, ...(g.path || []).filter((st) => st.go).map((st) => ({ x: st.go[0], y: st.go[1] }))];
}

function clearPath(g) {
  g.path = [];
  g.board.drawPath([]);
  g.renderActions();
  g.renderHint();
}

function sendPath(g, extra = []) {
  const d = g.st.decision;
  const steps = [...(g.path || []), ...extra];
  g.path = [];
  g.board.drawPath([]);
  if (steps.length) g.send({ kind: "move", unit: d.unit, steps });
}

// ------------------------------------------------------------------------------- turn handle
// The unit being moved: a knob on the middle of its front edge where the path so far ends. Dragged
// round, the unit turns on its centre (whole degrees, up to 180° either way: the rules' Turning):
// the ghost shows it, the server is asked (POST .../check) whether the rules allow the move with
// that turn at its end (the turns the unit has left: turning.limits; room to turn) and the line
// under the table says so, with the clause if not; the release gives the order if they allow it,
// and otherwise sends nothing and shows the refusal with its clause.
// the turn a handle dragged to p asks for: whole degrees, at most 180 either way
export function turnTo(at, p) {
  return Math.round(normalize(bearing(at, p) - at.heading));
}

function drawHandle(g, u) {
  const at = pathEnd(g, u);
  const words = (t) => `turn ${Math.abs(t)}° ${t > 0 ? "clockwise" : "anticlockwise"}`;
  drawRotateHandle(g, {
    unit: u, at, verb: "turn", cls: "oh-turn-handle", knobCls: "oh-turn-knob",
    title: `Drag to turn ${u.id} on its centre (up to 180°)`,
    angleTo: (p) => turnTo(at, p),
    ghost: (t) => ({ x: at.x, y: at.y, heading: at.heading + t, label: `turn ${t}°` }),
    words: (t, legal) => (legal ? `${u.id}: ${words(t)}` : words(t)),
    order: (t) => ({ kind: "move", unit: u.id, steps: [...(g.path || []), { turn: t, pivot: "centre" }] }),
    send: (t) => sendPath(g, [{ turn: t, pivot: "centre" }]),
  });
}

// ------------------------------------------------------------------------------- the unit panel
export function unitFlags(u, g) {
  const flags = [];
  const dep = g && g.st && g.st.view.deployment;
  if (dep && dep.waiting.includes(u.id)) flags.push("not yet deployed (stands where the scenario put it)");
  if (u.in_melee) flags.push("in melee");
  if (u.moved) flags.push("moved");
  if (u.charged) flags.push("charged");
  if (u.shot) flags.push("shot");
  if (u.missile) flags.push(`${u.missile}s, ${u.shots_left === null ? "unlimited" : u.shots_left} shot(s) left`);
  if (u.personalities && u.personalities.length) flags.push(`with ${u.personalities.join(", ")}`);
  if (u.upgrade) flags.push(u.upgrade);
  if (u.quality) flags.push(u.quality);
  return flags;
}

export function reachItems(g, r) {
  const items = [];
  if (r.deploy) {
    const z = r.deploy.zone;
    return [el("li", {}, `To be placed wholly within ${r.side}'s deployment zone (x ${z[0]}–${z[2]}, y ${z[1]}–${z[3]}) `, link(r.deploy.rule))];
  }
  items.push(el("li", {}, r.move.now ? `Rolled ${inch(r.move.rolled)} of movement (${r.move.dice})`
    : r.move.done ? "Has moved this phase" : `Moves up to ${inch(r.move.max)} (${r.move.dice})`,
    ` · ${r.move.turns} turn${r.move.turns === 1 ? "" : "s"}`, link(r.move.rule)));
  if (r.charges.length) {
    items.push(el("li", {}, r.charges_now ? "May charge: " : "Could charge with a top roll: ",
      r.charges.map((c) => `${c.target} (${c.facings.map((f) => `${f.facing} ${inch(f.distance)}`).join(", ")})`).join("; ")));
  } else {
    items.push(el("li", {}, r.charges_now ? "No charge possible with this roll." : "No charge possible this turn."));
  }
  if (r.shooting) {
    const s = r.shooting;
    items.push(el("li", {}, `${s.weapon === "bow" ? "Bow" : "Javelins"}, range ${inch(s.range)}: `,
      s.targets.length ? `may shoot ${s.targets.join(", ")}` : "no target now"));
  }
  const why = Object.entries(r.charge_why_not);
  if (why.length) {
    items.push(el("li", {}, el("details", {}, el("summary", {}, "Why not the others?"),
      el("ul", {}, why.map(([t, w]) => el("li", {}, `${t}: ${w.reason} `, link(w.rule)))),
      r.shooting && Object.keys(r.shooting.why_not).length
        ? el("ul", {}, Object.entries(r.shooting.why_not).map(([t, w]) => el("li", {}, `shoot ${t}: ${w.reason} `, link(w.rule))))
        : null)));
  }
  return items;
}

// ------------------------------------------------------------------------------- actions
export function renderActions(g, box, btn, group) {
  const st = g.st;
  const d = st.decision;
  const menu = st.menu;
  const sel = g.selected;
  const used = new Set();
  const take = (m) => { used.add(m); return m; };
  if (st.your_turn && d.kind === "move" && sel === d.unit && g.units[sel] && !g.pendingCharge) drawHandle(g, g.units[sel]);
  else removeRotateHandle(g);

  if (g.pendingCharge) {
    const c = g.pendingCharge;
    renderChargeChoices(g, box, group, `Charge ${g.unitName(c.target)} on which facing?`,
      c.facings.map((f) => btn(`${f.facing} (${inch(f.distance)})`, f.order, "charge")));
    return;
  }

  if (d.kind === "deploy" && deploying(g)) {
    const z = zoneOf(g, g.units[d.unit].side);
    box.append(group(`Deploy ${d.unit}: drag it within your zone${z ? ` (x ${z[0]}–${z[2]}, y ${z[1]}–${z[3]})` : ""}, or click where its centre should stand`,
      el("span", { class: "small" }, `facing ${round(g.deployHeading, 1)}° `),
      ...[["↺ 45°", -45], ["↻ 45°", 45], ["About face", 180]].map(([label, a]) =>
        el("button", { type: "button", onclick: () => { g.deployHeading = (g.deployHeading + a + 360) % 360; g.renderActions(); } }, label)),
      link("one-hour-dark-ages:deployment")));
    const places = menu.filter((m) => m.kind === "deploy");
    if (places.length) {
      box.append(group("Places the rules allow", places.slice(0, 8).map((m, i) =>
        btn(i === 0 && m.order.x === g.units[d.unit].x && m.order.y === g.units[d.unit].y ? "The scenario's place" : `(${m.order.x}, ${m.order.y})`, take(m).order))));
      places.forEach((m) => used.add(m));
    }
  } else if (d.kind === "move" && sel === d.unit) {
    const r = g.reach;
    box.append(group(`Move ${sel}: click the table, or a highlighted enemy to charge`,
      el("button", { type: "button", class: `mode${g.mode === "move" ? " on" : ""}`, onclick: () => g.setMode("move") }, "Move"),
      el("button", { type: "button", class: `mode${g.mode === "turn" ? " on" : ""}`, onclick: () => g.setMode("turn") }, "Turn"),
      el("label", { class: "small" }, el("input", { type: "checkbox", checked: g.faceTravel, onchange: (e) => { g.faceTravel = e.target.checked; } }), " turn to face the way you move"),
      ...menu.filter((m) => m.kind === "hold" && m.unit === sel).map((m) => btn("Hold", take(m).order)),
    ));
    if (g.path && g.path.length) {
      box.append(group(`Path: ${g.path.filter((x) => x.go).length} leg(s) — click to finish, or`,
        el("button", { type: "button", class: "primary", onclick: () => sendPath(g) }, "Move along the path"),
        el("button", { type: "button", onclick: () => clearPath(g) }, "Clear the path")));
    }
    box.append(group("Turn in place", [
      ["↺ 45°", -45], ["↻ 45°", 45], ["↺ 90°", -90], ["↻ 90°", 90], ["About face", 180],
    ].map(([label, a]) => btn(label, { kind: "move", unit: sel, steps: [{ turn: a, pivot: "centre" }] }))));
    if (r && r.charges.length) {
      box.append(group("Charge", r.charges.flatMap((c) => c.facings.map((f) =>
        btn(`${c.target} ${f.facing} (${inch(f.distance)})`, f.order, "charge", f.text)))));
      menu.filter((m) => m.kind === "charge").forEach((m) => used.add(m));
    }
    const shots = menu.filter((m) => m.kind === "shot" && m.unit === sel);
    if (shots.length) box.append(group("Moving shot (javelins)", shots.map((m) => btn(`at ${m.target}`, take(m).order))));
    const moves = menu.filter((m) => m.kind === "move" && m.unit === sel && m.label);
    if (moves.length) box.append(group("The rules suggest", moves.map((m) => btn(take(m).label, m.order, "", m.text))));
    menu.filter((m) => m.kind === "move").forEach((m) => used.add(m));
  } else if (sel) {
    const mineHere = menu.filter((m) => m.unit === sel && !used.has(m));
    const labels = {
      activate: (m) => (m.order.charge ? `Declare a charge on ${m.order.charge}` : m.order.toward ? `Declare a move toward ${m.order.toward.join(",")}` : `Roll to move ${sel}${g.reach && g.reach.unit === sel ? ` (${g.reach.move.dice})` : ""}`),
      face: (m) => `Turn to face ${m.target}`,
      fallback: () => "Fall back",
      shoot: (m) => `Shoot at ${m.target}`,
      shot: (m) => `Javelins at ${m.target}`,
      skip: () => "No moving shot",
      fight: (m) => `Attack ${m.target}`,
      hold: () => "Hold",
      "fight-as": (m) => `Fight as ${m.order.choice}`,
    };
    if (mineHere.length) {
      box.append(group(`Orders for ${sel}`, mineHere.map((m) => btn((labels[m.kind] || (() => m.text))(m), take(m).order, m.kind === "activate" ? "primary" : ""))));
    }
  }
  // "Viking Veterans. After deployment choose to fight as Infantry OR Warriors."
  const choices = menu.filter((m) => m.kind === "fight-as" && !used.has(m));
  if (choices.length) box.append(group("After deployment: fight as", choices.map((m) => btn(`${m.order.unit} as ${m.order.choice}`, take(m).order))));
  const transfers = menu.filter((m) => m.kind === "transfer" && !used.has(m));
  if (transfers.length) box.append(group("Personalities", transfers.map((m) => btn(`${m.order.personality} → ${m.order.unit}`, take(m).order))));
  const others = menu.filter((m) => !used.has(m) && m.kind !== "end" && m.unit && m.unit !== sel && d.kind !== "activate" && d.kind !== "shoot");
  if (others.length && d.unit) box.append(group("Orders", others.map((m) => btn(m.text, take(m).order))));
  const end = menu.find((m) => m.kind === "end");
  if (end) {
    const what = { transfer: "Done with personalities", activate: "End the movement phase", shoot: "End the shooting phase" }[d.kind] || "End";
    box.append(el("div", { class: "group" }, btn(what, end.order, "end")));
  }
  if (!box.children.length && !sel) box.append(el("div", { class: "small" }, "Select one of your units on the table."));
}

export function hint(g) {
  const st = g.st;
  const d = st.decision;
  if (!st.your_turn) return null;
  if (d.kind === "move" && g.selected === d.unit) return g.mode === "turn" ? "Click where the unit should face." : "Click where the unit's centre should go; click a highlighted enemy to charge; drag the yellow knob to turn it. Esc cancels.";
  if (d.kind === "activate") return "Click one of your units, then roll for its move.";
  if (d.kind === "deploy") return `Drag ${d.unit} within your deployment zone (the green area), or click where its centre should stand.`;
  if (d.kind === "fight-as") return "Choose what each of your Viking Veterans fights as, Infantry or Warriors, for the whole battle.";
  if (d.kind === "shoot") return "Click a unit that can shoot, then its target.";
  return null;
}

// ------------------------------------------------------------------------------- pointing
export function onUnit(g, uid) {
  const st = g.st;
  const d = st.decision;
  const sel = g.selected;
  if (!(st.your_turn && d)) return false;
  if (d.kind === "move" && sel === d.unit && g.reach && g.reach.charges_now && g.mode !== "turn") {
    const c = g.reach.charges.find((x) => x.target === uid);
    if (c) {
      if (c.facings.length === 1) g.send(c.facings[0].order);
      else chooseCharge(g, c);
      return true;
    }
  }
  if (sel && uid !== sel) {
    const items = st.menu.filter((m) => m.unit === sel && m.target === uid && ["shoot", "shot", "fight", "face"].includes(m.kind));
    if (items.length === 1) {
      g.send(items[0].order);
      return true;
    }
  }
  if (d.unit && d.kind === "move" && uid !== d.unit && g.units[uid] && st.you.includes(g.units[uid].side)) {
    g.renderHint(`${d.unit} is moving: finish its move first (or Hold).`);
    return true;
  }
  return false;
}

export function onTable(g, p, e) {
  const st = g.st;
  const d = st.decision;
  if (deploying(g)) {
    // a drop (or a click) a little outside the zone snaps to the nearest place the rules allow
    const u = g.units[d.unit];
    g.sendNear(p, (q) => deployOrder(g, q), { x: u.x, y: u.y });
    return true;
  }
  if (!(st.your_turn && d && d.kind === "move" && g.selected === d.unit)) return false;
  const u = g.units[d.unit];
  const from = pathEnd(g, u);
  const angle = round(normalize(bearing(from, p) - from.heading), 2);
  if (g.mode === "turn") {
    sendPath(g, [{ turn: angle, pivot: "centre" }]);
  } else if (g.mode === "move") {
    const stepsTo = (q) => legTo(g, from, q);
    if (e && e.shiftKey) {
      // shift+click: one more leg of a path; a plain click (or Turn) finishes it
      g.path = [...(g.path || []), ...stepsTo(p)];
      g.board.drawPath(pathPoints(g, u));
      g.renderActions();
      g.renderHint();
      return true;
    }
    // a click a little too far (or into a unit) snaps to the nearest point the rules allow
    const prefix = g.path || [];
    g.path = [];
    g.board.drawPath([]);
    g.sendNear(p, (q) => ({ kind: "move", unit: d.unit, steps: [...prefix, ...stepsTo(q)] }), from);
  }
  return true;
}

// One more leg of a path from `from` to the point q: a turn to face the way first when asked.
function legTo(g, from, q) {
  const a = round(normalize(bearing(from, q) - from.heading), 2);
  const steps = g.faceTravel && Math.abs(a) > 0.5 ? [{ turn: a, pivot: "centre" }] : [];
  return [...steps, { go: [round(q.x, 3), round(q.y, 3)] }];
}

// The order a click (or a drop) at p gives in Move mode, and where the unit starts: the page
// asks the server about it while the unit is dragged.
export function orderAt(g, p) {
  const st = g.st;
  const d = st.decision;
  if (deploying(g)) {
    const u = g.units[d.unit];
    return { order: deployOrder(g, p), from: { x: u.x, y: u.y } };
  }
  if (!(st.your_turn && d && d.kind === "move" && g.selected === d.unit && g.mode === "move")) return null;
  const from = pathEnd(g, g.units[d.unit]);
  return { order: { kind: "move", unit: d.unit, steps: [...(g.path || []), ...legTo(g, from, p)] }, from };
}

export function onHover(g, p, uid) {
  if (g.turning) return true; // the rotate handle has the pointer: its ghost stays
  const st = g.st;
  const d = st.decision;
  const r = g.reach;
  if (uid && r && uid !== r.unit) {
    const canShoot = r.shooting && r.shooting.targets.includes(uid);
    return hoverReach(g, r, uid, canShoot ? `${r.unit} may shoot ${g.unitName(uid)} (range ${inch(r.shooting.range)})` : null,
      r.charge_why_not[uid]);
  }
  if (deploying(g) && !uid) {
    const u = g.units[d.unit];
    const ok = inZone(u, p.x, p.y, g.deployHeading, zoneOf(g, u.side));
    g.board.ghost(u, p.x, p.y, g.deployHeading, ok, ok ? "in the zone" : "outside the zone");
    g.renderHint(`Place ${u.id}'s centre at (${round(p.x, 1)}, ${round(p.y, 1)}), facing ${round(g.deployHeading, 0)}°${ok ? "" : " — outside your deployment zone"}`);
    return true;
  }
  if (!(st.your_turn && d && d.kind === "move" && g.selected === d.unit && !uid)) return false;
  const u = g.units[d.unit];
  if (!u) return true;
  const from = pathEnd(g, u);
  const pts = pathPoints(g, u);
  let done = 0;
  for (let i = 1; i < pts.length; i++) done += Math.hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y);
  const dist = done + Math.hypot(p.x - from.x, p.y - from.y);
  const rolled = d.data.rolled || 0;
  if (g.mode === "move") {
    const heading = g.faceTravel ? bearing(from, p) : from.heading;
    g.board.ghost({ ...u, x: from.x, y: from.y }, p.x, p.y, heading, dist <= rolled + 1e-6, `${round(dist, 1)}" of ${rolled}"`);
    g.renderHint(`Move ${u.id}'s centre ${round(dist, 2)}" to (${round(p.x, 1)}, ${round(p.y, 1)}) — rolled ${rolled}". Shift+click adds a leg.`);
  } else if (g.mode === "turn") {
    const a = round(normalize(bearing(from, p) - from.heading), 1);
    g.board.ghost({ ...u, x: from.x, y: from.y }, from.x, from.y, from.heading + a, true, `turn ${a}°`);
    g.renderHint(`Turn ${u.id} ${a}° (${a >= 0 ? "clockwise" : "anticlockwise"})${g.path && g.path.length ? " at the end of its path" : ""}`);
  }
  return true;
}

// ------------------------------------------------------------------------------- why
// A shot or a melee: the die and its modifier in all, doublings and halvings, the hits, each clause.
export function renderWhy(c) {
  const total = c.modifiers.find((m) => m.value !== null && m.value !== undefined);
  const sign = (v) => `${v >= 0 ? "+" : ""}${v}`;
  const out = [
    el("h4", {}, c.kind === "melee" ? "Melee" : "Shooting", ` · turn ${c.turn}`),
    el("p", {}, `${c.attacker_name} ${c.kind === "melee" ? "attacks" : "shoots at"} ${c.target_name}'s ${c.facing || "front"}`,
      c.terrain ? ` (in ${c.terrain})` : ""),
    el("div", { class: "sum" }, `${c.die} rolled `, diceEl({ faces: c.faces, die: c.die, by_side: null }, true),
      total ? ` ${sign(total.value)}` : "",
      c.modifiers.filter((m) => /^(double|halve)/.test(m.name)).map((m) => `, ${m.name}`).join(""),
      ` → ${c.hits} hit${c.hits === 1 ? "" : "s"}`),
    c.target_hits !== null ? el("p", {}, `${c.target_name} now has ${c.target_hits} hits.`) : "",
  ];
  const rows = c.modifiers.map((m) =>
    el("tr", {},
      el("td", {}, m === total ? "die modifier, in all" : m.name),
      el("td", {}, m === total ? sign(m.value) : ""),
      el("td", {}, ruleLink(m.rule, m.url), el("div", { class: "small" }, m.clause || ""))));
  out.push(
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "what counts"), el("th", {}, ""), el("th", {}, "clause"))),
      el("tbody", {}, rows)),
    el("h4", {}, "Rule applied"),
    el("p", {}, ruleLink(c.rule.rule, c.rule.url), " ", el("span", { class: "small" }, `${c.rule.section}: ${c.rule.text}`)),
  );
  if (c.checked.length) {
    out.push(el("h4", {}, "Checked"),
      el("ul", { class: "small" }, c.checked.map((k) => el("li", {}, ruleLink(k.rule, k.url), ` ${k.section}: ${k.text}`))));
  }
  return out;
}
