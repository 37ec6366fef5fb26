"""The menu's fast paths against their reference (issue 16): the same menus, the same answers.

``OneHourState.check_memo`` (``act_common.placement`` / ``act_common.path``) answers a placement or
path check asked twice while a menu is built from the first answer; the reference checks again.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_
from test_fast_paths import _state_after

from shieldwall.core.geometry import Footprint
from shieldwall.core.reference import reference_path
from shieldwall.rulesets.one_hour import sight as LOS
from shieldwall.rulesets.one_hour import spatial as S
from shieldwall.rulesets.one_hour.act_common import path, placement, sees, sight

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(seed=st_.integers(0, 2**16), decisions=st_.integers(0, 160))
def test_menus_match_the_reference(seed: int, decisions: int) -> None:
    st = _state_after(seed, decisions)
    if st.is_terminal():
        return
    fast = st.copy().legal_orders()
    with reference_path():
        ref = st.copy().legal_orders()
    assert fast == ref


@SETTINGS
@given(seed=st_.integers(0, 2**16), decisions=st_.integers(0, 160), draws=st_.integers(0, 2**32 - 1))
def test_memoised_checks_give_the_exact_answers(seed: int, decisions: int, draws: int) -> None:
    st = _state_after(seed, decisions)
    if st.is_terminal():
        return
    units = [u for u in st.units.values() if not u.removed]
    rng = np.random.default_rng(draws)
    st.check_memo = {}
    try:
        for _ in range(200):
            u = units[int(rng.integers(len(units)))]
            # near the unit, often at the same spot with another heading (or the same footprint
            # again): a memo keyed on too little would answer from the wrong entry
            dx, dy = (0.0, 0.0) if rng.random() < 0.3 else tuple(rng.uniform(-6.0, 6.0, 2))
            heading = u.fp.heading + float(rng.choice([0.0, 90.0, 180.0, -90.0, 45.0]))
            fp = Footprint(u.fp.x + float(dx), u.fp.y + float(dy), heading, u.fp.frontage, u.fp.depth)
            end = (round(fp.x + float(rng.uniform(-8, 8)), 3), round(fp.y + float(rng.uniform(-8, 8)), 3))
            assert placement(st, u, fp) == S.placement_problem(u, fp, st.live(), st.terrain)
            assert path(st, u, fp, end) == S.path_problem(u, fp, [end], st.live(), st.terrain)
    finally:
        st.check_memo = None


@SETTINGS
@given(seed=st_.integers(0, 2**16), decisions=st_.integers(0, 160), draws=st_.integers(0, 2**32 - 1))
def test_early_exit_sight_gives_the_counted_answer(seed: int, decisions: int, draws: int) -> None:
    st = _state_after(seed, decisions)
    if st.is_terminal():
        return
    units = [u for u in st.units.values() if not u.removed]
    rng = np.random.default_rng(draws)
    for _ in range(60):
        viewer = units[int(rng.integers(len(units)))]
        target = units[int(rng.integers(len(units)))]
        if target.id == viewer.id:
            continue
        counted = LOS.visible_points(viewer, target, st.live(), st.terrain)[0] > 0
        assert LOS.any_visible(viewer, target, st.live(), st.terrain) == counted
        st.sight_memo.clear()
        assert sees(st, viewer, target) == counted  # traced
        sight(st, viewer, target)
        assert sees(st, viewer, target) == counted  # from the memo


@SETTINGS
@given(seed=st_.integers(0, 2**16), decisions=st_.integers(0, 160), draws=st_.integers(0, 2**32 - 1))
def test_overlap_certificates_skip_only_refused_spots(seed: int, decisions: int, draws: int) -> None:
    """``max_advance`` skips the spots its overlap certificates (two axes a rectangle) show
    overlapping another unit; the reference checks every spot: the same furthest spot."""
    st = _state_after(seed, decisions)
    units = [u for u in st.units.values() if not u.removed]
    rng = np.random.default_rng(draws)
    for _ in range(60):
        u = units[int(rng.integers(len(units)))]
        other = units[int(rng.integers(len(units)))]
        # mostly straight at another unit (through it, if nothing stops the column first)
        if other.id != u.id and rng.random() < 0.8:
            ang = math.atan2(other.fp.y - u.fp.y, other.fp.x - u.fp.x) + float(rng.normal(0.0, 0.2))
        else:
            ang = float(rng.uniform(-math.pi, math.pi))
        d = (math.cos(ang), math.sin(ang))
        turn = float(rng.choice([0.0, 0.0, 30.0, -45.0, 90.0]))
        fp = u.fp.turned(turn, "centre") if turn else u.fp
        budget = float(rng.uniform(0.0, 14.0))
        fast = S.max_advance(u, fp, d, budget, st.live(), st.terrain)
        with reference_path():
            ref = S.max_advance(u, fp, d, budget, st.live(), st.terrain)
        assert fast == ref


@SETTINGS
@given(seed=st_.integers(0, 2**16), decisions=st_.integers(0, 160), draws=st_.integers(0, 2**32 - 1))
def test_charges_refused_early_are_the_refused_ones(seed: int, decisions: int, draws: int) -> None:
    """``menus._check_charge`` refuses, before the approach, a charge whose facing another unit
    holds and a start turn that leaves the target outside the arc or, on a flank or the rear, the
    charger short of that facing's line: the same charges pass as on the reference path (every
    approach and plan checked), for any charger, target, facing, start turn and distance rolled."""
    from shieldwall.rulesets.one_hour import menus
    from shieldwall.rulesets.one_hour import orders as O

    st = _state_after(seed, decisions)
    if st.is_terminal():
        return
    units = [u for u in st.units.values() if not u.removed]
    rng = np.random.default_rng(draws)
    for _ in range(40):
        u = units[int(rng.integers(len(units)))]
        enemies = [t for t in units if t.side != u.side]
        if not enemies:
            return
        # often a target already in contact (a facing held by another unit)
        held = [e for e in enemies if st.touching(e)]
        pool = held if held and rng.random() < 0.5 else enemies
        t = pool[int(rng.integers(len(pool)))]
        st.rolled = float(rng.choice([2.0, 5.0, 9.0, 14.0, 40.0]))
        ang = float(rng.choice([0.0, 30.0, -60.0, 90.0, 180.0, rng.uniform(-180.0, 180.0)]))
        turns: list[O.Turn | None] = [None, O.Turn(round(ang, 2), "centre")]
        for facing in O.FACING_NAMES:
            fast = menus._check_charge(st, u, t, facing, turns, {})
            with reference_path():
                ref = menus._check_charge(st, u, t, facing, turns, {})
            assert fast == ref
