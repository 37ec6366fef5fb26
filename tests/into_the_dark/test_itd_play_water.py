"""Clause tests: troops forced into deep water (terrain.deep-water) by a driven-back move
(combat.driven-back) or a rout move (combat.rout)."""

from __future__ import annotations

import pytest

from shieldwall.rulesets.into_the_dark import act_retreat
from shieldwall.rulesets.into_the_dark.deep_water import fate

from .playkit import RS, events, game, last, start, u


def lake(y0: float = 13.0, y1: float = 30.0) -> dict[str, object]:
    return {"id": "lake", "kind": "lake", "points": [[0, y0], [48, y0], [48, y1], [0, y1]]}


def blue_at_the_water(code: str, figures: int = 8) -> object:
    """b1 faces south at y=10 (its rear at y=12 for foot, 14 for mounted); the lake is behind it."""
    y0 = 13.0 if code.endswith("F") else 15.0
    g = game([u("r1", "CPF", 10, 6)], [u("b1", code, 10, 10, 180, figures=figures)], terrain=[lake(y0)])
    return start(g, "red")


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("LUM", "swim"),
        ("LPM", "swim"),
        ("LAM", "half"),
        ("CMM", "drown"),
        ("LEM", "drown"),
        ("LUF", "half"),
        ("CPF", "drown"),
        ("CAF", "drown"),
    ],
)
def test_terrain_deep_water_fate_by_armour_and_category(code: str, expected: str) -> None:
    # also exercises into-the-dark:terrain.deep-water.driven-back
    st = blue_at_the_water(code)
    assert fate(st.units["b1"]) == expected  # type: ignore[attr-defined]


def test_terrain_deep_water_driven_back_cavalry_swims_at_quarter_speed() -> None:
    st = blue_at_the_water("LPM")
    act_retreat.driven_back(st, "b1", 0.0, 1.0, ("r1",), (), ())  # type: ignore[arg-type]
    ev = last(st, "forced-into-deep-water")  # type: ignore[arg-type]
    assert ev.rule == f"{RS}:terrain.deep-water" and ev.data["fate"] == "swim" and ev.data["lost"] == 0
    b1 = st.units["b1"]  # type: ignore[attr-defined]
    assert not b1.routed and b1.figures == 8
    # 1" to the water, then the 3" left at quarter speed: 0.75"
    assert last(st, "driven-back").data["distance"] == pytest.approx(1.75, abs=0.26)  # type: ignore[arg-type]
    assert events(st, "driven-back-blocked") == []  # type: ignore[arg-type]


def test_terrain_deep_water_driven_back_unarmoured_infantry_lose_half() -> None:
    st = blue_at_the_water("LUF", figures=7)
    act_retreat.driven_back(st, "b1", 0.0, 1.0, ("r1",), (), ())  # type: ignore[arg-type]
    ev = last(st, "forced-into-deep-water")  # type: ignore[arg-type]
    assert ev.data["fate"] == "half" and ev.data["lost"] == 4 and ev.data["left"] == 3
    assert st.units["b1"].figures == 3 and st.units["b1"].on_table  # type: ignore[attr-defined]


def test_terrain_deep_water_driven_back_others_drown() -> None:
    st = blue_at_the_water("CPF")
    act_retreat.driven_back(st, "b1", 0.0, 1.0, ("r1",), (), ())  # type: ignore[arg-type]
    assert last(st, "forced-into-deep-water").data["fate"] == "drown"  # type: ignore[arg-type]
    from shieldwall.rulesets.into_the_dark.narrate import describe

    assert "drowns" in (describe(last(st, "forced-into-deep-water")) or "")  # type: ignore[arg-type]
    d = last(st, "destroyed")  # type: ignore[arg-type]
    assert d.rule == f"{RS}:terrain.deep-water" and st.units["b1"].destroyed  # type: ignore[attr-defined]
    assert any(r["id"] == "b1" for r in st.destroyed_turn)  # type: ignore[attr-defined]
    assert events(st, "rout") == []  # type: ignore[arg-type]


def test_terrain_deep_water_router_swims_instead_of_stopping() -> None:
    # also exercises into-the-dark:terrain.deep-water.driven-back
    st = blue_at_the_water("LUM")
    b1 = st.units["b1"]  # type: ignore[attr-defined]
    b1.morale = "routed"
    b1.heading = 0.0
    b1.y = 14.0 + 0.0  # front edge at y=14, back to the enemy: the lake starts at 15
    act_retreat.rout_move(st, "b1", 12.0, (), (), ())  # type: ignore[arg-type]
    assert last(st, "forced-into-deep-water").data["fate"] == "swim"  # type: ignore[arg-type]
    rm = last(st, "rout-move")  # type: ignore[arg-type]
    assert rm.data["blocked_by"] is None and 3.0 <= rm.data["distance"] <= 4.0  # 1" dry + 11" / 4
    assert events(st, "surrender") == []  # type: ignore[arg-type]


def test_terrain_deep_water_a_swimming_unit_swims_on_at_quarter_speed() -> None:
    st = blue_at_the_water("LUM")
    b1 = st.units["b1"]  # type: ignore[attr-defined]
    b1.heading = 0.0
    b1.y = 16.0  # already in the water (forced there earlier)
    from shieldwall.rulesets.into_the_dark.movement import terrain_effect

    factor, _, _ = terrain_effect(b1, b1.fp.moved(0, 1), st.terrain)  # type: ignore[attr-defined]
    assert factor == 4.0
    factor2, dis, _ = terrain_effect(b1, b1.fp.moved(0, 1), st.terrain, swim=False)  # type: ignore[attr-defined]
    assert factor2 is None and dis == ["terrain.deep-water"]
