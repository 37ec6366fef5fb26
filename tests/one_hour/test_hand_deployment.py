"""Deployment by hand in one-hour-dark-ages (``hand_deployment``, ruling R50): zones, the order of
placing, what a placed unit may not overlap, the menus and bots, Viking Veterans after it, replays."""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers import game, unit

from shieldwall.ai import make_bot
from shieldwall.core.errors import DataError, IllegalOrder
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.one_hour import orders as O
from shieldwall.rulesets.one_hour.act_hand_deploy import problem
from shieldwall.rulesets.one_hour.params import PARAMETERS
from shieldwall.rulesets.one_hour.state import OneHourState

RS = "one-hour-dark-ages"
HAND = {"hand_deployment": True}


def _events(st: OneHourState, kind: str) -> list[Any]:
    return [e for e in st.events if e.kind == kind]


def _deploy_all(st: OneHourState, bots: dict[str, Any]) -> list[str]:
    given = []
    while (d := st.decision()) is not None and d.kind == "deploy":
        o = bots[d.side].choose(st)
        st.apply(o)
        given.append(str(o))
    return given


def test_deployment_is_off_by_default_and_the_scenario_places_every_unit() -> None:
    assert PARAMETERS["hand_deployment"].default is False
    assert PARAMETERS["hand_deployment"].rule == f"{RS}:deployment"
    st = load_game("bryn-glas").new_state(1)
    assert st.decision().kind == "activate"  # type: ignore[union-attr]
    assert not _events(st, "deploy") and "deployment" not in st.view()


def test_deployment_ends_with_every_unit_placed_then_the_first_turn() -> None:
    st = load_game("bryn-glas", HAND).new_state(4)
    bots = {s: make_bot("scripted", 1, RS) for s in ("red", "blue")}
    given = _deploy_all(st, bots)
    assert len(given) == 12
    end = _events(st, "deployment")
    assert len(end) == 1 and end[0].rule == f"{RS}:deployment"
    assert set(end[0].data["positions"]) == set(st.units)
    d = st.decision()
    assert d is not None and d.kind == "activate" and d.side == "red"  # the attacker moves first
    assert st.view()["deployment"]["waiting"] == []


def test_deployment_zone_derived_from_the_scenario_placed_units() -> None:
    g = load_game("bryn-glas", HAND)
    # red's deepest corner: r5 at y 8.5, 2" deep -> 9.5 -> 10; blue's: b5 at y 26 -> 25
    assert g.deploy_zones == {"red": (0.0, 0.0, 48.0, 10.0), "blue": (0.0, 25.0, 48.0, 36.0)}
    g = load_game("llanbadarn", HAND)  # west and east home edges
    assert g.deploy_zones["red"][0] == 0.0 and g.deploy_zones["red"][2] <= 24.0
    assert g.deploy_zones["blue"][0] >= 24.0 and g.deploy_zones["blue"][2] == 48.0


def test_deployment_zone_never_past_the_middle_of_the_table() -> None:
    g = game([unit("r1", "infantry", 20, 20)], [unit("b1", "infantry", 20, 30, 180)], options=HAND)
    assert g.deploy_zones["red"] == (0.0, 0.0, 48.0, 18.0)


def test_deployment_zone_from_the_scenario_deploy_zone() -> None:
    zone = {"deploy_zone": {"x0": 10, "y0": 0, "x1": 30, "y1": 8}}
    g = game(
        [unit("r1", "infantry", 20, 4)], [unit("b1", "infantry", 20, 30, 180)], options=HAND, red_extra=zone
    )
    assert g.deploy_zones["red"] == (10.0, 0.0, 30.0, 8.0)
    st = g.new_state(1)
    while st.decision().side != "red":  # type: ignore[union-attr]
        st.apply(st.legal_orders()[0])
    with pytest.raises(IllegalOrder) as ex:
        st.apply("deploy r1 at 34,4 facing 0")
    assert ex.value.rule == f"{RS}:deployment.zone" and "x 10-30, y 0-8" in ex.value.reason
    assert all(o.x - 2.5 >= 10 and o.x + 2.5 <= 30 for o in st.legal_orders())


def test_deployment_zone_refuses_a_place_outside_naming_the_clause() -> None:
    st = load_game("bryn-glas", HAND).new_state(1)
    d = st.decision()
    assert d is not None and d.kind == "deploy"
    n = len(st.events)
    for text in (f"deploy {d.unit} at 14,12 facing 0", f"deploy {d.unit} at -1,4 facing 0"):
        with pytest.raises(IllegalOrder) as ex:
            st.apply(text)
        assert ex.value.rule == f"{RS}:deployment.zone"
    assert len(st.events) == n and st.decision() == d  # nothing changed


@pytest.mark.parametrize(
    ("zone", "field"),
    [
        ({"x0": 10, "y0": 0, "x1": 5, "y1": 8}, "x0 < x1"),
        ({"x0": 0, "y0": 0, "x1": 50, "y1": 8}, "within"),
        ({"x0": 0, "y0": 0, "x1": 48, "y1": 1.5}, "no room for red.units[0] (r1, 5 wide and 2 deep)"),
    ],
)
def test_deployment_zone_bad_scenario_zone_is_a_data_error(zone: dict[str, float], field: str) -> None:
    with pytest.raises(DataError) as ex:
        game(
            [unit("r1", "infantry", 20, 4)],
            [unit("b1", "infantry", 20, 30, 180)],
            red_extra={"deploy_zone": zone},
        )
    assert "red.deploy_zone" in str(ex.value) and field in str(ex.value)


def test_deployment_order_roll_off_loser_places_first_then_the_sides_alternate() -> None:
    firsts = set()
    for seed in range(1, 9):
        st = load_game("bryn-glas", HAND).new_state(seed)
        roll = [e for e in st.events if e.kind == "roll-off"]
        assert len(roll) == 1 and roll[0].rule == f"{RS}:grey-areas"
        order = _events(st, "deploy-order")[0]
        assert order.rule == f"{RS}:deployment.order"
        assert order.data["first"] != roll[0].data["winner"]
        firsts.add(order.data["first"])
        sides = []
        while (d := st.decision()) is not None and d.kind == "deploy":
            sides.append(d.side)
            st.apply(st.legal_orders()[0])
        assert sides[0] == order.data["first"]
        assert all(a != b for a, b in zip(sides, sides[1:], strict=False))
    assert firsts == {"red", "blue"}


def test_deployment_order_a_larger_army_places_its_last_units_one_after_another() -> None:
    red = [unit("r1", "infantry", 10, 4), unit("r2", "infantry", 20, 4), unit("r3", "infantry", 30, 4)]
    st = game(red, [unit("b1", "infantry", 20, 32, 180)], options=HAND, spare=False).new_state(2)
    units = []
    while (d := st.decision()) is not None and d.kind == "deploy":
        units.append(d.unit)
        st.apply(st.legal_orders()[0])
    assert [u for u in units if u and u.startswith("r")] == ["r1", "r2", "r3"]  # the scenario's order
    assert units.index("b1") <= 1


def test_deployment_order_refuses_another_unit_than_the_next() -> None:
    st = load_game("bryn-glas", HAND).new_state(1)
    d = st.decision()
    assert d is not None and d.unit in ("r1", "b1")
    later = "r3" if d.side == "red" else "b3"
    with pytest.raises(IllegalOrder) as ex:
        st.apply(f"deploy {later} at 24,4 facing 0")
    assert ex.value.rule == f"{RS}:deployment.order" and f"places {d.unit} now" in ex.value.reason
    enemy = "b1" if d.side == "red" else "r1"
    with pytest.raises(IllegalOrder) as ex:
        st.apply(f"deploy {enemy} at 24,30 facing 180")
    assert ex.value.rule == f"{RS}:deployment.order" and "not one of" in ex.value.reason


def _two_zones_meeting() -> OneHourState:
    zones = {"deploy_zone": {"x0": 0, "y0": 0, "x1": 48, "y1": 20}}
    bz = {"deploy_zone": {"x0": 0, "y0": 16, "x1": 48, "y1": 36}}
    red = [unit("r1", "infantry", 10, 4), unit("r2", "infantry", 30, 4)]
    blue = [unit("b1", "infantry", 10, 32, 180), unit("b2", "infantry", 30, 32, 180)]
    terrain = [{"id": "w", "kind": "woods", "points": [[36, 2], [44, 2], [44, 9], [36, 9]]}]
    g = game(red, blue, terrain, options=HAND, red_extra=zones, blue_extra=bz, spare=False)
    for seed in range(1, 30):
        st = g.new_state(seed)
        if st.decision().side == "red":  # type: ignore[union-attr]
            return st
    raise AssertionError("no seed lets red place first")


def test_deployment_clear_refuses_an_overlap_with_a_unit_already_placed() -> None:
    st = _two_zones_meeting()
    st.apply("deploy r1 at 10,4 facing 0")
    st.apply("deploy b1 at 30,30 facing 180")
    with pytest.raises(IllegalOrder) as ex:
        st.apply("deploy r2 at 12,4 facing 0")
    assert ex.value.rule == f"{RS}:deployment.clear" and "r2 would overlap" in ex.value.reason
    st.apply("deploy r2 at 15,4 facing 0")  # side by side, touching: allowed


def test_deployment_clear_refuses_contact_with_an_enemy() -> None:
    st = _two_zones_meeting()
    st.apply("deploy r1 at 10,17 facing 0")  # its front edge at y 18
    with pytest.raises(IllegalOrder) as ex:
        st.apply("deploy b1 at 10,19 facing 180")  # its front edge at y 18: touching
    assert ex.value.rule == f"{RS}:deployment.clear" and "in contact with an enemy" in ex.value.reason


def test_deployment_clear_not_yet_placed_units_block_nothing() -> None:
    st = _two_zones_meeting()
    st.apply("deploy r1 at 30,4 facing 0")  # on r2's scenario place: r2 is not placed yet
    st.apply("deploy b1 at 10,32 facing 180")
    assert problem(st, st.units["r2"], st.units["r2"].fp) is not None  # now r1 stands there
    bot = make_bot("scripted", 1, RS)
    o = bot.choose(st)
    assert isinstance(o, O.Deploy) and (o.x, o.y) != (30, 4)  # the nearest legal place instead
    st.apply(o)


def test_deployment_clear_terrain_refusal_names_the_terrain_clause() -> None:
    st = _two_zones_meeting()
    with pytest.raises(IllegalOrder) as ex:
        st.apply("deploy r1 at 40,5 facing 0")  # in the wood: infantry may not enter
    assert ex.value.rule.startswith(f"{RS}:terrain.woods-marsh") and "w" in ex.value.reason


def test_deployment_menu_places_are_legal_in_the_zone_and_face_the_enemy() -> None:
    st = load_game("rhyd-y-groes", HAND).new_state(3)
    g = st.game
    while (d := st.decision()) is not None and d.kind == "deploy":
        menu = st.legal_orders()
        assert 1 < len(menu) <= 49
        for o in menu:
            assert isinstance(o, O.Deploy) and o.unit == d.unit
            copy = st.copy()
            copy.apply(o)
        grid = [o for o in menu[1:]]
        assert all(o.heading == (0.0 if d.side == "red" else 180.0) for o in grid)
        st.apply(menu[-1])
    assert g.deploy_zones["red"][3] <= 18


def test_deployment_scripted_bot_keeps_the_scenario_places_when_legal() -> None:
    st = load_game("bryn-glas", HAND).new_state(2)
    bots = {s: make_bot("scripted", 7, RS) for s in ("red", "blue")}
    _deploy_all(st, bots)
    for uid, u in st.units.items():
        assert u.fp == st.game.initial_fp[uid]


def test_deployment_random_bot_deploys_within_the_zones() -> None:
    st = load_game("catraeth", HAND).new_state(5)
    bots = {s: make_bot("random", i, RS) for i, s in enumerate(("red", "blue"))}
    _deploy_all(st, bots)
    for u in st.units.values():
        x0, y0, x1, y1 = st.game.deploy_zones[u.side]
        assert all(x0 - 1e-6 <= x <= x1 + 1e-6 and y0 - 1e-6 <= y <= y1 + 1e-6 for x, y in u.fp.corners())


def test_deployment_order_text_and_dict_forms_round_trip() -> None:
    o = O.parse("deploy r1 at 14.5,4 facing 0")
    assert o == O.Deploy("r1", 14.5, 4.0, 0.0) and str(o) == "deploy r1 at 14.5,4 facing 0"
    assert O.parse(o.to_dict()) == o
    assert O.parse("deploy r1 at 3,4") == O.Deploy("r1", 3.0, 4.0, None)
    with pytest.raises(IllegalOrder):
        O.parse("deploy r1 at 3,4 facing north")


def test_ideas_for_unit_types_viking_veterans_choose_after_hand_deployment() -> None:
    red = [unit("r1", "viking-veterans", 20, 5), unit("r2", "infantry", 30, 5)]
    blue = [unit("b1", "viking-veterans", 20, 31, 180)]
    st = game(red, blue, options=HAND, spare=False).new_state(3)
    assert st.decision().kind == "deploy"  # type: ignore[union-attr]
    bots = {s: make_bot("scripted", 1, RS) for s in ("red", "blue")}
    _deploy_all(st, bots)
    d = st.decision()
    assert d is not None and d.kind == "fight-as" and d.side == "red"  # the attacker's side first
    kinds = [e.kind for e in st.events]
    assert kinds.index("deployment") < len(kinds)  # deployed before the choice is asked
    assert "fight-as" not in kinds


def test_deployment_battle_replays_byte_for_byte(tmp_path: Any) -> None:
    from shieldwall.cli import run

    out = tmp_path / "b.json"
    args = ["battle", "bryn-glas", "--seed", "6", "--red", "random", "--variant", "hand_deployment=true"]
    assert run([*args, "--save", str(out)]) == 0
    save = json.loads(out.read_text())
    assert sum(o["kind"] == "deploy" for o in save["orders"]) == 12
    assert run(["replay", str(out)]) == 0
    again = tmp_path / "c.json"
    assert run([*args, "--save", str(again)]) == 0
    assert again.read_bytes() == out.read_bytes()


def test_deployment_zone_in_the_reach_and_drawn_on_the_table() -> None:
    from shieldwall.render.svg import render_svg
    from shieldwall.rulesets.one_hour.reach import reach

    st = load_game("bryn-glas", HAND).new_state(1)
    d = st.decision()
    assert d is not None and d.unit
    r = reach(st, d.unit)
    side = st.units[d.unit].side
    assert r["deploy"] == {"zone": list(st.game.deploy_zones[side]), "rule": f"{RS}:deployment.zone"}
    svg = render_svg(st.view(), highlight=r["highlight"])
    assert 'class="hl-zone"' in svg
    assert "deployment zone" in svg
    assert "hl-zone" not in render_svg(st.view())


def test_deployment_zone_a_unit_with_no_legal_place_left_is_held_back() -> None:
    """A zone with room for either of two units but not for both: the second is held back (ruling
    R50): no stall, no loss counted, the battle goes on with the units placed."""
    zone = {"deploy_zone": {"x0": 0, "y0": 0, "x1": 5.5, "y1": 2.5}}
    g = game(
        [unit("r1", "infantry", 2.75, 1.25), unit("r2", "infantry", 20, 4)],
        [unit("b1", "infantry", 20, 30, 180)],
        options=HAND,
        red_extra=zone,
        spare=False,
    )
    st = g.new_state(3)
    bots = {s: make_bot("scripted", 1, RS) for s in ("red", "blue")}
    _deploy_all(st, bots)
    held = _events(st, "held-back")
    assert [e.data["unit"] for e in held] == ["r2"] and held[0].rule == f"{RS}:deployment.zone"
    assert st.units["r2"].removed and not st.units["r1"].removed
    assert st.lost == {"red": 0, "blue": 0}
    assert "r2" not in _events(st, "deployment")[0].data["positions"]
    assert st.decision() is not None and st.decision().kind != "deploy"  # type: ignore[union-attr]
