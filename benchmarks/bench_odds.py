"""Speed of shieldwall's exact odds, side by side with icepool, in one run.

    .venv/bin/python benchmarks/bench_odds.py [--quick]

Times are medians of many repetitions (``time.perf_counter``; a setup step, untimed, may run before
each). The ways of asking one query and the icepool form it is compared with take turns in blocks of
50 calls, so that a change of load on the machine falls on them alike. A single query is asked three
ways: "repeat" is the same query again (answered from the plug-in's query memo); "new" a question
not asked before in a warm process (the query, settings and situation memos cleared; the parsed
units and the shared building blocks kept: the hits table per die, modifier, doubling and halvings
for one-hour-dark-ages, the binomial table per (dice, p) and the outcome table per morale level for
into-the-dark); "cold" with every memo cleared but the parsed units. Duels and matrices are cold.
The icepool side builds the same distribution from the die faces with icepool's dice algebra
(tests/odds/icepool_oracle.py, the oracle the tests use), and, as the fastest icepool form, maps a
hits function over a pre-built die. Duels and matrices here are the exact solvers (``exact=True``;
the float64 ones, the default, against them: ``bench_fast_core.py --only duels``). This is a
benchmark, not a test: it asserts nothing, it prints a markdown table.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "odds"))

import icepool  # noqa: E402
import icepool_oracle as oracle  # noqa: E402

from shieldwall import odds  # noqa: E402
from shieldwall.core import dice as core_dice  # noqa: E402
from shieldwall.odds import exact_linear, markov  # noqa: E402
from shieldwall.rulesets.into_the_dark import combat as itd_combat  # noqa: E402
from shieldwall.rulesets.into_the_dark import morale as itd_morale  # noqa: E402
from shieldwall.rulesets.into_the_dark import odds as into_the_dark  # noqa: E402
from shieldwall.rulesets.one_hour import combat as oh_combat  # noqa: E402
from shieldwall.rulesets.one_hour import odds as one_hour  # noqa: E402

RS = "one-hour-dark-ages"


def median_time(fn: Callable[[], object], reps: int, setup: Callable[[], object] | None = None) -> float:
    """Median seconds per call over ``reps`` calls (``setup`` runs untimed before each call)."""
    fn()  # warm up imports and data files
    times = []
    for _ in range(reps):
        if setup is not None:
            setup()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def interleaved(
    cases: list[tuple[Callable[[], object], Callable[[], object] | None]], reps: int, block: int = 50
) -> list[float]:
    """Median seconds per call of each ``(fn, setup)`` case over about ``reps`` calls each, the cases
    taking turns in blocks of ``block`` calls (so that a change of load on the machine falls on all
    of them alike and their ratios stay fair, while each block runs with warm caches as a loop of
    one case would); ``setup`` runs untimed before each call."""
    for fn, _ in cases:
        fn()  # warm up imports and data files
    times: list[list[float]] = [[] for _ in cases]
    clock = time.perf_counter
    for _ in range(max(1, reps // block)):
        for (fn, setup), ts in zip(cases, times, strict=True):
            for _ in range(block):
                if setup is not None:
                    setup()
                t0 = clock()
                fn()
                ts.append(clock() - t0)
    return [statistics.median(ts) for ts in times]


def oh_new() -> None:
    """A new one-hour-dark-ages question: query, settings and situation memos cleared."""
    one_hour.PLUGIN.clear_memo()
    one_hour.situation_dist.cache_clear()


def oh_cold() -> None:
    """Every one-hour-dark-ages memo cleared but the parsed units."""
    oh_new()
    oh_combat._hits_dist.cache_clear()
    core_dice._uniform.cache_clear()


def clear_caches() -> None:
    """Everything cleared, parsed units included (duels and matrices)."""
    oh_cold()
    one_hour._FIGHTERS.clear()
    one_hour.fighter.cache_clear()
    one_hour.parse_spec.cache_clear()
    markov._solve.cache_clear()


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def main() -> None:
    quick = "--quick" in sys.argv
    k = 1 if not quick else 10
    rows: list[tuple[str, str, str]] = []

    # --- one attack -----------------------------------------------------------------------------
    sets = {"facing": "flank", "terrain": "uphill"}

    def ours() -> object:
        return odds.attack(RS, "warriors", "infantry", sets).dist

    def ice_algebra() -> object:
        return oracle.hits_die("warriors", "infantry", "melee", "flank", "uphill")

    d5 = icepool.Die(oracle.D5_FACES)

    def ice_map() -> object:
        return d5.map(lambda f: -(-(2 * max(0, f + 1)) // 4))

    assert oracle.die_probs(ice_algebra()) == odds.attack(RS, "warriors", "infantry", sets).probabilities
    assert oracle.die_probs(ice_map()) == odds.attack(RS, "warriors", "infantry", sets).probabilities
    reps = 20000 // k
    t_rep, t_new, t_cold, t_map = interleaved(
        [(ours, None), (ours, oh_new), (ours, oh_cold), (ice_map, None)], reps
    )
    t_alg = median_time(ice_algebra, 2000 // k)
    rows += [
        (
            "attack query, shieldwall (repeat / new / cold)",
            f"{fmt(t_rep)} / {fmt(t_new)} / {fmt(t_cold)}",
            "",
        ),
        (
            "same distribution, icepool dice algebra",
            fmt(t_alg),
            f"shieldwall faster by {t_alg / t_rep:.0f}x / {t_alg / t_new:.1f}x / {t_alg / t_cold:.1f}x",
        ),
        (
            "same distribution, icepool map over a pre-built die",
            fmt(t_map),
            f"shieldwall faster by {t_map / t_rep:.0f}x / {t_map / t_new:.1f}x / {t_map / t_cold:.1f}x",
        ),
    ]

    # --- duels ----------------------------------------------------------------------------------
    for first, second, dsets, label in [
        ("warriors", "infantry", {}, "duel warriors v infantry (finite chain)"),
        (
            "skirmishers-bows",
            "mounted-servants",
            {"dice": "d6"},
            "duel bows v mounted servants, d6 (geometric tail + absorption solve)",
        ),
    ]:
        t = median_time(
            lambda f=first, s=second, ds=dsets: odds.duel(RS, f, s, ds, exact=True),
            200 // k,  # type: ignore[misc]
            setup=clear_caches,
        )
        x = icepool.Die(dict(odds.attack(RS, first, second, dsets).dist.items()))
        y = icepool.Die(dict(odds.attack(RS, second, first, dsets).dist.items()))
        t_ice = median_time(lambda x=x, y=y: oracle.duel_die(x, y, 15, 15), 5)  # type: ignore[misc]
        rows.append(
            (
                label + ", shieldwall (cold)",
                fmt(t),
                f"icepool absorbing chain: {fmt(t_ice)} ({t_ice / t:.0f}x slower)",
            )
        )

    # --- the matrix -----------------------------------------------------------------------------
    t7 = median_time(lambda: odds.matrix(RS, exact=True), 20 // k, setup=clear_caches)
    t14 = median_time(lambda: odds.matrix(RS, {"types": "all"}, exact=True), 10 // k or 1, setup=clear_caches)
    t14d6 = median_time(
        lambda: odds.matrix(RS, {"types": "all", "dice": "d6"}, exact=True), 10 // k or 1, setup=clear_caches
    )
    rows += [
        ("full matrix, 7 army-list types x 3 facings (cold)", fmt(t7), "147 attacks + 147 duels"),
        ("full matrix, all 14 types x 3 facings (cold)", fmt(t14), "588 attacks + 588 duels"),
        ("full matrix, all 14 types, d6 (cold)", fmt(t14d6), ""),
    ]

    # --- into-the-dark --------------------------------------------------------------------------
    # Three ways to ask, each side by side with icepool building the same distribution the natural
    # icepool way from the same inputs (the situation restated as numbers, as an icepool user
    # would write it; icepool keeps no memo of its own for these):
    #   repeat - the same query again (answered from the plug-in's query memo);
    #   new    - a question not asked before in a warm process: the query, settings and
    #            situation memos cleared; the parsed units (with each unit's template test, melee
    #            attack and shot, which a query copies with its changes) and the shared building
    #            blocks (the binomial table per (dice, p), the outcome table per morale level) kept;
    #   cold   - every memo cleared, building blocks included (only the parsed units kept).
    itd = "into-the-dark"
    plugin = into_the_dark.PLUGIN

    def itd_new() -> None:
        plugin.clear_memo()
        into_the_dark.situation_dist.cache_clear()

    def itd_cold() -> None:
        itd_new()
        into_the_dark.queries._outcomes.cache_clear()
        into_the_dark.sides.cached_troops.cache_clear()
        itd_combat.binomial_dist.cache_clear()
        itd_combat._MOD_OF.clear()
        itd_morale.morale_dist.cache_clear()
        itd_morale.control_dist.cache_clear()
        core_dice._uniform.cache_clear()

    msets = {"casualties": 6, "shaken": "yes"}

    def itd_morale_q() -> object:
        return odds.morale(itd, "12 CAF average shieldwall", msets).outcomes

    def ice_morale() -> object:
        # the test restated: average 3, shieldwall +1, 6 of 12 lost -2, shaken -1; a d6 over the
        # level by 1 shakes, by 2-3 drives back, by 4+ routs (morale.results)
        level = 3 + 1 - 2 - 1
        return icepool.d6.map(
            lambda f: 0 if f <= level else 1 if f - level == 1 else 2 if f - level <= 3 else 3
        )

    assert {k: v for k, v in ice_morale().items()} == {0: 1, 1: 1, 2: 2, 3: 2}
    assert [float(p) for p in itd_morale_q().values()] == [1 / 6, 1 / 6, 1 / 3, 1 / 3]  # type: ignore[attr-defined]
    asets = {"charging": "yes"}

    def itd_attack_q() -> object:
        return odds.attack(itd, "12 CAF average", "12 CUF average", asets).dist

    def ice_attack() -> object:
        # 12 figures: 3 d6; unarmoured 3+, charging +1: 2+ (a natural 1 always misses)
        need = max(2, min(6, 3 - 1))
        return 3 @ (icepool.d6 >= need)

    assert (
        oracle.die_probs(ice_attack())
        == odds.attack(itd, "12 CAF average", "12 CUF average", asets).probabilities
    )
    ssets = {"mode": "shoot", "range": "long"}

    def itd_shot_q() -> object:
        return odds.attack(itd, "24 LUF levy bow", "12 LPF average", ssets).dist

    def ice_shot() -> object:
        # 24 figures at long range: 3 d6; protected 4+, loose order foot -1: 5+
        need = max(2, min(6, 4 + 1))
        return 3 @ (icepool.d6 >= need)

    assert (
        oracle.die_probs(ice_shot())
        == odds.attack(itd, "24 LUF levy bow", "12 LPF average", ssets).probabilities
    )
    for label, q, ice, reps in [
        ("into-the-dark morale query", itd_morale_q, ice_morale, 5000 // k),
        ("into-the-dark melee attack query", itd_attack_q, ice_attack, 2000 // k),
        ("into-the-dark shooting query", itd_shot_q, ice_shot, 2000 // k),
    ]:
        t_rep, t_new, t_cold, t_ice = interleaved([(q, None), (q, itd_new), (q, itd_cold), (ice, None)], reps)
        rows.append(
            (
                f"{label} (repeat / new / cold)",
                f"{fmt(t_rep)} / {fmt(t_new)} / {fmt(t_cold)}",
                f"icepool, same distribution: {fmt(t_ice)}; shieldwall faster by "
                f"{t_ice / t_rep:.0f}x / {t_ice / t_new:.1f}x / {t_ice / t_cold:.1f}x",
            )
        )

    def clear_duels() -> None:
        itd_cold()
        exact_linear.adjugate.cache_clear()

    for first, second, label, reps in [
        ("12 CAF average", "12 CPF average", "12 v 12", 7),
        ("12 LAM elite", "12 CUF fanatic warband", "12 v 12", 7),
        ("24 CPF average shieldwall", "24 CUF average warband", "24 v 24", 1),
    ]:
        t = median_time(lambda f=first, s=second: odds.duel(itd, f, s, exact=True), reps, setup=clear_duels)  # type: ignore[misc]
        d = odds.duel(itd, first, second, exact=True)
        rows.append(
            (
                f"into-the-dark duel {label} ({first} v {second}), cold",
                fmt(t),
                f"exact: {len(str(d.first_wins.denominator))}-digit denominators, {d.horizon} rounds",
            )
        )
    for mset, label in [({"types": "core"}, "8 core types"), ({}, "all 14 types")]:
        t = median_time(lambda m=mset: odds.matrix(itd, m, exact=True), 1, setup=clear_duels)  # type: ignore[misc]
        n = len(odds.matrix(itd, mset).types)
        rows.append(
            (
                f"into-the-dark matrix, {label} (cold)",
                fmt(t),
                f"{3 * n * n} attacks + {n * n} duels (win probabilities only)",
            )
        )

    # --- the command line as a whole process ----------------------------------------------------
    exe = ROOT / ".venv" / "bin" / "shieldwall"
    whole = [
        [RS, "--attacker", "warriors", "--target", "infantry", "--set", "facing=flank"],
        [
            "into-the-dark",
            "--attacker",
            "12 CAF average",
            "--target",
            "12 CPF average",
            "--set",
            "charging=yes",
        ],
    ]
    for args in whole if exe.exists() else []:
        cmd = [str(exe), "odds", "attack", *args, "--json"]
        walls = []
        for _ in range(5):
            t0 = time.perf_counter()
            r = subprocess.run(cmd, capture_output=True, text=True, check=False)
            walls.append(time.perf_counter() - t0)
        note = "" if r.returncode == 0 else f"exit {r.returncode}: {r.stderr.strip()[:80]}"
        rows.append(
            (
                f"`shieldwall odds attack {args[0]} ... --json`, whole process",
                f"{fmt(statistics.median(walls))} (max {fmt(max(walls))})",
                note,
            )
        )

    print("| what | median time | notes |")
    print("|---|---:|---|")
    for what, t_, note in rows:
        print(f"| {what} | {t_} | {note} |")


if __name__ == "__main__":
    main()
