// The army builder (/army): an army file of any rule system that has them, built by picking troops
// from the system's lists (the plugin's `army_builder`: fields and their choices), costed and checked
// live by the server with the same code as `shieldwall army cost`; exported and imported as the
// army file (TOML). It knows no rule system: GET /api/rulesets/{id}/army says what to offer; a rule
// system without a builder catalogue is built by editing the file's text, costed the same way.

import { api } from "./api.js";
import { el } from "./log.js";

const $ = (sel) => document.querySelector(sel);

export async function showArmy() {
  $("#army").hidden = false;
  document.title = "Army builder · shieldwall";
  const systems = (await api("/api/rulesets")).filter((r) => r.army);
  const pick = $("#a-ruleset");
  pick.replaceChildren(...systems.map((r) => el("option", { value: r.id }, `${r.id} · ${r.title}`)));
  const wanted = new URLSearchParams(location.search).get("ruleset");
  if (wanted && systems.some((r) => r.id === wanted)) pick.value = wanted;
  const builder = new ArmyBuilder();
  window.shieldwall.army = builder;
  pick.onchange = () => builder.load(pick.value);
  await builder.load(pick.value);
}

// a field's input: text, number, bool, choice or multi (see shieldwall.plugin, army_builder)
function input(f, value, id) {
  if (f.kind === "bool") return el("input", { type: "checkbox", id, checked: !!value });
  if (f.kind === "choice") {
    const opts = (f.optional ? [["", "—"]] : []).concat(f.choices);
    return el("select", { id }, opts.map(([v, l]) => el("option", { value: v, selected: v === (value ?? "") }, l)));
  }
  if (f.kind === "multi") {
    return el("select", { id, multiple: true, size: Math.min(6, f.choices.length) },
      f.choices.map(([v, l]) => el("option", { value: v, selected: (value || []).includes(v) }, l)));
  }
  const attrs = { id, type: f.kind === "number" ? "number" : "text", value: value ?? "" };
  if (f.min !== undefined) attrs.min = f.min;
  if (f.max !== undefined) attrs.max = f.max;
  return el("input", attrs);
}

function read(f, node) {
  if (f.kind === "bool") return node.checked;
  if (f.kind === "multi") return [...node.selectedOptions].map((o) => o.value);
  if (f.kind === "number") return node.value.trim() === "" ? null : Number(node.value);
  return node.value;
}

function empty(v) {
  return v === null || v === undefined || v === "" || (Array.isArray(v) && !v.length) || Number.isNaN(v);
}

class ArmyBuilder {
  constructor() {
    this.ruleset = null;
    this.builder = null; // the plugin's catalogue, or null: the text is edited
    this.army = {};
    this.answer = null; // the server's last answer
    this.seq = 0;
    this.timer = null;
    $("#a-export").onclick = () => this.exportFile();
    $("#a-import").onchange = () => this.importFile();
    $("#a-apply").onclick = () => this.costText($("#a-text").value);
    $("#a-text").addEventListener("input", () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.costText($("#a-text").value), 500);
    });
  }

  async load(ruleset) {
    this.ruleset = ruleset;
    const r = await api(`/api/rulesets/${encodeURIComponent(ruleset)}/army`);
    this.builder = r.builder;
    this.army = this.builder ? structuredClone(this.builder.new) : {};
    for (const s of this.builder ? this.builder.sections : []) if (!s.within) this.army[s.key] = this.army[s.key] || [];
    this.renderForm();
    if (this.builder) await this.cost();
    else {
      $("#a-text").value = "";
      this.show(null);
    }
  }

  // the army's own fields, then for each section its picker and its entries
  renderForm() {
    const box = $("#a-builder");
    if (!this.builder) {
      box.replaceChildren(el("p", { class: "small" }, "This rule system's plugin offers no list to pick from: write or import the army file below; it is costed as you type."));
      return;
    }
    const top = this.builder.fields.map((f) => {
      const id = `a-top-${f.name}`;
      const node = input(f, this.army[f.name], id);
      node.addEventListener("change", () => {
        const v = read(f, node);
        if (empty(v) && f.optional) delete this.army[f.name];
        else this.army[f.name] = v;
        this.cost();
      });
      return el("label", { for: id }, f.label, node);
    });
    const sections = this.builder.sections.map((s) => this.renderSection(s));
    const note = this.builder.note ? el("p", { class: "a-note" }, this.builder.note) : null;
    box.replaceChildren(...[note, el("div", { class: "a-top" }, top), ...sections].filter(Boolean));
  }

  // a section's entries: its own array, or (with `within`) the arrays inside the entries of another
  // section (a command's elements, say), each with the array it is in
  items(s) {
    if (!s.within) return (this.army[s.key] || []).map((e) => ({ e, arr: this.army[s.key] }));
    return (this.army[s.within.section] || []).flatMap((p) => {
      if (!Array.isArray(p[s.within.field])) p[s.within.field] = [];
      return p[s.within.field].map((e) => ({ e, arr: p[s.within.field], parent: p }));
    });
  }

  // the choice of the entry (of another section) a `within` section's entry goes in
  parents(s) {
    const parent = this.builder.sections.find((x) => x.key === s.within.section);
    const key = parent.unique || "name";
    return (this.army[s.within.section] || []).map((p, i) => el("option", { value: String(i) }, p[key] || `#${i + 1}`));
  }

  // after a section's entries change: its list, and those of the sections within it
  changed(s) {
    this.renderEntries(s);
    for (const c of this.builder.sections.filter((x) => x.within && x.within.section === s.key)) {
      const pick = $(`#a-${c.key}-within`);
      const was = pick.value;
      pick.replaceChildren(...this.parents(c));
      if ([...pick.options].some((o) => o.value === was)) pick.value = was;
      else if (pick.options.length) pick.value = pick.options[pick.options.length - 1].value;
      this.renderEntries(c);
    }
    this.cost();
  }

  renderSection(s) {
    const nodes = {};
    const fields = s.fields.map((f) => {
      const id = `a-${s.key}-${f.name}`;
      nodes[f.name] = input(f, f.default, id);
      return el("label", { for: id }, f.label, nodes[f.name]);
    });
    let within = null;
    if (s.within) {
      within = el("select", { id: `a-${s.key}-within` }, this.parents(s));
      fields.unshift(el("label", { for: within.id }, s.within.label, within));
    }
    const add = el("button", { type: "button", class: "primary", id: `a-add-${s.key}`, onclick: () => {
      const entry = {};
      for (const f of s.fields) {
        const v = read(f, nodes[f.name]);
        if (empty(v) && (f.optional || f.kind === "multi")) continue;
        entry[f.name] = v;
      }
      // a new name (or id) for each entry of the same one (the rules want them told apart)
      const key = s.unique || "name";
      const names = new Set(this.items(s).map((x) => x.e[key]));
      if (entry[key] && names.has(entry[key])) {
        const sep = key === "name" ? " " : "-";
        let i = 2;
        while (names.has(`${entry[key]}${sep}${i}`)) i++;
        entry[key] = `${entry[key]}${sep}${i}`;
      }
      if (s.within) {
        const p = (this.army[s.within.section] || [])[Number(within.value)];
        if (!p || within.value === "") {
          this.show({ legal: false, error: `add to ${s.within.section} first: an entry goes in one of them`, costed: null, text: null });
          return;
        }
        p[s.within.field].push(entry);
      } else this.army[s.key].push(entry);
      this.changed(s);
    } }, `Add to ${s.title.toLowerCase()}`);
    return el("section", { class: "a-section" }, el("h2", {}, s.title),
      el("div", { class: "a-pick", role: "group", "aria-label": `pick ${s.title.toLowerCase()}` }, fields, add),
      el("ul", { class: "a-entries", id: `a-entries-${s.key}` }, this.entries(s)));
  }

  entries(s) {
    const key = s.unique || "name";
    return this.items(s).map(({ e, arr, parent }, n) => {
      const i = arr.indexOf(e);
      const where = parent ? `in ${parent.name || "?"} · ` : "";
      const words = s.fields.filter((f) => f.name !== key && !empty(e[f.name]))
        .map((f) => (f.kind === "bool" ? (e[f.name] ? f.label.toLowerCase() : null) : Array.isArray(e[f.name]) ? e[f.name].join(", ") : String(e[f.name])))
        .filter(Boolean);
      return el("li", {}, el("b", {}, e[key] || `#${n + 1}`), ` ${where}${words.join(" · ")} `,
        el("button", { type: "button", class: "small", "aria-label": `Remove ${e[key] || n + 1}`, onclick: () => {
          arr.splice(i, 1);
          this.changed(s);
        } }, "Remove"));
    });
  }

  renderEntries(s) {
    $(`#a-entries-${s.key}`).replaceChildren(...this.entries(s));
  }

  // the server costs it (the plugin's army_cost); the latest answer wins. ``this.costing`` is the
  // latest request's promise: an export waits for it, so it holds the army as the form shows it
  cost(body = { army: this.army }) {
    this.costing = this.costOnce(body);
    return this.costing;
  }

  async costOnce(body) {
    const n = ++this.seq;
    try {
      const r = await api(`/api/rulesets/${encodeURIComponent(this.ruleset)}/army`, { method: "POST", body });
      if (n !== this.seq) return;
      this.show(r);
    } catch (e) {
      if (n !== this.seq) return;
      this.show({ legal: false, error: e.message, costed: null, text: null });
    }
  }

  async costText(text) {
    await this.cost({ text });
    if (this.answer && this.answer.army && this.answer.text !== null && this.builder) {
      this.army = this.answer.army;
      for (const s of this.builder.sections) if (!s.within) this.army[s.key] = Array.isArray(this.army[s.key]) ? this.army[s.key] : [];
      this.renderForm();
    }
  }

  show(r) {
    this.answer = r;
    const status = $("#a-status");
    const table = $("#a-costed");
    if (!r) {
      status.className = "a-status";
      status.textContent = "";
      table.replaceChildren();
      return;
    }
    if (r.text !== null && document.activeElement !== $("#a-text")) $("#a-text").value = r.text;
    const c = r.costed;
    const totals = c && typeof c === "object" ? Object.entries(c).filter(([, v]) => ["number", "string"].includes(typeof v) && v !== "")
      .filter(([k]) => /total|limit|points|ap/i.test(k)) : [];
    status.className = `a-status ${r.legal ? "good" : "bad"}`;
    status.replaceChildren(
      el("b", {}, r.legal ? "Legal" : "Not legal"),
      totals.length ? ` · ${totals.map(([k, v]) => `${k.replace(/_/g, " ")} ${v}`).join(" · ")}` : "",
      r.error ? el("div", {}, r.error) : "",
    );
    const rows = c && typeof c === "object" ? Object.values(c).find((v) => Array.isArray(v) && v.length && typeof v[0] === "object") : null;
    if (!rows) {
      table.replaceChildren();
      return;
    }
    const cols = Object.keys(rows[0]).filter((k) => rows.some((x) => ["number", "string", "boolean"].includes(typeof x[k])) && k !== "rule").slice(0, 10);
    table.replaceChildren(
      el("caption", { class: "small" }, "Costed by the rules (as shieldwall army cost)"),
      el("thead", {}, el("tr", {}, cols.map((k) => el("th", { scope: "col" }, k.replace(/_/g, " "))))),
      el("tbody", {}, rows.map((x) => el("tr", {}, cols.map((k) => el("td", {}, x[k] === undefined || x[k] === null ? "" : String(x[k])))))),
    );
  }

  async exportFile() {
    // a change still being costed: export the army it costs, not the answer before it
    while (this.costing) {
      const waiting = this.costing;
      await waiting;
      if (this.costing === waiting) break;
    }
    const text = this.answer && this.answer.text ? this.answer.text : $("#a-text").value;
    const blob = new Blob([text], { type: "application/toml" });
    const name = (String(this.army.name || "army").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "army") + ".toml";
    const a = el("a", { href: URL.createObjectURL(blob), download: name });
    document.body.append(a);
    a.click();
    a.remove();
  }

  async importFile() {
    const file = $("#a-import").files[0];
    if (!file) return;
    const text = await file.text();
    $("#a-text").value = text;
    await this.costText(text);
  }
}
