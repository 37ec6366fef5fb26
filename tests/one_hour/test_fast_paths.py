"""Fast paths against their reference (issue 16): the speed work must give the very same answers.

Each fast path is compared with a plain reference computation of the same question on random
positions (Hypothesis): equal floats, not close ones.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from shieldwall.core.geometry import Footprint, polygon_distance
from shieldwall.io.scenarios import load_game
from shieldwall.match import play
from shieldwall.rulesets.one_hour.bots.general import OneHourGeneral
from shieldwall.rulesets.one_hour.state import OneHourState

GAME = load_game("bryn-glas")
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _state_after(seed: int, decisions: int) -> OneHourState:
    """A bryn-glas battle (scripted v scripted) stopped after ``decisions`` orders (or at its end)."""

    class Stop(Exception):
        pass

    seen: list[OneHourState] = []

    def watch(state: Any, order: Any) -> None:
        seen.append(state)
        if len(seen) >= decisions:
            raise Stop

    try:
        st = play(GAME, seed, "scripted", "scripted", on_order=watch).state
    except Stop:
        st = seen[-1]
    assert isinstance(st, OneHourState)
    return st


@SETTINGS
@given(seed=st_.integers(0, 2**16), decisions=st_.integers(0, 160), draws=st_.integers(0, 2**32 - 1))
def test_general_bounds_give_the_exact_answers(seed: int, decisions: int, draws: int) -> None:
    st = _state_after(seed, decisions)
    if st.is_terminal():
        return
    g = OneHourGeneral(np.random.default_rng(0))
    g._setup(st)
    units = list(g.units.values())
    rng = np.random.default_rng(draws)
    for _ in range(300):
        u = units[int(rng.integers(len(units)))]
        own = g.fps[u["id"]]
        # about another unit, often touching or overlapping it (ties, zero gaps, gaps about a
        # reach away), or anywhere within a long move of itself
        if rng.random() < 0.5:
            base = g.fps[units[int(rng.integers(len(units)))]["id"]]
            spread = float(rng.choice([0.5, 3.0, 8.0, 14.0]))
        else:
            base, spread = own, 14.0
        dx, dy = rng.uniform(-spread, spread, 2)
        heading = base.heading + float(rng.choice([0.0, 45.0, 90.0, 180.0, -90.0, rng.uniform(-180, 180)]))
        fp = Footprint(base.x + float(dx), base.y + float(dy), heading, own.frontage, own.depth)
        assert g._position(u, fp) == g._position_reference(u, fp)
        every = [polygon_distance(fp.corners(), g.fps[e["id"]].corners()) for e in g.enemies]
        assert g._nearest_gap(fp) == min(every, default=99.0)
