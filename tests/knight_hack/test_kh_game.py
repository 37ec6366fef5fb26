"""The Knight Hack turn engine: the clauses only a playing game can carry, each test named after its
clause, and the State API's promises (finite menus all accepted, exact orders, refusals that change
nothing, independent copies, a JSON-ready view)."""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from typing import Any

import numpy as np
import pytest

from shieldwall.core.errors import DataError, IllegalOrder
from shieldwall.rulesets.knight_hack.bots import ScriptedBot
from shieldwall.rulesets.knight_hack.game import KnightHackGame
from shieldwall.rulesets.knight_hack.schemas import SAMPLE_LABEL
from shieldwall.rulesets.knight_hack.state import KnightHackState

SCENARIO = resources.files("shieldwall.rulesets.knight_hack") / "scenarios" / "bourgtheroulde-1124.toml"


def bourg(**over: Any) -> KnightHackGame:
    return KnightHackGame.from_data(tomllib.loads(SCENARIO.read_text("utf-8")), "bourg", over)


def unit(
    uid: str, type_: str = "heavy-cavalry", figures: int = 6, frontage: int = 3, **kw: Any
) -> dict[str, Any]:
    return {
        "id": uid,
        "type": type_,
        "class": kw.pop("cls", "B"),
        "figures": figures,
        "frontage": frontage,
        "weapons": kw.pop("weapons", ["lance", "sword"]),
        **kw,
    }


def game(
    red: list[tuple[dict[str, Any], float, float, float]],
    blue: list[tuple[dict[str, Any], float, float, float]],
    **over: Any,
) -> KnightHackGame:
    def army(units: list[tuple[dict[str, Any], float, float, float]], edge: str) -> dict[str, Any]:
        return {
            "units": [u for u, *_ in units],
            "edge": edge,
            "place": [{"unit": u["id"], "x": x, "y": y, "heading": h} for u, x, y, h in units],
        }

    data = {
        "ruleset": "knight-hack",
        "name": "test",
        "table": {"width": 48, "depth": 36},
        "red": army(red, "south"),
        "blue": army(blue, "north"),
    }
    return KnightHackGame.from_data(data, "test", over)


def answer(s: KnightHackState, *orders: str) -> None:
    for o in orders:
        s.apply(o)


def kinds(s: KnightHackState) -> list[str]:
    return [e.kind for e in s.events]


def play_random(s: KnightHackState, seed: int) -> int:
    r = np.random.default_rng(seed)
    n = 0
    while not s.is_terminal():
        menu = s.legal_orders()
        assert menu, s.decision()
        o = menu[int(r.integers(len(menu)))]
        assert s.parse_order(str(o)) == o and s.parse_order(o.to_dict()) == o
        s.apply(o)
        n += 1
    return n


def test_turn_sequence_phases_in_order_every_turn() -> None:
    s = bourg().new_state(3)
    play_random(s, 3)
    order = {"charge": 0, "movement": 1, "melee": 2, "rally": 3}
    last: dict[int, int] = {}
    for e in s.events:
        assert e.rule.startswith("knight-hack:")
        assert order[e.phase] >= last.get(e.turn, 0)
        last[e.turn] = order[e.phase]
    res = s.result()
    assert res is not None and res.turns <= 8 and set(res.losses) == {"red", "blue"}


def _facing_pair() -> KnightHackGame:
    return game([(unit("r1"), 20, 10, 0)], [(unit("b1"), 20, 20, 180)])


def test_charge_declare_sealed_until_both_sides_declare() -> None:
    s = _facing_pair().new_state(1)
    d = s.decision()
    assert d is not None and (d.side, d.kind, d.unit) == ("red", "declare", "r1")
    assert [str(o) for o in s.legal_orders()] == ["hold r1", "charge r1 b1"]
    new = s.apply("charge r1 b1")
    assert new == [] and "charges-declared" not in kinds(s)
    assert "declared" not in json.dumps(s.view())
    d = s.decision()
    assert d is not None and (d.side, d.unit) == ("blue", "b1")
    s.apply("hold b1")
    ev = next(e for e in s.events if e.kind == "charges-declared")
    assert ev.rule == "knight-hack:charge.declare"
    assert ev.data["charges"] == {"red": [["r1", "b1"]], "blue": []}


def test_charge_declare_range_in_play_an_object_beyond_normal_move_is_refused() -> None:
    s = game([(unit("r1"), 20, 10, 0)], [(unit("b1"), 20, 20, 180), (unit("b2"), 24, 30, 180)]).new_state(1)
    assert [str(o) for o in s.legal_orders()] == ["hold r1", "charge r1 b1"]
    before = (len(s.events), json.dumps(s.view(), sort_keys=True))
    with pytest.raises(IllegalOrder) as ei:
        s.apply("charge r1 b2")
    assert ei.value.rule == "knight-hack:charge.declare-range"
    assert (len(s.events), json.dumps(s.view(), sort_keys=True)) == before
    with pytest.raises(IllegalOrder):
        s.apply("fire r1 b1")  # not the pending decision
    s.apply({"kind": "charge", "unit": "r1", "target": "b1"})


def test_charge_declare_a_unit_with_no_legal_charge_is_not_asked() -> None:
    s = game([(unit("r1"), 20, 5, 0)], [(unit("b1"), 20, 30, 180)]).new_state(1)
    d = s.decision()
    assert d is not None and d.kind == "move-order"
    ev = next(e for e in s.events if e.kind == "charges-declared")
    assert ev.data["charges"] == {"red": [], "blue": []}


def test_charge_disorder_on_contact_and_contact_only_by_charge() -> None:
    s = _facing_pair().new_state(1)
    answer(s, "charge r1 b1", "hold b1")
    ks = kinds(s)
    assert "contact" in ks
    assert next(e for e in s.events if e.kind == "contact").rule == "knight-hack:contact.only-by-charge"
    dis = next(e for e in s.events if e.kind == "disordered" and e.data["reason"] == "contact")
    assert dis.rule == "knight-hack:charge.disorder-on-contact" and dis.data["unit"] == "r1"


def test_contact_only_by_charge_refusal_leaves_state_unchanged() -> None:
    s = game(
        [(unit("r1"), 20, 10, 0)],
        [(unit("b1", "heavy-infantry", 12, 6, cls="C", weapons=["spear"]), 20, 18, 180)],
    ).new_state(2)
    while s.decision() is not None and s.decision().kind != "unit":
        d = s.decision()
        s.apply(
            "hold r1"
            if d.kind == "declare"
            else "move first"
            if d.kind == "move-order"
            else s.legal_orders()[0]
        )
    assert s.decision().unit == "r1"
    before = (len(s.events), json.dumps(s.view(), sort_keys=True))
    with pytest.raises(IllegalOrder) as ei:
        s.apply("move r1 go=6")
    assert ei.value.rule == "knight-hack:contact.only-by-charge"
    assert (len(s.events), json.dumps(s.view(), sort_keys=True)) == before
    s.apply("move r1 go=5")
    assert s.events[-1].kind == "move"


def test_charge_redirect_a_charged_charger_may_turn_on_its_charger() -> None:
    s = game([(unit("r1"), 12, 10, 0), (unit("r2"), 18, 10, 0)], [(unit("b1"), 15, 18, 180)]).new_state(4)
    answer(s, "charge r1 b1", "hold r2", "charge b1 r2")
    d = s.decision()
    assert d is not None and (d.kind, d.unit) == ("respond", "b1")
    menu = [str(o) for o in s.legal_orders()]
    assert menu == ["stand b1", "keep b1", "redirect b1 r1"]
    s.apply("redirect b1 r1")
    ev = next(e for e in s.events if e.kind == "redirects")
    assert ev.rule == "knight-hack:charge.redirect" and ev.data == {"unit": "b1", "target": "r1"}


def test_rally_countercharge_a_charged_rallying_unit_may_counter_charge_disordered() -> None:
    s = _facing_pair().new_state(6)
    s.board.units["b1"].status = "rallying"
    s.board.units["b1"].good_from = (3, "movement")
    s.apply("charge r1 b1")
    d = s.decision()
    assert d is not None and (d.kind, d.unit) == ("respond", "b1")
    assert [str(o) for o in s.legal_orders()] == ["stand b1", "redirect b1 r1"]
    s.apply("redirect b1 r1")
    ev = next(e for e in s.events if e.kind == "countercharge")
    assert ev.rule == "knight-hack:rally.countercharge" and ev.data == {"unit": "b1", "target": "r1"}
    assert "contact" in kinds(s)
    assert s.board.units["b1"].status == "disordered"


def test_missile_window_fire_comes_before_the_charge_moves() -> None:
    archers = unit("a1", "archers", 8, 8, cls="C", weapons=["bow"])
    s = game([(archers, 20, 10, 0)], [(unit("b1"), 20, 19, 180)]).new_state(5)
    answer(s, "charge b1 a1")
    d = s.decision()
    assert d is not None and (d.kind, d.unit) == ("respond", "a1")
    s.apply("stand a1")
    assert s.decision().kind == "fire"
    assert [str(o) for o in s.legal_orders()] == ["hold-fire a1", "fire a1 b1"]
    s.apply("fire a1 b1")
    ks = kinds(s)
    assert ks.index("charges-declared") < ks.index("missile") < ks.index("charge-move")
    assert next(e for e in s.events if e.kind == "missile").rule == "knight-hack:missile.window"


def test_charge_evade_then_move_and_charge_no_contact() -> None:
    archers = unit("a1", "archers", 8, 8, cls="C", weapons=["bow"])
    s = game([(archers, 20, 10, 0)], [(unit("b1"), 20, 19, 180)]).new_state(5)
    answer(s, "charge b1 a1", "evade a1")
    ks = kinds(s)
    assert ks.index("evade") < ks.index("charge-move")
    assert next(e for e in s.events if e.kind == "evade").rule == "knight-hack:charge.evade-then-move"
    cm = next(e for e in s.events if e.kind == "charge-move")
    b = s.board
    if cm.data["contacted"] is None:
        # full distance, or halted short of the evader it cannot pass through (R38)
        assert cm.data["moved"] <= cm.data["distance"] + 1e-9
        assert b.units["b1"].must_charge and b.units["b1"].status == "rallying"
        assert next(e for e in s.events if e.kind == "no-contact").rule == "knight-hack:charge.no-contact"
    assert b.units["a1"].status == "rallying"


def test_charge_no_contact_must_charge_the_closest_next_turn() -> None:
    archers = unit("a1", "archers", 8, 8, cls="C", weapons=["bow"])
    far = unit("a2", "archers", 8, 8, cls="C", weapons=["bow"])
    for seed in range(40):
        s = game([(archers, 20, 10, 0), (far, 36, 6, 0)], [(unit("b1"), 20, 19, 180)]).new_state(seed)
        answer(s, "charge b1 a1", "evade a1")
        if s.board.units["b1"].must_charge:
            break
    else:
        pytest.fail("no seed made a no-contact charge")
    while s.decision() is not None and s.decision().kind != "declare":
        s.apply(s.legal_orders()[0] if s.decision().kind != "unit" else s.legal_orders()[0])
    b = s.board
    d = s.decision()
    if d is not None and d.unit == "b1":
        assert all(o.kind == "charge" for o in s.legal_orders())
        with pytest.raises(IllegalOrder) as ei:
            s.apply("hold b1")
        assert ei.value.rule == "knight-hack:charge.no-contact"
    assert b.turn == 2


def test_move_alternate_the_first_mover_moves_all_its_units_first() -> None:
    s = bourg().new_state(11)
    while s.decision() is not None and s.decision().kind != "move-order":
        s.apply(s.legal_orders()[0])
    winner = s.decision().side
    s.apply("move second")
    first = "blue" if winner == "red" else "red"
    while s.decision() is not None and s.decision().kind == "unit":
        s.apply(s.legal_orders()[-1])
    sides = [e.side for e in s.events if e.kind == "move" and e.turn == 1]
    assert sides == sorted(sides, key=lambda x: x != first)
    assert next(e for e in s.events if e.kind == "move-order").rule == "knight-hack:move.alternate"


def test_melee_order_the_initiative_winner_chooses_the_next_melee() -> None:
    red = [(unit("r1"), 10, 10, 0), (unit("r2"), 30, 10, 0)]
    blue = [(unit("b1"), 10, 20, 180), (unit("b2"), 30, 20, 180)]
    for seed in range(30):
        s = game(red, blue).new_state(seed)
        answer(s, "charge r1 b1", "charge r2 b2", "hold b1", "hold b2")
        while s.decision() is not None and s.decision().kind in ("move-order", "unit"):
            s.apply(s.legal_orders()[0])
        d = s.decision()
        if d is not None and d.kind == "melee":
            assert d.side == s.board.initiative
            menu = [str(o) for o in s.legal_orders()]
            assert menu == ["fight r1 b1", "fight r2 b2"]
            s.apply("fight r2 b2")
            assert next(e for e in s.events if e.kind == "melee-chosen").rule == "knight-hack:melee.order"
            return
    pytest.fail("no seed left two melees to order")


def test_every_menu_entry_accepted_and_orders_round_trip() -> None:
    g = bourg()
    for seed in range(8):
        play_random(g.new_state(seed), seed)


def test_copy_is_independent_and_view_is_json_ready() -> None:
    s = bourg().new_state(1)
    c = s.copy()
    s.apply(s.legal_orders()[-1])
    assert len(c.events) < len(s.events) or c.view() != s.view() or c.decision() != s.decision()
    v = json.loads(json.dumps(c.view()))
    assert v["ruleset"] == "knight-hack" and v["table"] == {"width": 48.0, "depth": 36.0}
    u = v["units"][0]
    assert {"id", "side", "name", "type", "x", "y", "heading", "frontage", "depth", "hits", "figures"} <= set(
        u
    )
    assert v["label"] == SAMPLE_LABEL


def test_battle_event_carries_the_sample_label_and_table_digests() -> None:
    s = bourg().new_state(1)
    ev = s.events[0]
    assert ev.kind == "battle" and ev.data["label"] == SAMPLE_LABEL
    assert set(ev.data["digests"]) >= {"classes.toml", "melee_chart.toml"}


def test_same_seed_same_battle_scripted() -> None:
    logs = []
    for _ in range(2):
        s = bourg().new_state(7)
        bots = {"red": ScriptedBot(1), "blue": ScriptedBot(2)}
        while not s.is_terminal():
            s.apply(bots[s.decision().side].choose(s))
        logs.append([e.to_dict() for e in s.events])
    assert logs[0] == logs[1] and s.result() is not None


def test_parameters_validate_and_vary() -> None:
    g = bourg(rout_test="each_turn", initiative_die="d100", turns="3", missile_multi_casualty="no")
    assert g.params["turns"] == 3 and g.params["missile_multi_casualty"] is False
    s = g.new_state(1)
    play_random(s, 1)
    assert s.result().turns <= 3
    with pytest.raises(ValueError):
        bourg(rout_test="never")


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        (
            lambda d: d["red"]["place"].__setitem__(0, {**d["red"]["place"][0], "unit": "nobody"}),
            "red.place[0].unit",
        ),
        (
            lambda d: d["blue"]["place"].__setitem__(0, {**d["blue"]["place"][0], "x": 16, "y": 11}),
            "red.place",
        ),
        (lambda d: d["red"].__setitem__("army", "no-such-army"), "red.army"),
        (lambda d: d.__setitem__("turns", 0), "turns"),
    ],
)
def test_scenario_errors_name_the_field(patch: Any, field: str) -> None:
    data = tomllib.loads(SCENARIO.read_text("utf-8"))
    patch(data)
    with pytest.raises(DataError) as ei:
        KnightHackGame.from_data(data, "bourg.toml", {})
    assert ei.value.field.startswith(field)


def test_charge_full_distance_an_evader_cornered_at_the_table_edge_is_caught() -> None:
    """R52 (charge.full-distance, rally.who "successfully evaded"): archers 2 in. from their own
    table edge cannot make their 5 in. evade; the charge no longer halts short of them (R38) but
    runs on and contacts them. The old engine stopped the knights 0.25 in. short, every turn."""
    archers = unit("a1", "archers", 8, 8, cls="C", weapons=["bow"])
    s = game([(archers, 20, 3, 0)], [(unit("b1"), 20, 11, 180)]).new_state(5)
    answer(s, "charge b1 a1", "evade a1")
    cm = next(e for e in s.events if e.kind == "charge-move")
    assert cm.data["contacted"] == "a1"
    assert not any(e.kind == "no-contact" for e in s.events)
    ev = next(e for e in s.events if e.kind == "evade")
    assert ev.data["cornered"] is True and ev.data["distance"] < 5.0
    assert not any(e.kind == "rallying" and e.data["unit"] == "a1" for e in s.events)


def test_charge_no_contact_a_closest_enemy_behind_a_friend_is_not_within_reach() -> None:
    """R53 (charge.no-contact: "If there are no enemy within reach"): a unit bound to charge the
    closest enemy whose charge line its own friend blocks is not made to declare a charge of 0 in.;
    the old engine offered it that charge alone, turn after turn."""
    foot = unit("a1", "heavy-infantry", 12, 6, cls="C", weapons=["spear"])
    friend = unit("b2", "heavy-infantry", 12, 6, cls="C", weapons=["spear"])
    s = game([(foot, 20, 10, 0)], [(friend, 20, 14, 180), (unit("b1"), 20, 18, 180)]).new_state(1)
    s.board.units["b1"].must_charge = True
    asked = []
    while s.decision() is not None and s.decision().kind == "declare":
        asked.append(s.decision().unit)
        s.apply(s.legal_orders()[0] if s.decision().unit != "b2" else "hold b2")
    assert "b1" not in asked
    assert not any(e.kind == "charge-move" and e.data["unit"] == "b1" for e in s.events)


def test_charge_no_contact_the_scripted_bot_declares_no_charge_a_friend_blocks() -> None:
    """R53: the scripted bot does not choose a charge its own friend stands in front of (it would
    move 0 and then be bound to charge again); the old bot charged the archers through b2."""
    archers = unit("a1", "archers", 8, 8, cls="C", weapons=["bow"])
    friend = unit("b2", "heavy-infantry", 12, 6, cls="C", weapons=["spear"])
    s = game([(archers, 20, 10, 0)], [(friend, 20, 14, 180), (unit("b1"), 20, 18, 180)]).new_state(1)
    bot = ScriptedBot()
    while s.decision() is not None and s.decision().kind == "declare" and s.decision().unit != "b1":
        s.apply(s.legal_orders()[0])
    assert s.decision() is not None and s.decision().unit == "b1"
    assert "charge b1 a1" in [str(o) for o in s.legal_orders()]
    assert str(bot.choose(s)) == "hold b1"


def test_charge_full_distance_the_scripted_bot_does_not_evade_into_a_corner() -> None:
    """R52: archers 2 in. from their edge would be cornered and caught in the rear, so the
    scripted bot stands instead; with room behind them it still evades."""
    bot = ScriptedBot()
    for y, want in ((3, "stand a1"), (12, "evade a1")):
        archers = unit("a1", "archers", 8, 8, cls="C", weapons=["bow"])
        s = game([(archers, 20, y, 0)], [(unit("b1"), 20, y + 8, 180)]).new_state(5)
        s.apply("charge b1 a1")
        assert s.decision() is not None and s.decision().kind == "respond"
        assert str(bot.choose(s)) == want


def test_rally_face_threat_a_charger_rallied_by_the_end_of_the_turn_can_charge_next_turn() -> None:
    """R54 (rally.face-threat: "must face enemy who can charge them next charge phase"): archers that
    evaded a charge rally with their backs to the charger, which made no contact; it is rallying
    too, but "considered rallied at the end of the turn" (rally.no-contact), so it can charge them
    next charge phase, and they turn to face it. The old engine counted only enemies in good order
    or disordered as threats, so the archers kept their backs to it and were caught in the rear."""
    archers = unit("a1", "archers", 8, 8, cls="C", weapons=["bow"])
    s = game([(archers, 20, 14, 0)], [(unit("b1"), 20, 22, 180)]).new_state(3)
    want = {"declare": "charge b1 a1", "respond": "evade a1"}
    while s.decision() is not None and s.decision().kind in ("declare", "respond", "fire", "fire-order"):
        k = s.decision().kind
        s.apply(want[k] if k in want else str(s.legal_orders()[0]))
    assert any(e.kind == "no-contact" and e.data["unit"] == "b1" for e in s.events)
    assert s.board.units["a1"].heading == pytest.approx(180.0, abs=1.0)  # its back to the knights
    while s.decision() is not None and s.board.turn == 1:
        s.apply(s.legal_orders()[0])
    face = [e for e in s.events if e.kind == "faces-threat" and e.data["unit"] == "a1"]
    assert face and face[0].data["heading"] == pytest.approx(0.0, abs=1.0)
    assert face[0].rule == "knight-hack:rally.face-threat"
