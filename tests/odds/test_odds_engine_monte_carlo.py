"""The exact odds against the real game engine: many fresh battles, one seed each, the engine resolves
the attack, and the hits it logs are counted.

For one-hour-dark-ages a small battle is set up with ``tests/one_hour/helpers.game`` (the units in
contact, or in range), the red player ends its Movement phase and the engine fights the melee (or
red shoots); the hits are read from the ``melee`` / ``shot`` event. Each attack is a fresh state with
seed 0..N-1, so the samples are independent draws of the engine's own dice. Every hit value the
engine produces must have a positive exact probability, and the frequency of each value must lie
within 4.5 standard errors (sqrt(p(1-p)/N)) of ``shieldwall.odds.attack``; so must the mean.
"""

from __future__ import annotations

import importlib.util
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from shieldwall import odds

RS = "one-hour-dark-ages"
N = 3000
Z = 4.5


def _helpers() -> ModuleType:
    """tests/one_hour/helpers.py, loaded under its own name (it is not a package)."""
    path = Path(__file__).resolve().parents[1] / "one_hour" / "helpers.py"
    spec = importlib.util.spec_from_file_location("one_hour_test_helpers", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


H = _helpers()


def _check(counts: Counter[int], exact: dict[int, Fraction]) -> None:
    n = sum(counts.values())
    assert n == N
    outside = set(counts) - set(exact)
    assert not outside, f"the engine produced hit values the odds give probability 0: {outside}"
    for v, p in exact.items():
        pf = float(p)
        freq = counts.get(v, 0) / n
        assert abs(freq - pf) <= Z * math.sqrt(pf * (1 - pf) / n) + 1e-12, (v, freq, pf)
    mean = sum(v * c for v, c in counts.items()) / n
    mu = float(sum(v * p for v, p in exact.items()))
    var = float(sum(p * (v - mu) ** 2 for v, p in exact.items()))
    assert abs(mean - mu) <= Z * math.sqrt(var / n) + 1e-12, (mean, mu)


def _engine_hits(game: Any, event: str, order: str | None = None) -> Counter[int]:
    counts: Counter[int] = Counter()
    for seed in range(N):
        st = game.new_state(seed)
        st.apply("end")  # red ends its Movement phase
        if order is not None:
            st.apply(order)
        ev = H.last(st, event)
        assert ev.side == "red" and ev.data["unit"] == "r1" and ev.data["target"] == "b1"
        counts[int(ev.data["hits"])] += 1
    return counts


@pytest.mark.parametrize(
    ("attacker", "target", "placement", "options", "sets"),
    [
        # front to front (tests/one_hour/test_core_rules._engaged)
        ("warriors", "infantry", ((20, 12, 0), (20, 14, 180)), {}, {}),
        ("cavalry", "raiders", ((20, 12, 0), (20, 14, 180)), {"dice": "d6"}, {"dice": "d6"}),
        ("skirmishers-bows", "warriors", ((20, 12, 0), (20, 14, 180)), {}, {}),
        # r1's front against b1's left flank (test_melee_flank_attack_doubles_in_the_engine)
        ("warriors", "raiders", ((20, 12, 90), (23.5, 12, 0)), {}, {"facing": "flank"}),
        (
            "infantry",
            "cavalry",
            ((20, 12, 90), (23.5, 12, 0)),
            {"dice": "d6"},
            {"facing": "flank", "dice": "d6"},
        ),
    ],
)
def test_melee_attacks_resolved_by_the_engine_match_the_exact_odds(
    attacker: str,
    target: str,
    placement: tuple[tuple[float, float, float], tuple[float, float, float]],
    options: dict[str, str],
    sets: dict[str, str],
) -> None:
    (rx, ry, rh), (bx, by, bh) = placement
    g = H.game([H.unit("r1", attacker, rx, ry, rh)], [H.unit("b1", target, bx, by, bh)], options=options)
    exact = odds.attack(RS, attacker, target, sets).probabilities
    first = g.new_state(0)
    first.apply("end")
    assert H.last(first, "melee").data["facing"] == sets.get("facing", "front")
    _check(_engine_hits(g, "melee"), exact)


@pytest.mark.parametrize(
    ("shooter", "target", "options", "sets"),
    [
        ("skirmishers-bows", "warriors", {}, {"mode": "shoot"}),
        ("skirmishers-bows", "infantry", {"dice": "d6"}, {"mode": "shoot", "dice": "d6"}),
    ],
)
def test_shots_resolved_by_the_engine_match_the_exact_odds(
    shooter: str, target: str, options: dict[str, str], sets: dict[str, str]
) -> None:
    # (tests/one_hour/test_core_rules._shooting_state): 11" apart, in range of bows
    g = H.game([H.unit("r1", shooter, 20, 5)], [H.unit("b1", target, 20, 18, 180)], options=options)
    exact = odds.attack(RS, shooter, target, sets).probabilities
    _check(_engine_hits(g, "shot", "shoot r1 b1"), exact)
