"""Deployment by hand in knight-hack (``hand_deployment``, ruling R51): the zones
(knight-hack:deployment.zone), the order of placing (knight-hack:deployment.order), what a placed unit
may not come near (knight-hack:deployment.clear), ambushers placed hidden, bots and replays."""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from typing import Any

import pytest
from tests.knight_hack.test_kh_game import unit

from shieldwall.ai import make_bot
from shieldwall.core.errors import DataError, IllegalOrder
from shieldwall.io.saves import make_save, replay
from shieldwall.io.scenarios import game_from_data, load_game
from shieldwall.rulesets.knight_hack.game import PARAMETERS, KnightHackGame
from shieldwall.rulesets.knight_hack.orders import parse_order
from shieldwall.rulesets.knight_hack.state import HIDDEN_DEPLOY_PROMPT, KnightHackState
from shieldwall.visibility import FilteredEvents, view_for

RS = "knight-hack"
HAND = {"hand_deployment": True}
SCENARIOS = resources.files("shieldwall.rulesets.knight_hack") / "scenarios"


def _events(st: Any, kind: str) -> list[Any]:
    return [e for e in st.events if e.kind == kind]


def _data(name: str = "bourgtheroulde-1124") -> dict[str, Any]:
    return tomllib.loads((SCENARIOS / f"{name}.toml").read_text("utf-8"))


def _ids(st: Any, side: str) -> set[str]:
    return {u["id"] for u in view_for(st, [side])["units"]}


def test_deployment_is_off_by_default_and_the_scenario_places_every_unit() -> None:
    assert PARAMETERS["hand_deployment"].default is False
    assert PARAMETERS["hand_deployment"].rule == f"{RS}:deployment"
    st = load_game("bourgtheroulde-1124").new_state(3)
    d = st.decision()
    assert d is not None and d.kind != "deploy"
    assert not _events(st, "deploy-order") and "deployment" not in st.view()
    assert all("deployed" not in u for u in st.view()["units"])


def test_deployment_zone_derived_from_where_the_scenario_places_the_armies() -> None:
    # red's farthest corner: the archers at y 11, 1 in. deep -> 11.5 -> 12; blue's nearest: the
    # knights at y 27 facing south, 2 ranks -> 26
    assert load_game("bourgtheroulde-1124", HAND).scenario.zones == {  # type: ignore[attr-defined]
        "red": (0.0, 0.0, 48.0, 12.0),
        "blue": (0.0, 26.0, 48.0, 36.0),
    }
    # the ambush variant: the javelinmen in the wood reach y 22, past the middle; the zone follows
    # them (never past the rebels' nearest point, 26)
    zones = load_game("bourgtheroulde-1124-ambush", HAND).scenario.zones  # type: ignore[attr-defined]
    assert zones["red"] == (0.0, 0.0, 48.0, 22.0) and zones["blue"] == (0.0, 26.0, 48.0, 36.0)


def test_deployment_zone_from_the_scenario_and_a_bad_one_is_refused() -> None:
    data = _data()
    data["red"]["deploy_zone"] = {"x0": 4, "y0": 0, "x1": 44, "y1": 14}
    g = game_from_data(data, "bourg.toml", HAND)
    assert g.scenario.zones["red"] == (4, 0, 44, 14)  # type: ignore[attr-defined]
    data["red"]["deploy_zone"] = {"x0": 4, "y0": 0, "x1": 60, "y1": 14}
    with pytest.raises(DataError) as e:
        game_from_data(data, "bourg.toml", HAND)
    assert "red.deploy_zone" in str(e.value) and "deployment.zone" in str(e.value)


def test_deployment_order_a_roll_off_then_the_sides_alternate_in_the_scenario_order() -> None:
    st = load_game("bourgtheroulde-1124", HAND).new_state(3)
    (ev,) = _events(st, "deploy-order")
    assert ev.rule == f"{RS}:deployment.order" and ev.data["first"] != ev.data["winner"]
    faces = ev.data["faces"]
    assert faces[ev.data["winner"]] > faces[ev.data["first"]]
    placed: list[tuple[str, str]] = []
    while (d := st.decision()) is not None and d.kind == "deploy":
        placed.append((d.side, str(d.unit)))
        st.apply(st.legal_orders()[0])
    first = ev.data["first"]
    sides = [s for s, _ in placed]
    assert sides[0] == first and all(a != b for a, b in zip(sides, sides[1:], strict=False))
    assert [u for s, u in placed if s == "red"] == ["dismounted-knights", "archers", "reserve-knights"]
    assert [u for s, u in placed if s == "blue"] == ["waleran-knights", "hugh-knights", "sergeants"]
    (end,) = _events(st, "deployment")
    assert end.rule == f"{RS}:deployment" and len(end.data["positions"]) == 6
    assert st.view()["deployment"]["left"] == {"red": 0, "blue": 0}


def _first(st: KnightHackState) -> tuple[str, str]:
    d = st.decision()
    assert d is not None and d.kind == "deploy" and d.unit is not None
    return d.side, d.unit


def test_deployment_refuses_a_place_outside_the_zone_off_the_table_or_near_a_unit() -> None:
    st = load_game("bourgtheroulde-1124", HAND).new_state(3)
    side, uid = _first(st)
    version = len(st.events)
    y = 30 if side == "blue" else 6
    bad = {
        f"deploy {uid} x=24 y=18": ("deployment.zone", "wholly within"),  # the middle of the table
        f"deploy {uid} x=0.5 y={y}": ("deployment.zone", "wholly on the table"),
    }
    for text, (clause, words) in bad.items():
        with pytest.raises(IllegalOrder) as e:
            st.apply(text)
        assert e.value.rule == f"{RS}:{clause}" and words in str(e.value), text
    assert len(st.events) == version
    st.apply(f"deploy {uid} x=20 y={y} heading=0")
    # the other side's next unit may not stand on it nor within 0.25 in. of it (the zones are the
    # other side's: place the next unit of the first side near its first one)
    st.apply(st.legal_orders()[0])
    side2, uid2 = _first(st)
    assert side2 == side
    with pytest.raises(IllegalOrder) as e:
        st.apply(f"deploy {uid2} x=20 y={y} heading=0")
    assert e.value.rule == f"{RS}:deployment.clear" and uid in str(e.value)
    # not the pending unit: refused, naming the decision's unit
    with pytest.raises(IllegalOrder):
        st.apply(f"deploy {uid} x=40 y={y}")


def test_deployment_terrain_is_drawn_only_so_a_unit_may_stand_in_the_wood() -> None:
    # R36: the errata has no terrain rules, so no place is refused for its terrain
    data = _data()
    data["red"]["deploy_zone"] = {"x0": 0, "y0": 0, "x1": 48, "y1": 30}
    st = game_from_data(data, "bourg.toml", HAND).new_state(3)
    while _first(st)[0] != "red":
        st.apply(st.legal_orders()[0])
    _, uid = _first(st)
    st.apply(f"deploy {uid} x=4 y=25 heading=0")  # the wood: x 0-8, y 20-30
    assert [e.data["at"] for e in _events(st, "deploy") if e.data["unit"] == uid] == [[4, 25, 0]]


def test_deployment_order_text_keeps_three_decimals_so_a_replay_places_alike() -> None:
    o = parse_order("deploy archers x=12.34567 y=3.0004 heading=-90")
    assert str(o) == "deploy archers x=12.346 y=3 heading=-90"
    assert parse_order(o.to_dict()) == o
    with pytest.raises(IllegalOrder):
        parse_order("deploy archers x=3")


def _to_ambusher(st: KnightHackState) -> None:
    while True:
        d = st.decision()
        assert d is not None and d.kind == "deploy"
        if d.unit is None:
            return
        st.apply(st.legal_orders()[0])


def test_deployment_an_ambusher_is_placed_hidden_from_the_other_side() -> None:
    data = _data("bourgtheroulde-1124-ambush")
    data["red"]["deploy_zone"] = {"x0": 0, "y0": 0, "x1": 48, "y1": 28}  # overlapping the rebels' zone
    st = game_from_data(data, "ambush.toml", HAND).new_state(3)
    assert isinstance(st, KnightHackState)
    # before it is placed blue sees none of red's units still to place, nor the ambusher
    assert "javelinmen" not in _ids(st, "blue") and "javelinmen" in _ids(st, "red")
    _to_ambusher(st)
    d = st.decision()
    assert d is not None and d.side == "red" and d.prompt == HIDDEN_DEPLOY_PROMPT
    assert "javelinmen" not in json.dumps(st.view()["deployment"])
    assert all(o.unit == "javelinmen" for o in st.legal_orders())
    # it may not stand within 0.25 in. of the rebels' zone (y 26 on): no enemy placement meets it
    with pytest.raises(IllegalOrder) as e:
        st.apply("deploy javelinmen x=30 y=25.9 heading=0")
    assert e.value.rule == f"{RS}:deployment.zone" and "hidden in ambush" in str(e.value)
    start = len(st.events)
    st.apply("deploy javelinmen x=6 y=18 heading=90")
    mine = [e for e in st.events[start:] if e.kind == "deploy"]
    assert len(mine) == 1 and mine[0].data["hidden_from"] == ["blue"]
    seen_by_blue = FilteredEvents(st.events, ["blue"], hide_seed=False)[start:]
    assert "javelinmen" not in json.dumps([e.to_dict() for e in seen_by_blue])
    assert "javelinmen" not in _ids(st, "blue") and "javelinmen" in _ids(st, "red")
    (end,) = _events(st, "deployment")
    assert "javelinmen" not in end.data["positions"]
    jav = st.board.units["javelinmen"]
    assert (jav.x, jav.y, jav.heading, jav.hidden) == (6, 18, 90, True)


def test_deployment_a_unit_with_no_legal_place_left_is_held_back_and_not_lost() -> None:
    data = {
        "ruleset": "knight-hack",
        "name": "crowded",
        "table": {"width": 48, "depth": 36},
        "red": {
            "units": [unit("r1"), unit("r2")],
            "edge": "south",
            # room for one knight unit (3 wide, 2 deep) only
            "deploy_zone": {"x0": 10, "y0": 0, "x1": 14, "y1": 3},
            "place": [{"unit": "r1", "x": 12, "y": 1.5}, {"unit": "r2", "x": 30, "y": 1.5}],
        },
        "blue": {
            "units": [unit("b1")],
            "edge": "north",
            "place": [{"unit": "b1", "x": 24, "y": 30, "heading": 180}],
        },
    }
    st = KnightHackGame.from_data(data, "crowded", HAND).new_state(1)
    while (d := st.decision()) is not None and d.kind == "deploy":
        st.apply(st.legal_orders()[0])
    (held,) = _events(st, "held-back")
    assert held.data["unit"] == "r2" and held.rule == f"{RS}:deployment.zone"
    assert st.board.units["r2"].held_back and st.board.points_lost("red") == 0


@pytest.mark.parametrize("scenario", ["bourgtheroulde-1124", "bourgtheroulde-1124-ambush"])
def test_deployment_bots_play_to_the_end_and_a_save_replays_byte_for_byte(scenario: str) -> None:
    g = load_game(scenario, HAND)
    for kind, seed in (("scripted", 3), ("random", 8)):
        st = g.new_state(seed)
        bots = {s: make_bot(kind, seed, RS) for s in ("red", "blue")}
        orders = []
        while not st.is_terminal():
            d = st.decision()
            assert d is not None
            o = bots[d.side].choose(st)
            st.apply(o)
            orders.append(o)
        assert st.result() is not None and _events(st, "deployment")
        save = json.loads(json.dumps(make_save(g, seed, orders, st, HAND)))
        again = replay(save, "battle.json")
        assert json.dumps([e.to_dict() for e in again.events]) == json.dumps([e.to_dict() for e in st.events])


def test_deployment_zone_in_the_reach_of_the_unit_to_place() -> None:
    from shieldwall.rulesets.knight_hack.reach import reach

    st = load_game("bourgtheroulde-1124", HAND).new_state(3)
    side, uid = _first(st)
    assert isinstance(st, KnightHackState)
    r = reach(st, uid)
    x0, y0, x1, y1 = st.board.deploy_zones[side]
    assert r["deploy"] == {"zone": [x0, y0, x1, y1], "rule": f"{RS}:deployment.zone"}
    assert r["highlight"]["zone"]["points"] == [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    other = next(u for u in st.board.units.values() if u.side == side and u.id != uid)
    assert "deploy" not in reach(st, other.id)
