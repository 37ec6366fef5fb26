"""The into-the-dark move checks' fast paths (issue 16, fifth slice) answer as the plain code does.

Each is compared with its reference at every call of seeded battles (the scripted general's
look-ahead and menus make thousands of them): a move refused on its cost floor before it is traced
(``moves.plan_move(..., verdict=True)``) is one the full check refuses too; a position of a path
overlapping a unit (``movement.overlapping``) without the distance measured first; the units free to
react to a move (``charging.reactors``) from one comparison of the poses.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import CONTACT_TOL, Footprint
from shieldwall.core.geometry_index import SMALL
from shieldwall.io.scenarios import load_game
from shieldwall.match import play
from shieldwall.rulesets.into_the_dark import act_move, act_zoc, charging, menus, movement, moves
from shieldwall.rulesets.into_the_dark.charging import reactor_problem
from shieldwall.rulesets.into_the_dark.model import Unit
from shieldwall.rulesets.into_the_dark.movement import overlapping, overlapping_reference
from shieldwall.rulesets.into_the_dark.state import IntoTheDarkState
from shieldwall.rulesets.into_the_dark.tiling import tiled_game
from shieldwall.sim import referee as R

BATTLES = (("into-the-dark/senlac", 5), ("into-the-dark/wye-fords", 6))
#: the battles of the tests that count how often a fast path was taken: a third since the
#: general's look ahead stops at the end of the Movement phase (docs/performance.md, "The scripted
#: general no longer sees the dice of the turn's later phases"), which left the two above short of
#: the counts asked
COUNTED_BATTLES = (*BATTLES, ("into-the-dark/senlac", 7))


@pytest.mark.python_sources
def test_a_move_refused_on_its_cost_floor_is_one_the_full_check_refuses(monkeypatch: Any) -> None:
    """At every ``plan_move`` of seeded battles that needs only a verdict (the menus, the general's
    look-ahead), the verdict is the full check's: refused on the cost floor only when the traced
    move is refused too, and the same trace when it is allowed."""
    real = moves.plan_move
    seen = {"floor": 0, "traced": 0, "refused": 0}

    def both(st: Any, u: Unit, steps: Any, *, verdict: bool = False) -> Any:
        try:
            want: Any = real(st, u, steps)
        except IllegalOrder as e:
            want = e
        if not verdict:
            if isinstance(want, IllegalOrder):
                raise want
            return want
        try:
            got: Any = real(st, u, steps, verdict=True)
        except IllegalOrder as e:
            got = e
        if isinstance(got, IllegalOrder):
            assert isinstance(want, IllegalOrder), (u.id, steps, moves.remaining(st, u))
            if "at least" in str(got):
                seen["floor"] += 1
                assert moves.cost_floor(st, u, steps) > moves.remaining(st, u)
            else:
                assert str(got) == str(want)
                seen["refused"] += 1
            raise got
        assert not isinstance(want, IllegalOrder), (u.id, steps)
        assert got == want
        seen["traced"] += 1
        return got

    monkeypatch.setattr(menus, "plan_move", both)
    monkeypatch.setattr(act_move, "plan_move", both)
    for scenario, seed in COUNTED_BATTLES:
        play(load_game(scenario), seed, "scripted", "scripted")
    assert seen["floor"] > 100 and seen["traced"] > 100 and seen["refused"] > 20, seen


def _rect() -> Any:
    return st.tuples(
        st.floats(0.0, 20.0),
        st.floats(0.0, 20.0),
        st.floats(0.0, 360.0),
        st.floats(0.2, 12.0),
        st.floats(0.2, 4.0),
    )


@settings(max_examples=300, deadline=None)
@given(_rect(), _rect(), st.integers(0, 3), st.floats(-3.0, 3.0), st.floats(0.0, 360.0))
def test_overlapping_is_the_distance_and_penetration_test(
    a: Any, b: Any, k: int, shift: float, direction: float
) -> None:
    """``overlapping`` answers what ``footprints_within(..., 0) and convex_penetration(...) >
    CONTACT_TOL`` answers: for random rectangles, and for one moved so that a corner of it stands at
    a corner of the other, then shifted by up to 3" (touching, apart, overlapping by about the
    tolerance)."""
    fa = Footprint(*a)
    fb = Footprint(*b)
    assert overlapping(fa, fb) == overlapping_reference(fa, fb)
    # put b's corner k on a's corner k, then shift it: the depth of overlap sweeps the tolerance
    qa, qb = fa.corners()[k], fb.corners()[k]
    ux, uy = math.sin(math.radians(direction)), math.cos(math.radians(direction))
    for scale in (1.0, 0.01, CONTACT_TOL, 1e-6):
        dx, dy = qa[0] - qb[0] + ux * shift * scale, qa[1] - qb[1] + uy * shift * scale
        fc = Footprint(fb.x + dx, fb.y + dy, fb.heading, fb.frontage, fb.depth)
        assert overlapping(fa, fc) == overlapping_reference(fa, fc)
        assert overlapping(fc, fa) == overlapping_reference(fc, fa)


@pytest.mark.python_sources
def test_overlapping_moves_and_reactors_in_seeded_battles(monkeypatch: Any) -> None:
    """At every zone-of-control task of seeded battles, ``reactors`` names the enemies
    ``reactor_problem`` finds free; every position of a path tested against a unit in those battles
    gets the reference's answer."""
    real_reactors = charging.reactors
    real_overlapping = movement.overlapping
    seen = {"free": 0, "busy": 0, "over": 0, "clear": 0}

    def reactors(s: IntoTheDarkState, es: list[Unit]) -> list[Unit]:
        got = real_reactors(s, es)
        want = [e for e in es if not reactor_problem(s, e)]
        assert [e.id for e in got] == [e.id for e in want]
        seen["free"] += len(got)
        seen["busy"] += len(es) - len(got)
        return got

    def over(fp: Footprint, ofp: Footprint) -> bool:
        got = real_overlapping(fp, ofp)
        assert got == overlapping_reference(fp, ofp), (fp, ofp)
        seen["over" if got else "clear"] += 1
        return got

    monkeypatch.setattr(act_zoc, "reactors", reactors)
    monkeypatch.setattr(movement, "overlapping", over)
    for scenario, seed in COUNTED_BATTLES:
        play(load_game(scenario), seed, "scripted", "scripted")
    assert seen["free"] > 100 and seen["busy"] > 20, seen
    assert seen["over"] > 100 and seen["clear"] > 1000, seen


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["routed", "rallying", "evading", "faced", "gone", "touch"])), max_size=8
    )
)
def test_reactors_skip_every_unit_reactor_problem_names(flags: list[tuple[str]]) -> None:
    """Units routed, rallying, evading, facing two ways, off the table or stood against an enemy are
    left out by ``reactors`` exactly as ``reactor_problem`` leaves them out."""
    s = load_game("into-the-dark/senlac").new_state(1)
    assert isinstance(s, IntoTheDarkState)
    units = list(s.units.values())
    reds = [u for u in units if u.side == "red"]
    blues = [u for u in units if u.side == "blue"]
    for i, (flag,) in enumerate(flags):
        u = blues[i % len(blues)]
        if flag == "routed":
            u.morale = "routed"
        elif flag == "faced":
            u.faced = ("left",)
        elif flag == "gone":
            u.gone = True
        elif flag == "touch":  # a red unit stood flush against its front
            r = reds[i % len(reds)]
            fx, fy = u.front_centre
            r.x, r.y, r.heading = fx, fy, (u.heading + 180.0) % 360.0
        else:
            setattr(u, flag, True)
    got = charging.reactors(s, blues)
    assert [e.id for e in got] == [e.id for e in blues if not reactor_problem(s, e)]


@pytest.mark.python_sources
def test_the_general_choosing_from_the_menu_in_parts_plays_the_same_battles(monkeypatch: Any) -> None:
    """The scripted general works out a unit's moves only when it weighs them (``State.unit_menu``);
    seeded battles play the same orders and events as with the whole menu worked out first, and at
    every unit decision the menu in parts is, whole, ``legal_orders()``."""
    real = IntoTheDarkState.unit_menu
    asked = {"parts": 0}

    def checked(self: IntoTheDarkState) -> Any:
        menu = real(self)
        if menu is not None:
            assert menu.orders() == self.legal_orders()
            asked["parts"] += 1
        return real(self)  # a fresh one: the general works its parts out itself

    def record(scenario: str, seed: int, options: dict[str, Any]) -> list[Any]:
        game = load_game(scenario, options) if options else load_game(scenario)
        p = play(game, seed, "scripted", "scripted")
        return [str(o) for o in p.orders] + [e.to_dict() for e in p.state.events]

    # Command & Control filters a menu as a whole (the general then gets it whole)
    cases = [(s, n, {}) for s, n in BATTLES] + [("into-the-dark/senlac", 5, {"command_and_control": True})]
    for scenario, seed, options in cases:
        monkeypatch.setattr(IntoTheDarkState, "unit_menu", checked)
        parts = record(scenario, seed, options)
        monkeypatch.setattr(IntoTheDarkState, "unit_menu", lambda self: None)
        whole = record(scenario, seed, options)
        assert parts == whole, scenario
    assert asked["parts"] > 100, asked


@pytest.mark.python_sources
def test_has_target_is_whether_targets_names_one_in_seeded_battles(monkeypatch: Any) -> None:
    """At every question of the Missile Fire phase of seeded battles (the general's look-aheads
    included), ``has_target`` (the first target, the first figure that sees it) answers what the
    whole list of ``targets`` answers."""
    from shieldwall.rulesets.into_the_dark import shooting, turns

    real = shooting.has_target
    seen = {True: 0, False: 0}

    def both(s: IntoTheDarkState, u: Unit) -> bool:
        got = real(s, u)
        assert got == bool(shooting.targets(s, u)), u.id
        seen[got] += 1
        return got

    monkeypatch.setattr(turns, "has_target", both)
    for scenario, seed in COUNTED_BATTLES:
        play(load_game(scenario), seed, "scripted", "scripted")
    assert seen[True] > 20 and seen[False] > 100, seen


@pytest.mark.python_sources
def test_the_generals_move_score_measures_only_what_it_reads(monkeypatch: Any) -> None:
    """At every move the scripted general scores in seeded battles, the score from the distances
    measured where they can matter (``bots.nearest``) is the score with every distance measured
    (the reference path); ``gaps`` is a prefix of the whole sorted list holding the three nearest and
    every enemy within 12"."""
    from shieldwall.core.reference import reference_path
    from shieldwall.rulesets.into_the_dark.bots import nearest
    from shieldwall.rulesets.into_the_dark.bots.general import IntoTheDarkGeneral

    real_score = IntoTheDarkGeneral._score
    real_gaps = nearest.gaps
    seen = {"scores": 0, "short": 0, "grid": 0}

    def score(self: Any, u: Any, fp: Footprint, order: str, moved: bool) -> float:
        got = real_score(self, u, fp, order, moved)
        with reference_path():
            assert real_score(self, u, fp, order, moved) == got
        seen["scores"] += 1
        return got

    def gaps(fp: Footprint, enemies: Any, fps: Any, near: float, index: Any = None) -> Any:
        got = real_gaps(fp, enemies, fps, near, index)
        whole = nearest.gaps_reference(fp, enemies, fps)
        assert got == whole[: len(got)]
        assert len(got) >= min(3, len(whole)) and all(d > near for d, _ in whole[len(got) :])
        seen["short"] += len(got) < len(whole)
        seen["grid"] += index is not None and len(index) >= SMALL
        return got

    monkeypatch.setattr(IntoTheDarkGeneral, "_score", score)
    monkeypatch.setattr(nearest, "gaps", gaps)
    for scenario, seed in BATTLES:
        play(load_game(scenario), seed, "scripted", "scripted")
    assert seen["scores"] > 300 and seen["short"] > 100, seen
    # a big army's general finds them from a grid of the enemies (``nearest.index_of``)
    game = tiled_game(30)
    R.play_record(
        game, R.Case("into-the-dark/senlac tiled to 30 a side", 1, "scripted", "scripted"), False, limit=200
    )
    assert seen["grid"] > 200, seen


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(["gone", "destroyed", "undeployed", "joined", "moved", "lost"]), max_size=10))
def test_the_contact_caches_poses_are_pose_of_every_unit(changes: list[str]) -> None:
    """``contacts.poses_of`` (``pose`` inlined) is ``pose`` of every unit, units off the table,
    joined, moved or with figures lost included."""
    from shieldwall.rulesets.into_the_dark.contacts import pose, poses_of

    s = load_game("into-the-dark/senlac").new_state(2)
    assert isinstance(s, IntoTheDarkState)
    units = list(s.units.values())
    for i, what in enumerate(changes):
        u = units[(3 * i) % len(units)]
        if what == "undeployed":
            u.deployed = False
        elif what == "joined":
            u.joined = units[0].id
        elif what == "moved":
            u.x += 0.5 * i
        elif what == "lost":
            u.figures = max(1, u.figures - 1)
        else:
            setattr(u, what, True)
    assert poses_of(s.units) == [pose(u) for u in s.units.values()]
