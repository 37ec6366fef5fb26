"""The web pieces of knight-hack without a browser: the why of each roll (explain.py: d100, T, T/2,
T/4, every term; knight-hack:casualties.multiple), the reach (reach.py: move band, charges, why not,
shooting; knight-hack:charge.declare-range), and every event of a battle as a web log line."""

from __future__ import annotations

import tomllib
from importlib import resources

from tests.knight_hack.test_kh_game import game, play_random, unit

from shieldwall.rulesets.knight_hack.explain import COMBAT_KINDS, explain
from shieldwall.rulesets.knight_hack.game import KnightHackGame
from shieldwall.rulesets.knight_hack.reach import reach
from shieldwall.rulesets.knight_hack.state import KnightHackState
from shieldwall.web import log as L

SCENARIO = resources.files("shieldwall.rulesets.knight_hack") / "scenarios" / "bourgtheroulde-1124.toml"


def _battle(seed: int) -> KnightHackState:
    s = KnightHackGame.from_data(tomllib.loads(SCENARIO.read_text("utf-8")), "bourg").new_state(seed)
    play_random(s, seed)
    return s


def test_casualties_multiple_why_of_every_roll_has_t_halves_quarters_and_terms() -> None:
    s = _battle(3)
    names = L.unit_names(s.view())
    seen = set()
    for i, ev in enumerate(s.events):
        if ev.kind not in COMBAT_KINDS:
            assert explain(s.events, i, names, L.clause_info) is None
            continue
        seen.add(ev.kind)
        w = explain(s.events, i, names, L.clause_info)
        assert w is not None
        for g in w["groups"]:
            t = g["need"]
            assert g["thresholds"] == {"one": t, "two": t / 2, "three": t / 4}
            assert sum(m["value"] for m in g["modifiers"]) == t
            assert all(m["rule"] == "knight-hack:casualties.target" for m in g["modifiers"])
            assert g["rule"]["rule"] == "knight-hack:casualties.multiple" and len(g["faces"]) == 1
        if ev.kind == "melee-round":
            assert len(w["groups"]) == 2
        if ev.kind == "morale-test":
            assert w["test"]["morale_level"] == ev.data["level"]
    assert {"melee-round", "morale-test"} <= seen


def test_every_event_is_a_web_log_line() -> None:
    for seed in (1, 2, 3):
        s = _battle(seed)
        names = L.unit_names(s.view())
        kinds = L.explainer("knight-hack").kinds
        for i, ev in enumerate(s.events):
            e = L.entry(i, ev, names, kinds)
            assert e["text"], ev.kind
            if ev.kind == "roll-off":
                assert e["dice"]["by_side"] and set(e["dice"]["by_side"]) == {"red", "blue"}


def test_charge_declare_range_reach_of_a_unit() -> None:
    s = game([(unit("r1"), 20, 10, 0)], [(unit("b1"), 20, 20, 180), (unit("b2"), 40, 30, 180)]).new_state(1)
    r = reach(s, "r1")
    assert [c["target"] for c in r["charges"]] == ["b1"] and r["charges_now"]
    assert r["charges"][0]["order"] == {"kind": "charge", "unit": "r1", "target": "b1"}
    assert r["charge_why_not"]["b2"]["rule"].startswith("knight-hack:charge.")
    assert r["highlight"]["move_band"] == {"unit": "r1", "radius": 8}
    assert r["highlight"]["charge_targets"] == ["b1"] and r["shooting"] is None
