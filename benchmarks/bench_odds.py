"""Speed of shieldwall's exact odds, side by side with icepool, in one run.

    .venv/bin/python benchmarks/bench_odds.py [--quick]

Times are medians of many repetitions (``time.perf_counter``). "cold" clears shieldwall's memo
caches before every repetition (the cost of clearing is included), so it is the full computation;
"warm" is a repeated query. The icepool side builds the same distribution from the die faces with
icepool's dice algebra (tests/odds/icepool_oracle.py, the oracle the tests use), and, as the
fastest icepool form, maps a hits function over a pre-built die. This is a benchmark, not a test:
it asserts nothing, it prints a markdown table.
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
from shieldwall.odds import into_the_dark, markov, one_hour  # noqa: E402

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


def clear_caches() -> None:
    one_hour.situation_dist.cache_clear()
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

    def ours_cold() -> object:
        one_hour.situation_dist.cache_clear()
        return odds.attack(RS, "warriors", "infantry", sets).dist

    def ice_algebra() -> object:
        return oracle.hits_die("warriors", "infantry", "melee", "flank", "uphill")

    d5 = icepool.Die(oracle.D5_FACES)

    def ice_map() -> object:
        return d5.map(lambda f: -(-(2 * max(0, f + 1)) // 4))

    assert oracle.die_probs(ice_algebra()) == odds.attack(RS, "warriors", "infantry", sets).probabilities
    assert oracle.die_probs(ice_map()) == odds.attack(RS, "warriors", "infantry", sets).probabilities
    reps = 20000 // k
    t_cold = median_time(ours_cold, reps)
    t_warm = median_time(ours, reps)
    t_alg = median_time(ice_algebra, 2000 // k)
    t_map = median_time(ice_map, reps)
    rows += [
        ("attack query, shieldwall (cold: memo cleared)", fmt(t_cold), ""),
        ("attack query, shieldwall (warm)", fmt(t_warm), ""),
        (
            "same distribution, icepool dice algebra",
            fmt(t_alg),
            f"shieldwall cold is {t_alg / t_cold:.1f}x faster, warm {t_alg / t_warm:.1f}x",
        ),
        (
            "same distribution, icepool map over a pre-built die",
            fmt(t_map),
            f"shieldwall cold is {t_map / t_cold:.1f}x faster, warm {t_map / t_warm:.1f}x",
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
            lambda f=first, s=second, ds=dsets: odds.duel(RS, f, s, ds),
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
    t7 = median_time(lambda: odds.matrix(RS), 20 // k, setup=clear_caches)
    t14 = median_time(lambda: odds.matrix(RS, {"types": "all"}), 10 // k or 1, setup=clear_caches)
    t14d6 = median_time(
        lambda: odds.matrix(RS, {"types": "all", "dice": "d6"}), 10 // k or 1, setup=clear_caches
    )
    rows += [
        ("full matrix, 7 army-list types x 3 facings (cold)", fmt(t7), "147 attacks + 147 duels"),
        ("full matrix, all 14 types x 3 facings (cold)", fmt(t14), "588 attacks + 588 duels"),
        ("full matrix, all 14 types, d6 (cold)", fmt(t14d6), ""),
    ]

    # --- into-the-dark --------------------------------------------------------------------------
    itd = "into-the-dark"
    msets = {"casualties": 6, "shaken": "yes"}

    def itd_morale() -> object:
        return odds.morale(itd, "12 CAF average shieldwall", msets).outcomes

    def itd_morale_cold() -> object:
        into_the_dark.situation_dist.cache_clear()
        return odds.morale(itd, "12 CAF average shieldwall", msets).outcomes

    def ice_morale() -> object:
        # the same test restated: level 3 (average) + 1 (shieldwall) - 2 (6 of 12 lost) - 1 (shaken)
        level = 3 + 1 - 2 - 1
        return icepool.d6.map(
            lambda f: 0 if f <= level else 1 if f - level == 1 else 2 if f - level <= 3 else 3
        )

    want = {0: 1, 1: 1, 2: 2, 3: 2}
    assert {k: v for k, v in ice_morale().items()} == want
    asets = {"charging": "yes"}

    def itd_attack() -> object:
        return odds.attack(itd, "12 CAF average", "12 CUF average", asets).dist

    def itd_attack_cold() -> object:
        into_the_dark.situation_dist.cache_clear()
        return odds.attack(itd, "12 CAF average", "12 CUF average", asets).dist

    def ice_attack() -> object:
        # 3 d6 (12 figures), unarmoured 3+ with +1 charging: 2+, a natural 1 always misses
        hit = icepool.d6.map(lambda f: 1 if f != 1 and (f == 6 or f >= 2) else 0)
        return 3 @ hit

    assert (
        oracle.die_probs(ice_attack())
        == odds.attack(itd, "12 CAF average", "12 CUF average", asets).probabilities
    )
    t_mc, t_mw, t_mi = (
        median_time(itd_morale_cold, 5000 // k),
        median_time(itd_morale, 20000 // k),
        median_time(ice_morale, 5000 // k),
    )
    t_ac, t_aw, t_ai = (
        median_time(itd_attack_cold, 5000 // k),
        median_time(itd_attack, 20000 // k),
        median_time(ice_attack, 2000 // k),
    )
    rows += [
        (
            "into-the-dark morale query (cold / warm)",
            f"{fmt(t_mc)} / {fmt(t_mw)}",
            f"icepool d6.map of the same test: {fmt(t_mi)} ({t_mi / t_mc:.1f}x / {t_mi / t_mw:.1f}x)",
        ),
        (
            "into-the-dark melee attack query (cold / warm)",
            f"{fmt(t_ac)} / {fmt(t_aw)}",
            f"icepool 3 @ d6-hit: {fmt(t_ai)} ({t_ai / t_ac:.1f}x / {t_ai / t_aw:.1f}x)",
        ),
    ]

    def clear_itd() -> None:
        into_the_dark.situation_dist.cache_clear()
        into_the_dark._troops.cache_clear()

    for first, second, label in [
        ("12 CAF average", "12 CPF average", "12 v 12"),
        ("24 CPF average shieldwall", "24 CUF average warband", "24 v 24"),
    ]:
        reps = 5 if "12" in label else 1
        t = median_time(lambda f=first, s=second: odds.duel(itd, f, s), reps, setup=clear_itd)  # type: ignore[misc]
        d = odds.duel(itd, first, second)
        rows.append(
            (
                f"into-the-dark duel {label} ({first} v {second})",
                fmt(t),
                f"exact: {len(str(d.first_wins.denominator))}-digit denominators, {d.horizon} rounds",
            )
        )

    # --- the command line as a whole process ----------------------------------------------------
    exe = ROOT / ".venv" / "bin" / "shieldwall"
    cmd = [
        str(exe),
        "odds",
        "attack",
        RS,
        "--attacker",
        "warriors",
        "--target",
        "infantry",
        "--set",
        "facing=flank",
        "--json",
    ]
    if exe.exists():
        walls = []
        for _ in range(5):
            t0 = time.perf_counter()
            r = subprocess.run(cmd, capture_output=True, text=True, check=False)
            walls.append(time.perf_counter() - t0)
        note = "" if r.returncode == 0 else f"exit {r.returncode}: {r.stderr.strip()[:80]}"
        rows.append(
            ("`shieldwall odds attack ... --json`, whole process", fmt(statistics.median(walls)), note)
        )

    print("| what | median time | notes |")
    print("|---|---:|---|")
    for what, t_, note in rows:
        print(f"| {what} | {t_} | {note} |")


if __name__ == "__main__":
    main()
