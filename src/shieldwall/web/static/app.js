// shieldwall in the browser: the lobby, and a battle played by pointing at the table.
//
// The page only asks and shows: every order goes to the server, which rules on it with the
// engine; the reach of a unit (movement band, charge targets, shooting) comes from the engine too.

import { api, ApiError } from "./api.js";
import { Board, bearing, normalize } from "./board.js";
import * as itd from "./itd.js";
import { el, entryEl, renderLog, renderWhy, ruleLink } from "./log.js";
import * as saved from "./saved.js";

const $ = (sel) => document.querySelector(sel);
const round = (v, n = 2) => Math.round(v * 10 ** n) / 10 ** n;
const inch = (v) => `${round(v, 2)}"`;

window.shieldwall = {};

// ------------------------------------------------------------------------------------- routing
function route() {
  const path = location.pathname;
  let m = path.match(/^\/play\/([A-Za-z0-9_-]+)\/?$/);
  if (m) return startGame(m[1]);
  m = path.match(/^\/join\/([A-Za-z0-9_-]+)\/?$/);
  if (m) return joinGame(m[1]);
  return showLobby();
}

function fragment() {
  return new URLSearchParams(location.hash.replace(/^#/, ""));
}

// --------------------------------------------------------------------------------------- lobby
async function showLobby() {
  $("#lobby").hidden = false;
  document.title = "shieldwall";
  const [rulesets, scenarios, bots] = await Promise.all([api("/api/rulesets"), api("/api/scenarios"), api("/api/bots")]);
  const fr = $("#f-ruleset");
  const fs = $("#f-scenario");
  const fside = $("#f-side");
  const fo = $("#f-opponent");
  fr.replaceChildren(...rulesets.map((r) => el("option", { value: r.id }, r.id)));
  const blurbs = { scripted: "a sensible general", random: "a random player" };
  const opponents = [
    ...bots.map((b) => el("option", { value: b, selected: b === "scripted" }, `Bot: ${b}${blurbs[b] ? ` (${blurbs[b]})` : ""}`)),
    el("option", { value: "hotseat" }, "Hotseat: two players at this screen"),
    el("option", { value: "remote" }, "A friend on another browser"),
  ];
  fo.replaceChildren(...opponents);
  $("#f-import-opponent").replaceChildren(...opponents.map((o) => o.cloneNode(true)));
  const dirty = new Set();

  function fillScenarios() {
    const rs = rulesets.find((r) => r.id === fr.value) || rulesets[0];
    const mine = scenarios.filter((s) => s.ruleset === rs.id);
    fs.replaceChildren(...mine.map((s) => el("option", { value: s.name, selected: s.default }, s.title)));
    fillSides();
    const params = $("#f-params");
    dirty.clear();
    params.replaceChildren(
      ...rs.parameters.flatMap((p) => {
        let input;
        if (typeof p.default === "boolean") {
          input = el("input", { type: "checkbox", name: p.name, checked: p.default });
        } else if (p.choices.length) {
          input = el("select", { name: p.name }, p.choices.map((c) => el("option", { value: c, selected: c === p.default }, c)));
        } else {
          input = el("input", { type: "number", name: p.name, value: p.default, step: "any" });
        }
        input.addEventListener("change", () => dirty.add(p.name));
        return [el("label", {}, p.name, input), el("div", { class: "doc" }, p.doc)];
      }),
    );
  }
  function fillSides() {
    const rs = rulesets.find((r) => r.id === fr.value) || rulesets[0];
    const sc = scenarios.find((s) => s.name === fs.value);
    fside.replaceChildren(...rs.sides.map((s) => el("option", { value: s }, `${s}${sc ? ` — ${sc.sides[s]}` : ""}`)));
    $("#f-scenario-desc").textContent = sc ? sc.description : "";
  }
  fr.onchange = fillScenarios;
  fs.onchange = fillSides;
  fillScenarios();

  const list = $("#my-games");
  const mine = saved.myGames();
  list.replaceChildren(
    ...(mine.length
      ? mine.map((g) => el("li", {}, el("a", { href: `/play/${g.id}` }, g.title || g.id),
        ` · ${(g.sides || []).join(" & ")} · ${g.mode || ""} · ${(g.at || "").slice(0, 16).replace("T", " ")}`))
      : [el("li", { class: "small" }, "None yet on this browser.")]),
  );

  $("#new-game").onsubmit = async (ev) => {
    ev.preventDefault();
    const err = $("#f-error");
    err.hidden = true;
    const overrides = {};
    for (const name of dirty) {
      const input = $("#f-params").querySelector(`[name="${name}"]`);
      if (!input) continue;
      if (input.type === "checkbox") overrides[name] = input.checked;
      else if (input.type === "number") overrides[name] = Number(input.value);
      else overrides[name] = input.value;
    }
    const seedText = $("#f-seed").value.trim();
    const body = {
      ruleset: fr.value,
      scenario: fs.value,
      side: fside.value,
      opponent: fo.value,
      seed: seedText === "" ? null : Number(seedText),
      overrides,
    };
    $("#f-start").disabled = true;
    try {
      const r = await api("/api/games", { method: "POST", body });
      saved.remember({ id: r.game.id, token: r.token, sides: r.sides, title: r.game.title, mode: r.game.mode,
        invite_url: r.invite_url });
      location.assign(`/play/${r.game.id}`);
    } catch (e) {
      err.textContent = e.message;
      err.hidden = false;
      $("#f-start").disabled = false;
    }
  };

  $("#import-game").onsubmit = async (ev) => {
    ev.preventDefault();
    const err = $("#import-error");
    err.hidden = true;
    const file = $("#f-save").files[0];
    if (!file) {
      err.textContent = "Choose a save file first.";
      err.hidden = false;
      return;
    }
    try {
      const save = JSON.parse(await file.text());
      const r = await api("/api/games/import", { method: "POST",
        body: { save, side: $("#f-import-side").value, opponent: $("#f-import-opponent").value } });
      saved.remember({ id: r.game.id, token: r.token, sides: r.sides, title: r.game.title, mode: r.game.mode,
        invite_url: r.invite_url });
      location.assign(`/play/${r.game.id}`);
    } catch (e) {
      err.textContent = e instanceof SyntaxError ? "That file is not JSON." : e.message;
      err.hidden = false;
    }
  };
}

// ---------------------------------------------------------------------------------------- join
async function joinGame(id) {
  $("#joining").hidden = false;
  const invite = fragment().get("invite");
  const msg = $("#join-msg");
  if (!invite) {
    msg.textContent = "This link has no invitation in it (it should end in #invite=…).";
    return;
  }
  try {
    const r = await api(`/api/games/${id}/join`, { method: "POST", body: { invite } });
    const st = await api(`/api/games/${id}`, { token: r.token });
    saved.remember({ id, token: r.token, sides: [r.side], title: st.title, mode: st.mode });
    location.replace(`/play/${id}`);
  } catch (e) {
    const known = saved.find(id);
    msg.replaceChildren(e.message, known ? el("p", {}, el("a", { href: `/play/${id}` }, "Open the battle you already joined")) : "");
  }
}

// ---------------------------------------------------------------------------------------- game
async function startGame(id) {
  const fromLink = fragment().get("token");
  if (fromLink) {
    const old = saved.find(id);
    saved.remember({ ...(old || {}), id, token: fromLink });
    history.replaceState(null, "", `/play/${id}`);
  }
  const entry = saved.find(id);
  $("#game").hidden = false;
  if (!entry || !entry.token) {
    $("#decision").replaceChildren(el("p", {}, "This browser holds no token for this battle. Open your own link to it (it ends in #token=…), or ",
      el("a", { href: "/" }, "start a new battle"), "."));
    return;
  }
  const game = new GameView(id, entry.token);
  window.shieldwall.game = game;
  await game.start();
}

class GameView {
  constructor(id, token) {
    this.id = id;
    this.token = token;
    this.st = null;
    this.units = {};
    this.selected = null;
    this.reach = null;
    this.mode = null;
    this.pendingCharge = null;
    this.path = [];
    this.faceTravel = false;
    this.busy = false;
    this.replay = null;
    this.logSize = 0;
    this.allUnits = {};
    this.deployUnit = null;
    this.board = new Board($("#board"), {
      onUnit: (uid) => this.onUnit(uid),
      onTable: (p, e) => this.onTable(p, e),
      onMove: (p, uid) => this.onHover(p, uid),
      onLeave: () => this.board.clearGhost(),
    });
    window.shieldwall.board = this.board;
  }

  // into-the-dark has its own gestures (itd.js); one-hour-dark-ages uses those below
  get itd() {
    return !!(this.st && this.st.ruleset === "into-the-dark");
  }

  url(path = "") {
    return `/api/games/${this.id}${path}`;
  }

  call(path, opts = {}) {
    return api(this.url(path), { ...opts, token: this.token });
  }

  async start() {
    $("#game-tools").hidden = false;
    $("#btn-undo").onclick = () => this.undo();
    $("#btn-save").onclick = () => this.save();
    $("#btn-link").onclick = () => this.copyLink();
    document.querySelectorAll(".tab-buttons button").forEach((b) => { b.onclick = () => this.tab(b.dataset.tab); });
    $("#replay-prev").onclick = () => this.frame(this.replay.turn - 1);
    $("#replay-next").onclick = () => this.frame(this.replay.turn + 1);
    $("#replay-exit").onclick = () => this.exitReplay();
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        this.pendingCharge = null;
        this.clearPath();
        this.setMode(this.defaultMode());
        this.board.clearGhost();
      }
    });
    try {
      const st = await this.call("");
      await this.reloadLog();
      this.setState(st);
      this.loadWhy();
    } catch (e) {
      this.showError(e);
      if (e instanceof ApiError && (e.status === 403 || e.status === 404)) {
        $("#decision").replaceChildren(el("p", {}, e.message, " · ", el("a", { href: "/" }, "start a new battle")));
      }
    }
    setInterval(() => this.poll(), 1500);
  }

  // ------------------------------------------------------------------ state
  setState(st) {
    this.st = st;
    this.units = Object.fromEntries(st.view.units.filter((u) => !u.removed).map((u) => [u.id, u]));
    this.allUnits = Object.fromEntries(st.view.units.map((u) => [u.id, u]));
    if (!st.menu.some((m) => m.kind === "deploy" && m.unit === this.deployUnit)) this.deployUnit = null;
    this.pendingCharge = null;
    this.path = [];
    const d = st.decision;
    const entry = saved.find(this.id) || {};
    saved.remember({ ...entry, id: this.id, token: this.token, title: st.title, mode: st.mode, sides: st.you });
    if (st.your_turn && d && d.unit && this.units[d.unit]) {
      this.selected = d.unit;
      this.reach = st.reach;
      this.showBoard(st.svg);
    } else if (this.selected && this.units[this.selected]) {
      this.showBoard(st.svg);
      this.select(this.selected, { quiet: true });
    } else {
      this.selected = null;
      this.reach = null;
      this.showBoard(st.svg);
    }
    this.mode = this.defaultMode();
    this.renderAll();
  }

  showBoard(svg) {
    if (this.replay) return;
    this.board.show(svg);
    $("#board").className = `board${this.mode ? ` mode-${this.mode}` : ""}`;
  }

  defaultMode() {
    const d = this.st && this.st.decision;
    if (this.st && this.st.your_turn && d && d.kind === "move" && this.selected === d.unit) return "move";
    return null;
  }

  setMode(m) {
    this.mode = m;
    $("#board").className = `board${m ? ` mode-${m}` : ""}`;
    this.renderActions();
    this.renderHint();
  }

  renderAll() {
    this.renderTop();
    this.renderDecision();
    this.renderInvite();
    this.renderUnit();
    this.renderActions();
    this.renderHint();
  }

  renderTop() {
    const st = this.st;
    const v = st.view;
    document.title = `${st.title} · shieldwall`;
    $("#game-title").textContent = st.title;
    const bits = [`turn ${v.turn}/${v.max_turns}`, `${v.side} ${v.phase}`, `you: ${st.you.join(" & ")}`];
    if (st.seed !== null) bits.push(`seed ${st.seed}`);
    $("#status").textContent = bits.join(" · ");
    $("#btn-undo").disabled = !st.can_undo || this.busy;
    $("#btn-undo").hidden = st.mode === "remote";
  }

  renderDecision() {
    const st = this.st;
    const d = st.decision;
    const box = $("#decision");
    if (st.result) {
      const r = st.result;
      box.replaceChildren(
        el("div", { class: "result" }, r.winner ? `${r.winner} wins` : "A draw"),
        el("div", {}, r.reason),
        el("button", { type: "button", onclick: () => { this.tab("replay"); this.frame(0); } }, "Replay the battle turn by turn"),
      );
      return;
    }
    if (!d) {
      box.replaceChildren("…");
      return;
    }
    const who = el("span", { class: `who side-${d.side}` }, d.side);
    if (st.your_turn) {
      box.replaceChildren(el("div", {}, who, st.you.length > 1 ? " to play" : " (you)"), el("div", { class: "prompt" }, d.prompt));
    } else {
      box.replaceChildren(el("div", {}, who, " decides"), el("div", { class: "prompt" }, d.prompt),
        el("div", { class: "wait" }, `Waiting for ${st.waiting_for || d.side}…`));
    }
    if (st.bot_error) box.append(el("p", { class: "error" }, st.bot_error));
  }

  renderInvite() {
    const st = this.st;
    const box = $("#invite");
    const open = Object.entries(st.joined).filter(([s, j]) => !j && !st.you.includes(s));
    if (st.mode !== "remote" || !open.length) {
      box.hidden = true;
      return;
    }
    const entry = saved.find(this.id) || {};
    const input = el("input", { type: "text", readonly: true, value: entry.invite_url || "", id: "invite-url" });
    box.replaceChildren(
      el("div", {}, `Send this one-time link to the ${open[0][0]} player (it works once):`),
      input,
      el("button", { type: "button", onclick: () => { input.select(); navigator.clipboard && navigator.clipboard.writeText(input.value); } }, "Copy"),
      el("button", { type: "button", onclick: () => this.reinvite() }, "New link"),
    );
    box.hidden = false;
  }

  async reinvite() {
    try {
      const r = await this.call("/invite", { method: "POST" });
      const entry = saved.find(this.id) || {};
      saved.remember({ ...entry, id: this.id, invite_url: r.invite_url });
      this.renderInvite();
    } catch (e) {
      this.showError(e);
    }
  }

  unitName(uid) {
    const u = this.units[uid];
    return u ? `${u.name} [${uid}]` : uid;
  }

  renderUnit() {
    const box = $("#unit");
    const u = this.selected && this.units[this.selected];
    if (!u) {
      box.hidden = true;
      return;
    }
    let flags = [];
    if (u.in_melee) flags.push("in melee");
    if (u.moved) flags.push("moved");
    if (u.charged) flags.push("charged");
    if (u.shot) flags.push("shot");
    if (u.missile) flags.push(`${u.missile}s, ${u.shots_left === null ? "unlimited" : u.shots_left} shot(s) left`);
    if (u.personalities && u.personalities.length) flags.push(`with ${u.personalities.join(", ")}`);
    if (u.upgrade) flags.push(u.upgrade);
    if (u.quality) flags.push(u.quality);
    if (this.itd) flags = itd.unitFlags(u);
    const items = [];
    const r = this.reach;
    if (r && r.unit === u.id && this.itd) {
      items.push(...itd.reachItems(this, r));
    } else if (r && r.unit === u.id) {
      items.push(el("li", {}, r.move.now ? `Rolled ${inch(r.move.rolled)} of movement (${r.move.dice})`
        : r.move.done ? "Has moved this phase" : `Moves up to ${inch(r.move.max)} (${r.move.dice})`,
        ` · ${r.move.turns} turn${r.move.turns === 1 ? "" : "s"}`, ruleLink(r.move.rule, `/rules/${r.move.rule.replace(":", "#")}`)));
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
          el("ul", {}, why.map(([t, w]) => el("li", {}, `${t}: ${w.reason} `, ruleLink(w.rule, `/rules/${w.rule.replace(":", "#")}`)))),
          r.shooting && Object.keys(r.shooting.why_not).length
            ? el("ul", {}, Object.entries(r.shooting.why_not).map(([t, w]) => el("li", {}, `shoot ${t}: ${w.reason} `, ruleLink(w.rule, `/rules/${w.rule.replace(":", "#")}`))))
            : null)));
      }
    }
    box.replaceChildren(
      ...[el("h3", {}, `${u.name} [${u.id}] `, el("span", { class: `side-${u.side}` }, `(${u.side})`)),
      el("div", {}, `${u.type} · hits ${u.hits}/${u.max_hits}`),
      el("div", { class: "bar" }, el("span", { style: `width:${Math.min(100, (100 * u.hits) / u.max_hits)}%` })),
      flags.length ? el("div", { class: "flags" }, flags.join(" · ")) : null,
      el("ul", { class: "reach" }, items)].filter(Boolean),
    );
    box.hidden = false;
  }

  // ------------------------------------------------------------------ actions
  renderActions() {
    const box = $("#actions");
    box.replaceChildren();
    const st = this.st;
    if (!st || this.replay) return;
    const d = st.decision;
    if (!st.your_turn || !d) return;
    const menu = st.menu;
    const sel = this.selected;
    const btn = (label, order, cls = "", title = "") =>
      el("button", { type: "button", class: cls, title: title || (typeof order === "string" ? order : ""), disabled: this.busy, onclick: () => this.send(order) }, label);
    const group = (title, ...children) => el("div", { class: "group" }, el("div", { class: "group-title" }, title), children);
    const used = new Set();
    const take = (m) => { used.add(m); return m; };
    const typedBox = (example) => {
      const typed = el("input", { type: "text", id: "typed-order", placeholder: `e.g. ${example}` });
      const form = el("form", { class: "typed", onsubmit: (ev) => { ev.preventDefault(); if (typed.value.trim()) this.send(typed.value.trim()); } },
        typed, el("button", { type: "submit", disabled: this.busy }, "Send"));
      return el("details", { class: "group typed-order" }, el("summary", { class: "small" }, "Type an order (any order the rules know)"), form);
    };
    if (this.itd) {
      itd.renderActions(this, box, btn, group);
      box.append(typedBox("move r1 wheel -30 fwd 4"));
      return;
    }

    if (this.pendingCharge) {
      const c = this.pendingCharge;
      box.append(group(`Charge ${this.unitName(c.target)} on which facing?`,
        c.facings.map((f) => btn(`${f.facing} (${inch(f.distance)})`, f.order, "charge")),
        el("button", { type: "button", onclick: () => { this.pendingCharge = null; this.renderActions(); } }, "Cancel")));
      return;
    }

    if (d.kind === "move" && sel === d.unit) {
      const r = this.reach;
      box.append(group(`Move ${sel}: click the table, or a highlighted enemy to charge`,
        el("button", { type: "button", class: `mode${this.mode === "move" ? " on" : ""}`, onclick: () => this.setMode("move") }, "Move"),
        el("button", { type: "button", class: `mode${this.mode === "turn" ? " on" : ""}`, onclick: () => this.setMode("turn") }, "Turn"),
        el("label", { class: "small" }, el("input", { type: "checkbox", checked: this.faceTravel, onchange: (e) => { this.faceTravel = e.target.checked; } }), " turn to face the way you move"),
        ...menu.filter((m) => m.kind === "hold" && m.unit === sel).map((m) => btn("Hold", take(m).order)),
      ));
      if (this.path.length) {
        box.append(group(`Path: ${this.path.filter((x) => x.go).length} leg(s) — click to finish, or`,
          el("button", { type: "button", class: "primary", onclick: () => this.sendPath() }, "Move along the path"),
          el("button", { type: "button", onclick: () => this.clearPath() }, "Clear the path")));
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
        activate: (m) => (m.order.charge ? `Declare a charge on ${m.order.charge}` : m.order.toward ? `Declare a move toward ${m.order.toward.join(",")}` : `Roll to move ${sel}${this.reach && this.reach.unit === sel ? ` (${this.reach.move.dice})` : ""}`),
        face: (m) => `Turn to face ${m.target}`,
        fallback: () => "Fall back",
        shoot: (m) => `Shoot at ${m.target}`,
        shot: (m) => `Javelins at ${m.target}`,
        skip: () => "No moving shot",
        fight: (m) => `Attack ${m.target}`,
        hold: () => "Hold",
      };
      if (mineHere.length) {
        box.append(group(`Orders for ${sel}`, mineHere.map((m) => btn((labels[m.kind] || (() => m.text))(m), take(m).order, m.kind === "activate" ? "primary" : ""))));
      }
    }
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
    box.append(typedBox("move r1 turn 30@front go 14,9"));
  }

  renderHint(text) {
    const hint = $("#hint");
    if (text !== undefined) {
      hint.textContent = text;
      return;
    }
    const st = this.st;
    const d = st && st.decision;
    const own = !this.replay && st && d && this.itd ? itd.hint(this) : null;
    if (this.replay) hint.textContent = "Replay: the table at the end of the turn.";
    else if (!st || !d) hint.textContent = "";
    else if (own) hint.textContent = own;
    else if (!st.your_turn) hint.textContent = "Click a unit to see what it can reach.";
    else if (d.kind === "move" && this.selected === d.unit) hint.textContent = this.mode === "turn" ? "Click where the unit should face." : "Click where the unit's centre should go; click a highlighted enemy to charge. Esc cancels.";
    else if (d.kind === "activate") hint.textContent = "Click one of your units, then roll for its move.";
    else if (d.kind === "shoot") hint.textContent = "Click a unit that can shoot, then its target.";
    else hint.textContent = d.prompt;
  }

  // ------------------------------------------------------------------ pointer
  async select(uid, { quiet = false } = {}) {
    this.selected = uid;
    this.pendingCharge = null;
    try {
      const r = await this.call(`/reach/${encodeURIComponent(uid)}`);
      if (this.selected !== uid) return;
      this.reach = r.reach;
      this.showBoard(r.svg);
    } catch (e) {
      this.reach = null;
      if (!quiet) this.showError(e);
    }
    this.mode = this.defaultMode();
    this.renderUnit();
    this.renderActions();
    this.renderHint();
  }

  deselect() {
    const d = this.st.decision;
    if (this.st.your_turn && d && d.unit) return; // the unit being moved stays selected
    this.selected = null;
    this.reach = null;
    this.showBoard(this.st.svg);
    this.renderUnit();
    this.renderActions();
    this.renderHint();
  }

  onUnit(uid) {
    if (this.replay || !this.st || this.busy) return;
    const st = this.st;
    const d = st.decision;
    const sel = this.selected;
    if (this.itd) {
      if (!itd.onUnit(this, uid)) this.select(uid);
      return;
    }
    if (st.your_turn && d) {
      if (d.kind === "move" && sel === d.unit && this.reach && this.reach.charges_now && this.mode !== "turn") {
        const c = this.reach.charges.find((x) => x.target === uid);
        if (c) {
          if (c.facings.length === 1) this.send(c.facings[0].order);
          else {
            this.pendingCharge = c;
            this.renderActions();
          }
          return;
        }
      }
      if (sel && uid !== sel) {
        const items = st.menu.filter((m) => m.unit === sel && m.target === uid && ["shoot", "shot", "fight", "face"].includes(m.kind));
        if (items.length === 1) {
          this.send(items[0].order);
          return;
        }
      }
      if (d.unit && d.kind === "move" && uid !== d.unit && this.units[uid] && st.you.includes(this.units[uid].side)) {
        this.renderHint(`${d.unit} is moving: finish its move first (or Hold).`);
        return;
      }
    }
    this.select(uid);
  }

  // Where the unit would stand after the path built so far: {x, y, heading}.
  pathEnd(u) {
    let at = { x: u.x, y: u.y, heading: u.heading };
    for (const step of this.path) {
      if (step.go) at = { ...at, x: step.go[0], y: step.go[1] };
      else at = { ...at, heading: at.heading + step.turn };
    }
    return at;
  }

  pathPoints(u) {
    return [{ x: u.x, y: u.y }, ...this.path.filter((st) => st.go).map((st) => ({ x: st.go[0], y: st.go[1] }))];
  }

  clearPath() {
    this.path = [];
    this.board.drawPath([]);
    this.renderActions();
    this.renderHint();
  }

  sendPath(extra = []) {
    const d = this.st.decision;
    const steps = [...this.path, ...extra];
    this.path = [];
    this.board.drawPath([]);
    if (steps.length) this.send({ kind: "move", unit: d.unit, steps });
  }

  onTable(p, e) {
    if (this.replay || !this.st || this.busy) return;
    const st = this.st;
    const d = st.decision;
    if (this.itd) {
      if (!itd.onTable(this, p, e)) this.deselect();
      return;
    }
    if (st.your_turn && d && d.kind === "move" && this.selected === d.unit) {
      const u = this.units[d.unit];
      const from = this.pathEnd(u);
      const angle = round(normalize(bearing(from, p) - from.heading), 2);
      if (this.mode === "turn") {
        this.sendPath([{ turn: angle, pivot: "centre" }]);
      } else if (this.mode === "move") {
        const steps = [];
        if (this.faceTravel && Math.abs(angle) > 0.5) steps.push({ turn: angle, pivot: "centre" });
        steps.push({ go: [round(p.x, 3), round(p.y, 3)] });
        if (e && e.shiftKey) {
          // shift+click: one more leg of a path; a plain click (or Turn) finishes it
          this.path.push(...steps);
          this.board.drawPath(this.pathPoints(u));
          this.renderActions();
          this.renderHint();
          return;
        }
        this.sendPath(steps);
      }
      return;
    }
    this.deselect();
  }

  onHover(p, uid) {
    if (this.replay || !this.st) return;
    if (this.itd) {
      if (!itd.onHover(this, p, uid) && !uid) this.board.clearGhost();
      return;
    }
    const st = this.st;
    const d = st.decision;
    const r = this.reach;
    if (uid && r && uid !== r.unit) {
      this.board.clearGhost();
      const c = r.charges.find((x) => x.target === uid);
      if (c) return this.renderHint(`${r.charges_now ? "Charge" : "Could charge"} ${this.unitName(uid)}: ${c.facings.map((f) => `${f.facing} ${inch(f.distance)}`).join(", ")}`);
      if (r.shooting && r.shooting.targets.includes(uid)) return this.renderHint(`${r.unit} may shoot ${this.unitName(uid)} (range ${inch(r.shooting.range)})`);
      const w = r.charge_why_not[uid];
      if (w) return this.renderHint(`${r.unit} cannot charge ${uid}: ${w.reason} (§${w.rule.split(":")[1]})`);
      return;
    }
    if (st.your_turn && d && d.kind === "move" && this.selected === d.unit && !uid) {
      const u = this.units[d.unit];
      if (!u) return;
      const from = this.pathEnd(u);
      const pts = this.pathPoints(u);
      let done = 0;
      for (let i = 1; i < pts.length; i++) done += Math.hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y);
      const dist = done + Math.hypot(p.x - from.x, p.y - from.y);
      const rolled = d.data.rolled || 0;
      if (this.mode === "move") {
        const heading = this.faceTravel ? bearing(from, p) : from.heading;
        this.board.ghost({ ...u, x: from.x, y: from.y }, p.x, p.y, heading, dist <= rolled + 1e-6, `${round(dist, 1)}" of ${rolled}"`);
        this.renderHint(`Move ${u.id}'s centre ${round(dist, 2)}" to (${round(p.x, 1)}, ${round(p.y, 1)}) — rolled ${rolled}". Shift+click adds a leg.`);
      } else if (this.mode === "turn") {
        const a = round(normalize(bearing(from, p) - from.heading), 1);
        this.board.ghost({ ...u, x: from.x, y: from.y }, from.x, from.y, from.heading + a, true, `turn ${a}°`);
        this.renderHint(`Turn ${u.id} ${a}° (${a >= 0 ? "clockwise" : "anticlockwise"})${this.path.length ? " at the end of its path" : ""}`);
      }
    } else if (!uid) {
      this.board.clearGhost();
    }
  }

  // ------------------------------------------------------------------ orders
  async send(order) {
    if (this.busy) return;
    this.busy = true;
    this.board.clearGhost();
    $("#actions").querySelectorAll("button").forEach((b) => { b.disabled = true; });
    try {
      const r = await this.call("/orders", { method: "POST", body: { order } });
      const bots = r.bot_orders.length ? ` · the ${this.st.mode === "bot" ? "bot" : "other side"} gave ${r.bot_orders.length} order${r.bot_orders.length === 1 ? "" : "s"}` : "";
      this.showMessage("good", [`Done: ${r.accepted}${bots}`]);
      this.appendLog(r.events);
      this.busy = false;
      const d = r.state.decision;
      if (!(d && d.unit)) {
        this.selected = null;
        this.reach = null;
      }
      this.setState(r.state);
      if (r.events.some((e) => e.why)) this.loadWhy();
    } catch (e) {
      this.busy = false;
      this.showError(e);
      this.renderActions();
    }
  }

  showError(e) {
    if (e instanceof ApiError && e.rule) {
      this.showMessage("bad", [el("b", {}, "Not allowed: "), e.reason || e.message, " ", ruleLink(e.rule, e.ruleUrl)]);
    } else {
      this.showMessage("bad", [el("b", {}, "Refused: "), e.message]);
    }
  }

  showMessage(kind, parts) {
    const box = $("#message");
    box.className = `panel message ${kind}`;
    box.replaceChildren(...parts);
    box.hidden = false;
  }

  async undo() {
    try {
      const r = await this.call("/undo", { method: "POST" });
      this.showMessage("good", [`Undone: ${r.dropped} order${r.dropped === 1 ? "" : "s"} taken back.`]);
      await this.reloadLog();
      this.setState(r.state);
      this.loadWhy();
    } catch (e) {
      this.showError(e);
    }
  }

  async save() {
    try {
      const data = await this.call("/save");
      const blob = new Blob([JSON.stringify(data, null, 1)], { type: "application/json" });
      const a = el("a", { href: URL.createObjectURL(blob), download: `shieldwall-${this.id}.json` });
      document.body.append(a);
      a.click();
      a.remove();
      this.showMessage("good", ["Saved. Resume it later from the start page, or replay it with 'shieldwall replay FILE'."]);
    } catch (e) {
      this.showError(e);
    }
  }

  copyLink() {
    const link = `${location.origin}/play/${this.id}#token=${this.token}`;
    if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
    this.showMessage("good", ["Your own link (keep it secret: it gives your side's orders): ", el("input", { type: "text", readonly: true, value: link, style: "width:100%" })]);
  }

  async poll() {
    if (!this.st || this.busy || this.st.your_turn || this.st.result) return;
    if (this.st.mode !== "remote") return;
    try {
      const st = await this.call("");
      if (st.version !== this.st.version || JSON.stringify(st.joined) !== JSON.stringify(this.st.joined)) {
        const log = await this.call(`/log?since=${this.logSize}`);
        this.appendLog(log.entries);
        this.setState(st);
        this.loadWhy();
      }
    } catch {
      /* the next poll tries again */
    }
  }

  // ------------------------------------------------------------------ log, why, replay
  async reloadLog() {
    const log = await this.call("/log");
    this.logSize = log.size;
    renderLog($("#tab-log"), log.entries, (i) => this.why(i));
  }

  appendLog(entries) {
    const fresh = entries.filter((e) => e.index >= this.logSize);
    if (!fresh.length) return;
    renderLog($("#tab-log"), fresh, (i) => this.why(i), { append: true });
    this.logSize = fresh[fresh.length - 1].index + 1;
  }

  async loadWhy(index) {
    try {
      const c = await this.call(index === undefined ? "/combat" : `/combat?index=${index}`);
      renderWhy($("#tab-why"), c);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) renderWhy($("#tab-why"), null);
    }
  }

  async why(index) {
    await this.loadWhy(index);
    this.tab("why");
  }

  tab(name) {
    document.querySelectorAll(".tab-buttons button").forEach((b) => b.classList.toggle("on", b.dataset.tab === name));
    for (const t of ["log", "why", "replay"]) $(`#tab-${t}`).hidden = t !== name;
    if (name === "replay") this.loadReplay();
  }

  async loadReplay() {
    try {
      const r = await this.call("/replay");
      this.replayTurns = r.turns;
      const box = $("#tab-replay");
      box.replaceChildren(
        el("p", { class: "small" }, r.finished ? "The battle is over: step through it turn by turn." : "The battle so far, turn by turn."),
        ...r.turns.map((t) => el("div", { class: `turn-row${this.replay && this.replay.turn === t.turn ? " on" : ""}`, "data-turn": t.turn, onclick: () => this.frame(t.turn) },
          el("b", {}, t.turn === 0 ? "Deployment" : `Turn ${t.turn}`), ` · ${t.events} events${t.complete ? "" : " (in progress)"}`,
          el("div", { class: "hl" }, t.headline.join(" · ")))),
        el("div", { id: "replay-events", class: "log" }),
      );
    } catch (e) {
      this.showError(e);
    }
  }

  async frame(turn) {
    const turns = this.replayTurns || [];
    if (!turns.some((t) => t.turn === turn)) return;
    try {
      const f = await this.call(`/replay/${turn}`);
      this.replay = { turn };
      this.board.show(f.svg);
      $("#replay-bar").hidden = false;
      const last = turns[turns.length - 1].turn;
      $("#replay-label").textContent = turn === 0
        ? `Replay · deployment (of ${last} turns)`
        : f.complete ? `Replay · end of turn ${turn} of ${last}` : `Replay · turn ${turn} so far`;
      $("#replay-prev").disabled = turn <= 0;
      $("#replay-next").disabled = turn >= last;
      document.querySelectorAll("#tab-replay .turn-row").forEach((row) => row.classList.toggle("on", Number(row.dataset.turn) === turn));
      const evBox = $("#replay-events");
      if (evBox) renderLog(evBox, f.events, (i) => this.why(i));
      $("#actions").replaceChildren();
      this.renderHint();
    } catch (e) {
      this.showError(e);
    }
  }

  exitReplay() {
    this.replay = null;
    $("#replay-bar").hidden = true;
    document.querySelectorAll("#tab-replay .turn-row").forEach((row) => row.classList.remove("on"));
    this.setState(this.st);
  }
}

window.shieldwall.entryEl = entryEl;
route();
