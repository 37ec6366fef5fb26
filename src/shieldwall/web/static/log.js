// The battle log and the "why" of a combat: words, dice, and the clause behind each.
// A rule system's web module may draw its own why (its renderWhy hook); this file draws the generic
// one, and exports the helpers the modules use (el, ruleLink, diceEl).

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

export function clauseName(rule) {
  const i = rule.indexOf(":");
  return i >= 0 ? rule.slice(i + 1) : rule;
}

export function ruleLink(rule, url, cls = "rule-link") {
  return el("a", { class: cls, href: url, target: "_blank", rel: "noopener", title: `rule clause ${rule}` },
    `§${clauseName(rule)}`);
}

export function diceEl(dice, big = false) {
  const faces = dice.by_side
    ? Object.entries(dice.by_side).map(([side, f]) => el("span", { class: `die${big ? " big" : ""}`, title: side }, f))
    : dice.faces.map((f) => el("span", { class: `die${big ? " big" : ""}` }, f));
  return el("span", { class: "dice", title: `${dice.die || ""} ${dice.what || ""}`.trim() }, faces);
}

export function entryEl(e, onWhy) {
  const cls = ["entry", e.kind];
  if (e.minor) cls.push("minor");
  if (e.side) cls.push(`side-${e.side}`);
  if (e.why) cls.push("combat");
  if (e.kind === "phase") {
    return el("div", { class: "entry phase", "data-index": e.index }, `— ${e.text} —`);
  }
  const parts = [el("span", { class: "text" }, e.text)];
  if (e.dice && e.kind === "roll") parts.push(diceEl(e.dice));
  if (e.dice && e.kind !== "roll" && e.dice.faces.length) parts.push(" ", diceEl(e.dice));
  parts.push(ruleLink(e.rule, e.rule_url));
  if (e.why && onWhy) {
    parts.push(el("a", { class: "why-link", href: "#", onclick: (ev) => { ev.preventDefault(); onWhy(e.index); } }, "why?"));
  }
  return el("div", { class: cls.join(" "), "data-index": e.index, "data-kind": e.kind, title: `turn ${e.turn}, ${e.phase}` }, parts);
}

export function renderLog(container, entries, onWhy, { append = false } = {}) {
  if (!append) container.replaceChildren();
  for (const e of entries) container.append(entryEl(e, onWhy));
  container.scrollTop = container.scrollHeight;
}

// The why of a combat c (GET /api/games/{id}/combat): the rule system's own view when its web
// module draws one (own(c) -> elements, or null), else the generic one: the die, the modifiers
// with their clauses, the hits, the clause applied and those checked.
export function renderWhy(container, c, own = null) {
  container.replaceChildren();
  if (!c) {
    container.append(el("p", { class: "small" }, "No attack yet. After an attack, the dice, every modifier and the clause behind it appear here."));
    return;
  }
  const mine = own ? own(c) : null;
  if (mine) {
    container.append(...mine);
    return;
  }
  const sign = (v) => (typeof v === "number" ? `${v >= 0 ? "+" : ""}${v}` : "");
  container.append(
    el("h4", {}, c.kind, ` · turn ${c.turn}`),
    el("p", {}, c.text),
    c.target && c.facing ? el("p", {}, `${c.attacker_name} against ${c.target_name}'s ${c.facing}`, c.terrain ? ` (in ${c.terrain})` : "") : "",
    c.faces.length
      ? el("div", { class: "sum" }, `${c.die || "die"} rolled `, diceEl({ faces: c.faces, die: c.die, by_side: null }, true),
        c.hits !== null && c.hits !== undefined ? ` → ${c.hits} hit${c.hits === 1 ? "" : "s"}` : "")
      : "",
    c.target_hits !== null && c.target_hits !== undefined ? el("p", {}, `${c.target_name} now has ${c.target_hits} hits.`) : "",
  );
  if (c.modifiers.length) {
    container.append(el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "what counts"), el("th", {}, ""), el("th", {}, "clause"))),
      el("tbody", {}, c.modifiers.map((m) => el("tr", {}, el("td", {}, m.name), el("td", {}, sign(m.value)),
        el("td", {}, m.rule ? ruleLink(m.rule, m.url) : "", el("div", { class: "small" }, m.clause || "")))))));
  }
  container.append(
    el("h4", {}, "Rule applied"),
    el("p", {}, ruleLink(c.rule.rule, c.rule.url), " ", el("span", { class: "small" }, `${c.rule.section}: ${c.rule.text}`)),
  );
  if (c.checked.length) {
    container.append(el("h4", {}, "Checked"),
      el("ul", { class: "small" }, c.checked.map((k) => el("li", {}, ruleLink(k.rule, k.url), ` ${k.section}: ${k.text}`))));
  }
  if (c.notes && c.notes.length) container.append(el("ul", { class: "small" }, c.notes.map((n) => el("li", {}, n))));
}
