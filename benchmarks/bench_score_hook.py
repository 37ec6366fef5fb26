#!/usr/bin/env python3
"""What a rule system's ``score`` hook (the search bot's leaf value) costs: CPU milliseconds a call.

    .venv/bin/python benchmarks/bench_score_hook.py [--decisions 80] [--calls 2000] [RULESET ...]

For every registered rule system with the hook (or those named): its default scenario, seed 3,
played by its scripted bot for ``--decisions`` decisions, then the hook called ``--calls`` times on
that state (``time.process_time``). A searched decision calls it once a playout that stops before
the battle ends, so a decision of ``mcts:N`` spends at most N calls on it.
"""

from __future__ import annotations

import argparse
import time

from shieldwall import registry
from shieldwall.ai.base import make_bot
from shieldwall.io.scenarios import load_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="*", help="rule-system ids (default: every one with the hook)")
    ap.add_argument("--decisions", type=int, default=80, help="scripted decisions before timing")
    ap.add_argument("--calls", type=int, default=2000, help="hook calls timed")
    args = ap.parse_args()
    ids = args.rulesets or [r for r in registry.ids() if registry.get(r).score is not None]
    print("| scenario | decisions played | CPU ms a call | score |")
    print("|---|---|---|---|")
    for rid in ids:
        rs = registry.get(rid)
        score = rs.optional("score")
        if score is None:
            print(f"| {rid} | - | no score hook | - |")
            continue
        name = f"{rid}/{rs.default_scenario}"
        st = load_game(name).new_state(3)
        bots = {s: make_bot("scripted", 7 + i, rid) for i, s in enumerate(rs.info.sides)}
        played = 0
        while played < args.decisions and not st.is_terminal():
            d = st.decision()
            assert d is not None
            st.apply(bots[d.side].choose(st))
            played += 1
        t = time.process_time()
        for _ in range(args.calls):
            score(st)
        ms = (time.process_time() - t) / args.calls * 1e3
        shown = ", ".join(f"{k} {v:+.2f}" for k, v in score(st).items())
        print(f"| {name} | {played} | {ms:.3f} | {shown} |")


if __name__ == "__main__":
    main()
