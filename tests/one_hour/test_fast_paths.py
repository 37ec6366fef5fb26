"""Fast paths against their reference (issue 16): the speed work must give the very same answers.

Each fast path is compared with a plain reference computation of the same question on random
positions (Hypothesis): equal floats, not close ones.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from shieldwall.core.geometry import Footprint
from shieldwall.core.polygons import polygon_distance
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


def test_the_general_keeps_expected_hits_only_while_they_are_the_same() -> None:
    """The general keeps ``_expected_of``'s answers from one decision to the next, by what they
    are made of (``_expected_key``): every answer it gives equals a fresh one, for every pair of
    units, facing and mode, at every decision of battles with upgrades (household, levy), heroes
    and personalities moving between units."""
    from shieldwall.rulesets.one_hour.orders import FACING_NAMES

    checked = 0
    for scenario, seed in (("mynydd-baddon", 1), ("rhyd-y-groes", 2), ("catraeth", 3)):
        game = load_game(scenario)
        st = game.new_state(seed)
        generals = {side: OneHourGeneral(np.random.default_rng(i)) for i, side in enumerate(game.info.sides)}
        for _ in range(120):
            d = st.decision()
            if d is None:
                break
            g = generals[d.side]
            st.apply(g.choose(st))
            views = list(g.units.values())
            for a in views:
                for t in views:
                    if a is t:
                        continue
                    for facing in FACING_NAMES:
                        for mode in ("melee", "shoot"):
                            assert g._expected(a, t, facing, mode) == g._expected_of(a, t, facing, mode)
                            checked += 1
    assert checked > 10000
