"""into-the-dark exact odds against the real game engine (combat.melee, combat.dice, morale.results).

Small battles are built with ``tests/into_the_dark/playkit`` (two units already in contact), the
players end their phases and the engine fights the melee with its own seeded dice; the hits of the
``melee`` event are counted over N fresh battles, one seed each. Every value the engine produces must
have a positive exact probability under ``shieldwall.odds.attack``, and the frequency of every value
and the mean must lie within 4.5 standard errors of it.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from shieldwall import odds

RS = "into-the-dark"
N = 1500
Z = 4.5


def _playkit() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "into_the_dark" / "playkit.py"
    spec = importlib.util.spec_from_file_location("itd_playkit_for_odds", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


P = _playkit()


def _check(counts: Counter[int], exact: dict[int, Fraction]) -> None:
    n = sum(counts.values())
    outside = set(counts) - {v for v, p in exact.items() if p > 0}
    assert not outside, f"the engine produced values the odds give probability 0: {outside}"
    for v, p in exact.items():
        pf = float(p)
        freq = counts.get(v, 0) / n
        assert abs(freq - pf) <= Z * math.sqrt(pf * (1 - pf) / n) + 1e-12, (v, freq, pf)
    mean = sum(v * c for v, c in counts.items()) / n
    mu = float(sum(v * p for v, p in exact.items()))
    var = float(sum(p * (v - mu) ** 2 for v, p in exact.items()))
    assert abs(mean - mu) <= Z * math.sqrt(var / n) + 1e-12, (mean, mu)


def _answer(st: Any) -> None:
    """The passive answer to the pending decision (as ``playkit.end_until`` gives it)."""
    d = st.decision()
    answers = {
        "opportunity": "decline",
        "react": "stand",
        "unit": "hold",
        "pursue": "pursue",
        "consent": "allow",
        "chase": "stop",  # movement.charging.target-runs
    }
    if d.kind in ("movement", "rally", "fire"):
        st.apply("end")
    elif d.kind == "initiative":
        st.apply("keep")
    else:
        st.apply(f"{answers[d.kind]} {d.unit}")


def _melee_hits(red: list[dict[str, Any]], blue: list[dict[str, Any]], pair: tuple[str, str]) -> Counter[int]:
    g = P.game(red, blue)
    counts: Counter[int] = Counter()
    for seed in range(N):
        st = P.start(g, "red", seed)
        mark = len(st.events)
        for _ in range(40):  # through movement and fire to the first melee
            if any(e.kind == "melee" for e in st.events[mark:]) or st.is_terminal():
                break
            _answer(st)
        ev = [e for e in st.events[mark:] if e.kind == "melee" and (e.data["unit"], e.data["target"]) == pair]
        assert len(ev) == 1, f"seed {seed}: expected one melee of {pair}, got {len(ev)}"
        counts[int(ev[0].data["hits"])] += 1
    return counts


@pytest.mark.slow
@pytest.mark.parametrize(
    ("red", "blue", "attacker", "target", "sets"),
    [
        # 4 wide, 2 ranks each: 8 figures fight frontally (combat.ranks), close order protected foot
        (("CPF", 8, 4, "average"), ("CPF", 8, 4, "average"), "8 CPF average", "8 CPF average", {}),
        # elite armoured foot against unarmoured levy, 12 figures in 3 ranks: 2 ranks fight
        (("CAF", 12, 4, "elite"), ("CUF", 12, 4, "levy"), "8 CAF elite", "8 CUF levy", {}),
    ],
)
def test_combat_melee_engine_agrees_with_exact_odds(
    red: tuple[str, int, int, str],
    blue: tuple[str, int, int, str],
    attacker: str,
    target: str,
    sets: dict[str, str],
) -> None:
    """combat.melee / combat.dice: the engine's frontal melee hits follow ``odds.attack`` exactly."""
    r = [P.u("r1", red[0], 10, 10, figures=red[1], frontage=red[2], quality=red[3])]
    b = [P.u("b1", blue[0], 10, 10, 180, figures=blue[1], frontage=blue[2], quality=blue[3])]
    counts = _melee_hits(r, b, ("r1", "b1"))
    exact = odds.attack(RS, attacker, target, sets).probabilities
    _check(counts, {int(k): v for k, v in exact.items()})
