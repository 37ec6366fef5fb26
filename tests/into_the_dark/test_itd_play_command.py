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
    # a general not leading stands on his own: out of the way, in a corner, unless placed
    away = {} if kw.get("leading") or "x" in kw else {"x": 44.0, "y": 3.0}
    data["red"]["generals"] = [
        {"name": "Red general", "unit": red[0]["deploy"]["id"], "orders": orders, **away, **kw}
    ]
    data["blue"]["generals"] = [{"name": "Blue general", "x": 4.0, "y": 33.0, "heading": 180.0}]
    return IntoTheDarkGame.from_data(data, "test.toml")


def refused(st: Any, order: str, clause: str) -> None:
    with pytest.raises(IllegalOrder) as e:
        st.copy().apply(order)
    assert e.value.rule == f"{RS}:{clause}", (e.value.rule, e.value.reason)


def test_command_combat_preferences_foot_stand_unless_ordered() -> None:
    g = make([u("r1", "CPF", 20, 5), u("r2", "CPF", 30, 5)], [u("b1", "CPF", 20, 10, 180)], x=26.0, y=4.0)
    st = start(g, "red")
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
    assert "end" in {str(o) for o in st.legal_orders()}  # only red's general (no orders) may still act
    st.apply("end")
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
    g_data = g  # the blue general stands in the corner: put him by b1
    st = start(g_data, "blue")
    fig = st.units["blue-g1"]
    fig.x, fig.y = 26.0, 28.0
    st.apply("command blue-g1 b1")
    st.apply("charge b1 r1")
    assert "countercharge r1" not in {str(o) for o in st.legal_orders()}


def test_command_command_actions_rating_limit_and_twelve_inches() -> None:
    """ "These units must be within 12 inches" of the general, measured from where he stands."""
    red = [u("r1", "CPF", 14, 5), u("r2", "CPF", 20, 5), u("r3", "CPF", 26, 5), u("r4", "CPF", 44, 5)]
    st = start(make(red, [u("b1", "CPF", 20, 30, 180)], x=20.0, y=10.0), "red")
    refused(st, "command red-g1 r4", "command.command-actions")  # 22" from him
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


# --- generals in the melee (command.general-leading, command.generals) -------------------------


def _led_melee() -> Any:
    """r1, led by the red general, is in frontal contact with b1 from the start."""
    g = make(
        [u("r1", "CPF", 20, 12, figures=12, frontage=4)],
        [u("b1", "CPF", 20, 12, 180, figures=12, frontage=4)],
        spare=False,
        leading=True,
    )
    st = start(g, "red")
    end_until(st, "declare", "blue")
    return st


def test_command_general_leading_dice_declared_at_him_take_him_out_with_one_hit() -> None:
    """ "While in the front rank, up to 2 of his opponent's combat dice (identified before rolling)
    may be declared as targeting the general"; "A general is removed after taking a single hit"."""
    # also exercises into-the-dark:command.generals.caught-alone
    st = _led_melee()
    menu = {str(o) for o in st.legal_orders()}
    assert {"declare b1 red-g1 1", "declare b1 red-g1 2"} <= menu and "declare b1 red-g1 3" not in menu
    n = len(st.events)
    # r1 strikes first (its 2 dice: 8 figures fighting, 1 d6 per 4), then b1's 2 declared dice
    script(st, [1, 1, 6, 1] + [1] * 60)
    st.apply("declare b1 red-g1 2")  # b1 has nothing more to declare: the melee follows
    ev = [e for e in st.events[n:] if e.kind == "declare"][0]
    assert ev.rule == f"{RS}:command.general-leading" and ev.data["dice"] == 2
    at = [e for e in st.events[n:] if e.kind == "melee-general"][0]
    assert at.rule == f"{RS}:command.general-leading" and at.data["faces"] == [6, 1] and at.data["hits"] == 1
    assert at.data["groups"][0]["armour"] == 6  # "treated as if he were LMM": mailed, hit on a 6+
    fell = [e for e in st.events[n:] if e.kind == "general-falls"][0]
    assert fell.rule == f"{RS}:command.generals" and fell.data["general"] == "red-g1"
    g = st.generals["red-g1"]
    assert g["fallen"] and not g["leading"]
    # b1's own attack on r1 lost the two declared dice: its 2 dice all went at the general
    red_melee = [e for e in st.events[n:] if e.kind == "melee" and e.data["unit"] == "r1"][0]
    assert sum(grp["dice"] for grp in red_melee.data["groups"]) == 2
    blue_melee = [e for e in st.events[n:] if e.kind == "melee" and e.data["unit"] == "b1"][0]
    assert not blue_melee.data.get("groups") and blue_melee.data["hits"] == 0
    # his points are lost: 25 per rating (average 2 -> 50)
    assert st.losses("red")["points_lost"] >= 50


def test_command_general_leading_a_missed_general_keeps_leading() -> None:
    # also exercises into-the-dark:command.general-leading.dice-declared
    st = _led_melee()
    n = len(st.events)
    script(st, [1, 1, 5] + [1] * 60)
    st.apply("declare b1 red-g1 1")
    at = [e for e in st.events[n:] if e.kind == "melee-general"][0]
    assert at.data["hits"] == 0 and not [e for e in st.events[n:] if e.kind == "general-falls"]
    assert st.generals["red-g1"]["leading"] and not st.generals["red-g1"].get("fallen")
    blue_melee = [e for e in st.events[n:] if e.kind == "melee" and e.data["unit"] == "b1"][0]
    assert sum(grp["dice"] for grp in blue_melee.data["groups"]) == 1  # the other die went at r1


def test_command_general_leading_declarations_are_checked() -> None:
    # also exercises into-the-dark:command.general-leading.dice-declared
    st = _led_melee()
    refused(st, "declare b1 red-g1 3", "command.general-leading")  # "up to 2"
    refused(st, "declare b1 blue-g1 1", "command.general-leading")  # not an enemy general
    refused(st, "declare r1 red-g1 1", "command.general-leading")  # not one of blue's units
    st.apply("end")  # declaring is a choice: no dice at the general
    assert not [e for e in st.events if e.kind == "melee-general"]


def test_command_generals_a_fallen_general_gives_no_orders() -> None:
    from shieldwall.rulesets.into_the_dark.act_generals import fall

    st = make([u("r1", "CPF", 20, 5)], [u("b1", "CPF", 20, 30, 180)]).new_state(0)
    fall(st, "red-g1", "test")
    end_until(st, "orders", "blue")
    assert not any(str(o).startswith("orders red-g1") for o in st.legal_orders())
    from shieldwall.rulesets.into_the_dark.act_command import command_problem

    assert "fallen" in (command_problem(st, "red", "red-g1", "r1") or "")
