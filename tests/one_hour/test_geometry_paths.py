"""The geometry layer of one-hour-dark-ages checked along paths, not only at end positions: the
swept area of every move, way-point, charge and Fall Back! against terrain the unit may not enter
("Terrain", issue 17.1), sight lines through what lies between, and the bots' menus.

An independent oracle (``_band_enters``) samples points of the swept column and asks the terrain
features directly, so these tests do not re-use the engine's polygon tests.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from helpers import game, script, unit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import Footprint, Point
from shieldwall.core.polygons import point_in_polygon, polyline_distance_to_point
from shieldwall.core.terrain import TerrainMap
from shieldwall.io.scenarios import load_game
from shieldwall.match import play
from shieldwall.rulesets.one_hour import orders as O
from shieldwall.rulesets.one_hour import sight as LOS
from shieldwall.rulesets.one_hour import spatial as S
from shieldwall.rulesets.one_hour import terrain_checks as TC
from shieldwall.rulesets.one_hour.menus import move_orders
from shieldwall.rulesets.one_hour.model import Unit
from shieldwall.rulesets.one_hour.profiles import terrain_effects

RS = "one-hour-dark-ages"
#: River water is probed along the swept area's edges every 0.25" (``spatial._RIVER_PROBE``): the
#: oracle counts a point wet only this far inside the water and outside every crossing.
RIVER_MARGIN = 0.1

LAKE = {"id": "l", "kind": "lake", "points": [[15, 14], [25, 14], [25, 20], [15, 20]]}
WOOD = {"id": "w", "kind": "woods", "points": [[15, 14], [25, 14], [25, 20], [15, 20]]}


def _moving(st: Any, uid: str, faces: list[int]) -> None:
    """End the phase for nobody: activate ``uid`` with scripted movement dice."""
    script(st, faces)
    st.apply(f"activate {uid}")


def _band_enters(u: Unit, start: Footprint, path: list[Point], terrain: TerrainMap) -> str | None:
    """The oracle: a feature the swept column (half the frontage wide, the depth long, shrunk by the
    tolerance) enters, found by sampling points every 0.1" along and 5 across each segment."""
    eff = terrain_effects()
    w = start.frontage / 2.0 - 2 * TC.SWEEP_TOL
    ext = start.depth * 0.5 - TC.SWEEP_TOL
    pts = [start.centre, *path]
    for a, b in zip(pts, pts[1:], strict=False):
        ln = math.dist(a, b)
        if ln < 1e-9:
            continue
        ux, uy = (b[0] - a[0]) / ln, (b[1] - a[1]) / ln
        nx, ny = -uy, ux
        n = max(2, int((ln + 2 * ext) / 0.1))
        for i in range(n + 1):
            t = -ext + (ln + 2 * ext) * i / n
            for k in range(5):
                s = -w / 2 + w * k / 4
                p = (a[0] + ux * t + nx * s, a[1] + uy * t + ny * s)
                for f in terrain.features:
                    e = eff[f.kind]
                    if f.linear:
                        wet = polyline_distance_to_point(p, f.points) < f.width / 2 - RIVER_MARGIN
                        away = f.crossing_at(p, slack=f.width / 2 + RIVER_MARGIN) is None
                        if wet and away and e.enter == "crossings":
                            return f.id
                        continue
                    if (e.enter == "none" or (e.enter == "rough" and not u.profile.rough_terrain)) and (
                        point_in_polygon(p, f.points)
                    ):
                        return f.id
    return None


# --- clause tests: the whole path ------------------------------------------------------------------


def test_terrain_lakes_impassable_along_the_whole_path() -> None:
    # "Lakes. Area, impassible." A cavalry move straight across, ending beyond it, is refused.
    g = game([unit("r1", "cavalry", 20, 8)], [unit("b1", "infantry", 40, 34, 180)], [LAKE])
    st = g.new_state(1)
    _moving(st, "r1", [5, 5, 5])
    with pytest.raises(IllegalOrder) as e:
        st.apply("move r1 go 20,26")
    assert e.value.rule == f"{RS}:terrain.lakes" and "path crosses lake" in e.value.reason
    st.apply("move r1 go 20,12")  # up to its shore: legal


def test_terrain_woods_marsh_infantry_may_not_pass_through_a_wood() -> None:
    # "Woods, Marsh. Area. Only Skirmishers and Raiders may enter." Passing through is entering.
    g = game(
        [unit("r1", "cavalry", 20, 8), unit("r2", "skirmishers-javelins", 40, 8)],
        [unit("b1", "infantry", 40, 34, 180)],
        [WOOD],
    )
    st = g.new_state(1)
    _moving(st, "r1", [5, 5, 5])
    with pytest.raises(IllegalOrder) as e:
        st.apply("move r1 go 20,26")
    assert e.value.rule == f"{RS}:terrain.woods-marsh" and "only Skirmishers and Raiders" in e.value.reason


def test_terrain_woods_marsh_skirmishers_pass_through() -> None:
    g = game([unit("r1", "skirmishers-javelins", 20, 8)], [unit("b1", "infantry", 40, 34, 180)], [WOOD])
    st = g.new_state(1)
    _moving(st, "r1", [5, 5])
    st.apply("move r1 go 20,20")
    assert st.units["r1"].fp.centre == (20, 20)


def test_terrain_woods_marsh_way_point_inside_a_wood_refused() -> None:
    # A way-point inside the wood (the end outside it): the legs to and from it enter the wood.
    g = game([unit("r1", "cavalry", 12, 10)], [unit("b1", "infantry", 40, 34, 180)], [WOOD])
    st = g.new_state(1)
    _moving(st, "r1", [5, 5, 5])
    with pytest.raises(IllegalOrder) as e:
        st.apply("move r1 go 18,16 go 12,22")
    assert e.value.rule == f"{RS}:terrain.woods-marsh"


def test_terrain_rivers_swept_column_may_not_wade_along_the_bank() -> None:
    # "Rivers. Linear, impassible": a move whose column runs in the water without crossing the
    # river's line is refused too (not only the centre line crossing it).
    river = {"id": "r", "kind": "river", "points": [[0, 12], [48, 12]], "width": 4, "crossings": []}
    g = game([unit("r1", "cavalry", 10, 6, 90)], [unit("b1", "infantry", 40, 34, 180)], [river])
    st = g.new_state(1)
    _moving(st, "r1", [5, 5, 5])
    with pytest.raises(IllegalOrder) as e:
        st.apply("move r1 go 18,9.2 go 24,6")  # the way-point's column dips into the water
    assert e.value.rule == f"{RS}:terrain.rivers"
    st.apply("move r1 go 18,7 go 24,6")  # along the bank, dry: legal
    assert e.value.rule == f"{RS}:terrain.rivers"


def test_movement_columns_pass_between_two_woods() -> None:
    # "To fit through a gap ... the two bases may be placed one behind the other": a 4" gap
    # between two woods, narrower than the 5" frontage, is passed in column.
    woods = [
        {"id": "w1", "kind": "woods", "points": [[5, 14], [18, 14], [18, 20], [5, 20]]},
        {"id": "w2", "kind": "woods", "points": [[22, 14], [35, 14], [35, 20], [22, 20]]},
    ]
    g = game([unit("r1", "cavalry", 20, 8)], [unit("b1", "infantry", 40, 34, 180)], woods)
    st = g.new_state(1)
    _moving(st, "r1", [5, 5, 5])
    st.apply("move r1 go 20,25")
    assert st.units["r1"].fp.centre == (20, 25)


def test_charging_contact_path_across_a_lake_refused() -> None:
    # a charge is a move: its path may not cross a lake either
    g = game([unit("r1", "cavalry", 20, 8)], [unit("b1", "infantry", 20, 26, 180)], [LAKE])
    st = g.new_state(1)
    _moving(st, "r1", [5, 5, 5])
    with pytest.raises(IllegalOrder) as e:
        st.apply("charge r1 b1 front")
    assert e.value.rule == f"{RS}:terrain.lakes"


def test_fall_back_stops_before_a_wood() -> None:
    # "Fall Back!" is a full move directly back: it stops where the wood behind it begins
    g = game(
        [unit("r1", "cavalry", 20, 26)],
        [unit("b1", "infantry", 20, 28, 180)],
        [WOOD],
        options={"fall_back": True},
    )
    st = g.new_state(1)
    script(st, [5, 5, 5, 2])  # fall back 17" (to y=9 through the wood); the infantry's 4" loses
    st.apply("fallback r1")
    u = st.units["r1"]
    assert 20.0 < u.fp.y < 26.0 and S.placement_problem(u, u.fp, st.live(), st.terrain) is None
    assert _band_enters(u, Footprint(20, 26, 0, u.fp.frontage, u.fp.depth), [u.fp.centre], st.terrain) is None


def test_line_of_sight_blocked_by_a_unit_halfway_not_only_at_the_ends() -> None:
    # "It is blocked by any intervening Units": the whole sight line is checked
    g = game(
        [unit("r1", "skirmishers-bows", 20, 6)],
        [unit("b1", "infantry", 20, 30, 180)],
    )
    st = g.new_state(1)
    r1, b1 = st.units["r1"], st.units["b1"]
    assert LOS.has_los(r1, b1, st.live(), st.terrain)
    g2 = game(
        [unit("r1", "skirmishers-bows", 20, 6), unit("r2", "infantry", 20, 18)],
        [unit("b1", "infantry", 20, 30, 180)],
    )
    st2 = g2.new_state(1)
    assert not LOS.facing_in_clear_view(st2.units["r1"], st2.units["b1"], st2.live(), st2.terrain, "front")


def test_terrain_woods_marsh_menus_offer_no_move_through_terrain() -> None:
    # the bots' menus are the legal orders: none of them crosses the wood or the lake
    g = game(
        [unit("r1", "cavalry", 20, 8), unit("r2", "infantry", 10, 8)],
        [unit("b1", "infantry", 20, 30, 180)],
        [WOOD, {"id": "l2", "kind": "lake", "points": [[2, 14], [12, 14], [12, 20], [2, 20]]}],
    )
    for uid, faces in (("r1", [5, 5, 5]), ("r2", [5])):
        st = g.new_state(1)
        _moving(st, uid, faces)
        u = st.units[uid]
        moves = [m for m in move_orders(st) if isinstance(m, O.Move)]
        assert moves
        for m in moves:
            fp = u.fp
            path: list[Point] = []
            for s in m.steps:
                if isinstance(s, O.Turn):
                    fp = fp.turned(s.angle, s.pivot)
                else:
                    path.append((s.x, s.y))
            assert _band_enters(u, fp, path, st.terrain) is None, m


# --- the property ----------------------------------------------------------------------------------

SCENARIOS = ["bryn-glas", "coed-celyddon", "rhyd-y-groes", "llanbadarn", "mynydd-baddon", "catraeth"]


def _swept_paths(
    before: dict[str, Footprint], st: Any, order: Any
) -> list[tuple[Unit, Footprint, list[Point]]]:
    """For each unit the order moved: (unit, its footprint where the move began, the centre's path)."""
    out = []
    for uid, fp0 in before.items():
        u = st.units[uid]
        if u.removed or u.fp == fp0:
            continue
        if isinstance(order, O.Face):
            continue  # a turn to face in melee: rotation on the spot and enemy bases adjusted
        start, path = fp0, []
        if isinstance(order, O.Move) and order.unit == uid:
            for s in order.steps:
                if isinstance(s, O.Turn):
                    if not path:
                        start = start.turned(s.angle, s.pivot)
                else:
                    path.append((s.x, s.y))
        elif isinstance(order, O.Charge) and order.unit == uid and order.turn is not None:
            start = start.turned(order.turn.angle, order.turn.pivot)
        if not path or path[-1] != u.fp.centre:
            path.append(u.fp.centre)
        out.append((u, start, path))
    return out


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st_.integers(min_value=0, max_value=2**32 - 1), scenario=st_.sampled_from(SCENARIOS))
def test_terrain_no_accepted_order_sweeps_into_forbidden_terrain(seed: int, scenario: str) -> None:
    g = load_game(f"one-hour-dark-ages/{scenario}")
    before: dict[str, Footprint] = {}

    def watch(state: Any, order: Any) -> None:
        for u, start, path in _swept_paths(before, state, order):
            hit = _band_enters(u, start, path, state.terrain)
            assert hit is None, (scenario, seed, str(order), u.id, hit)
        before.clear()
        before.update({uid: x.fp for uid, x in state.units.items() if not x.removed})

    st0 = g.new_state(seed)
    before.update({uid: x.fp for uid, x in st0.units.items()})
    play(g, seed, "random", "random", on_order=watch)
