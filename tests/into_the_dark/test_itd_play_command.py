"""Clause tests: Command & Control in play (command.*), optional (options.command_and_control)."""

from __future__ import annotations

from typing import Any

import pytest

from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.into_the_dark.game import IntoTheDarkGame

from .playkit import RS, end_until, last, scenario, script, start, u

CC = {"command_and_control": True}


def make(
    red: list[dict[str, Any]],
    blue: list[dict[str, Any]],
    orders: str = "attack",
    spare: bool = True,
    **kw: Any,
) -> IntoTheDarkGame:
    data = scenario(red, blue, options=CC, spare=spare)
    data["red"]["generals"] = [
        {"name": "Red general", "unit": red[0]["deploy"]["id"], "orders": orders, **kw}
    ]
    return IntoTheDarkGame.from_data(data, "test.toml")


def refused(st: Any, order: str, clause: str) -> None:
    with pytest.raises(IllegalOrder) as e:
        st.copy().apply(order)
    assert e.value.rule == f"{RS}:{clause}", (e.value.rule, e.value.reason)


def test_command_combat_preferences_foot_stand_unless_ordered() -> None:
    st = start(make([u("r1", "CPF", 20, 5), u("r2", "CPF", 30, 5)], [u("b1", "CPF", 20, 10, 180)]), "red")
    refused(st, "charge r1 b1", "command.combat-preferences")  # foot wait for the enemy
    st.apply("command red-g1 r1")
    ev = last(st, "command")
    assert ev.rule == f"{RS}:command.command-actions" and ev.data["unit"] == "r1"
    st.apply("charge r1 b1")  # ordered: may act counter to its preferences


def test_command_combat_preferences_mounted_charge_when_they_can() -> None:
    st = start(make([u("r1", "LAM", 20, 5)], [u("b1", "CPF", 20, 12, 180)]), "red")
    refused(st, "hold r1", "command.combat-preferences")
    st.apply("charge r1 b1")


def test_command_combat_preferences_missile_troops_in_close_range_stop() -> None:
    r = [u("r1", "LUF", 20, 5, type_="missile", weapon="bow")]
    st = start(make(r, [u("b1", "CPF", 20, 10, 180)], orders="attack"), "red")
    refused(st, "move r1 fwd 4", "command.combat-preferences")
    st.apply("hold r1")


def test_command_orders_hold_only_wheels_and_turns() -> None:
    st = start(make([u("r1", "CPF", 20, 5)], [u("b1", "CPF", 20, 30, 180)], orders="hold"), "red")
    refused(st, "move r1 fwd 3", "command.orders")
    st.apply("move r1 wheel 20")


def test_command_orders_attack_advance_half_speed_or_more() -> None:
    g = make([u("r1", "CPF", 20, 5), u("r2", "CPF", 36, 5)], [u("b1", "CPF", 20, 30, 180)], spare=False)
    st = start(g, "red")
    refused(st, "hold r1", "command.orders")
    refused(st, "move r1 fwd 2", "command.orders")  # under half of 6"
    refused(st, "end", "command.orders")  # r1 and r2 must still move
    st.apply("move r1 fwd 3")
    assert "end" not in {str(o) for o in st.legal_orders()}
    st.apply("move r2 fwd 6")
    d = st.decision()
    assert d is not None and d.side == "blue"  # red's movement is over
    refused(st, "end", "command.orders")  # blue's b1 is under Attack orders too


def test_command_orders_fall_back_away_and_no_charges() -> None:
    st = start(make([u("r1", "LAM", 20, 10)], [u("b1", "CPF", 20, 15, 180)], orders="fall-back"), "red")
    refused(st, "charge r1 b1", "command.orders")
    refused(st, "move r1 fwd 2", "command.orders")  # towards the enemy
    st.apply("move r1 about fwd 6")


def test_command_orders_reactions_attack_foot_hold_against_mounted() -> None:
    g = make([u("r1", "CPF", 20, 20, 180)], [u("b1", "LAM", 20, 30, 180)])
    st = start(g, "blue")
    st.apply("charge b1 r1")
    assert last(st, "contact").data["unit"] == "b1"  # "foot will hold if charged by mounted"
    assert not any(e.kind == "countercharge" for e in st.events)


def test_command_orders_reactions_hold_foot_do_not_counter_charge() -> None:
    g = make(
        [u("r1", "CPF", 20, 20, 180), u("r2", "CPF", 36, 5)], [u("b1", "CPF", 20, 24, 180)], orders="hold"
    )
    st = start(g, "blue")
    st.apply("command blue-g1 b1")
    st.apply("charge b1 r1")
    assert "countercharge r1" not in {str(o) for o in st.legal_orders()}


def test_command_command_actions_rating_limit_and_twelve_inches() -> None:
    red = [u("r1", "CPF", 14, 5), u("r2", "CPF", 20, 5), u("r3", "CPF", 26, 5), u("r4", "CPF", 44, 5)]
    st = start(make(red, [u("b1", "CPF", 20, 30, 180)]), "red")
    refused(st, "command red-g1 r4", "command.command-actions")  # 30" away
    st.apply("command red-g1 r2")
    st.apply("command red-g1 r3")
    refused(st, "command red-g1 r1", "command.command-actions")  # an average general: 2 actions


def test_command_general_leading_frees_the_unit_and_steadies_it() -> None:
    g = make([u("r1", "CPF", 20, 5)], [u("b1", "CPF", 20, 10, 180)], leading=True)
    st = start(g, "red")
    refused(st, "command red-g1 r1", "command.command-actions")  # a leading general has no actions
    st.apply("charge r1 b1")  # led by its general: free of its preferences
    st.units["r1"].disordered = True
    from shieldwall.rulesets.into_the_dark.act_tests import base_mods

    assert base_mods(st, st.units["r1"])["general"] == 2


def test_command_new_orders_own_orders_cost_an_action() -> None:
    st = make([u("r1", "CPF", 20, 5)], [u("b1", "CPF", 20, 30, 180)]).new_state(0)
    end_until(st, "orders", "red")
    st.apply("orders red-g1 hold")
    ev = last(st, "orders")
    assert ev.rule == f"{RS}:command.new-orders" and ev.data["own"]
    assert st.generals["red-g1"]["orders"] == "hold" and st.generals["red-g1"]["actions"] == 1


def test_command_new_orders_subordinate_roll_against_both_ratings() -> None:
    red = [u("r1", "CPF", 20, 5), u("r2", "CPF", 34, 5)]
    red[1]["army"]["division"] = "Left"
    data = scenario(red, [u("b1", "CPF", 20, 30, 180)], options=CC)
    army = data["red"]["army"]
    army["generals"] = [
        {"name": "Red general", "rating": "average", "division": "Main", "commanding": True},
        {"name": "Sub", "rating": "poor", "division": "Left"},
    ]
    data["red"]["generals"] = [{"name": "Red general", "unit": "r1"}, {"name": "Sub", "unit": "r2"}]
    st = IntoTheDarkGame.from_data(data, "test.toml").new_state(0)
    end_until(st, "orders", "red")
    script(st, [4] + [3] * 50)  # 4 > 2 + 1: next turn
    st.apply("orders red-g2 hold")
    assert st.generals["red-g2"]["orders"] == "attack" and st.generals["red-g2"]["next_orders"] == "hold"
    assert last(st, "orders").data["result"] == "next turn"
    assert st.generals["red-g1"]["actions"] == 1 and st.generals["red-g2"]["actions"] == 0


def test_command_command_and_control_is_optional() -> None:
    """Without options.command_and_control there are no generals in play and no restrictions."""
    st = start(
        IntoTheDarkGame.from_data(
            scenario([u("r1", "CPF", 20, 5)], [u("b1", "CPF", 20, 10, 180)]), "test.toml"
        ),
        "red",
    )
    assert st.generals == {}
    refused(st, "command red-g1 r1", "command.command-actions")
    st.apply("charge r1 b1")  # foot may charge freely
