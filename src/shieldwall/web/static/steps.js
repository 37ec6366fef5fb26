// The step-through of the other side's turn (a bot's, or the other browser's): its orders one at a
// time, each with the table after it and its lines of the log (dice and clauses); pause, step, skip
// to the end, and replay the other side's last turn. The orders and tables come from GET
// /api/games/{id}/steps?since=N (the server replays the battle; what your side may not see stays
// hidden). Knows no rule system.

import { el } from "./log.js";

const $ = (sel) => document.querySelector(sel);

export class StepThrough {
  constructor(g) {
    this.g = g;
    this.steps = [];
    this.i = 0;
    this.playing = false;
    this.timer = null;
    // ms per order while playing (a preference kept in this browser: shieldwall.stepDelay), and
    // whether the other side's orders are shown one at a time at all (shieldwall.steps = "off")
    const saved = Number.parseInt(localStorage.getItem("shieldwall.stepDelay") || "", 10);
    this.delay = Number.isFinite(saved) && saved >= 0 ? saved : 900;
    this.enabled = localStorage.getItem("shieldwall.steps") !== "off";
    this.replaying = false; // a replay of the last turn: the log has its lines already
    this.done = null; // called when the last step is over
    this.last = null; // the steps of the other side's last turn
  }

  get active() {
    return this.steps.length > 0;
  }

  // Step through the orders from `since` on; `then()` once they are all shown (or skipped).
  // `before`: log lines already known (your own order's): those before the first step now.
  async run(since, before, then) {
    const g = this.g;
    let r = { steps: [] };
    g.stepping = true; // from now: no orders until the other side's turn is shown
    if (this.enabled) {
      try {
        r = await g.call(`/steps?since=${since}`);
      } catch {
        /* shown at once, as without the step-through */
      }
    }
    const theirs = r.steps.filter((s) => !g.st.you.includes(s.side));
    if (!theirs.length) {
      g.stepping = false;
      g.appendLog(before);
      then();
      return;
    }
    g.appendLog(before.filter((e) => e.index < r.steps[0].first_event));
    this.last = r.steps;
    this.begin(r.steps, false, then);
  }

  // The other side's last turn again: the last run of its orders (those after your last order).
  async replayLast() {
    const g = this.g;
    let steps = this.last;
    if (!steps) {
      const r = await g.call(`/steps?since=${Math.max(0, g.st.version - 80)}`);
      steps = r.steps;
    }
    let end = steps.length;
    while (end > 0 && g.st.you.includes(steps[end - 1].side)) end--;
    let start = end;
    while (start > 0 && !g.st.you.includes(steps[start - 1].side)) start--;
    const run = steps.slice(start, end);
    if (!run.length) return;
    this.begin(run, true, () => g.setState(g.st));
  }

  begin(steps, replaying, then) {
    this.stop();
    this.steps = steps;
    this.i = 0;
    this.replaying = replaying;
    this.done = then;
    this.playing = true;
    this.g.stepping = true;
    this.g.board.clearGhost();
    this.g.renderActions(); // no orders while the other side's turn is shown
    this.show();
    this.schedule();
  }

  schedule() {
    clearTimeout(this.timer);
    if (this.playing) this.timer = setTimeout(() => this.next(), this.delay);
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = null;
  }

  show() {
    const g = this.g;
    const s = this.steps[this.i];
    g.board.show(s.svg);
    if (!this.replaying) g.appendLog(s.events);
    const idx = new Set(s.events.map((e) => String(e.index)));
    document.querySelectorAll("#tab-log .entry").forEach((n) => n.classList.toggle("current", idx.has(n.dataset.index)));
    const cur = document.querySelector("#tab-log .entry.current");
    if (cur) cur.scrollIntoView({ block: "nearest" });
    g.renderHint(`${s.side}: ${s.text}`);
    $("#decision").replaceChildren(el("div", {}, el("span", { class: `who side-${s.side}` }, s.side),
      this.replaying ? "'s last turn again, order by order" : " plays: its orders one at a time"));
    this.render();
  }

  next() {
    if (!this.active) return;
    if (this.i < this.steps.length - 1) {
      this.i += 1;
      this.show();
      this.schedule();
    } else {
      this.finish();
    }
  }

  toggle() {
    this.playing = !this.playing;
    if (this.playing) this.next();
    else this.stop();
    this.render();
  }

  step() {
    this.playing = false;
    this.stop();
    this.next();
  }

  // to the end at once: the rest of the log, the table as it is now
  finish() {
    this.stop();
    if (!this.replaying) for (const s of this.steps.slice(this.i + 1)) this.g.appendLog(s.events);
    this.steps = [];
    this.playing = false;
    this.g.stepping = false;
    document.querySelectorAll("#tab-log .entry.current").forEach((n) => n.classList.remove("current"));
    const then = this.done;
    this.done = null;
    if (then) then();
    this.render();
  }

  render() {
    const g = this.g;
    const box = $("#steps");
    if (!box) return;
    if (this.active) {
      const s = this.steps[this.i];
      box.replaceChildren(
        el("div", { class: "step-title" }, el("span", { class: `who side-${s.side}` }, s.side),
          `${this.replaying ? " (replay)" : ""} · order ${this.i + 1} of ${this.steps.length}`),
        el("div", { class: "step-order" }, s.text),
        el("div", { class: "step-buttons" },
          el("button", { type: "button", id: "step-play", onclick: () => this.toggle() }, this.playing ? "Pause" : "Play"),
          el("button", { type: "button", id: "step-next", onclick: () => this.step() }, "Step"),
          el("button", { type: "button", id: "step-skip", onclick: () => this.finish() }, "To the end")),
      );
      box.hidden = false;
      return;
    }
    const other = g.st && (g.st.mode !== "hotseat" || g.st.spectator) && g.st.version > 0;
    const onOff = el("input", { type: "checkbox", id: "step-enabled", checked: this.enabled, onchange: () => {
      this.enabled = onOff.checked;
      localStorage.setItem("shieldwall.steps", this.enabled ? "on" : "off");
    } });
    box.replaceChildren(el("button", { type: "button", id: "step-replay", class: "small", onclick: () => this.replayLast() },
      "Replay the other side's last turn"), " ", el("label", { class: "small" }, onOff, " show its orders one at a time"));
    box.hidden = !other;
  }
}
