"""Fast paths against their reference (issue 16): the speed work must give the very same answers.

Each fast path is compared with a plain reference computation of the same question on random
positions (Hypothesis): equal floats, not close ones.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from shieldwall.core.geometry import Footprint, in_front_arc, point_in_polygon, polygon_distance
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


def _reference_position(g: OneHourGeneral, u: dict[str, Any], fp: Footprint) -> float:
    """``OneHourGeneral._position`` measuring every gap exactly (no bounds)."""
    if not g.enemies:
        return 0.0
    corners = fp.corners()
    gaps = [(polygon_distance(corners, ef.corners()), info) for info in g.enemy_info for ef in [info[2]]]
    gap_, near = min(gaps, key=lambda x: x[0])
    score = 0.0
    shooter = u["missile"] is not None and u["category"] in ("skirmishers", "cavalry")
    if shooter and u["shots_left"] != 0:
        rng = float(g.params["bow_range"] if u["missile"] == "bow" else g.params["javelin_range"])
        score -= abs(gap_ - (rng - 1.0)) * 0.25
    else:
        score -= gap_ * 0.15
    for gap, (_i, e, ef, _x, _y, _r, bow, reach) in gaps:
        if gap >= reach or bow:
            continue
        facing = fp.facing_of(ef.front_centre)
        if not in_front_arc(ef, corners, 60.0):
            continue
        danger = g._expected(e, u, facing)
        mine = g._expected(u, e, "front")
        weight = 1.5 if u["missile"] else 0.6
        score -= weight * max(0.0, danger - 0.5 * mine) * (1.5 if facing != "front" else 1.0)
    friends = sum(
        1 for fid, ff in g.friend_info if fid != u["id"] and polygon_distance(corners, ff.corners()) < 4.0
    )
    score += 0.4 * min(friends, 2)
    if any(point_in_polygon((fp.x, fp.y), c) for c in g.cover_polys):
        score += 0.8
    if not in_front_arc(fp, near[2].corners(), 45.0):
        score -= 0.5
    return score + 1e-6 * math.hypot(fp.x, fp.y)


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
        assert g._position(u, fp) == _reference_position(g, u, fp)
        every = [polygon_distance(fp.corners(), g.fps[e["id"]].corners()) for e in g.enemies]
        assert g._nearest_gap(fp) == min(every, default=99.0)
