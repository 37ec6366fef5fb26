"""The into-the-dark fast paths of the sixth slice (issue 16) answer as the plain code does.

* ``moves.plan_move`` answers a move planned before on the same units from the state's memo
  (``plan_memo.PlanMemo``): at every plan of seeded battles the memo's trace is the one
  ``plan_move_reference`` makes, and a memo kept before any field of any unit changes (its pose, what
  it did this turn, a flag, ``extra`` changed in place) is not used after;
* ``charge_plan.charge_ruled_out`` rules a charge out on the length of its run before it looks at
  the lead-in's end and the rest of the run to contact (the existing test of the menus checks that
  every charge it rules out is one ``plan_charge`` refuses; here each verdict is also compared with
  the verdict without the early answer).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from shieldwall.core.dice import copy_rng
from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import heading_vector
from shieldwall.core.reference import reference_path
from shieldwall.io.scenarios import load_game
from shieldwall.match import play
from shieldwall.rulesets.into_the_dark import charge_plan, charging, menus, moves
from shieldwall.rulesets.into_the_dark import orders as O
from shieldwall.rulesets.into_the_dark.bots import reckoning
from shieldwall.rulesets.into_the_dark.model import Unit
from shieldwall.rulesets.into_the_dark.movement import trace, wheel_fp
from shieldwall.rulesets.into_the_dark.plan_memo import PlanMemo, refresh, unit_snapshot
from shieldwall.rulesets.into_the_dark.state import IntoTheDarkState

BATTLES = (("into-the-dark/senlac", 5), ("into-the-dark/wye-fords", 6))


def _reference(st: Any, u: Unit, steps: Any) -> Any:
    try:
        return moves.plan_move_reference(st, u, steps)
    except IllegalOrder as e:
        return str(e)


def _planned(st: Any, u: Unit, steps: Any) -> Any:
    try:
        return moves.plan_move(st, u, steps)
    except IllegalOrder as e:
        return str(e)


@pytest.mark.python_sources
def test_every_plan_answered_from_the_memo_is_the_reference_plan(monkeypatch: Any) -> None:
    """At every ``PlanMemo.plan`` of seeded battles (the menus, the look-ahead, the orders applied),
    the trace answered is the one ``plan_move_reference`` makes of the state as it stands; most of
    the look-ahead's and applied orders' plans come from the memo."""
    real = PlanMemo.plan
    seen = {"kept": 0, "made": 0}

    def both(memo: PlanMemo, units: Any, uid: str, steps: Any, make: Any, still: Any = None) -> Any:
        kept = memo.snap == unit_snapshot(units) and (uid, steps) in memo.plans
        got = real(memo, units, uid, steps, make, still)
        assert got == make(), (uid, steps)
        seen["kept" if kept else "made"] += 1
        return got

    monkeypatch.setattr(PlanMemo, "plan", both)
    for scenario, seed in BATTLES:
        play(load_game(scenario), seed, "scripted", "scripted")
    assert seen["kept"] > 300 and seen["made"] > 300, seen


def _unit_decisions(scenario: str, seed: int, n: int) -> list[IntoTheDarkState]:
    """Copies of the state at the first ``n`` unit decisions of a battle whose unit can move."""
    out: list[IntoTheDarkState] = []

    def each(state: Any, order: Any) -> None:
        d = state.decision()
        if len(out) < n and d is not None and d.kind == "unit":
            u = state.units[d.unit]
            if moves.can_move(state, u) is None and moves.remaining(state, u) > 2.0:
                out.append(state.copy())

    play(load_game(scenario), seed, "scripted", "scripted", on_order=each)
    return out


#: changes to a state after a move was planned, each of which changes the move's plan
def _changes(st: IntoTheDarkState, u: Unit) -> list[tuple[str, Any]]:
    friend = next(x for x in st.units.values() if x.side == u.side and x.id != u.id and x.on_table)

    def used() -> None:
        u.used = moves.base_allowance(st, u) - 0.6  # too little left for the move

    def disordered() -> None:
        u.disordered = True  # a wheel at half speed, an about face costs the whole move

    def blocked() -> None:
        # a friend stood in the way, routed: no unit may pass through it
        fx, fy = heading_vector(u.heading)
        friend.x, friend.y, friend.heading = u.x + 1.5 * fx, u.y + 1.5 * fy, u.heading
        friend.morale = "routed"

    def moved_friend() -> None:
        friend.x += 0.0  # (no change: the plan is kept)

    def halved() -> None:
        u.halved = True  # interpenetrated while both moved: the maximum move halved

    return [
        ("used", used),
        ("disordered", disordered),
        ("blocked", blocked),
        ("nothing", moved_friend),
        ("halved", halved),
    ]


def test_a_plan_kept_before_a_unit_changed_is_not_used_after() -> None:
    """A move planned (and kept) on a state whose units are then changed directly (as a test or a
    tool may) is planned again: after each change, ``plan_move`` answers as the reference does."""
    differed: set[str] = set()
    checked = 0
    for st0 in _unit_decisions("into-the-dark/senlac", 3, 6):
        for name in [n for n, _ in _changes(st0, st0.units[st0.pending["unit"]])]:  # type: ignore[index]
            st = st0.copy()
            u = st.units[st.pending["unit"]]  # type: ignore[index]
            change = dict(_changes(st, u))[name]
            steps_all = [(O.Fwd(2.0),), (O.Wheel(30.0), O.Fwd(1.0)), (O.About(),), (O.Fwd(0.5),)]
            before = [_planned(st, u, steps) for steps in steps_all]  # kept in the memo
            change()
            for steps, was in zip(steps_all, before, strict=True):
                want = _reference(st, u, steps)
                assert _planned(st, u, steps) == want, (name, steps)
                if want != was:
                    differed.add(name)
                checked += 1
    assert checked > 50
    assert {"used", "disordered", "blocked"} <= differed, differed
    assert "nothing" not in differed


def test_the_memo_sees_a_unit_changed_in_place() -> None:
    """A plan is made again once any unit differs from the memo's snapshot, ``extra`` (a dict the
    rules change in place) included; while nothing changes it is made once."""
    st = _unit_decisions("into-the-dark/wye-fords", 4, 1)[0]
    u = st.units[st.pending["unit"]]  # type: ignore[index]
    other = next(x for x in st.units.values() if x.id != u.id)
    memo, steps, made = st.plan_memo, (O.Fwd(1.0),), []

    def make() -> Any:
        made.append(1)
        return moves.plan_move_reference(st, u, steps)

    changes: list[Callable[[], object]] = [
        lambda: None,
        lambda: other.extra.update(fought_turn=st.turn),
        lambda: None,
        lambda: setattr(other, "fought", not other.fought),
        lambda: setattr(other, "pinned_sides", ("left",)),
    ]
    for change in changes:
        change()
        memo.plan(st.units, u.id, steps, make)
    assert len(made) == 4  # the first, then after each of the three changes


def test_the_units_compared_in_place_answer_as_the_snapshots_compared() -> None:
    """``refresh(units, snap)`` (a snapshot of as many units) answers ``unit_snapshot(units) ==
    snap`` and leaves ``snap`` equal to ``unit_snapshot(units)``: for the units as they stand, one
    field of one unit changed, ``extra`` changed. (A snapshot of another length is made anew by
    ``PlanMemo._check`` before ``refresh`` is asked.)"""
    st = _unit_decisions("into-the-dark/wye-fords", 4, 1)[0]
    units = st.units
    snap = unit_snapshot(units)
    cases: list[Any] = [list(snap)]
    for i, (f, extra) in enumerate(snap):
        for j in range(len(f)):
            cases.append([*snap[:i], (f[:j] + (object(),) + f[j + 1 :], extra), *snap[i + 1 :]])
        cases.append([*snap[:i], (f, {**extra, "odd": 1}), *snap[i + 1 :]])
    answers = []
    for sn in cases:
        expected = unit_snapshot(units) == sn
        answers.append(refresh(units, sn))
        assert answers[-1] is expected
        assert sn == unit_snapshot(units)
    assert sum(answers) == 1


def test_the_reference_path_keeps_no_plan() -> None:
    """On the reference path every move is planned afresh: the memo stays empty."""
    game = load_game("into-the-dark/senlac")
    with reference_path():
        played = play(game, 2, "scripted", "scripted")
    assert played.state.plan_memo.plans == {}  # type: ignore[attr-defined]
    played = play(game, 2, "scripted", "scripted")
    assert played.state.plan_memo.snap is not None  # type: ignore[attr-defined]


@pytest.mark.python_sources
def test_a_charge_ruled_out_on_its_run_is_ruled_out_without_that_answer(monkeypatch: Any) -> None:
    """At every ``charge_ruled_out`` of seeded battles, the verdict is the one given when the run's
    length is not looked at first (the early answer only reorders checks that each answer True)."""
    real = charge_plan.charge_ruled_out
    seen = {"early": 0, "same": 0}

    def both(u: Unit, t: Unit, lead: Any, world: Any, limit: float) -> bool:
        got = real(u, t, lead, world, limit)
        with reference_path():  # (the reference path skips the early answer)
            want = real(u, t, lead, world, limit)
        assert got == want, (u.id, t.id, lead, limit)
        fp = u.fp
        for s in lead:
            fp = wheel_fp(fp, s.angle) if isinstance(s, O.Wheel) else fp
        swept = charge_plan._sweep_to(t, fp)
        seen["early" if got and swept != float("inf") and swept > limit else "same"] += 1
        return got

    monkeypatch.setattr(charging, "charge_ruled_out", both)
    for scenario, seed in BATTLES:
        play(load_game(scenario), seed, "scripted", "scripted")
    assert seen["early"] > 100 and seen["same"] > 100, seen


def _draws(st: Any, n: int = 12) -> list[int]:
    return [int(x) for x in st.rng.integers(0, 1_000_000, size=n)]


def test_a_copy_draws_what_its_original_would_have_drawn() -> None:
    """A copy builds its generator when it first rolls (``IntoTheDarkState.rng``), from its
    original's generator as it stood at the copy: its draws are those of ``copy_rng`` at the copy,
    whatever the original (or another copy) drew since; so are a copy's copy's, and a state's
    after an illegal order put it back."""
    game = load_game("into-the-dark/wye-fords")
    st = game.new_state(7)
    _draws(st, 5)
    expected = _draws(_Wrap(copy_rng(st.rng)))  # the reference copy's draws, taken now
    c1 = st.copy()
    c2 = c1.copy()  # (a copy of a copy that has not rolled yet)
    assert c1.__dict__["_rng"] is None and c2.__dict__["_rng"] is None  # (nothing built yet)
    _draws(st, 7)  # the original goes on drawing
    assert _draws(c2) == expected
    _draws(c2, 3)
    assert _draws(c1) == expected
    after = _draws(_Wrap(copy_rng(c1.rng)))
    c3 = c1.copy()  # (a copy of a copy that has rolled)
    _draws(c1, 4)
    assert _draws(c3) == after
    # a state put back after an illegal order draws what it would have drawn
    before = _draws(_Wrap(copy_rng(st.rng)))
    try:
        st.apply(O.Charge("nobody", "nothing", (), False))
    except IllegalOrder:
        pass
    else:
        raise AssertionError("the order should be illegal")
    assert _draws(st) == before
    with reference_path():
        assert st.copy().__dict__["_rng"] is not None  # built at once on the reference path


class _Wrap:
    """A bare generator in the shape ``_draws`` reads (``.rng``)."""

    def __init__(self, rng: Any) -> None:
        self.rng = rng


VIEW_BATTLES = (
    ("into-the-dark/senlac", 5, {"command_and_control": True}),
    ("into-the-dark/wye-fords", 6, {"deployment": "alternate", "concealed_deployment": True}),
)


def test_every_view_is_the_view_made_afresh() -> None:
    """At every decision of seeded battles (Command & Control: generals joined to units;
    concealed deployment: units under face-down cards), ``view()`` and every ``view_of`` (the
    views kept per unit, ``view_memo``) are the views the reference path makes; many are kept."""
    kept = {"views": 0}
    for scenario, seed, opts in VIEW_BATTLES:
        game = load_game(scenario, opts)

        def each(state: Any, order: Any) -> None:
            before = len(state.view_memo.kept)
            got = state.view()
            ones = [state.view_of(uid) for uid in state.units]
            with reference_path():
                assert got == state.view()
                assert ones == [state.view_of(uid) for uid in state.units]
            kept["views"] += before

        play(game, seed, "scripted", "scripted", on_order=each)
    assert kept["views"] > 1000, kept


def test_a_view_given_out_is_not_the_kept_one() -> None:
    """A caller may change the view it is given: the next view of the unit is as the state is."""
    st = load_game("into-the-dark/senlac", {"command_and_control": True}).new_state(3)
    first = st.view()["units"]
    for v in first:
        v["x"] = -1.0
        v["faced"].append("rear")
        v["champions"].append("someone")
        v["hidden_from"].append("red")
        for m in v["mixed"]:
            m["figures"] = -1
    with reference_path():
        want = st.view()["units"]
    assert st.view()["units"] == want


@pytest.mark.python_sources
def test_an_advance_after_a_lead_checked_as_a_move_is_the_advance_traced_afresh(monkeypatch: Any) -> None:
    """The menu's advances after a wheel or an about face take the lead's trace from the check of
    the lead as a move of its own (``menus._ok_move_traced``): at every such advance of seeded
    battles the trace handed over is the one ``trace`` makes, and the advance offered is the one
    made with the lead traced again."""
    real = menus._advance
    seen = {"handed": 0, "traced": 0}

    def both(st: Any, u: Unit, lead: Any, budget: float, lead_trace: Any = None) -> Any:
        got = real(st, u, lead, budget, lead_trace)
        if lead_trace is None:
            seen["traced"] += 1
            return got
        fresh = trace(u, lead, st.world(), about_cost=moves.about_cost(st, u))
        assert lead_trace == fresh, (u.id, lead)
        assert got == real(st, u, lead, budget), (u.id, lead, budget)
        seen["handed"] += 1
        return got

    monkeypatch.setattr(menus, "_advance", both)
    for scenario, seed in BATTLES:
        play(load_game(scenario), seed, "scripted", "scripted")
    assert seen["handed"] > 200 and seen["traced"] > 200, seen


@pytest.mark.python_sources
def test_the_generals_footprints_are_those_of_the_view(monkeypatch: Any) -> None:
    """The scripted general keeps a unit's footprint from the decision before when the unit stands
    where it stood (``reckoning._fps``): at every decision of seeded battles each footprint is the
    one made from the view, and most are kept."""
    real = reckoning._fps
    seen = {"kept": 0, "made": 0}

    def both(units: Any, before: Any, seen_views: Any = None) -> Any:
        got = real(units, before, seen_views)
        for k, u in units.items():
            want = reckoning._fp(u)
            assert got[k] == want and got[k].corners() == want.corners(), k
            seen["kept" if before.get(k) is got[k] else "made"] += 1
        return got

    monkeypatch.setattr(reckoning, "_fps", both)
    for scenario, seed in BATTLES:
        play(load_game(scenario), seed, "scripted", "scripted")
    assert seen["kept"] > 2000 and seen["made"] > 200, seen


def test_a_footprint_is_kept_only_for_the_same_five_numbers() -> None:
    """Each of the five numbers of a unit's rectangle, changed alone, makes a new footprint."""
    u = {"x": 10.0, "y": 12.0, "heading": 30.0, "frontage": 6.0, "depth": 2.0}
    before = {"a": reckoning._fp(u)}
    assert reckoning._fps({"a": dict(u)}, before)["a"] is before["a"]
    for k in u:
        changed = {**u, k: u[k] + 0.5}
        got = reckoning._fps({"a": changed}, before)["a"]
        assert got == reckoning._fp(changed) and got != before["a"], k


def test_the_moves_of_a_menu_compare_the_units_once_and_only_while_worked_out() -> None:
    """A menu's moves are worked out with the units compared once (``PlanMemo.held``); once they
    are, a unit changed directly makes the memo plan again: each move is then answered as the
    reference answers."""
    differed = 0
    for st in _unit_decisions("into-the-dark/senlac", 4, 4):
        u = st.units[st.pending["unit"]]  # type: ignore[index]
        offered = menus.UnitMenu(st, u).moves()
        assert offered and st.plan_memo.plans and st.plan_memo._held is None
        u.used = moves.base_allowance(st, u) - 0.3
        for o in offered:
            want = _reference(st, u, o.steps)
            assert _planned(st, u, o.steps) == want, o
            differed += isinstance(want, str)
    assert differed > 5


def test_state_fields_are_every_field_but_extra_and_the_footprint_cache() -> None:
    """``Unit.state_fields`` (the memos' key, compiled) is ``attrgetter`` of every field of ``Unit``
    but ``extra`` and ``_fpc``, in their order, item for item (equal, of the same type), for every unit
    after every order of two seeded battles; a field added to ``Unit`` and not to it fails here."""
    from dataclasses import fields
    from operator import attrgetter

    names = [f.name for f in fields(Unit) if f.name not in ("extra", "_fpc")]
    get = attrgetter(*names)
    seen = 0

    def check(st: Any, _order: Any) -> None:
        nonlocal seen
        for u in st.units.values():
            mine, ref = u.state_fields(), get(u)
            assert len(mine) == len(names) == len(ref)
            assert all(type(a) is type(b) and a == b for a, b in zip(mine, ref, strict=True)), u.id
            seen += 1

    for scenario, seed in (("into-the-dark/senlac", 2), ("into-the-dark/wye-fords", 3)):
        play(load_game(scenario), seed, "scripted", "random", on_order=check)
    assert seen > 1000


def _other(v: Any) -> Any:
    """A value of a field unequal to ``v`` (``test_same_fields...``)."""
    if isinstance(v, bool):
        return not v
    if isinstance(v, (int, float)):
        return v + 1
    if isinstance(v, str):
        return v + "x"
    if v is None:
        return "x"
    if isinstance(v, tuple):
        return (*v, "x")
    return copy.copy(v)  # (the army entry: another object, compared by identity)


def test_same_fields_is_the_tuples_compared_and_misses_no_field() -> None:
    """``Unit.same_fields`` (the memos' comparison with nothing built) answers True for a unit's
    own ``state_fields()`` and False when any one field differs (each field changed in turn: a field
    left out of it fails here); over two seeded battles, for every unit after every order, it answers
    what comparing the tuples answers (the same unit at the order before: some changed, most not)."""
    game = load_game("into-the-dark/senlac")
    st = game.new_state(2)
    u = next(iter(st.units.values()))
    t = u.state_fields()
    assert u.same_fields(t) and not u.same_fields(t[:-1])
    for i in range(len(t)):
        assert not u.same_fields((*t[:i], _other(t[i]), *t[i + 1 :])), i
    before: dict[str, tuple[Any, ...]] = {}
    counts = {True: 0, False: 0}

    def check(s: Any, _order: Any) -> None:
        for v in s.units.values():
            was = before.get(v.id)
            if was is not None:
                same = v.same_fields(was)
                assert same == (was == v.state_fields()), v.id
                counts[same] += 1
            before[v.id] = v.state_fields()

    for scenario, seed in (("into-the-dark/senlac", 2), ("into-the-dark/wye-fords", 3)):
        before.clear()
        play(load_game(scenario), seed, "scripted", "random", on_order=check)
    assert counts[True] > 1000 and counts[False] > 100, counts
