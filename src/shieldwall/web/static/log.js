// The battle log and the "why" of a combat: words, dice, and the clause behind each.

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
  if (e.why || e.kind === "melee" || e.kind === "shot") cls.push("combat");
  if (e.kind === "phase") {
    return el("div", { class: "entry phase", "data-index": e.index }, `— ${e.text} —`);
  }
  const parts = [el("span", { class: "text" }, e.text)];
  if (e.dice && e.kind === "roll") parts.push(diceEl(e.dice));
  if (e.dice && e.kind !== "roll" && e.dice.faces.length) parts.push(" ", diceEl(e.dice));
  parts.push(ruleLink(e.rule, e.rule_url));
  if ((e.why || e.kind === "melee" || e.kind === "shot") && onWhy) {
    parts.push(el("a", { class: "why-link", href: "#", onclick: (ev) => { ev.preventDefault(); onWhy(e.index); } }, "why?"));
  }
  return el("div", { class: cls.join(" "), "data-index": e.index, "data-kind": e.kind, title: `turn ${e.turn}, ${e.phase}` }, parts);
}

export function renderLog(container, entries, onWhy, { append = false } = {}) {
  if (!append) container.replaceChildren();
  for (const e of entries) container.append(entryEl(e, onWhy));
  container.scrollTop = container.scrollHeight;
}

export function renderWhy(container, c) {
  container.replaceChildren();
  if (!c) {
    container.append(el("p", { class: "small" }, "No attack yet. After a shot or a melee, the dice, every modifier and the clause behind it appear here."));
    return;
  }
  if ((c.groups && c.groups.length) || c.test) {
    const title = { fire: "Missile fire", melee: "Melee", "bonus-round": "Pursuit: bonus round", "morale-test": "Morale test", "control-test": "Control test" }[c.kind] || c.kind;
    container.append(
      el("h4", {}, title, ` · turn ${c.turn}`),
      el("p", {}, c.text),
      c.target && c.facing ? el("p", {}, `${c.attacker_name} against ${c.target_name}: ${c.facing}`) : "",
      ...whyItd(c),
      c.hits !== null && c.hits !== undefined ? el("p", {}, el("b", {}, `${c.hits} hit${c.hits === 1 ? "" : "s"} in all`)) : "",
      el("h4", {}, "Rule applied"),
      el("p", {}, ruleLink(c.rule.rule, c.rule.url), " ", el("span", { class: "small" }, `${c.rule.section}: ${c.rule.text}`)),
    );
    if (c.test && c.modifiers.length) {
      container.append(el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "modifier"), el("th", {}, ""), el("th", {}, "clause"))),
        el("tbody", {}, c.modifiers.map((m) => el("tr", {}, el("td", {}, m.name), el("td", {}, m.value > 0 ? `+${m.value}` : `${m.value}`),
          el("td", {}, ruleLink(m.rule, m.url), el("div", { class: "small" }, m.clause || "")))))));
    }
    return;
  }
  const total = c.modifiers.find((m) => m.value !== null && m.value !== undefined);
  const sign = (v) => `${v >= 0 ? "+" : ""}${v}`;
  container.append(
    el("h4", {}, c.kind === "melee" ? "Melee" : "Shooting", ` · turn ${c.turn}`),
    el("p", {}, `${c.attacker_name} ${c.kind === "melee" ? "attacks" : "shoots at"} ${c.target_name}'s ${c.facing || "front"}`,
      c.terrain ? ` (in ${c.terrain})` : ""),
    el("div", { class: "sum" }, `${c.die} rolled `, diceEl({ faces: c.faces, die: c.die, by_side: null }, true),
      total ? ` ${sign(total.value)}` : "",
      c.modifiers.filter((m) => /^(double|halve)/.test(m.name)).map((m) => `, ${m.name}`).join(""),
      ` → ${c.hits} hit${c.hits === 1 ? "" : "s"}`),
    c.target_hits !== null ? el("p", {}, `${c.target_name} now has ${c.target_hits} hits.`) : "",
  );
  const rows = c.modifiers.map((m) =>
    el("tr", {},
      el("td", {}, m === total ? "die modifier, in all" : m.name),
      el("td", {}, m === total ? sign(m.value) : ""),
      el("td", {}, ruleLink(m.rule, m.url), el("div", { class: "small" }, m.clause || ""))));
  container.append(
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "what counts"), el("th", {}, ""), el("th", {}, "clause"))),
      el("tbody", {}, rows)),
    el("h4", {}, "Rule applied"),
    el("p", {}, ruleLink(c.rule.rule, c.rule.url), " ", el("span", { class: "small" }, `${c.rule.section}: ${c.rule.text}`)),
  );
  if (c.checked.length) {
    container.append(el("h4", {}, "Checked"),
      el("ul", { class: "small" }, c.checked.map((k) => el("li", {}, ruleLink(k.rule, k.url), ` ${k.section}: ${k.text}`))));
  }
}

// into-the-dark: a combat roll per group of figures, or a morale / control test
function whyItd(c) {
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
