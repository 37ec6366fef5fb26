"""A unit's footprint kept while what it is built from stays (``board.Unit.footprint``, issue 16):
every answer is the rectangle built afresh, field for field and corner for corner (the sign of a
zero included), and a battle played on the fast path and on the reference path
(``core.reference``) gives the same events."""

from __future__ import annotations

import copy
import math

import pytest

from shieldwall.core.geometry import Footprint
from shieldwall.core.reference import reference_path
from shieldwall.io.scenarios import load_game
from shieldwall.match import play
from shieldwall.rulesets.knight_hack.board import Unit

SCENARIO = "knight-hack/bourgtheroulde-1124"


def _exact(fp: Footprint) -> tuple[object, ...]:
    """The footprint's numbers with each float's sign (``0.0 == -0.0``, but not here)."""
    nums = (fp.x, fp.y, fp.heading, fp.frontage, fp.depth, *(c for p in fp.corners() for c in p))
    return tuple((n, math.copysign(1.0, n)) for n in nums)


def _fresh(u: Unit) -> Footprint:
    return Footprint(u.x, u.y, u.heading, u.width, u.depth)


def _unit() -> Unit:
    return Unit("u", "a", "U", "foot", "C", 12, 12, 6, ("spear",), False, False, 10.0, 5.0, 0.0)


def test_the_kept_footprint_is_the_one_built_afresh_after_every_change() -> None:
    u = _unit()
    first = u.footprint()
    assert u.footprint() is first  # kept while nothing changed
    changes = [
        ("x", 12.5),
        ("y", 7.25),
        ("heading", 90.0),
        ("figures", 7),  # two ranks of 6 -> 6 and 1
        ("frontage", 3),
        ("figures", 12),
        ("heading", -0.0),  # equal to 0.0 but a different float: its corners' zeros differ
        ("heading", 0.0),
        ("x", 0.0),
        ("x", -0.0),
        ("y", -0.0),
    ]
    for name, value in changes:
        setattr(u, name, value)
        assert _exact(u.footprint()) == _exact(_fresh(u)), name
        assert _exact(u.footprint()) == _exact(_fresh(u)), name  # and from the memo


def test_a_copied_unit_keeps_its_own_footprint_and_the_reference_builds_it_afresh() -> None:
    u = _unit()
    fp = u.footprint()
    twin = copy.deepcopy(u)
    assert twin == u and twin.footprint() == fp
    twin.x = 30.0
    assert _exact(twin.footprint()) == _exact(_fresh(twin)) and u.footprint() is fp
    with reference_path():
        assert u.footprint() is not fp and _exact(u.footprint()) == _exact(fp)
    assert repr(u) == repr(copy.copy(u)) and "_kept" not in repr(u)


def test_a_battle_plays_the_same_on_the_memo_and_on_the_reference() -> None:
    game = load_game(SCENARIO)
    fast = play(game, 4, "scripted", "random")
    with reference_path():
        ref = play(game, 4, "scripted", "random")
    assert [e.to_dict() for e in fast.state.events] == [e.to_dict() for e in ref.state.events]
    assert fast.state.is_terminal()


def test_clear_distance_skips_only_units_it_cannot_meet_within_the_limit() -> None:
    """``geom.clear_distance`` with a limit: the reference's answer whenever that is within the
    limit, above the limit otherwise; units scattered at random around the one that moves."""
    import random

    from shieldwall.rulesets.knight_hack.geom import clear_distance

    b = load_game(SCENARIO).new_state(1).board  # type: ignore[attr-defined]
    units = [u for u in b.units.values() if not u.gone]
    rnd = random.Random(5)
    exact = 0
    for _ in range(400):
        for o in units:
            o.x, o.y = rnd.uniform(0, 24), rnd.uniform(0, 24)
            o.heading = rnd.choice([0.0, 90.0, 180.0, 270.0, rnd.uniform(0, 360)])
        u = units[0]
        heading, limit = rnd.uniform(0, 360), rnd.choice([0.5, 2.0, 6.0, 12.0])
        fp = u.footprint().turned(heading - u.heading)
        fast = clear_distance(b, u, fp, heading, limit)
        with reference_path():
            ref = clear_distance(b, u, fp, heading, limit)
        assert ref == clear_distance(b, u, fp, heading)  # the limit: not read on the reference path
        if ref <= limit:
            assert fast == ref
            exact += 1
        else:
            assert fast > limit
    assert exact > 50  # the limit was often reached, so the comparison above was often exact


def test_clear_distance_keeps_a_unit_met_corner_to_corner_just_within_the_limit() -> None:
    """The tightest case of the bound: two squares met corner to corner along their diagonal,
    the other unit placed just within and just beyond ``limit + GAP`` of the mover."""
    from shieldwall.rulesets.knight_hack.geom import GAP, clear_distance

    b = load_game(SCENARIO).new_state(1).board  # type: ignore[attr-defined]
    units = [u for u in b.units.values() if not u.gone]
    for i, o in enumerate(units):
        o.x, o.y, o.heading, o.frontage, o.figures = 1000.0 + 50 * i, 1000.0, 0.0, 2, 4
    u, o = units[0], units[1]
    u.x, u.y = 10.0, 10.0
    r = u.footprint().radius
    diagonal = math.sqrt(0.5)
    for limit in (0.5, 2.0, 6.0):
        for delta in (-0.05, -1e-3, 1e-3, 0.05):
            gap = limit + GAP + delta  # between the facing corners
            o.x, o.y = u.x + (gap + 2 * r) * diagonal, u.y + (gap + 2 * r) * diagonal
            fast = clear_distance(b, u, u.footprint(), 45.0, limit)
            with reference_path():
                ref = clear_distance(b, u, u.footprint(), 45.0, limit)
            assert ref == pytest.approx(limit + delta, abs=1e-6)
            if ref <= limit:
                assert fast == ref, (limit, delta)
            else:
                assert fast > limit, (limit, delta)
