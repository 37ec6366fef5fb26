"""Clause tests: generals as figures on the table (command.generals, command.general-leading,
command.command-actions), with Command & Control in play."""

from __future__ import annotations

from typing import Any

import pytest

from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.into_the_dark.game import IntoTheDarkGame

from .playkit import RS, end_until, events, last, scenario, script, start, u

CC = {"command_and_control": True}


def make(red: list[dict[str, Any]], blue: list[dict[str, Any]], **kw: Any) -> IntoTheDarkGame:
    data = scenario(red, blue, options=CC)
    kw.setdefault("orders", "hold")  # no unit has to advance
    data["red"]["generals"] = [{"name": "Red general", "unit": red[0]["deploy"]["id"], **kw}]
    data["blue"]["generals"] = [
        {"name": "Blue general", "x": 4.0, "y": 33.0, "heading": 180.0, "orders": "hold"}
    ]
    return IntoTheDarkGame.from_data(data, "test.toml")


def test_command_generals_figure_is_lmm_and_moves_on_his_own() -> None:
    """ "A general figure on the battlefield is treated as if he were LMM (or LMF)": a loose order
    mounted figure that moves 12" on his own."""
    st = start(make([u("r1", "CPF", 20, 5)], [u("b1", "CPF", 20, 30, 180)], x=30.0, y=6.0), "red")
    g = st.units["red-g1"]
    assert g.general and g.on_table and g.code == "LMM" and g.allowance == 12 and g.figures == 1
    assert st.generals["red-g1"]["figure"] == "red-g1" and st.generals["red-g1"]["with"] is None
    st.apply("move red-g1 fwd 12")
    assert g.y == pytest.approx(18.0)
    with pytest.raises(IllegalOrder):
        st.copy().apply("charge red-g1 b1")  # "has no value in combat": he never charges


def test_command_generals_not_leading_stands_behind_his_unit() -> None:
    st = start(make([u("r1", "CPF", 20, 10)], [u("b1", "CPF", 20, 30, 180)]), "red")
    g, r1 = st.units["red-g1"], st.units["r1"]
    assert g.on_table and g.joined is None and g.y == pytest.approx(r1.y - r1.depth - 0.01)


def test_command_generals_may_join_and_leave_units() -> None:
    """ "They may join units however, and are treated as if mixed in with the front rank"; a general
    who has joined leads the unit; one who leaves it is on his own again (ruling 75)."""
    # also exercises into-the-dark:command.generals.join
    st = start(make([u("r1", "CPF", 20, 10)], [u("b1", "CPF", 20, 30, 180)], x=26.0, y=8.0), "red")
    st.apply("activate red-g1")
    assert "join red-g1 r1" in {str(o) for o in st.legal_orders()}
    st.apply("join red-g1 r1")
    ev = last(st, "join")
    assert ev.rule == f"{RS}:command.general-leading" and ev.data["general"] == "red-g1"
    gen = st.generals["red-g1"]
    assert gen["leading"] and gen["with"] == "r1" and not st.units["red-g1"].on_table
    view = {x["id"]: x for x in st.view()["units"]}
    assert view["r1"]["generals"] == ["red-g1"] and view["r1"]["champions"] == []
    st.apply("end")
    end_until(st, "movement", "red")
    st.apply("leave red-g1")
    ev2 = last(st, "leave")
    assert ev2.rule == f"{RS}:command.generals" and ev2.data["host"] == "r1"
    assert not gen["leading"] and gen["with"] is None and st.units["red-g1"].on_table
    from shieldwall.rulesets.into_the_dark.narrate import describe

    assert "and leads it" in (describe(ev) or "") and "command actions" in (describe(ev2) or "")


def test_command_command_actions_measured_from_where_the_general_stands() -> None:
    """ "A general that has not joined a unit may instead use command 'actions' ... These units must
    be within 12 inches": from his figure, wherever he has ridden."""
    red = [u("r1", "CPF", 10, 5), u("r2", "CPF", 34, 5)]
    st = start(make(red, [u("b1", "CPF", 20, 30, 180)], x=12.0, y=8.0), "red")
    assert "command red-g1 r1" in {str(o) for o in st.legal_orders()}
    assert "command red-g1 r2" not in {str(o) for o in st.legal_orders()}  # 19.5" away
    st.apply("activate red-g1")
    st.apply("move red-g1 wheel 90 fwd 10")
    assert "command red-g1 r2" in {str(o) for o in st.legal_orders()}


def test_command_generals_caught_alone_one_hit_removes_him() -> None:
    """A general on his own can be charged; "A general is removed after taking a single hit, and has
    no value in combat": he strikes no blow, and one hit removes him."""
    st = start(make([u("r1", "CPF", 20, 5)], [u("b1", "LAM", 30, 16, 180)], x=30.0, y=8.0), "blue")
    script(st, [6, 6, 6, 6, *[1] * 60])
    st.apply("charge b1 red-g1")
    end_until(st, "initiative")
    falls = events(st, "general-falls")
    assert falls and falls[0].rule == f"{RS}:command.generals" and falls[0].data["general"] == "red-g1"
    assert st.units["red-g1"].destroyed and st.generals["red-g1"]["fallen"]
    assert not [e for e in events(st, "melee") if e.data["unit"] == "red-g1"]  # no blow struck
    assert not [e for e in events(st, "morale-test") if e.data["unit"] == "red-g1"]  # no morale
    assert st.losses("red")["points_lost"] == st.generals["red-g1"]["points"]
    assert st.result() is None  # a general is not a unit that keeps the army in the field


def test_command_generals_figure_does_not_keep_an_army_in_the_field() -> None:
    from shieldwall.rulesets.into_the_dark.turns import check_end

    st = start(make([u("r1", "CPF", 20, 5)], [u("b1", "CPF", 20, 30, 180)], x=30.0, y=6.0), "red")
    for uid in ("r1", "rs"):
        st.units[uid].gone = True
    assert check_end(st)
    r = st.result()
    assert r is not None and r.winner == "blue"


def test_command_generals_are_drawn_on_the_table_alone_and_leading() -> None:
    """The table shows a general's own figure (a gold pennant, drawn over the units) and the unit a
    general leads (a gold mark on its front edge)."""
    from shieldwall.render.svg import render_svg

    st = start(make([u("r1", "CPF", 20, 10)], [u("b1", "CPF", 20, 30, 180)], x=26.0, y=8.0), "red")
    svg = render_svg(st.view())
    assert 'class="itd-general"' in svg and 'class="itd-led"' not in svg
    assert svg.index('data-unit="red-g1"') > svg.index('data-unit="r1"')  # drawn over the units
    st.apply("activate red-g1")
    st.apply("join red-g1 r1")
    svg2 = render_svg(st.view())
    assert 'class="itd-led"' in svg2 and "led by general red-g1" in svg2


def test_command_command_actions_odds_and_reach_for_the_web() -> None:
    """The web's reach of a general's figure: his actions, the units he may order from where he
    stands (12", command.command-actions), and the odds that new orders reach him at once
    (command.new-orders: d6 <= the two ratings)."""
    from shieldwall.rulesets.into_the_dark.reach import reach

    red = [u("r1", "CPF", 10, 5), u("r2", "CPF", 34, 5)]
    st = start(make(red, [u("b1", "CPF", 20, 30, 180)], x=12.0, y=8.0), "red")
    c = reach(st, "red-g1")["command"]
    assert c["actions"] == 2 and not c["leading"] and c["radius"] == 12
    assert "r1" in c["may_order"] and "r2" in c["why_not"]
    assert c["rule"] == f"{RS}:command.command-actions"
    assert c["new_orders_at_once"] is None  # the only general is the commanding one
    assert reach(st, "r1")["command"] is None


def test_command_generals_start_with_their_unit_in_an_alternate_deployment() -> None:
    data = scenario(
        [u("r1", "CPF", 20, 5)], [u("b1", "CPF", 20, 30, 180)], options={**CC, "deployment": "alternate"}
    )
    data["red"]["generals"] = [{"name": "Red general", "unit": "r1", "x": 30.0, "y": 6.0}]
    st = IntoTheDarkGame.from_data(data, "test.toml").new_state(0)
    g = st.generals["red-g1"]
    assert g["leading"] and g["with"] == "r1" and st.units["red-g1"].joined == "r1"
