#!/usr/bin/env python3
"""Strength, measured: bots against each other on the built-in scenarios, both sides.

    python benchmarks/bench_strength.py                         # random, scripted, mcts:8; every scenario
    python benchmarks/bench_strength.py --bots scripted,mcts:16 -n 4 --scenarios one-hour-dark-ages
    python benchmarks/bench_strength.py --json part1.json ...   # keep the raw records
    python benchmarks/bench_strength.py --report part1.json part2.json   # tables of saved runs, merged

Every pair of bots meets on every scenario chosen (``--scenarios``: built-in names, or rule-system
ids for all of theirs; all built-in scenarios by default), ``-n`` battles a side: seeds ``seed`` to
``seed + n - 1``, each played twice, the first bot red (the scenario's first side) then blue. The
bots are seeded from the battle seed as ``shieldwall battle --seed`` seeds them, so with playout
budgets every battle replays (``shieldwall battle SCENARIO --seed S --red A --blue B``).

Printed: each pairing's record (won, drawn, lost, from the first bot's side) over all scenarios and
by rule system, with a 95% Wilson interval for its share of the decisive battles; an Elo-style
table of every bot (a Bradley-Terry fit of all the battles, a draw counting half a win each, with
one virtual draw between every two bots so that a clean sweep has a finite rating; anchored at
``random`` = 0); and each search bot's seconds per searched decision (mean and largest; a decision
with one legal order is not searched). Small samples say little: the intervals say how little.

``--cost BOT`` times BOT's decisions instead of playing battles: on each scenario chosen, the
scripted bot plays both sides and BOT decides every third decision with a choice (``--decisions``
of them, 12 by default); printed, the CPU seconds of BOT's process per decision (mean and
largest: what a decision costs, whatever else the machine runs) and the wall-clock seconds.

After the tables, every battle a bot lost to ``random`` (the issue's "never loses to the random
bot"), by scenario, seed and side, each with the command that replays it.

``--mirror BOT`` (with ``--report``): each saved battle of a bot against ``BOT`` is played again
with ``BOT`` on both sides, the same seeds (battle and bots): the same battle with that one side's
decisions made by ``BOT`` instead. Printed, by rule system and side: how often the searched side
did better, the same, or worse than ``BOT`` itself did in its place (a win is better than a draw,
a draw than a loss). A scenario that one side nearly always wins says little about a bot's
strength in the plain table; the paired one asks what the bot changed.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from collections import defaultdict
from typing import Any

from shieldwall import registry
from shieldwall.ai.base import Bot, bot_seed, make_bot
from shieldwall.core.game import State
from shieldwall.io.scenarios import builtin_scenarios, load_game
from shieldwall.match import play


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``wins / n`` ((0, 1) when n is 0)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


class Timed(Bot):
    """A bot whose searched decisions are timed (a decision of one legal order is not)."""

    def __init__(self, inner: Bot, clock: list[float]) -> None:
        self.inner, self.clock, self.rng = inner, clock, inner.rng
        self.name = inner.name

    def choose(self, state: State) -> Any:
        t = time.perf_counter()
        order = self.inner.choose(state)
        if getattr(self.inner, "last_playouts", 0):
            self.clock.append(time.perf_counter() - t)
        return order


def scenarios(chosen: list[str] | None) -> list[str]:
    every = list(builtin_scenarios())
    if not chosen:
        return every
    out: list[str] = []
    for c in chosen:
        out += [s for s in every if s.startswith(c + "/")] if c in registry.ids() else [c]
    return out


def save(
    path: str | None, bots: list[str], records: list[dict[str, Any]], clocks: dict[str, list[float]]
) -> None:
    if path:
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"bots": bots, "records": records, "clocks": clocks}, f)


def run(
    bots: list[str],
    names: list[str],
    n: int,
    seed: int,
    clocks: dict[str, list[float]],
    out: str | None = None,
) -> list[dict[str, Any]]:
    """Play the battles; with ``out``, the records so far are saved after every battle (a run cut
    short keeps what it played: ``--report`` reads it)."""
    records: list[dict[str, Any]] = []
    for name in names:
        game = load_game(name)
        rid = game.info.id
        for a, b in itertools.combinations(bots, 2):
            for s in range(seed, seed + n):
                for red, blue in ((a, b), (b, a)):
                    made = [
                        Timed(make_bot(x, bot_seed(s, i), rid), clocks[x]) for i, x in enumerate((red, blue))
                    ]
                    t = time.perf_counter()
                    result = play(game, s, made[0], made[1]).state.result()
                    assert result is not None
                    sides = game.info.sides
                    winner = None if result.winner is None else (red, blue)[sides.index(result.winner)]
                    rec = {"scenario": name, "ruleset": rid, "seed": s, "red": red, "blue": blue}
                    rec |= {"winner": winner, "reason": result.reason, "seconds": time.perf_counter() - t}
                    records.append(rec)
                    save(out, bots, records, clocks)
                    print(
                        f"{name} seed {s}: {red} (red) v {blue} (blue): {winner or 'draw'} "
                        f"({rec['seconds']:.0f} s)",
                        file=sys.stderr,
                        flush=True,
                    )
    return records


def record(recs: list[dict[str, Any]], a: str, b: str) -> tuple[int, int, int]:
    """(won, drawn, lost) of ``a`` against ``b``."""
    mine = [r for r in recs if {r["red"], r["blue"]} == {a, b}]
    won = sum(1 for r in mine if r["winner"] == a)
    lost = sum(1 for r in mine if r["winner"] == b)
    return won, len(mine) - won - lost, lost


def elo(recs: list[dict[str, Any]], bots: list[str], anchor: str) -> dict[str, float]:
    """Bradley-Terry ratings on the Elo scale (400 log10), one virtual draw between every two bots."""
    score: dict[tuple[str, str], float] = defaultdict(float)  # (a, b) -> a's points against b
    games: dict[tuple[str, str], float] = defaultdict(float)
    for r in recs:
        a, b = r["red"], r["blue"]
        pts = 0.5 if r["winner"] is None else (1.0 if r["winner"] == a else 0.0)
        score[a, b] += pts
        score[b, a] += 1.0 - pts
        games[a, b] += 1
        games[b, a] += 1
    for a, b in itertools.permutations(bots, 2):
        score[a, b] += 0.5
        games[a, b] += 1
    gamma = dict.fromkeys(bots, 1.0)
    for _ in range(2000):  # minorization-maximization (Hunter 2004)
        new = {}
        for a in bots:
            wins = sum(score[a, b] for b in bots if b != a)
            den = sum(games[a, b] / (gamma[a] + gamma[b]) for b in bots if b != a)
            new[a] = wins / den if den else gamma[a]
        gamma = new
    base = gamma.get(anchor, 1.0)
    return {a: 400.0 * math.log10(gamma[a] / base) for a in bots}


def report(recs: list[dict[str, Any]], clocks: dict[str, list[float]]) -> None:
    bots = list(dict.fromkeys([r["red"] for r in recs] + [r["blue"] for r in recs]))
    order = {b: i for i, b in enumerate(sorted(bots, key=lambda x: (x != "random", x != "scripted", x)))}
    bots.sort(key=order.__getitem__)
    groups = {"all": recs}
    for rid in dict.fromkeys(r["ruleset"] for r in recs):
        groups[rid] = [r for r in recs if r["ruleset"] == rid]
    n_scen = len({r["scenario"] for r in recs})
    print(f"{len(recs)} battles on {n_scen} scenarios")
    print()
    print("| bot | opponent | battles of | battles | won | drawn | lost | decisive won | 95% interval |")
    print("|---|---|---|---|---|---|---|---|---|")
    for b, a in itertools.combinations(bots, 2):  # the stronger-listed bot (later) first
        for g, rs in groups.items():
            won, drawn, lost = record(rs, a, b)
            if won + drawn + lost == 0:
                continue
            lo, hi = wilson(won, won + lost)
            share = f"{won} / {won + lost}" + (f" ({won / (won + lost):.0%})" if won + lost else "")
            print(
                f"| `{a}` | `{b}` | {g} | {won + drawn + lost} | {won} | {drawn} | {lost} | {share} "
                f"| {lo:.0%} to {hi:.0%} |"
            )
    print()
    ratings = elo(recs, bots, "random" if "random" in bots else bots[0])
    print("| bot | Elo-style rating | battles | seconds per searched decision (mean, largest) |")
    print("|---|---|---|---|")
    for b in sorted(bots, key=lambda x: -ratings[x]):
        played = sum(1 for r in recs if b in (r["red"], r["blue"]))
        c = clocks.get(b) or []
        timing = f"{sum(c) / len(c):.2f}, {max(c):.2f} ({len(c)} decisions)" if c else "-"
        print(f"| `{b}` | {ratings[b]:+.0f} | {played} | {timing} |")


def lost_to(recs: list[dict[str, Any]], base: str = "random") -> None:
    """Every battle a bot other than ``base`` lost to ``base``: its scenario, seed and side, and the
    ``shieldwall battle`` command that plays it again (the bots are seeded as that command seeds
    them, so a battle with playout budgets replays)."""
    lost = [
        r for r in recs if base in (r["red"], r["blue"]) and r["red"] != r["blue"] and r["winner"] == base
    ]
    if not any(base in (r["red"], r["blue"]) and r["red"] != r["blue"] for r in recs):
        return
    print(f"\nBattles lost to `{base}`: {len(lost) or 'none'}\n")
    if not lost:
        return
    print("| bot | scenario | seed | side | replay |")
    print("|---|---|---|---|---|")
    for r in sorted(
        lost, key=lambda r: (r["blue"] if r["red"] == base else r["red"], r["scenario"], r["seed"])
    ):
        bot, side = (r["blue"], "blue") if r["red"] == base else (r["red"], "red")
        cmd = f"shieldwall battle {r['scenario']} --seed {r['seed']} --red {r['red']} --blue {r['blue']}"
        print(f"| `{bot}` | {r['scenario']} | {r['seed']} | {side} | `{cmd}` |")


def mirror(recs: list[dict[str, Any]], base: str) -> None:
    """The paired table of ``--mirror``: each battle of a bot against ``base`` against the same
    battle (seeds and sides) with ``base`` in the bot's place."""
    rank = {"win": 2, "draw": 1, "loss": 0}
    tally: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0, 0])  # better, same, worse
    mirrors: dict[tuple[str, int], str | None] = {}
    for r in recs:
        if base not in (r["red"], r["blue"]) or r["red"] == r["blue"]:
            continue
        bot = r["blue"] if r["red"] == base else r["red"]
        index = 0 if r["red"] == bot else 1
        game = load_game(r["scenario"])
        side = game.info.sides[index]
        if (r["scenario"], r["seed"]) not in mirrors:
            made = [make_bot(base, bot_seed(r["seed"], i), r["ruleset"]) for i in (0, 1)]
            result = play(game, r["seed"], made[0], made[1]).state.result()
            assert result is not None
            mirrors[r["scenario"], r["seed"]] = result.winner
        was = mirrors[r["scenario"], r["seed"]]
        then = "draw" if was is None else ("win" if was == side else "loss")
        now = "draw" if r["winner"] is None else ("win" if r["winner"] == bot else "loss")
        for key in ((bot, "all", side), (bot, r["ruleset"], side)):
            tally[key][0 if rank[now] > rank[then] else 1 if now == then else 2] += 1
    print(f"\nPaired with `{base}` in the bot's place (same battle and bot seeds):\n")
    print(f"| bot | battles of | side | battles | better than `{base}` | same | worse |")
    print("|---|---|---|---|---|---|---|")
    for (bot, group, side), (better, same, worse) in sorted(
        tally.items(), key=lambda kv: (kv[0][1] != "all", kv[0])
    ):
        print(f"| `{bot}` | {group} | {side} | {better + same + worse} | {better} | {same} | {worse} |")


def cost(bot: str, names: list[str], decisions: int, seed: int) -> None:
    """``--cost``: CPU and wall-clock seconds of ``bot``'s decisions along a scripted battle."""
    print("| scenario | bot | decisions | CPU seconds (mean, largest) | wall-clock seconds (mean) |")
    print("|---|---|---|---|---|")
    for name in names:
        game = load_game(name)
        rid = game.info.id
        state = game.new_state(seed)
        script = make_bot("scripted", bot_seed(seed, 0), rid)
        search = make_bot(bot, bot_seed(seed, 1), rid)
        cpu: list[float] = []
        wall: list[float] = []
        step = 0
        while not state.is_terminal() and len(cpu) < decisions:
            if step % 3 == 0 and len(state.legal_orders()) > 1:
                c, w = time.process_time(), time.perf_counter()
                order = search.choose(state)
                cpu.append(time.process_time() - c)
                wall.append(time.perf_counter() - w)
            else:
                order = script.choose(state)
            state.apply(order)
            step += 1
        if cpu:
            print(
                f"| {name} | `{bot}` | {len(cpu)} | {sum(cpu) / len(cpu):.2f}, {max(cpu):.2f} "
                f"| {sum(wall) / len(wall):.2f} |"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--bots", default="random,scripted,mcts:8", help="comma-separated bot names")
    ap.add_argument("--scenarios", nargs="*", help="built-in scenarios or rule-system ids (default: all)")
    ap.add_argument("-n", type=int, default=1, help="battles a side for each pairing and scenario")
    ap.add_argument("--seed", type=int, default=0, help="the first battle seed")
    ap.add_argument("--json", help="write the raw records and timings to this file (after every battle)")
    ap.add_argument("--report", nargs="+", metavar="JSON", help="print the tables of saved runs, merged")
    ap.add_argument("--cost", metavar="BOT", help="time BOT's decisions (CPU and wall-clock) instead")
    ap.add_argument("--decisions", type=int, default=12, help="with --cost: decisions a scenario")
    ap.add_argument(
        "--mirror", metavar="BOT", help="with --report: each battle against BOT paired with BOT's mirror"
    )
    args = ap.parse_args()
    clocks: dict[str, list[float]] = defaultdict(list)
    if args.report:
        recs: list[dict[str, Any]] = []
        for path in args.report:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
            recs += data["records"]
            for k, v in data["clocks"].items():
                clocks[k] += v
        report(recs, clocks)
        lost_to(recs)
        if args.mirror:
            mirror(recs, args.mirror)
        return
    if args.cost:
        cost(args.cost, scenarios(args.scenarios), args.decisions, args.seed)
        return
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    start = time.monotonic()
    recs = run(bots, scenarios(args.scenarios), args.n, args.seed, clocks, args.json)
    report(recs, clocks)
    lost_to(recs)
    print(f"\n{time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    main()
