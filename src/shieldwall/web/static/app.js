// shieldwall in the browser: the lobby, and a battle played by pointing at the table.
//
// The page only asks and shows: every order goes to the server, which rules on it with the
// engine; the reach of a unit (movement band, charge targets, shooting) comes from the engine too.
//
// THE RULE SYSTEM'S WEB PIECE. Nothing here knows a rule system. Each one's gestures, unit panel
// and combat "why" come from its plugin's web module: GET /api/rulesets gives its address
// (`web_module`, /rulesets/<id>/<file>, served from the plugin's package), and a game imports it
// (dynamic import) before it is shown. The module exports any of these hooks; each one left out
// falls back to the generic behaviour given after the arrow. `g` is the GameView below.
//
//   typedExample                      string: an order in text form, the typed-order box's example
//                                     (generic: the text of the first order of the menu)
//   onState(g)                        a new state arrived (g.st); reset the module's own fields
//                                     -> nothing
//   defaultMode(g)                    -> string|null: the pointer mode after a change of state; the
//                                     board gets the class mode-<mode> (-> null)
//   cancel(g)                         Escape: forget a gesture in progress (-> nothing; the page
//                                     also drops g.pendingCharge and the ghost)
//   unitFlags(u, g)                   -> string[]: words about unit u (its view) for the unit panel
//                                     (-> none)
//   reachItems(g, r)                  -> Element[]: <li> lines saying what the selected unit's
//                                     reach r (GET .../reach/{unit}) allows (-> none; the table
//                                     still draws the reach)
//   renderActions(g, box, btn, group) fill the actions panel `box` for your decision;
//                                     btn(label, order, cls?, title?) -> a <button> giving the order,
//                                     group(title, ...children) -> a titled block
//                                     (-> the engine's menu: every legal order as a button)
//   hint(g)                           -> string|null: the line under the table on your turn
//                                     (null: the generic line)
//   onUnit(g, uid)                    a click on unit uid -> true if handled (else: select it)
//   onTable(g, p, e)                  a click on the table at p = {x, y} (table units), e the mouse
//                                     event -> true if handled (else: deselect)
//   orderAt(g, p)                     -> {order, from}|null: the order a drop of the unit being moved
//                                     at p gives, and where it starts (asked of the server while
//                                     the unit is dragged: where the drop goes, or why not)
//   dragUnit(g)                       -> string|null: the unit the pointer may drag when your
//                                     decision names no unit (one whose name the other side may
//                                     not see) (-> none: only the decision's unit is dragged)
//   onHover(g, p, uid)                the pointer at p, over unit uid (or null) -> true if handled
//                                     (else: the ghost is cleared when over no unit)
//   renderWhy(c, g)                   -> Element[]|null: the why of a combat c (GET .../combat)
//                                     (null: the generic view: die, modifiers, clauses)
//
// What a hook may use of g: g.st (the state: decision, menu, view, reach, your_turn, you),
// g.units / g.allUnits (id -> unit of the view, without / with the removed ones), g.selected,
// g.reach, g.mode, g.pendingCharge (a charge whose facing is being chosen), g.busy, g.board
// (board.js: ghost, clearGhost, drawPath, toScreen, tolerance), g.send(order),
// g.sendNear(p, orderAt, from) (the order for a point, snapped to the nearest legal one around
// it: orderAt(q) -> the order for point q or null), g.select(uid), g.deselect(),
// g.setMode(m), g.renderActions(), g.renderHint(text?), g.unitName(uid), g.showError(e),
// g.showMessage(kind, parts), g.call(path, opts) (the game's API: POST /check asks whether an order
// would be taken, without playing it), g.dragOnto(down, onStart) (a drag that starts off the table,
// from a button, with the press `down`: over the table it is a unit's drag, a drop there a click,
// asked of the server while dragged; onStart() when it moves); and
// fields of its own on g. Helpers to import: /static/log.js (el, ruleLink, diceEl),
// /static/board.js (bearing, normalize) and /static/reach.js (round, inch, hoverReach,
// chooseCharge, renderChargeChoices), /static/handle.js (drawRotateHandle, removeRotateHandle: a
// knob that turns or wheels a unit, asking the server while dragged; g.turning while it has the
// pointer). A rule system without a web module is played through
// the engine's menu (renderActions above), which makes any rule system playable here.

import { api, ApiError, newClientId } from "./api.js";
import { Board } from "./board.js";
import { el, entryEl, renderLog, renderWhy, ruleLink } from "./log.js";
import * as saved from "./saved.js";
import { StepThrough } from "./steps.js";
import { KeyPointer } from "./keys.js";
import { RangesTool } from "./ranges.js";
import { installViewTools, nearPoints } from "./tools.js";

const $ = (sel) => document.querySelector(sel);

window.shieldwall = {};

// ------------------------------------------------------------------------------------- routing
function route() {
  const path = location.pathname;
  let m = path.match(/^\/play\/([A-Za-z0-9_-]+)\/?$/);
  if (m) return startGame(m[1]);
  m = path.match(/^\/join\/([A-Za-z0-9_-]+)\/?$/);
  if (m) return joinGame(m[1]);
  if (/^\/army\/?$/.test(path)) return import("./army.js").then((a) => a.showArmy());
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
  const blurbs = { scripted: "a sensible general", random: "a random player", mcts: "searches ahead: slow on big battles" };
  const opponents = [
    ...bots.map((b) => el("option", { value: b, selected: b === "scripted" }, `Bot: ${b}${blurbs[b] ? ` (${blurbs[b]})` : ""}`)),
    el("option", { value: "hotseat" }, "Hotseat: two players at this screen"),
    el("option", { value: "remote" }, "A friend on another browser"),
  ];
  fo.replaceChildren(...opponents);
  // the search bot's budget and opponent model: plain mcts (the rule system's default options, shown
  // as the placeholder), mcts:N, mcts:mixP or mcts:N:mixP (a mix of 1 is the plain search)
  const showSearch = () => { $("#f-search").hidden = fo.value !== "mcts"; };
  fo.addEventListener("change", showSearch);
  showSearch();
  function opponentSpec() {
    if (fo.value !== "mcts") return fo.value;
    const n = $("#f-playouts").value.trim();
    const mix = $("#f-mix").value.trim();
    const parts = [];
    if (n !== "") parts.push(n);
    if (mix !== "" && Number(mix) !== 1) parts.push(`mix${mix}`);
    return parts.length ? `mcts:${parts.join(":")}` : "mcts";
  }
  $("#f-import-opponent").replaceChildren(...opponents.map((o) => o.cloneNode(true)));
  const dirty = new Set();

  function fillScenarios() {
    const rs = rulesets.find((r) => r.id === fr.value) || rulesets[0];
    $("#clause-link").href = `/rules/${encodeURIComponent(rs.id)}`;
    $("#f-playouts").placeholder = `default (${rs.search_options || "built-in"})`;
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
      opponent: opponentSpec(),
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

  // Resume: the save's orders are replayed by the server and the battle goes on from there.
  // Watch: the same, at this screen (hotseat), opened on its replay from the deployment.
  $("#import-game").onsubmit = (ev) => {
    ev.preventDefault();
    importSave(false);
  };
  $("#f-watch").onclick = () => importSave(true);
  async function importSave(watch) {
    const err = $("#import-error");
    err.hidden = true;
    const file = $("#f-save").files[0];
    if (!file) {
      err.textContent = "Choose a save file first.";
      err.hidden = false;
      return;
    }
    try {
      const text = await file.text();
      JSON.parse(text); // refuse a file that is not JSON here; the text itself is sent as it is
      const rest = JSON.stringify({ side: $("#f-import-side").value, opponent: watch ? "hotseat" : $("#f-import-opponent").value });
      const r = await api("/api/games/import", { method: "POST",
        rawBody: `{"save": ${text}, ${rest.slice(1)}` });
      if (watch) {
        // to watch: a spectator's token of the loaded battle (read only), opened on its replay
        const w = await api(`/api/games/${r.game.id}/spectate`, { method: "POST", token: r.token });
        location.assign(`/play/${r.game.id}#watch&token=${w.watch_url.split("#token=")[1]}`);
        return;
      }
      saved.remember({ id: r.game.id, token: r.token, sides: r.sides, title: r.game.title, mode: r.game.mode,
        invite_url: r.invite_url });
      location.assign(`/play/${r.game.id}`);
    } catch (e) {
      err.textContent = e instanceof SyntaxError ? "That file is not JSON." : e.message;
      err.hidden = false;
    }
  }
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
  const watch = fragment().has("watch");
  const fromLink = fragment().get("token");
  if (fromLink) {
    const old = saved.find(id);
    saved.remember({ ...(old || {}), id, token: fromLink });
    history.replaceState(null, "", `/play/${id}`);
  }
  if (watch) history.replaceState(null, "", `/play/${id}`);
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
  if (watch) await game.watch();
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
    this.busy = false;
    this.replay = null;
    this.logSize = 0;
    this.allUnits = {};
    this.rules = {}; // this game's rule system, as GET /api/rulesets lists it
    this.hooks = {}; // its web module (see the top of this file)
    this.board = new Board($("#board"), {
      onUnit: (uid) => this.onUnit(uid),
      onTable: (p, e) => this.onTable(p, e),
      onMove: (p, uid) => this.onHover(p, uid),
      onLeave: () => this.board.clearGhost(),
      canDrag: (uid) => this.canDrag(uid),
      onDrag: (p) => this.dragPreview(p),
      onDrop: (p, e) => {
        this.preview = null;
        this.onTable(p, e);
      },
      onDragCancel: () => {
        this.preview = null;
        this.board.clearGhost();
        this.renderHint("The drag was cancelled: nothing was played.");
      },
    });
    window.shieldwall.board = this.board;
    this.stepping = false; // the other side's orders are being shown one at a time
    this.stepper = new StepThrough(this);
    this.tools = installViewTools(this.board, () => this.rules.length_unit || "inch");
    this.keys = new KeyPointer(this); // keyboard play (keys.js)
    this.ranges = new RangesTool(this); // range bands, arcs, sight lines of the selected unit (ranges.js)
  }

  // The rule system of the game and its web module (no module: the generic page).
  async loadRules(ruleset) {
    const all = await api("/api/rulesets");
    this.rules = all.find((r) => r.id === ruleset) || { id: ruleset, reach: false, web_module: null };
    if (!this.rules.web_module) return;
    try {
      this.hooks = await import(this.rules.web_module);
    } catch (e) {
      this.hooks = {};
      this.showMessage("bad", [el("b", {}, "The page for this rule system did not load: "), String(e), " (playing with the engine's menu)"]);
    }
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
    $("#btn-report").onclick = () => this.report();
    $("#btn-link").onclick = () => this.copyLink();
    $("#btn-watch").onclick = () => this.spectatorLink();
    document.querySelectorAll(".tab-buttons button").forEach((b) => { b.onclick = () => this.tab(b.dataset.tab); });
    $("#replay-prev").onclick = () => this.frame(this.replay.turn - 1);
    $("#replay-next").onclick = () => this.frame(this.replay.turn + 1);
    $("#replay-exit").onclick = () => this.exitReplay();
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        this.pendingCharge = null;
        if (this.hooks.cancel) this.hooks.cancel(this);
        this.setMode(this.defaultMode());
        this.board.clearGhost();
      }
    });
    try {
      const st = await this.call("");
      await this.loadRules(st.ruleset);
      await this.reloadLog();
      this.setState(st);
      this.loadWhy();
    } catch (e) {
      this.showError(e);
      if (e instanceof ApiError && (e.status === 403 || e.status === 404)) {
        $("#decision").replaceChildren(el("p", {}, e.message, " · ", el("a", { href: "/" }, "start a new battle")));
      }
    }
    // a remote player's or a spectator's page asks for news every 1.5 s (a preference kept in this
    // browser: shieldwall.pollMs, at least 50; the browser tests set it short)
    const pollMs = Number.parseInt(localStorage.getItem("shieldwall.pollMs") || "", 10);
    setInterval(() => this.poll(), Number.isFinite(pollMs) && pollMs >= 50 ? pollMs : 1500);
  }

  // ------------------------------------------------------------------ state
  setState(st) {
    this.st = st;
    const units = st.view.units || [];
    this.units = Object.fromEntries(units.filter((u) => !u.removed).map((u) => [u.id, u]));
    this.allUnits = Object.fromEntries(units.map((u) => [u.id, u]));
    this.pendingCharge = null;
    if (this.hooks.onState) this.hooks.onState(this);
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
    this.ranges.refresh();
  }

  showBoard(svg) {
    if (this.replay || this.stepping) return;
    this.board.show(svg);
    $("#board").className = `board${this.mode ? ` mode-${this.mode}` : ""}`;
  }

  defaultMode() {
    return this.hooks.defaultMode ? this.hooks.defaultMode(this) : null;
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
    this.stepper.render();
  }

  renderTop() {
    const st = this.st;
    const v = st.view;
    document.title = `${st.title} · shieldwall`;
    $("#game-title").textContent = st.title;
    const bits = [];
    if (v.turn !== undefined) bits.push(v.max_turns !== undefined && v.max_turns !== null ? `turn ${v.turn}/${v.max_turns}` : `turn ${v.turn}`);
    if (v.side !== undefined && v.phase !== undefined) bits.push(`${v.side} ${v.phase}`);
    bits.push(st.spectator ? "spectator (read only)" : `you: ${st.you.join(" & ")}`);
    if (st.seed !== null) bits.push(`seed ${st.seed_text || st.seed}`);
    $("#status").textContent = bits.join(" · ");
    // the rule system's data label, e.g. that its tables are an illustrative sample, not the publisher's
    const label = typeof v.label === "string" ? v.label : "";
    $("#data-label").textContent = label;
    $("#data-label").hidden = !label;
    $("#btn-undo").disabled = !st.can_undo || this.busy;
    $("#btn-undo").hidden = st.mode === "remote" || st.spectator;
    $("#btn-watch").hidden = st.spectator;
    $("#btn-save").hidden = st.spectator && !st.result;
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
    if (st.spectator) {
      box.replaceChildren(el("div", { class: "small" }, "Watching (read only): you see what both sides may see."),
        el("div", {}, who, " decides"), el("div", { class: "prompt" }, d.prompt));
    } else if (st.your_turn) {
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
    const flags = this.hooks.unitFlags ? this.hooks.unitFlags(u, this) : [];
    const items = [];
    const r = this.reach;
    if (r && r.unit === u.id && this.hooks.reachItems) items.push(...this.hooks.reachItems(this, r));
    const hits = u.max_hits !== undefined && u.max_hits !== null;
    box.replaceChildren(
      ...[el("h3", {}, `${u.name || u.id} [${u.id}] `, el("span", { class: `side-${u.side}` }, `(${u.side})`)),
      el("div", {}, [u.type, hits ? `hits ${u.hits}/${u.max_hits}` : null].filter((x) => x !== undefined && x !== null).join(" · ")),
      hits ? el("div", { class: "bar" }, el("span", { style: `width:${Math.min(100, (100 * u.hits) / u.max_hits)}%` })) : null,
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
    if (!st || this.replay || this.stepping) return;
    const d = st.decision;
    if (!st.your_turn || !d) return;
    const btn = (label, order, cls = "", title = "") =>
      el("button", { type: "button", class: cls, title: title || (typeof order === "string" ? order : ""), disabled: this.busy, onclick: () => this.send(order) }, label);
    const group = (title, ...children) => el("div", { class: "group" }, el("div", { class: "group-title" }, title), children);
    if (this.hooks.renderActions) this.hooks.renderActions(this, box, btn, group);
    else this.menuActions(box, btn, group);
    const first = st.menu.find((m) => m.kind !== "end") || st.menu[0];
    const example = this.hooks.typedExample || (first ? first.text : "");
    const typed = el("input", { type: "text", id: "typed-order", placeholder: example ? `e.g. ${example}` : "" });
    const form = el("form", { class: "typed", onsubmit: (ev) => { ev.preventDefault(); if (typed.value.trim()) this.send(typed.value.trim()); } },
      typed, el("button", { type: "submit", disabled: this.busy }, "Send"));
    box.append(el("details", { class: "group typed-order" }, el("summary", { class: "small" }, "Type an order (any order the rules know)"), form));
  }

  // The generic panel: the engine's menu (the legal orders of the decision), each a button; the
  // selected unit's first. Any rule system is playable with it.
  menuActions(box, btn, group) {
    const menu = this.st.menu;
    const sel = this.selected;
    const label = (m) => m.label || m.text;
    const mine = sel ? menu.filter((m) => m.unit === sel && m.kind !== "end") : [];
    if (mine.length) box.append(group(`Orders for ${this.unitName(sel)}`, mine.map((m) => btn(label(m), m.order, "", m.text))));
    const rest = menu.filter((m) => !mine.includes(m) && m.kind !== "end");
    if (rest.length) box.append(group(mine.length ? "Other orders" : "Orders", rest.map((m) => btn(label(m), m.order, "", m.text))));
    const end = menu.filter((m) => m.kind === "end");
    if (end.length) box.append(el("div", { class: "group" }, end.map((m) => btn(label(m), m.order, "end", m.text))));
    if (!menu.length) box.append(el("div", { class: "small" }, "The rules offer no order here: type one below."));
  }

  renderHint(text) {
    const hint = $("#hint");
    if (text !== undefined) {
      hint.textContent = text;
      return;
    }
    const st = this.st;
    const d = st && st.decision;
    const own = !this.replay && st && d && this.hooks.hint ? this.hooks.hint(this) : null;
    if (this.replay) hint.textContent = "Replay: the table at the end of the turn.";
    else if (!st || !d) hint.textContent = "";
    else if (own) hint.textContent = own;
    else if (!st.your_turn && this.rules.reach) hint.textContent = "Click a unit to see what it can reach.";
    else hint.textContent = d.prompt;
  }

  // ------------------------------------------------------------------ pointer
  async select(uid, { quiet = false } = {}) {
    this.selected = uid;
    this.pendingCharge = null;
    if (this.rules.reach) {
      try {
        const r = await this.call(`/reach/${encodeURIComponent(uid)}`);
        if (this.selected !== uid) return;
        this.reach = r.reach;
        this.showBoard(r.svg);
      } catch (e) {
        this.reach = null;
        if (!quiet) this.showError(e);
      }
    }
    this.mode = this.defaultMode();
    this.renderUnit();
    this.renderActions();
    this.renderHint();
    this.ranges.refresh();
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
    this.ranges.refresh();
  }

  onUnit(uid) {
    if (this.replay || !this.st || this.busy || this.stepping) return;
    if (this.hooks.onUnit && this.hooks.onUnit(this, uid)) return;
    this.select(uid);
  }

  onTable(p, e) {
    if (this.replay || !this.st || this.busy || this.stepping) return;
    if (this.hooks.onTable && this.hooks.onTable(this, p, e)) return;
    this.deselect();
  }

  // While the unit being moved is dragged: where a drop would put it, asked of the server (POST
  // .../check: the order for the point, and for the points around it). One question at a time;
  // the latest point wins. The mark and the line under the table say it before the drop.
  dragPreview(p) {
    const at = this.hooks.orderAt ? this.hooks.orderAt(this, p) : null;
    if (!at) return;
    this.preview = { p, at };
    if (!this.previewing) this.runPreview();
  }

  async runPreview() {
    this.previewing = true;
    try {
      while (this.preview) {
        const { p, at } = this.preview;
        const pts = nearPoints(p, at.from, this.board.tolerance(), this.board);
        const alts = pts.map((q) => this.hooks.orderAt(this, q)).map((x) => (x ? x.order : null));
        const near = alts.filter(Boolean);
        const where = alts.map((o, i) => (o ? pts[i] : null)).filter(Boolean);
        let r;
        try {
          r = await this.call("/check", { method: "POST", body: { order: at.order, near } });
        } catch {
          r = null;
        }
        if (!this.preview || this.preview.p !== p) continue; // dropped, or a later point to ask
        this.preview = null;
        if (!r) break;
        const why = r.rule ? ` (§${r.rule.split(":")[1]})` : "";
        if (r.legal && r.index === null) {
          this.board.mark(p, true);
          this.renderHint("Drop here: the rules allow it.");
        } else if (r.legal) {
          this.board.mark(where[r.index], true, p);
          this.renderHint(`Drop here: it goes to the nearest place the rules allow; here exactly: ${r.reason}${why}`);
        } else {
          this.board.mark(p, false);
          this.renderHint(`Not allowed here: ${r.reason}${why}`);
        }
      }
    } finally {
      this.previewing = false;
    }
  }

  // The unit being moved may be dragged where it should go (its drop is a click there): the
  // decision's unit, or the web piece's dragUnit(g) when the decision names none.
  canDrag(uid) {
    const st = this.st;
    const d = st && st.decision;
    const mover = d && (d.unit || (this.hooks.dragUnit ? this.hooks.dragUnit(this) : null));
    return !!(st && d && st.your_turn && !this.replay && !this.busy && !this.stepping && mover === uid
      && this.selected === uid && this.hooks.onTable);
  }

  // A drag that starts off the table (a button: the unit or card to place), from the press `down`:
  // over the table the pointer shows the ghost and the page asks the server about the point, as
  // for a unit dragged on the table; a drop on the table is a click there, a drop elsewhere (or a
  // cancelled drag) gives nothing. A press that does not move stays the button's click.
  dragOnto(down, onStart) {
    if (!this.board.svg || down.button !== 0) return;
    let dragged = false;
    const over = (m) => {
      const r = this.board.el.getBoundingClientRect();
      return m.clientX >= r.left && m.clientX <= r.right && m.clientY >= r.top && m.clientY <= r.bottom;
    };
    const move = (m) => {
      if (m.pointerId !== down.pointerId) return;
      if (!dragged && Math.hypot(m.clientX - down.clientX, m.clientY - down.clientY) <= 4) return;
      if (!dragged) {
        dragged = true;
        this.board.el.classList.add("dragging");
        if (onStart) onStart();
      }
      if (!over(m)) {
        this.preview = null;
        this.board.clearGhost();
        return;
      }
      const p = this.board.toTable(m.clientX, m.clientY);
      this.onHover(p, null);
      this.dragPreview(p);
    };
    const end = (u) => {
      if (u.pointerId !== down.pointerId) return;
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", end);
      window.removeEventListener("pointercancel", end);
      this.board.el.classList.remove("dragging");
      if (!dragged) return;
      this.preview = null;
      // (the release's click lands on what holds both the button and the table, not on the table)
      if (u.type === "pointerup" && over(u)) {
        this.onTable(this.board.toTable(u.clientX, u.clientY), u);
      } else {
        this.board.clearGhost();
        this.renderHint("The drag was cancelled: nothing was played.");
      }
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", end);
    window.addEventListener("pointercancel", end);
  }

  onHover(p, uid) {
    if (this.replay || !this.st || this.stepping) return;
    if (this.hooks.onHover && this.hooks.onHover(this, p, uid)) return;
    if (!uid) this.board.clearGhost();
  }

  // ------------------------------------------------------------------ orders
  // The order orderAt(p) for a point p of the table, snapped: if the rules refuse it, the server
  // plays the nearest legal one of orderAt(q) for the points q around p within the tolerance (16
  // screen pixels), the point back toward `from` (the unit) first at each distance. orderAt(q)
  // -> an order, or null where there is none.
  sendNear(p, orderAt, from) {
    const order = orderAt(p);
    if (!order) return;
    const near = nearPoints(p, from, this.board.tolerance(), this.board)
      .map(orderAt).filter((o) => o && JSON.stringify(o) !== JSON.stringify(order));
    this.send(order, { near });
  }

  async send(order, { near } = {}) {
    if (this.busy) return;
    this.busy = true;
    this.board.clearGhost();
    $("#actions").querySelectorAll("button").forEach((b) => { b.disabled = true; });
    try {
      // the order is made for this version of the game; a retry after a lost answer is recognised
      // by its client id (never played twice)
      const before = this.st.version;
      const body = { order, client_id: newClientId(), version: before };
      if (near && near.length) body.near = near;
      let r;
      try {
        r = await this.call("/orders", { method: "POST", body });
      } catch (e) {
        if (e instanceof ApiError) throw e;
        r = await this.call("/orders", { method: "POST", body });
      }
      const bots = r.bot_orders.length ? ` · the ${this.st.mode === "bot" ? "bot" : "other side"} gave ${r.bot_orders.length} order${r.bot_orders.length === 1 ? "" : "s"}` : "";
      const snap = r.snapped
        ? [el("br"), el("span", { class: "snapped" }, "Snapped to the nearest legal position; where you clicked: ", r.snapped.reason, " ",
          ruleLink(r.snapped.rule, r.snapped.rule_url))]
        : [];
      this.showMessage("good", [`Done: ${r.accepted}${bots}`, ...snap]);
      this.busy = false;
      const d = r.state.decision;
      if (!(d && d.unit)) {
        this.selected = null;
        this.reach = null;
      }
      const done = () => {
        this.setState(r.state);
        if (r.events.some((e) => e.why)) this.loadWhy();
      };
      if (r.bot_orders.length && !r.repeat && this.st.mode !== "hotseat") {
        // your order's lines now; the other side's orders one at a time
        this.stepper.run(before + 1, r.events, done);
        return;
      }
      this.appendLog(r.events);
      done();
    } catch (e) {
      this.busy = false;
      this.showError(e);
      if (e instanceof ApiError && e.version !== null) {
        // the game moved on meanwhile (an order from another tab or player): show it as it is now
        try {
          const st = await this.call("");
          const log = await this.call(`/log?since=${this.logSize}`);
          this.appendLog(log.entries);
          this.setState(st);
          return;
        } catch {
          /* the message stays; the next action reloads */
        }
      }
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
      const text = await this.call("/save", { asText: true });
      const blob = new Blob([text], { type: "application/json" });
      const a = el("a", { href: URL.createObjectURL(blob), download: `shieldwall-${this.id}.json` });
      document.body.append(a);
      a.click();
      a.remove();
      this.showMessage("good", ["Saved. Resume it later from the start page, or replay it with 'shieldwall replay FILE'."]);
    } catch (e) {
      this.showError(e);
    }
  }

  // The illustrated battle report (docs/report.md): one standalone HTML page to keep or share.
  async report() {
    try {
      const text = await this.call("/report", { asText: true });
      const blob = new Blob([text], { type: "text/html" });
      const a = el("a", { href: URL.createObjectURL(blob), download: `shieldwall-${this.id}-report.html` });
      document.body.append(a);
      a.click();
      a.remove();
      this.showMessage("good", ["Report downloaded: a map per turn, the narrative, the key dice and the losses."]);
    } catch (e) {
      this.showError(e);
    }
  }

  // A read-only link for spectators (a new one each time): they see what both sides may see.
  async spectatorLink() {
    try {
      const r = await this.call("/spectate", { method: "POST" });
      const input = el("input", { type: "text", readonly: true, value: r.watch_url, id: "watch-url", style: "width:100%" });
      if (navigator.clipboard) navigator.clipboard.writeText(r.watch_url).catch(() => {});
      this.showMessage("good", ["A spectator's link (read only: it sees what both sides may see, and gives no orders): ", input]);
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
    if (!this.st || this.busy || this.stepping || this.st.your_turn || this.st.result) return;
    if (this.st.mode !== "remote" && !this.st.spectator) return;
    try {
      const st = await this.call("");
      const catchUp = async () => {
        const log = await this.call(`/log?since=${this.logSize}`);
        this.appendLog(log.entries);
        this.setState(st);
        this.loadWhy();
      };
      if (st.version > this.st.version) {
        this.stepper.run(this.st.version, [], () => catchUp().catch(() => {}));
      } else if (st.version !== this.st.version || JSON.stringify(st.joined) !== JSON.stringify(this.st.joined)) {
        await catchUp();
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
      renderWhy($("#tab-why"), c, this.hooks.renderWhy && ((x) => this.hooks.renderWhy(x, this)));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) renderWhy($("#tab-why"), null);
    }
  }

  async why(index) {
    await this.loadWhy(index);
    this.tab("why");
  }

  tab(name) {
    document.querySelectorAll(".tab-buttons button").forEach((b) => {
      b.classList.toggle("on", b.dataset.tab === name);
      b.setAttribute("aria-selected", String(b.dataset.tab === name));
    });
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
        ...r.turns.map((t) => el("div", { class: `turn-row${this.replay && this.replay.turn === t.turn ? " on" : ""}`, "data-turn": t.turn, role: "button", tabindex: "0",
          onclick: () => this.frame(t.turn), onkeydown: (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); this.frame(t.turn); } } },
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

  // Watch a battle: its replay from the deployment, turn by turn.
  async watch() {
    this.tab("replay");
    await this.loadReplay();
    await this.frame(0);
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
