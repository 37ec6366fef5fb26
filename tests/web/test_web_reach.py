"""``rulesets.one_hour.reach``: what a unit can reach, by the engine's own rules."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from shieldwall.core.errors import IllegalOrder
from shieldwall.io.scenarios import game_from_data
from shieldwall.render.svg import render_svg
from shieldwall.rulesets.one_hour import actions as A
from shieldwall.rulesets.one_hour import menus
from shieldwall.rulesets.one_hour.reach import max_move, reach
from shieldwall.rulesets.one_hour.state import OneHourState

RS = "one-hour-dark-ages"


def _state(small: Callable[..., dict[str, Any]], **kw: Any) -> OneHourState:
    st = game_from_data(small(**kw), "test").new_state(3)
    assert isinstance(st, OneHourState)
    return st


def test_before_rolling_the_band_is_the_best_roll(small: Callable[..., Any]) -> None:
    st = _state(small)
    r = reach(st, "r1")
    assert r["move"] == {
        "radius": 17.0,
        "rolled": None,
        "max": 17.0,
        "dice": "3d5+2",
        "now": False,
        "done": False,
        "road_bonus": 3.0,
        "turns": 2,
        "rule": f"{RS}:movement.dice",
    }
    assert not r["charges_now"] and [c["target"] for c in r["charges"]] == ["b1"]
    assert r["charges"][0]["facings"][0]["order"] is None  # not an order yet: nothing rolled
    assert r["arc"]["half_angle"] == 45.0 and r["arc"]["range"] == 17.0
    assert reach(st, "r3")["move"]["max"] == 7.0  # infantry 1d5+2


def test_with_the_d6_the_best_roll_is_higher(small: Callable[..., Any]) -> None:
    st = _state(small, options={"dice": "d6"})
    assert max_move(st, st.units["r1"]) == 20.0


def test_the_moving_unit_reaches_its_roll_and_its_legal_charges(small: Callable[..., Any]) -> None:
    st = _state(small)
    st.apply("activate r1")
    r = reach(st, "r1")
    assert r["move"]["now"] and r["move"]["radius"] == st.rolled == r["move"]["rolled"]
    assert r["charges_now"]
    legal = menus.charge_orders(st, st.units["r1"])
    got = [f["order"] for c in r["charges"] for f in c["facings"]]
    assert got == [o.to_dict() for o in legal]
    need, _, _ = A.plan_charge(st, st.units["r1"], st.units["b1"], "front", None)
    assert r["charges"][0]["facings"][0]["distance"] == round(need, 2)
    # the others say why not, with the clause
    assert set(r["charge_why_not"]) == {"b2", "b3"}
    assert all(w["rule"].startswith(f"{RS}:") and w["reason"] for w in r["charge_why_not"].values())
    # and every charge offered is accepted by the engine
    for order in got:
        st.copy().apply(order)


def test_out_of_the_arc_names_the_arc_clause(small: Callable[..., Any]) -> None:
    data = small()
    data["red"]["units"][0]["heading"] = 90  # r1 faces east, b1 is due north
    st = game_from_data(data, "test").new_state(1)
    st.apply("activate r1")
    r = reach(st, "r1")
    # without turning first b1 is out of the arc, but a turn at the start brings it in
    facings = [f for c in r["charges"] if c["target"] == "b1" for f in c["facings"]]
    assert facings and all(f["turn"] is not None for f in facings)


def test_shooting_targets_and_reasons(small: Callable[..., Any]) -> None:
    st = _state(small)
    r = reach(st, "r2")
    s = r["shooting"]
    assert s["weapon"] == "bow" and s["range"] == 12.0 and s["mode"] == "shooting"
    assert s["targets"] == ["b1"] and s["orders"]["b1"] == {"kind": "shoot", "unit": "r2", "target": "b1"}
    assert s["why_not"]["b2"]["rule"] == f"{RS}:shooting.range"
    for t in ("b2", "b3"):
        assert A.shot_problem(st, st.units["r2"], st.units[t], moving=False) is not None
    assert r["arc"]["range"] == 12.0
    assert reach(st, "r1")["shooting"] is None


def test_a_unit_that_moved_goes_nowhere_more(small: Callable[..., Any]) -> None:
    st = _state(small)
    st.apply("activate r3")
    st.apply("hold r3")
    r = reach(st, "r3")
    assert r["move"]["done"] and r["move"]["radius"] == 0.0 and r["charges"] == []
    assert all(w["rule"] == f"{RS}:movement" for w in r["charge_why_not"].values())


def test_a_unit_in_melee_may_not_charge(small: Callable[..., Any]) -> None:
    st = _state(small)
    st.apply("activate r1")
    st.apply("charge r1 b1 front")
    r = reach(st, "b1")
    assert r["in_melee"] and r["charges"] == []
    assert r["charge_why_not"]["r1"]["rule"] == f"{RS}:melee.locked"


def test_reach_changes_nothing(small: Callable[..., Any]) -> None:
    st = _state(small)
    st.apply("activate r1")
    before = (copy.deepcopy(st.view()), len(st.events), st.rng.bit_generator.state)  # type: ignore[union-attr]
    for uid in ("r1", "r2", "r3", "b1", "b2", "b3"):
        reach(st, uid)
    assert (st.view(), len(st.events), st.rng.bit_generator.state) == before  # type: ignore[union-attr]


def test_unknown_unit(small: Callable[..., Any]) -> None:
    with pytest.raises(IllegalOrder) as exc:
        reach(_state(small), "zz")
    assert exc.value.rule == f"{RS}:orders"


def test_the_highlight_draws(small: Callable[..., Any]) -> None:
    st = _state(small)
    st.apply("activate r1")
    r = reach(st, "r1")
    hl = r["highlight"]
    assert hl["active"] == "r1" and hl["move_band"] == {"unit": "r1", "radius": st.rolled}
    assert hl["charge_targets"] == ["b1"] and hl["arc"]["half_angle"] == 45.0
    svg = render_svg(st.view(), highlight=hl)
    assert 'class="hl-move-band" data-unit="r1"' in svg and 'class="hl-charge-target" data-unit="b1"' in svg
