"""A unit's footprint kept while what it is built from stays (``board.Unit.footprint``, issue 16):
every answer is the rectangle built afresh, field for field and corner for corner (the sign of a
zero included), and a battle played on the fast path and on the reference path
(``core.reference``) gives the same events."""

from __future__ import annotations

import copy
import math

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
