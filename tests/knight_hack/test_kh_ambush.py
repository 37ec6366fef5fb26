"""Ambushes (knight-hack:ambush.execute, rulings R26 and R49): hidden at deployment, unseen by the
other side, sprung in the movement phase on an enemy within reach, with the charge exceptions of
units "in ambush" (knight-hack:charge.open, knight-hack:charge.infantry-vs-mounted)."""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from typing import Any

import pytest
from tests.knight_hack.test_kh_game import game, unit

from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.knight_hack.bots import ScriptedBot
from shieldwall.rulesets.knight_hack.game import KnightHackGame
from shieldwall.rulesets.knight_hack.state import AMBUSH_PROMPT, KnightHackState
from shieldwall.visibility import FilteredEvents, view_for

VARIANT = resources.files("shieldwall.rulesets.knight_hack") / "scenarios" / "bourgtheroulde-1124-ambush.toml"


def javelinmen(**kw: Any) -> dict[str, Any]:
    return unit("jav", "open-foot", 6, 6, cls="C", weapons=["javelin"], **kw)


def ambush_game(hidden: bool = True, heading_b: float = 270) -> KnightHackGame:
    # the javelinmen face east in a wood; the knights 2 in. off their front, facing them (a front
    # contact on mounted: only "in ambush" lets open foot charge it)
    return game(
        [(javelinmen(ambush=hidden), 7, 19, 90), (unit("r-kn"), 30, 4, 0)],
        [(unit("b-kn"), 11, 19, heading_b)],
    )


def to_ambush(s: KnightHackState) -> None:
    """Every side holds, stands, keeps its fire and stays put until a hidden unit is asked."""
    while True:
        d = s.decision()
        assert d is not None, "the battle ended before an ambush was offered"
        menu = s.legal_orders()
        if menu[0].kind == "hide":
            return
        pick = {"charge": "hold", "respond": "stand", "fire": "hold-fire"}
        want = next((o for o in menu if o.kind in pick.values()), None)
        s.apply(want if want is not None else menu[0])


def test_ambush_execute_hidden_at_deployment_is_unseen_by_the_other_side() -> None:
    s = ambush_game().new_state(1)
    assert "jav" in {u["id"] for u in view_for(s, ["red"])["units"]}
    assert "jav" not in {u["id"] for u in view_for(s, ["blue"])["units"]}
    assert next(u for u in s.view()["units"] if u["id"] == "jav")["hidden_from"] == ["blue"]
    # the enemy may not declare a charge on it
    while (d := s.decision()) is not None and d.kind == "declare":
        assert all(o.target != "jav" for o in s.legal_orders())
        if d.side == "blue":
            with pytest.raises(IllegalOrder) as ei:
                s.apply("charge b-kn jav")
            assert "not an enemy on the table" in str(ei.value)
        s.apply(next(o for o in s.legal_orders() if o.kind == "hold"))


def test_ambush_execute_sprung_in_movement_on_an_enemy_within_reach() -> None:
    s = ambush_game().new_state(2)
    to_ambush(s)
    d = s.decision()
    assert d is not None and d.side == "red" and d.unit is None and d.prompt == AMBUSH_PROMPT
    assert [str(o) for o in s.legal_orders()] == ["hide jav", "ambush jav b-kn"]
    assert s.view()["phase"] == "movement"
    new = s.apply("ambush jav b-kn")
    amb = next(e for e in new if e.kind == "ambush")
    assert amb.rule == "knight-hack:ambush.execute" and amb.data["target_unit"] == "b-kn"
    assert any(e.kind == "contact" for e in s.events)
    assert "jav" in {u["id"] for u in view_for(s, ["blue"])["units"]}
    rounds = [e for e in s.events if e.kind == "melee-round"]
    assert rounds and rounds[0].data["units"][0] == "jav"
    # the charge bonus of the ambusher's first round is one of its terms
    assert any(t["note"] == "charging-first-round" for t in rounds[0].data["terms"][0])


def test_charge_open_and_infantry_vs_mounted_only_in_ambush() -> None:
    s = ambush_game(hidden=False).new_state(2)
    d = s.decision()
    # not hidden: open foot never charges, and no foot charges mounted in front
    assert d is None or all(o.target != "b-kn" or o.unit != "jav" for o in s.legal_orders())
    from shieldwall.rulesets.knight_hack.geom import check_charge

    b = s.board
    with pytest.raises(IllegalOrder) as ei:
        check_charge(b, b.units["jav"], b.units["b-kn"])
    assert ei.value.rule == "knight-hack:charge.open"
    b.units["jav"].hidden = True
    check_charge(b, b.units["jav"], b.units["b-kn"])  # in ambush: both exceptions hold


def test_ambush_execute_keeping_hidden_tells_the_other_side_nothing() -> None:
    s = ambush_game().new_state(2)
    to_ambush(s)
    s.apply("hide jav")
    waits = [e for e in s.events if e.kind == "ambush-waits"]
    assert waits and waits[0].data["hidden_from"] == ["blue"]
    blue = FilteredEvents(s.events, ["blue"], False)
    assert all("jav" not in json.dumps(e.to_dict()) for e in blue)
    assert "jav" not in {u["id"] for u in view_for(s, ["blue"])["units"]}
    with pytest.raises(IllegalOrder):
        s.apply("move jav go=1")


def test_ambush_execute_a_move_into_a_hidden_ambusher_stops_short_and_finds_it() -> None:
    # the blue knights face west and move straight at the hidden javelinmen they cannot see
    g = game([(javelinmen(ambush=True), 7, 19, 90), (unit("r-kn"), 30, 4, 0)], [(unit("b-kn"), 16, 19, 270)])
    s = g.new_state(4)
    while True:
        d = s.decision()
        assert d is not None
        menu = s.legal_orders()
        if d.kind == "unit" and d.unit == "b-kn":
            break
        want = next((o for o in menu if o.kind in ("hold", "stand", "hold-fire", "hide")), menu[0])
        s.apply(want)
    # measured as though the ambushers were not there: a full move is offered
    full = max(o.arg("go") or 0.0 for o in s.legal_orders())
    assert full == 8
    s.apply("move b-kn go=8")
    found = next(e for e in s.events if e.kind == "ambush-found")
    assert found.data["unit"] == "jav" and found.data["by"] == "b-kn"
    mv = [e for e in s.events if e.kind == "move" and e.data["unit"] == "b-kn"][-1]
    assert mv.data["go"] < 8
    b = s.board
    assert not b.units["jav"].hidden and not b.in_melee("b-kn")


def test_ambush_variant_plays_and_the_rebels_never_read_the_ambushers_before_they_spring() -> None:
    g = KnightHackGame.from_data(tomllib.loads(VARIANT.read_text("utf-8")), "variant")
    assert [d.unit.id for d in g.scenario.units if d.ambush] == ["javelinmen"]
    for seed in (1, 2):
        s = g.new_state(seed)
        bots = {"red": ScriptedBot(seed), "blue": ScriptedBot(seed + 1)}
        while not s.is_terminal():
            d = s.decision()
            assert d is not None
            if s.board.units["javelinmen"].hidden:
                assert "javelinmen" not in json.dumps(
                    [e.to_dict() for e in FilteredEvents(s.events, ["blue"], False)]
                )
                assert "javelinmen" not in {u["id"] for u in view_for(s, ["blue"])["units"]}
            s.apply(bots[d.side].choose(s))
        assert "javelinmen" in {u["id"] for u in s.view()["units"]}
        assert "hidden_from" not in next(u for u in s.view()["units"] if u["id"] == "javelinmen")


def test_ambush_execute_is_narrated() -> None:
    from shieldwall.rulesets.knight_hack.narrate import describe

    s = ambush_game().new_state(2)
    to_ambush(s)
    s.apply("ambush jav b-kn")
    ev = next(e for e in s.events if e.kind == "ambush")
    line = describe(ev, {"jav": "Javelinmen", "b-kn": "Knights"})
    assert line == "Ambush! Javelinmen springs from hiding on Knights"


def test_ambush_execute_a_rally_move_into_a_hidden_ambusher_stops_short() -> None:
    from shieldwall.rulesets.knight_hack.orders import Order
    from shieldwall.rulesets.knight_hack.phase_move import _rally

    # a rallying open unit falls back towards javelinmen hidden behind it
    g = game(
        [(javelinmen(ambush=True), 20, 10, 0), (unit("r-kn"), 40, 4, 0)],
        [(unit("b-op", "open-foot", 6, 6, cls="C", weapons=["javelin"]), 20, 14, 0)],
    )
    s = g.new_state(1)
    b = s.board
    u = b.units["b-op"]
    u.status = "rallying"
    _rally(b, u, Order("rally", "b-op", args=(("back", 6.0),)))
    found = next(e for e in b.events if e.kind == "ambush-found")
    assert found.data == {**found.data, "unit": "jav", "by": "b-op"}
    mv = next(e for e in b.events if e.kind == "rally-move")
    assert 0 < mv.data["back"] < 6 and not b.units["jav"].hidden
