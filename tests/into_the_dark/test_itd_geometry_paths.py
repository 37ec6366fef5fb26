"""The geometry of into-the-dark checked along paths, not only at end positions (issue 17): the
swept area of moves, wheels, charges, drive-backs (and the friends they push), routs and the forced
straight runs (evades, pursuits, break-offs), the column of a Turning maneuver, and lines of sight
through what lies between.

The oracle (``_sweep_enters``) samples points of each footprint along the path (every 0.1" and 1
degree) and asks the terrain polygons directly, so these tests do not re-use the engine's terrain
checks. What a unit may not enter, from the text: "Dense woods and swamps ... May not be entered by
mounted" (terrain.restrictive); "Deep water - may not be entered at all under normal circumstances"
(terrain.deep-water: the deep-water and lake kinds), save the forced entries of drive-backs and
routs; "No unit may pass through an enemy unit, or pass through a friendly one that is in melee or
routing" (movement.interpenetration).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from shieldwall.ai.base import Bot, bot_seed
from shieldwall.ai.random_bot import RandomBot
from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import Footprint, heading_vector
from shieldwall.core.polygons import point_in_polygon, polyline_distance_to_point
from shieldwall.core.terrain import TerrainMap
from shieldwall.match import play
from shieldwall.rulesets import into_the_dark
from shieldwall.rulesets.into_the_dark import act_form, act_retreat
from shieldwall.rulesets.into_the_dark import orders as O
from shieldwall.rulesets.into_the_dark.bots import ScriptedBot
from shieldwall.rulesets.into_the_dark.game import IntoTheDarkGame
from shieldwall.rulesets.into_the_dark.model import Unit
from shieldwall.rulesets.into_the_dark.movement import about_fp, max_straight, wheel_fp

from .playkit import RS, events, game, last, scenario, start, u

#: "Dense woods and swamps ... May not be entered by mounted" (terrain.restrictive)
NO_MOUNTED = {"dense-woods", "swamp"}
#: "Deep water - may not be entered at all under normal circumstances" (terrain.deep-water)
NO_ONE = {"deep-water", "lake"}
#: Points this far inside a footprint's edges are sampled: a wheel is checked every 6 degrees and
#: 0.4" of its outside edge (movement.SAMPLE), which leaves slivers under 0.1" at the outer corners.
TOL = 0.12


def area(kind: str, x0: float, y0: float, x1: float, y1: float) -> dict[str, object]:
    return {"id": kind, "kind": kind, "points": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}


def refused(st: Any, order: str) -> IllegalOrder:
    with pytest.raises(IllegalOrder) as e:
        st.copy().apply(order)
    return e.value


# --- the oracle ------------------------------------------------------------------------------------


def _forbidden(u: Unit, deep_ok: bool) -> set[str]:
    out = set() if deep_ok else set(NO_ONE)
    if u.mounted:
        out |= NO_MOUNTED
    return out


def _fp_enters(fp: Footprint, kinds: set[str], terrain: TerrainMap) -> str | None:
    """A feature of ``kinds`` that a point of ``fp`` (shrunk by TOL) lies in."""
    fx, fy = heading_vector(fp.heading)
    rx, ry = fy, -fx
    w, d = fp.frontage / 2 - TOL, fp.depth / 2 - TOL
    if w <= 0 or d <= 0:
        return None
    na, nd = max(2, math.ceil(2 * w / 0.25)), max(2, math.ceil(2 * d / 0.25))
    feats = [
        f
        for f in terrain.features
        if f.kind in kinds
        and min(p[0] for p in f.points) - f.width <= fp.x + fp.radius
        and max(p[0] for p in f.points) + f.width >= fp.x - fp.radius
        and min(p[1] for p in f.points) - f.width <= fp.y + fp.radius
        and max(p[1] for p in f.points) + f.width >= fp.y - fp.radius
    ]
    if not feats:
        return None
    for i in range(na + 1):
        a = -w + 2 * w * i / na
        for j in range(nd + 1):
            b = -d + 2 * d * j / nd
            p = (fp.x + rx * a + fx * b, fp.y + ry * a + fy * b)
            for f in feats:
                if f.linear:
                    if (
                        polyline_distance_to_point(p, f.points) < f.width / 2 - TOL
                        and f.crossing_at(p) is None
                    ):
                        return f.id
                elif point_in_polygon(p, f.points):
                    return f.id
    return None


def _straight(fp: Footprint, dx: float, dy: float) -> Iterator[Footprint]:
    n = max(1, math.ceil(math.hypot(dx, dy) / 0.1))
    for i in range(n + 1):
        yield fp.moved(dx * i / n, dy * i / n)


def _replay(fp: Footprint, steps: tuple[O.Step, ...] | list[O.Step]) -> Iterator[Footprint]:
    """The footprints along a Move's steps (kinematics only: forward, back, wheel, about face)."""
    yield fp
    for s in steps:
        if isinstance(s, O.About):
            fp = about_fp(fp)  # a turn on the spot: checked where it ends
            yield fp
        elif isinstance(s, O.Fwd | O.Back):
            fx, fy = heading_vector(fp.heading)
            sign = 1.0 if isinstance(s, O.Fwd) else -1.0
            yield from _straight(fp, sign * fx * s.distance, sign * fy * s.distance)
            fp = fp.moved(sign * fx * s.distance, sign * fy * s.distance)
        else:
            n = max(1, math.ceil(abs(s.angle)))
            for i in range(1, n + 1):
                yield wheel_fp(fp, s.angle * i / n)
            fp = wheel_fp(fp, s.angle)


def _path(fp0: Footprint, fp1: Footprint, steps: Any) -> list[Footprint] | None:
    """The path from ``fp0`` to ``fp1``: the order's own steps, else straight (forward or back), else
    a turn on the spot or a wheel and then straight. None when it is none of these."""
    if steps:
        path = list(_replay(fp0, steps))
        if math.dist(path[-1].centre, fp1.centre) < 1e-6 and abs(path[-1].heading - fp1.heading) % 360 < 1e-6:
            return path
    for first in (
        fp0,
        Footprint(fp0.x, fp0.y, fp1.heading, fp0.frontage, fp0.depth),
        wheel_fp(fp0, _dh(fp0, fp1)),
    ):
        dx, dy = fp1.x - first.x, fp1.y - first.y
        fx, fy = heading_vector(first.heading)
        if abs(_dh(first, fp1)) < 1e-6 and abs(dx * fy - dy * fx) < 1e-6:
            return [fp0, *_straight(first, dx, dy)]
    return None


def _dh(a: Footprint, b: Footprint) -> float:
    return (b.heading - a.heading + 180.0) % 360.0 - 180.0


def _sweep_enters(u: Unit, path: list[Footprint], terrain: TerrainMap, deep_ok: bool) -> str | None:
    kinds = _forbidden(u, deep_ok)
    for fp in path:
        hit = _fp_enters(fp, kinds, terrain)
        if hit:
            return hit
    return None


# --- moves, wheels, charges --------------------------------------------------------------------------


def test_terrain_restrictive_mounted_may_not_pass_through_dense_woods() -> None:
    # a 2" belt of dense woods between the cavalry and where it would stop
    st = start(
        game(
            [u("r1", "LPM", 10, 5)],
            [u("b1", "CPF", 40, 34, 180)],
            terrain=[area("dense-woods", 0, 8, 48, 10)],
        )
    )
    e = refused(st, "move r1 fwd 8")  # would end at y 11..13, beyond the belt
    assert e.rule == f"{RS}:terrain.restrictive"
    st.apply("move r1 fwd 2.9")  # up to its edge: legal
    assert st.units["r1"].y == pytest.approx(7.9)


def test_terrain_restrictive_foot_pass_through_dense_woods_at_half_speed() -> None:
    st = start(
        game(
            [u("r1", "LPF", 10, 5)], [u("b1", "CPF", 40, 34, 180)], terrain=[area("dense-woods", 0, 6, 48, 7)]
        )
    )
    st.apply("move r1 fwd 4")  # 1" + the belt (1" of front then 1" of the rank behind it, each x2)
    assert st.units["r1"].y == pytest.approx(9) and st.units["r1"].disordered


def test_terrain_deep_water_no_move_across_a_deep_water_stream() -> None:
    stream = {"id": "s", "kind": "deep-water", "points": [[0, 9], [48, 9]], "width": 1}
    st = start(game([u("r1", "CPF", 10, 5)], [u("b1", "CPF", 40, 34, 180)], terrain=[stream]))
    e = refused(st, "move r1 fwd 6")  # front would end at y=11, the whole unit beyond the water
    assert e.rule == f"{RS}:terrain.deep-water"


def test_movement_wheeling_swept_arc_may_not_cross_dense_woods() -> None:
    # the outer end of a wheel sweeps a wood that lies neither where it starts nor where it ends
    wood = area("dense-woods", 12.2, 8.5, 13.5, 9.5)
    st = start(game([u("r1", "LPM", 10, 5)], [u("b1", "CPF", 40, 34, 180)], terrain=[wood]))
    r1 = st.units["r1"]
    path = list(_replay(r1.fp, [O.Wheel(-90.0)]))
    assert (
        _fp_enters(path[0], NO_MOUNTED, st.terrain) is None
        and _fp_enters(path[-1], NO_MOUNTED, st.terrain) is None
    )
    assert _sweep_enters(r1, path, st.terrain, False) == "dense-woods"
    e = refused(st, "move r1 wheel -90")
    assert e.rule == f"{RS}:terrain.restrictive"


def test_movement_interpenetration_no_passing_through_an_enemy() -> None:
    st = start(game([u("r1", "LPM", 10, 5)], [u("b1", "LUF", 10, 12, 90, figures=2, frontage=2)]))
    e = refused(st, "move r1 fwd 10")  # ends at y 13..15, clear beyond the enemy
    assert e.rule == f"{RS}:movement.interpenetration"


def test_movement_interpenetration_not_through_a_routing_friend() -> None:
    st = start(game([u("r1", "LPM", 10, 5), u("r2", "LPF", 10, 9, figures=4)], [u("b1", "CPF", 40, 34, 180)]))
    st.units["r2"].morale = "routed"
    e = refused(st, "move r1 fwd 9")  # ends beyond it
    assert e.rule == f"{RS}:movement.interpenetration" and "routing" in e.reason


def test_movement_charging_path_may_not_cross_dense_woods() -> None:
    g = game(
        [u("r1", "LPM", 10, 5)], [u("b1", "CPF", 10, 14, 180)], terrain=[area("dense-woods", 0, 8, 48, 9)]
    )
    st = start(g)
    e = refused(st, "charge r1 b1")
    assert e.rule in (f"{RS}:terrain.restrictive", f"{RS}:movement.charging")
    assert "terrain" in e.reason or e.rule == f"{RS}:terrain.restrictive"


# --- forced moves ------------------------------------------------------------------------------------


def test_movement_evading_straight_runs_stop_before_dense_woods() -> None:
    # max_straight is the run of evades, pursuits, break-offs and rally retreats
    st = start(
        game(
            [u("r1", "LPM", 10, 5)],
            [u("b1", "CPF", 40, 34, 180)],
            terrain=[area("dense-woods", 0, 9, 48, 10)],
        )
    )
    r1 = st.units["r1"]
    d, tr = max_straight(r1, r1.fp, 12.0, st.world())
    assert d == pytest.approx(4.0, abs=0.41) and tr is not None
    assert _sweep_enters(r1, list(_straight(r1.fp, 0, d)), st.terrain, False) is None


def test_combat_driven_back_blocked_part_way_by_dense_woods_routs() -> None:
    # a 1" belt behind the cavalry (y 18..20), which would end beyond it (y 14..16): it cannot move
    # back the full 4"
    g = game(
        [u("r1", "CPF", 10, 20, 180)],
        [u("b1", "LPM", 10, 20, figures=4)],
        terrain=[area("dense-woods", 0, 16.5, 48, 17.5)],
    )
    st = start(g)
    act_retreat.driven_back(st, "b1", 0.0, -1.0, ("r1",), (), ())
    ev = last(st, "driven-back-blocked")
    assert ev.rule == f"{RS}:combat.driven-back" and ev.data["blocked_by"] == "terrain it may not enter"
    assert st.units["b1"].y == pytest.approx(20)


def test_combat_driven_back_pushed_friend_path_may_not_cross_a_lake() -> None:
    # r2, behind r1, would be pushed across a strip of lake (and end dry beyond it)
    # also exercises into-the-dark:combat.driven-back.pushes
    g = game(
        [u("r1", "CPF", 10, 10), u("r2", "LPF", 13, 7.5, figures=4)],
        [u("b1", "CPF", 10, 10, 180)],
        terrain=[area("lake", 13, 4.5, 16, 5.0)],
    )
    st = start(g)
    act_retreat.driven_back(st, "r1", 0.0, -1.0, ("b1",), (), ())
    ev = last(st, "driven-back-blocked")
    assert ev.data == {"unit": "r1", "blocked_by": "r2", "why": "cannot be pushed back"}
    assert events(st, "pushed-back") == [] and st.units["r2"].y == pytest.approx(7.5)


def test_combat_driven_back_pushes_the_friend_it_meets_ahead_of_it() -> None:
    # a shallow friend just behind: the unit may not jump over it, it pushes it back ahead of itself
    g = game([u("r1", "CPF", 10, 10), u("r2", "LPF", 13, 7.5, figures=4)], [u("b1", "CPF", 10, 10, 180)])
    st = start(g)
    act_retreat.driven_back(st, "r1", 0.0, -1.0, ("b1",), (), ())
    ev = last(st, "pushed-back")
    assert ev.rule == f"{RS}:combat.driven-back" and ev.data["unit"] == "r2"
    r1, r2 = st.units["r1"], st.units["r2"]
    assert r1.y == pytest.approx(6) and r2.y <= r1.fp.corners()[2][1] + 1e-6  # r2's front behind r1's rear


def test_combat_rout_whole_unit_stands_clear_of_terrain_it_may_not_enter() -> None:
    # the 3-figure column finds the way past a wood, but the 8-figure-wide cavalry stops short of it
    g = game(
        [u("r1", "CPF", 30, 30)],
        [u("b1", "LPM", 20, 10, figures=8, frontage=8)],
        terrain=[area("dense-woods", 16, 14, 17.5, 20)],
    )
    st = start(g)
    b1 = st.units["b1"]
    b1.morale = "routed"
    fp0 = b1.fp
    act_retreat.rout_move(st, "b1", 8.0, (), (), ())
    ev = last(st, "rout-move")
    assert ev.rule == f"{RS}:combat.rout" and ev.data["stopped_short_of"] == "terrain.restrictive"
    assert ev.data["distance"] < 4.0 and _fp_enters(b1.fp, NO_MOUNTED, st.terrain) is None
    assert _sweep_enters(b1, list(_straight(fp0, 0, b1.fp.y - fp0.y)), st.terrain, False) is None


def test_maneuvers_turning_column_may_not_stand_in_dense_woods() -> None:
    g = game(
        [u("r1", "LPM", 20, 5, figures=8, frontage=8)],
        [u("b1", "CPF", 40, 34, 180)],
        terrain=[area("dense-woods", 10, 0, 14, 4.5)],
        options={"difficult_maneuvers": True},
    )
    st = start(g)
    e = refused(st, "turn r1 right")
    assert e.rule == f"{RS}:terrain.restrictive"
    assert "turn r1 right" not in {str(o) for o in st.legal_orders()}


def test_movement_menus_offer_no_move_through_forbidden_terrain() -> None:
    # the bots' menus are the legal orders: none of the cavalry's moves sweeps the wood or the lake
    g = game(
        [u("r1", "LPM", 20, 5)],
        [u("b1", "CPF", 40, 34, 180)],
        terrain=[area("dense-woods", 14, 8, 19, 11), area("lake", 22, 9, 28, 12)],
    )
    st = start(g)
    r1 = st.units["r1"]
    st.apply("activate r1")
    moves = [o for o in st.legal_orders() if isinstance(o, O.Move) and o.unit == "r1"]
    assert len(moves) > 3
    for m in moves:
        assert _sweep_enters(r1, list(_replay(r1.fp, m.steps)), st.terrain, False) is None, str(m)


def test_movement_charging_lining_up_not_into_dense_woods() -> None:
    # the charger meets b1 with one figure and would slide right to line up, into the wood: it lines
    # up where it may stand instead (here: where it met b1)
    g = game(
        [u("r1", "LPM", 17, 5)],
        [u("b1", "CPF", 20, 15, 180, figures=16, frontage=4)],
        terrain=[area("dense-woods", 19.5, 12.5, 21, 13.5)],
    )
    st = start(g)
    st.apply("charge r1 b1")
    st.apply("stand b1")
    r1 = st.units["r1"]
    assert _fp_enters(r1.fp, NO_MOUNTED, st.terrain) is None and st.in_melee(r1)
    assert r1.fp.corners()[0] == pytest.approx((15, 15))


def test_combat_flanks_and_rear_column_may_not_stand_in_dense_woods() -> None:
    # attacked on its right, the cavalry would form a column 8" long reaching back into the wood
    # also exercises into-the-dark:combat.flanks-and-rear.pinned
    g = game(
        [u("r1", "LPM", 10, 10, figures=4)],
        [u("b1", "CPF", 12, 9, 270, figures=2, frontage=2)],
        terrain=[area("dense-woods", 3, 8, 6, 10)],
    )
    st = start(g)
    r1 = st.units["r1"]
    assert [t.mine for t in st.touching(r1)] == ["right"]
    with pytest.raises(IllegalOrder) as e:
        act_form.plan_face(st, r1, "right", "column")
    assert e.value.rule == f"{RS}:terrain.restrictive"


def _with_general(
    terrain: list[dict[str, object]], enemy: tuple[float, float] = (20, 30), gy: float = 18.0
) -> Any:
    data = scenario(
        [u("r1", "CPF", 20, 10)],
        [u("b1", "CPF", *enemy, 180)],
        terrain=terrain,
        options={"command_and_control": True},
    )
    data["red"]["generals"] = [{"name": "Red general", "unit": "r1", "x": 20.0, "y": gy, "orders": "hold"}]
    data["blue"]["generals"] = [
        {"name": "Blue general", "x": 4.0, "y": 33.0, "heading": 180.0, "orders": "hold"}
    ]
    st = start(IntoTheDarkGame.from_data(data, "test.toml"))
    st.apply("activate red-g1")
    return st


def test_command_generals_join_not_across_deep_water() -> None:
    # the general (LMM, 12") stands 8" from r1 with a lake between: he may not ride across it
    st = _with_general([area("lake", 0, 12, 48, 15)])
    assert "join red-g1 r1" not in {str(o) for o in st.legal_orders()}
    e = refused(st, "join red-g1 r1")
    assert e.rule == f"{RS}:command.generals" and "terrain" in e.reason
    st2 = _with_general([])
    st2.apply("join red-g1 r1")
    assert st2.units["red-g1"].joined == "r1"


def test_command_generals_join_not_through_an_enemy_unit() -> None:
    st = _with_general([], enemy=(20, 14), gy=20.5)  # b1 at y 14..16, across his way
    e = refused(st, "join red-g1 r1")
    assert "enemy b1" in e.reason


# --- line of sight -----------------------------------------------------------------------------------


def _fire_menu(st: Any) -> set[str]:
    """The fire orders open to red this turn (empty if its Missile Fire phase is skipped)."""
    turn = st.turn
    while True:
        d = st.decision()
        if d is None or st.turn != turn:
            return set()
        if d.kind == "fire" and d.side == "red":
            return {str(o) for o in st.legal_orders()}
        st.apply("end" if d.kind == "fire" else st.legal_orders()[0])


def test_combat_target_eligibilities_a_unit_halfway_blocks_sight() -> None:
    # "No firing over other units": an enemy unit halfway, touching neither firer nor target
    bows = u("r1", "LUF", 10, 5, type_="missile", weapon="bow", figures=8, frontage=8)
    st = start(game([bows], [u("b1", "CPF", 10, 17, 180, figures=8, frontage=8)]))
    assert "shoot r1 b1" in _fire_menu(st)
    between = u("b2", "CPF", 10, 11, 180, figures=10, frontage=10)  # across the line at y 11..12
    st2 = start(game([bows], [u("b1", "CPF", 10, 17, 180, figures=8, frontage=8), between]))
    assert "shoot r1 b1" not in _fire_menu(st2)


def test_combat_target_eligibilities_dense_woods_between_block_sight() -> None:
    bows = u("r1", "LUF", 10, 5, type_="missile", weapon="bow", figures=8, frontage=8)
    wood = area("dense-woods", 0, 9, 48, 12)  # between them, neither stands in it
    st = start(game([bows], [u("b1", "CPF", 10, 17, 180, figures=8, frontage=8)], terrain=[wood]))
    assert "shoot r1 b1" not in _fire_menu(st)


def test_combat_target_eligibilities_a_hill_between_blocks_sight() -> None:
    bows = u("r1", "LUF", 10, 5, type_="missile", weapon="bow", figures=8, frontage=8)
    hill = area("hill", 0, 9, 48, 12)
    st = start(game([bows], [u("b1", "CPF", 10, 17, 180, figures=8, frontage=8)], terrain=[hill]))
    assert "shoot r1 b1" not in _fire_menu(st)


# --- the property ------------------------------------------------------------------------------------

SCENARIO_DIR = Path(into_the_dark.__file__).parent / "scenarios"
SCENARIOS = ["senlac", "wye-fords"]
BOTS = [("random", "random"), ("scripted", "random"), ("random", "scripted")]


def _bot(name: str, seed: int) -> Bot:
    return ScriptedBot(seed) if name == "scripted" else RandomBot(seed)


@contextmanager
def _placements(log: list[tuple[str, Footprint, Footprint]]) -> Iterator[None]:
    """Record every placement of a unit: (id, from, to)."""
    real = Unit.place

    def place(self: Unit, fp: Footprint) -> None:
        before = self.fp
        real(self, fp)
        log.append((self.id, before, self.fp))

    with mock.patch.object(Unit, "place", place):
        yield


@pytest.mark.python_sources  # patches Unit.place, which compiled callers do not see
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st_.integers(min_value=0, max_value=2**32 - 1),
    scenario=st_.sampled_from(SCENARIOS),
    bots=st_.sampled_from(BOTS),
)
def test_terrain_no_accepted_order_sweeps_into_forbidden_terrain(
    seed: int, scenario: str, bots: tuple[str, str]
) -> None:
    name = SCENARIO_DIR / f"{scenario}.toml"
    g = IntoTheDarkGame.from_data(tomllib.loads(name.read_text()), str(name))
    log: list[tuple[str, Footprint, Footprint]] = []
    seen = {"events": 0, "checked": 0}

    def watch(state: Any, order: Any) -> None:
        new = state.events[seen["events"] :]
        seen["events"] = len(state.events)
        forced = {
            e.data.get("unit")
            for e in new
            if e.kind in ("driven-back", "rout-move", "forced-into-deep-water")
        }
        moves = list(log)
        log.clear()
        for uid, fp0, fp1 in moves:
            x = state.units[uid]
            if (
                x.joined
                or fp0 == fp1
                or math.dist(fp0.centre, fp1.centre) < 1e-9
                and fp0.heading == fp1.heading
            ):
                continue
            steps = order.steps if isinstance(order, O.Move | O.Charge) and order.unit == uid else None
            path = _path(fp0, fp1, steps)
            if path is None:
                path = [fp1]  # not a path of its own (a charger lining up on contact): where it stands
            if x.routed and uid in forced:
                path = [Footprint(p.x, p.y, p.heading, min(p.frontage, 3 * x.fig_w), p.depth) for p in path]
                path.append(fp1)  # the column finds the way, the whole unit stands at the end
            deep_ok = uid in forced
            hit = _sweep_enters(x, path, state.terrain, deep_ok)
            assert hit is None, (scenario, seed, bots, str(order), uid, hit, fp0, fp1)
            seen["checked"] += 1

    with _placements(log):
        play(g, seed, _bot(bots[0], bot_seed(seed, 0)), _bot(bots[1], bot_seed(seed, 1)), on_order=watch)
    assert seen["checked"] > 0
