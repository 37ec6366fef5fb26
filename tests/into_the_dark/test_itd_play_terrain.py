"""Clause tests: terrain and interpenetration in play (terrain.*, movement.interpenetration)."""

from __future__ import annotations

import pytest

from shieldwall.core.errors import IllegalOrder

from .playkit import RS, game, last, start, u


def area(kind: str, y0: float, y1: float, x0: float = 0, x1: float = 48) -> dict[str, object]:
    return {"id": kind, "kind": kind, "points": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}


def one(code: str, terrain: list[dict[str, object]], **kw: object) -> object:
    st = start(game([u("r1", code, 10, 5, **kw)], [u("b1", "CPF", 40, 34, 180)], terrain=terrain), "red")  # type: ignore[arg-type]
    return st


def refused(st: object, order: str, clause: str) -> None:
    with pytest.raises(IllegalOrder) as e:
        st.copy().apply(order)  # type: ignore[attr-defined]
    assert e.value.rule == f"{RS}:{clause}", (e.value.rule, e.value.reason)


def test_terrain_disordering_mounted_half_speed_and_disordered() -> None:
    st = one("LPM", [area("rough", 0, 36)])  # 12" normally: 6" in rough
    refused(st, "move r1 fwd 6.5", "movement.distances")
    st.apply("move r1 fwd 6")
    assert st.units["r1"].disordered
    d = last(st, "disordered")
    assert d.rule == f"{RS}:terrain.disordering"


def test_terrain_disordering_close_foot_disordered_loose_foot_not() -> None:
    st = one("CPF", [area("rough", 0, 36)])
    st.apply("move r1 fwd 6")  # not slowed
    assert st.units["r1"].disordered
    st2 = one("LPF", [area("rough", 0, 36)])
    st2.apply("move r1 fwd 8")
    assert not st2.units["r1"].disordered


def test_terrain_restrictive_dense_woods_no_mounted_foot_halved() -> None:
    st = one("LPM", [area("dense-woods", 8, 20)])
    refused(st, "move r1 fwd 6", "terrain.restrictive")
    st2 = one("LPF", [area("dense-woods", 0, 36)])
    refused(st2, "move r1 fwd 4.5", "movement.distances")
    st2.apply("move r1 fwd 4")
    assert st2.units["r1"].disordered


def test_terrain_restrictive_deep_stream_foot_half_mounted_quarter() -> None:
    stream = {"id": "s", "kind": "deep-stream", "points": [[0, 0], [0, 36]], "width": 200}
    st = one("LPM", [stream])
    refused(st, "move r1 fwd 3.5", "movement.distances")
    st.apply("move r1 fwd 3")
    assert st.units["r1"].disordered
    st2 = one("LPF", [stream])
    refused(st2, "move r1 fwd 4.5", "movement.distances")
    st2.apply("move r1 fwd 4")
    assert st2.units["r1"].disordered


def test_terrain_deep_water_impassable() -> None:
    lake = area("lake", 9, 12)
    st = one("CPF", [lake])
    refused(st, "move r1 fwd 5", "terrain.deep-water")


def test_terrain_roads_cancel_disordering_terrain_for_a_column() -> None:
    road = {"id": "rd", "kind": "road", "points": [[10, 0], [10, 36]]}
    st = one("LPM", [area("rough", 0, 36), road], figures=4, frontage=2)
    st.apply("move r1 fwd 12")  # 2 figures wide, completely on the road
    assert not st.units["r1"].disordered
    st2 = one("LPM", [area("rough", 0, 36), road], figures=4, frontage=4)
    refused(st2, "move r1 fwd 12", "movement.distances")


def test_terrain_crossings_ford_disorders_bridge_does_not() -> None:
    stream = {
        "id": "s",
        "kind": "deep-water",
        "points": [[0, 12], [48, 12]],
        "width": 2,
        "crossings": [
            {"kind": "ford", "at": [10, 12], "width": 6},
            {"kind": "bridge", "at": [30, 12], "width": 6},
        ],
    }
    g = game(
        [
            u("r1", "CPF", 10, 6),
            u("r2", "CPF", 30, 6),
            u("r3", "CPF", 20, 6),
        ],  # fronts reach y=12, mid-stream
        [u("b1", "CPF", 40, 34, 180)],
        terrain=[stream],
    )
    st = start(g, "red")
    st.apply("move r1 fwd 6")
    st.apply("move r2 fwd 6")
    assert st.units["r1"].disordered and not st.units["r2"].disordered
    refused(st, "move r3 fwd 6", "terrain.deep-water")


def test_movement_interpenetration_friends_disorder_open_foot_free_enemies_never() -> None:
    g = game(
        [u("r1", "CPF", 10, 5), u("r2", "LPF", 10, 8, figures=4, frontage=4), u("r3", "OPF", 20, 5)],
        [u("b1", "CPF", 40, 34, 180)],
    )
    st = start(g, "red")
    s = st.copy()
    s.apply("move r1 fwd 6")  # through the stationary r2: disordering terrain for close order foot
    assert s.units["r1"].disordered and not s.units["r2"].disordered
    assert last(s, "move").data["passed_through"] == ["r2"]
    g2 = game(
        [u("r3", "OPF", 10, 5, figures=4, frontage=2), u("r2", "LPF", 10, 8, figures=4, frontage=4)],
        [u("b1", "CPF", 40, 34, 180)],
    )
    st2 = start(g2, "red")
    st2.apply("move r3 fwd 7")  # open order foot pass through friends freely
    assert not st2.units["r3"].disordered
    g3 = game([u("r1", "CPF", 10, 5)], [u("b1", "LPF", 10, 8, 0, figures=4, frontage=4)])
    refused(start(g3, "red"), "move r1 fwd 6", "movement.interpenetration")


def test_movement_interpenetration_both_moving_halved_and_disordered() -> None:
    g = game(
        # r2: a column one figure wide, 4 deep, facing west across r1's path (y 6..7)
        [u("r1", "LPF", 10, 5.5), u("r2", "LPF", 14, 6.5, -90, figures=4, frontage=1)],
        [u("b1", "CPF", 40, 34, 180)],
    )
    st = start(g, "red")
    st.apply("move r2 fwd 3")  # r2 moves first, into r1's path (x 11..15)...
    refused(st, "move r1 fwd 6", "movement.distances")  # ...then r1 through it: halved to 4"
    st.apply("move r1 fwd 4")  # y 3.5..5.5 -> 7.5..9.5: clean through r2
    assert last(st, "move").data["passed_through"] == ["r2"]
    assert st.units["r1"].disordered and st.units["r2"].disordered


def test_movement_interpenetration_through_a_friend_that_used_more_than_half() -> None:
    """The text halves both maximums and says nothing more: a unit may pass through a friend that
    has already used more than half its move; that friend's move stands and it has no move left
    (ruling 52, revised)."""
    g = game(
        [u("r1", "LPF", 10, 5.5), u("r2", "LPF", 17, 6.5, -90, figures=4, frontage=1)],
        [u("b1", "CPF", 40, 34, 180)],
    )
    st = start(g, "red")
    st.apply("move r2 fwd 6")  # 6" of its 8": more than half; now across r1's path (x 7..11)
    st.apply("move r1 fwd 4")
    assert last(st, "move").data["passed_through"] == ["r2"]
    r2 = st.units["r2"]
    assert r2.halved and r2.disordered and st.units["r1"].halved
    from shieldwall.rulesets.into_the_dark.moves import remaining

    assert remaining(st, r2) == 0.0  # nothing left of its halved 4"
