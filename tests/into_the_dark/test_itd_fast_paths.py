"""The into-the-dark engine's fast paths (issue 16) answer exactly what the plain code answers.

Each replaced kernel is kept as a reference (``*_reference``) and compared with its fast version on
random positions (Hypothesis): units scattered, stood flush against each other (contacts), moved one
at a time and many at once, taken off the table; and on the positions of seeded battles.
"""

from __future__ import annotations

import math
from dataclasses import fields
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import Footprint
from shieldwall.io.scenarios import load_game
from shieldwall.match import play
from shieldwall.rulesets.into_the_dark import charge_plan, charging
from shieldwall.rulesets.into_the_dark import orders as O
from shieldwall.rulesets.into_the_dark.charge_plan import charge_ruled_out, plan_charge
from shieldwall.rulesets.into_the_dark.charging import check_charge
from shieldwall.rulesets.into_the_dark.contacts import poses_of, same_poses, touches_reference
from shieldwall.rulesets.into_the_dark.model import FootprintMemo, Unit
from shieldwall.rulesets.into_the_dark.movement import (
    REACH_SLACK,
    Problem,
    Trace,
    _check_sample_reference,
    _Path,
    about_fp,
    path_reach,
    wheel_fp,
)
from shieldwall.rulesets.into_the_dark.scenario import overlap_problem, overlap_problem_reference
from shieldwall.rulesets.into_the_dark.spatial import (
    corridor,
    meets,
    meets_reference,
    terrain_under_reference,
)
from shieldwall.rulesets.into_the_dark.state import IntoTheDarkState
from shieldwall.rulesets.into_the_dark.terrain_grid import terrain_under
from shieldwall.rulesets.into_the_dark.turns import AFTER_MOVEMENT

_GAMES: dict[str, Any] = {}


def _state(scenario: str = "into-the-dark/senlac", seed: int = 1) -> IntoTheDarkState:
    game = _GAMES.get(scenario)
    if game is None:
        game = _GAMES[scenario] = load_game(scenario)
    st_ = game.new_state(seed)
    assert isinstance(st_, IntoTheDarkState)
    return st_


def _check_contacts(s: IntoTheDarkState) -> int:
    """Every unit's ``touching`` against the reference; the contacts found."""
    n = 0
    for u in s.units.values():
        want = touches_reference(u, s.units)
        assert s.touching(u) == want, u.id
        assert s.in_melee(u) == (u.on_table and bool(want))
        n += len(want)
    everyone = list(s.units.values())
    assert s.touching_each(everyone) == [touches_reference(u, s.units) for u in everyone]
    w = s.world()
    assert w.in_melee == {u.id for u in s.live() if touches_reference(u, s.units)}
    return n


def _flush_against(a: Unit, b: Unit, edge: str, offset: float, gap: float) -> None:
    """Stand ``a`` with its front flush against ``b``'s ``edge`` (``offset`` along it, ``gap`` off it)."""
    fb = b.fp
    p, q = fb.edge(edge)
    mx, my = (p[0] + q[0]) / 2.0, (p[1] + q[1]) / 2.0
    cx, cy = fb.centre
    nx, ny = mx - cx, my - cy
    ln = math.hypot(nx, ny)
    nx, ny = nx / ln, ny / ln
    ux, uy = q[0] - p[0], q[1] - p[1]
    lu = math.hypot(ux, uy) or 1.0
    a.x = mx + nx * gap + ux / lu * offset
    a.y = my + ny * gap + uy / lu * offset
    a.heading = math.degrees(math.atan2(-nx, -ny)) % 360.0


_move = st.tuples(
    st.integers(0, 99),  # which unit
    st.sampled_from(["scatter", "flush", "off", "on", "turn"]),
    st.integers(0, 99),  # the other unit (flush)
    st.sampled_from(["front", "right", "rear", "left"]),
    st.floats(-3.0, 3.0),  # offset along the edge / new position
    st.sampled_from([0.0, 0.0, 0.01, 0.04, 0.06, 0.2, -0.01]),  # gap off the edge
    st.floats(0.0, 72.0),
    st.floats(0.0, 48.0),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(_move, min_size=1, max_size=14), min_size=1, max_size=6))
def test_touching_matches_the_all_pairs_reference_on_random_positions(batches: list[list[Any]]) -> None:
    s = _state()
    ids = list(s.units)
    _check_contacts(s)
    copies = [s]
    for batch in batches:
        for k, what, j, edge, off, gap, x, y in batch:
            u = s.units[ids[k % len(ids)]]
            o = s.units[ids[j % len(ids)]]
            if what == "scatter":
                u.x, u.y = x, y
            elif what == "flush" and o.id != u.id:
                _flush_against(u, o, edge, off, gap)
            elif what == "off":
                u.gone = True
            elif what == "on":
                u.gone = False
            elif what == "turn":
                u.heading = (u.heading + off * 30.0) % 360.0
        _check_contacts(s)
        copies.append(s.copy())  # a copy shares the cache until one of them moves
        s = copies[-1]
    for c in copies:
        _check_contacts(c)


def test_touching_matches_the_reference_at_every_decision_of_seeded_battles() -> None:
    found = 0
    for scenario, seed in (("into-the-dark/senlac", 2), ("into-the-dark/wye-fords", 3)):
        game = load_game(scenario)

        def each(state: Any, order: Any) -> None:
            nonlocal found
            found += _check_contacts(state)

        play(game, seed, "random", "random", on_order=each)
    assert found > 0  # the battles came to blows: contacts were compared, not only their absence


# --- positions along a path: the units near the path only ------------------------------------


def _outcome(fn: Any) -> tuple[Any, ...]:
    tr = Trace(fp=Footprint(0, 0, 0, 1, 1))
    try:
        got: Any = fn(tr)
    except Problem as p:
        got = ("problem", p.clause, p.reason)
    return (got, tr.disorder, tr.passed, tr.both_moving, tr.difficult, tr.off_table)


_sample = st.tuples(
    st.one_of(st.floats(0.0, 1.0), st.just(1.0)),  # how far along the reach
    st.floats(0.0, 360.0),  # in which direction
    st.floats(0.0, 360.0),  # heading
    st.one_of(st.none(), st.integers(0, 99)),  # or straight at this unit
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 99),
    st.lists(st.tuples(st.integers(0, 99), st.floats(0.0, 72.0), st.floats(0.0, 48.0)), max_size=8),
    st.one_of(st.floats(0.0, 14.0), st.just(0.0)),
    st.lists(st.integers(0, 99), max_size=2),
    st.booleans(),
    st.lists(_sample, min_size=1, max_size=25),
    st.sampled_from(["senlac", "wye-fords"]),
)
def test_path_checks_match_the_reference_on_random_positions(
    k: int,
    crowd: list[tuple[int, float, float]],
    reach: float,
    ignored: list[int],
    allow_off: bool,
    samples: list[tuple[float, float, float, int | None]],
    scenario: str,
) -> None:
    s = _state(f"into-the-dark/{scenario}")
    ids = list(s.units)
    for j, x, y in crowd:  # units drawn together, so that paths meet them
        v = s.units[ids[j % len(ids)]]
        v.x, v.y = x, y
    u = s.units[ids[k % len(ids)]]
    s.units[ids[(k + 1) % len(ids)]].moved = True  # a friend that moved this turn
    world = s.world()
    start = u.fp
    ignore = {ids[i % len(ids)] for i in ignored}
    path = _Path(u, world, start, reach, ignore, allow_off)
    for frac, bearing, heading, aim in samples:
        d = frac * reach
        a = math.radians(bearing)
        if aim is not None:
            t = s.units[ids[aim % len(ids)]].fp
            a = math.atan2(t.x - start.x, t.y - start.y)
        fp = Footprint(
            start.x + d * math.sin(a), start.y + d * math.cos(a), heading, start.frontage, start.depth
        )
        want = _outcome(lambda tr, fp=fp: _check_sample_reference(u, fp, world, tr, ignore, allow_off))
        assert _outcome(lambda tr, fp=fp: path.check(fp, tr)) == want


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.builds(O.Fwd, st.floats(0.1, 8.0)),
            st.builds(O.Back, st.floats(0.1, 3.0)),
            st.builds(O.Wheel, st.floats(-180.0, 180.0).filter(lambda a: abs(a) > 0.01)),
            st.just(O.About()),
        ),
        min_size=1,
        max_size=5,
    ),
    st.floats(0.5, 30.0),
    st.floats(0.5, 6.0),
)
def test_every_position_of_a_path_lies_within_its_reach(
    steps: list[Any], frontage: float, depth: float
) -> None:
    """The bound ``_Path`` filters by: no position along ``steps`` is further from the start."""
    start = Footprint(30.0, 20.0, 37.0, frontage, depth)
    reach = path_reach(start, steps)
    fp = start
    for s in steps:
        if isinstance(s, O.Fwd):
            ends = [fp.moved(*(c * s.distance * t for c in fp.forward)) for t in (0.25, 0.5, 1.0)]
        elif isinstance(s, O.Back):
            ends = [fp.moved(*(-c * s.distance * t for c in fp.forward)) for t in (0.25, 0.5, 1.0)]
        elif isinstance(s, O.About):
            ends = [about_fp(fp)]
        else:
            ends = [wheel_fp(fp, s.angle * t) for t in (0.25, 0.5, 0.75, 1.0)]
        for e in ends:
            assert math.hypot(e.x - start.x, e.y - start.y) <= reach + REACH_SLACK
        fp = ends[-1]


# --- the terrain under a footprint: the grid against every feature ----------------------------


def _boundary_points(terrain: Any) -> list[tuple[float, float]]:
    """Vertices of every feature and points along its outline (and the crossings' centres)."""
    out: list[tuple[float, float]] = []
    for f in terrain.features:
        pts = list(f.points)
        out.extend(pts)
        ring = pts if f.linear else [*pts, pts[0]]
        for a, b in zip(ring, ring[1:], strict=False):
            for t in (0.25, 0.5, 0.9):
                out.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
        out.extend(c.at for c in f.crossings)
    return out


_fp_spec = st.tuples(
    st.integers(0, 10_000),  # a boundary point (or none: anywhere)
    st.booleans(),
    st.floats(-80.0, 160.0),
    st.floats(-60.0, 110.0),
    st.floats(0.0, 360.0),
    st.floats(0.2, 25.0),
    st.floats(0.2, 8.0),
    st.sampled_from([0.0, 0.0, 1e-9, -1e-9, 0.5, -0.5, 1e-7, 2.0]),  # off the point along x
    st.sampled_from(["centre", "corner", "front"]),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["senlac", "wye-fords"]), st.lists(_fp_spec, min_size=1, max_size=30))
def test_terrain_under_from_the_grid_matches_every_feature_looked_at(scenario: str, specs: list[Any]) -> None:
    terrain = _state(f"into-the-dark/{scenario}").terrain
    edge = _boundary_points(terrain)
    for i, on_edge, x, y, heading, frontage, depth, nudge, anchor in specs:
        fp = Footprint(x, y, heading, frontage, depth)
        if on_edge:  # put the centre, a corner or the front's centre on the outline
            px, py = edge[i % len(edge)]
            if anchor == "corner":
                cx, cy = fp.corners()[i % 4]
            elif anchor == "front":
                cx, cy = fp.front_centre
            else:
                cx, cy = fp.x, fp.y
            fp = fp.moved(px - cx + nudge, py - cy)
        want = terrain_under_reference(fp, terrain)
        got = terrain_under(fp, terrain)
        assert got == want
        got.clear()  # the caller's own list: the kept answer is untouched
        assert terrain_under(fp, terrain) == want


def test_terrain_under_on_a_dense_lattice_of_the_table_and_its_edges() -> None:
    """Every point of a 0.25" lattice (cell boundaries included), four sizes, eight headings."""
    for scenario in ("senlac", "wye-fords"):
        terrain = _state(f"into-the-dark/{scenario}").terrain
        seen = 0
        for ix in range(-8, int(terrain.width * 4) + 9, 3):
            for iy in range(-8, int(terrain.depth * 4) + 9, 3):
                for k, (w, d) in enumerate(((0.8, 0.8), (6.3, 1.57), (9.45, 3.94), (3.0, 12.0))):
                    fp = Footprint(ix / 4.0, iy / 4.0, 45.0 * ((ix + iy + k) % 8), w, d)
                    got = terrain_under(fp, terrain)
                    assert got == terrain_under_reference(fp, terrain), (fp, got)
                    seen += bool(got)
        assert seen > 0


# --- copies and look-aheads --------------------------------------------------------------------


def test_a_units_clone_is_its_reference_clone_field_for_field() -> None:
    s = _state("into-the-dark/wye-fords")
    for u in s.units.values():
        u.extra["mark"] = [1]
        u.fp  # noqa: B018 - fills the footprint cache, which the clone carries
        for c in (u.clone(), u.clone_reference()):
            assert [getattr(c, f.name) for f in fields(Unit)] == [getattr(u, f.name) for f in fields(Unit)]
            assert c.extra is not u.extra and c is not u


def _odd(name: str, v: Any, fp: Footprint) -> Any:
    """A value of ``v``'s type that no other field of the unit holds."""
    if isinstance(v, bool):
        return True
    if isinstance(v, int):
        return 12345
    if isinstance(v, float):
        return 1234.5
    if isinstance(v, dict):
        return {"odd": [1]}
    if name in ("faced", "pinned_sides"):
        return ("odd",)
    if name == "_fpc":
        return FootprintMemo(9.5, 9.5, 9.5, 9, 9, 9.5, 9.5, fp)
    if name == "spec":
        return v.model_copy()
    return "odd"  # the strings, and the fields that are a string or None


def test_a_units_clone_passes_every_field_in_its_place() -> None:
    """``Unit.clone`` passes the fields by position: each field in turn set to a value no other
    field holds (every flag but it False), and the clone is the unit field for field (a field
    passed in another's place, or left out for its default, fails it)."""
    s = _state("into-the-dark/wye-fords")
    u = next(iter(s.units.values()))
    fp = u.fp
    names = [f.name for f in fields(Unit)]
    for name in names:
        x = u.clone_reference()
        for n in names:
            if isinstance(getattr(x, n), bool):
                setattr(x, n, False)
        setattr(x, name, _odd(name, getattr(x, name), fp))
        c = x.clone()
        assert [getattr(c, n) for n in names] == [getattr(x, n) for n in names], name
        assert c.spec is x.spec and c.extra is not x.extra and c._fpc is x._fpc


def test_the_poses_compared_in_place_answer_as_the_lists_compared() -> None:
    """``same_poses(units, poses)`` is ``poses_of(units) == poses`` (``Contacts.sync``'s question):
    for the units as they stand, each part of each unit's pose changed, a unit fewer or one more."""
    st = _state("into-the-dark/wye-fords")
    units = st.units
    poses = poses_of(units)
    last = list(units)[-1]
    fewer = {k: u for k, u in units.items() if k != last}
    cases: list[tuple[Any, Any]] = [(units, poses), (fewer, poses), (units, poses[:-1])]
    cases += [(units, [*poses, poses[0]]), ({**units, "z": units[last]}, poses)]
    for i, p in enumerate(poses):
        for j in range(len(p)):
            odd = not p[j] if isinstance(p[j], bool) else p[j] + 1
            cases.append((units, [*poses[:i], p[:j] + (odd,) + p[j + 1 :], *poses[i + 1 :]]))
    for us, ps in cases:
        assert same_poses(us, ps) is (poses_of(us) == ps)
    assert sum(same_poses(us, ps) for us, ps in cases) == 1


def test_probe_is_copy_and_apply_and_leaves_the_state_alone() -> None:
    """At every decision of a seeded battle, ``probe`` of every legal order (and of an illegal one)
    gives the events and the units that ``copy().apply`` gives, played no further than the end of
    the Movement phase it is made in, and changes nothing: where the copy stopped at a decision (or
    the end) it is ``copy().apply``'s state; where it stopped at the end of the phase, its events
    are the first of ``copy().apply``'s and the next task begins the other side's Movement phase
    or a later phase (``turns.AFTER_MOVEMENT``)."""
    game = load_game("into-the-dark/senlac")
    looked = 0
    seen = {"same": 0, "stopped": 0}

    def each(state: Any, order: Any) -> None:
        nonlocal looked
        if state.is_terminal() or looked > 400:
            return
        before = [e.to_dict() for e in state.events]
        for o in [*state.legal_orders()[:6], O.Move("nobody", (O.Fwd(1.0),))]:
            c = state.copy()
            try:
                want: Any = ([e.to_dict() for e in c.apply(o)], c.view())
            except IllegalOrder:
                want = None
            got = state.probe(o)
            if got is not None and want is not None:
                p, evs = got
                assert [u["id"] for u in p.view()["units"]] == list(p.units)
                assert all(p.view_of(k) == v for k, v in zip(p.units, p.view()["units"], strict=True))
                events = [e.to_dict() for e in evs]
                if p.pending is None and not p.is_terminal():
                    task = p.queue[0]
                    assert task[0] in AFTER_MOVEMENT or (
                        task[0] == "move-phase" and task[1] != state.__dict__.get("mover")
                    ), (o, task)
                    assert state.phase == "movement"
                    assert events == want[0][: len(events)] and len(events) < len(want[0]), o
                    seen["stopped"] += 1
                else:
                    assert (events, p.view()) == want, o
                    seen["same"] += 1
            else:
                assert got is None and want is None, o
            looked += 1
        assert [e.to_dict() for e in state.events] == before

    play(game, 4, "scripted", "random", on_order=each)
    assert looked > 100
    assert seen["same"] > 100 and seen["stopped"] > 5, seen


# --- zones met, and units overlapping at deployment --------------------------------------------


_rect = st.tuples(
    st.floats(0.0, 30.0),
    st.floats(0.0, 30.0),
    st.floats(0.0, 360.0),
    st.floats(0.1, 12.0),
    st.floats(0.1, 6.0),
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(_rect, min_size=2, max_size=12), st.floats(0.5, 8.0), st.sampled_from(["front", "rear", "left"])
)
def test_meets_stops_early_with_the_verdict_of_the_full_search(
    rects: list[tuple[float, ...]], length: float, edge: str
) -> None:
    fps = [Footprint(*r) for r in rects]
    # also rectangles flush against another's edge, and a zone straight out of the first
    a, b = fps[0].edge(edge)
    fps.append(Footprint((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, fps[0].heading, 1.0, 1e-6))
    polys = [f.corners() for f in fps] + [corridor(fps[0], edge, length)]
    for p in polys:
        for q in polys:
            assert meets(p, q) == meets_reference(p, q)


@settings(max_examples=150, deadline=None)
@given(st.lists(_rect, min_size=0, max_size=40), st.floats(0.5, 3.0))
def test_overlap_problem_names_the_pair_the_all_pairs_reference_names(
    rects: list[tuple[float, ...]], spread: float
) -> None:
    fps = [(f"u{i}", Footprint(x * spread, y * spread, h, w, d)) for i, (x, y, h, w, d) in enumerate(rects)]
    assert overlap_problem(fps) == overlap_problem_reference(fps)


# --- charge menus: the impetuous variant from the plain charge's plan ----------------------------


def test_charge_menus_offer_an_impetuous_charge_exactly_when_check_charge_allows_it() -> None:
    """``charge_orders`` decides the impetuous variant from the plan of the plain charge (it used to
    plan the charge a second time): at every menu of seeded battles, each charge offered passes
    ``check_charge`` as offered, and a plain charge without its impetuous twin fails it impetuously."""
    compared = 0
    kinds: set[tuple[bool, bool]] = set()
    for scenario, seed in (("into-the-dark/senlac", 5), ("into-the-dark/wye-fords", 6)):
        game = load_game(scenario)

        def each(state: Any, order: Any) -> None:
            nonlocal compared
            if state.is_terminal():
                return
            menu = state.legal_orders()
            charges = [o for o in menu if isinstance(o, O.Charge)]
            for o in charges:
                c, t = state.units[o.unit], state.units[o.target]
                opp = state.pending["kind"] == "opportunity"
                check_charge(state, c, t, o.steps, o.impetuous, opp)  # raises if it should not be offered
                twin = O.Charge(o.unit, o.target, o.steps, True) in charges
                kinds.add((o.impetuous, twin))
                if not o.impetuous and not twin:
                    try:
                        check_charge(state, c, t, o.steps, True, opp)
                    except IllegalOrder:
                        pass
                    else:
                        raise AssertionError(f"{o} may be impetuous but is not offered so")
                compared += 1

        play(game, seed, "scripted", "scripted", on_order=each)
    assert compared > 30
    assert {(True, True), (False, True), (False, False)} <= kinds  # both verdicts were compared


# --- charge menus: charges ruled out before they are traced ---------------------------------------


@pytest.mark.python_sources
def test_a_charge_ruled_out_untraced_is_one_its_plan_refuses(monkeypatch: Any) -> None:
    """``charge_orders`` skips the charges ``charge_ruled_out`` rules out without tracing them: at
    every such verdict of seeded battles, the full plan raises ``Problem`` or costs more than the
    charge may (so ``check_charge`` would have refused it and the menu is the same)."""
    seen = {True: 0, False: 0}
    why: set[str] = set()

    def spy(u: Unit, t: Unit, lead: Any, world: Any, limit: float) -> bool:
        got = charge_ruled_out(u, t, lead, world, limit)
        seen[got] += 1
        if got:
            try:
                plan = plan_charge(u, t, lead, world)
            except Problem as p:
                why.add(p.clause)
            else:
                assert plan.cost > limit + 1e-6, (u.id, t.id, lead, plan.cost, limit)
                why.add("cost")
        return got

    monkeypatch.setattr(charging, "charge_ruled_out", spy)
    for scenario, seed in (("into-the-dark/senlac", 5), ("into-the-dark/wye-fords", 6)):
        play(load_game(scenario), seed, "scripted", "scripted")
    assert seen[True] > 100 and seen[False] > 100, seen
    assert {"cost", "movement.charging"} <= why, why  # both kinds of verdict were checked


@pytest.mark.python_sources
def test_the_run_to_contact_measures_only_enemies_it_can_meet(monkeypatch: Any) -> None:
    """``_run_to_contact`` leaves unmeasured the enemies further than the run (``RUN_SLACK``); at
    every run of seeded battles it answers (or refuses) exactly as when every enemy is measured."""
    real = charge_plan._run_to_contact
    runs = {"answered": 0, "refused": 0}

    def both(u: Unit, t: Unit, fp: Footprint, world: Any, run: float | None = None) -> Any:
        def once(slack: float) -> Any:
            monkeypatch.setattr(charge_plan, "RUN_SLACK", slack)
            try:
                return real(u, t, fp, world, run)
            except Problem as p:
                return p
            finally:
                monkeypatch.setattr(charge_plan, "RUN_SLACK", 1e-6)

        got, want = once(1e-6), once(math.inf)
        if isinstance(want, Problem):
            assert isinstance(got, Problem) and str(got) == str(want)
            runs["refused"] += 1
            raise got
        assert got == want
        runs["answered"] += 1
        return got

    monkeypatch.setattr(charge_plan, "_run_to_contact", both)
    # (four battles: since charge_ruled_out rules most charges out on the sweep to the target alone,
    # two battles run fewer than 100 runs to contact that are refused)
    battles = (("into-the-dark/senlac", 5), ("into-the-dark/wye-fords", 6))
    for scenario, seed in (*battles, ("into-the-dark/senlac", 6), ("into-the-dark/wye-fords", 7)):
        play(load_game(scenario), seed, "scripted", "scripted")
    assert runs["answered"] > 100 and runs["refused"] > 100, runs
