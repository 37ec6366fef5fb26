"""The scripted bot's generals with Command & Control in play (``bots/generals.py``): command
actions where they open a charge, leaving a unit to command, leading when the general is poor,
riding out of a charge's reach, new orders."""

from __future__ import annotations

from typing import Any

from shieldwall.core.polygons import footprint_distance
from shieldwall.rulesets.into_the_dark.bots import ScriptedBot
from shieldwall.rulesets.into_the_dark.game import IntoTheDarkGame

from .playkit import scenario, start, u

CC = {"command_and_control": True}


def make(
    red: list[dict[str, Any]], blue: list[dict[str, Any]], rating: str = "average", **kw: Any
) -> IntoTheDarkGame:
    data = scenario(red, blue, options=CC)
    data["red"]["army"]["generals"][0]["rating"] = rating
    data["red"]["generals"] = [
        {"name": "Red general", "unit": red[0]["deploy"]["id"], "orders": "attack", **kw}
    ]
    data["blue"]["generals"] = [
        {"name": "Blue general", "x": 4.0, "y": 33.0, "heading": 180.0, "orders": "hold"}
    ]
    return IntoTheDarkGame.from_data(data, "test.toml")


def choose(st: Any) -> str:
    return str(ScriptedBot(0).choose(st))


def test_bot_generals_command_action_lets_foot_charge() -> None:
    # r1 (foot: they prefer to stand) could charge a weak levy unit ahead; its general, on his own
    # beside it, orders it before it moves
    red = [u("r1", "CAF", 20, 5, figures=12, quality="elite"), u("r2", "CPF", 34, 5)]
    blue = [u("b1", "CUF", 20, 10, 180, figures=8, quality="levy")]
    st = start(make(red, blue, x=26.0, y=2.0), "red")
    assert not st.generals["red-g1"]["leading"]
    plain = st.copy()
    plain.apply("activate r1")
    assert "charge r1 b1" not in {str(o) for o in plain.legal_orders()}
    assert choose(st) == "command red-g1 r1"
    st.apply("command red-g1 r1")
    assert choose(st) == "activate r1"
    st.apply("activate r1")
    assert choose(st) == "charge r1 b1"


def test_bot_generals_no_command_action_where_it_does_not_help() -> None:
    # the enemy is far away: no charge to open, the action is kept
    red = [u("r1", "CAF", 20, 5, figures=12), u("r2", "CPF", 34, 5)]
    st = start(make(red, [u("b1", "CUF", 20, 30, 180)], x=26.0, y=2.0), "red")
    assert choose(st) == "activate r1"


def test_bot_generals_an_average_general_leaves_his_unit_to_command() -> None:
    red = [u("r1", "CPF", 20, 5), u("r2", "CPF", 34, 5)]
    st = start(make(red, [u("b1", "CPF", 20, 30, 180)], leading=True), "red")
    assert st.generals["red-g1"]["leading"]
    assert choose(st) == "leave red-g1"


def test_bot_generals_a_poor_general_leads_his_unit() -> None:
    red = [u("r1", "CPF", 20, 5), u("r2", "CPF", 34, 5)]
    st = start(make(red, [u("b1", "CPF", 20, 30, 180)], rating="poor", leading=True), "red")
    assert choose(st) != "leave red-g1"
    # on his own, a poor general rides to join a unit (the bot's rule for leading)
    st2 = start(make(red, [u("b1", "CPF", 20, 30, 180)], rating="poor", x=26.0, y=3.0), "red")
    st2.apply("activate red-g1")
    assert choose(st2).startswith("join red-g1")


def test_bot_generals_alone_keeps_out_of_a_charge_and_near_his_units() -> None:
    red = [u("r1", "CPF", 14, 14), u("r2", "CPF", 26, 14)]
    st = start(make(red, [u("b1", "LAM", 20, 30, 180)], x=20.0, y=3.0), "red")
    st.apply("activate red-g1")
    order = choose(st)
    st.apply(order)
    g = st.units["red-g1"]
    assert footprint_distance(g.fp, st.units["b1"].fp) >= 12.0
    assert all(footprint_distance(g.fp, st.units[x].fp) <= 12.0 for x in ("r1", "r2"))


def test_bot_generals_new_orders_to_fall_back_when_the_division_is_broken() -> None:
    red = [u("r1", "CPF", 20, 5, figures=12), u("r2", "CPF", 34, 5, figures=12)]
    blue = [u("b1", "CAF", 20, 25, 180, figures=24), u("b2", "CAF", 34, 25, 180, figures=24)]
    g = make(red, blue, x=26.0, y=2.0)
    st = g.new_state(0)
    for x in ("r1", "r2"):
        st.units[x].figures = 1  # a division down to under a third of its men, against a whole army
    d = st.decision()
    assert d is not None and d.kind == "orders" and d.side == "red"
    assert choose(st) == "orders red-g1 fall-back"
