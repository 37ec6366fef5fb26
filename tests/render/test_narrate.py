"""Narration: every event kind a rule system emits gets plain words, dice and its clause."""

from __future__ import annotations

import re

import pytest

from shieldwall.cli import run
from shieldwall.core.events import Event
from shieldwall.io.scenarios import load_game
from shieldwall.match import play
from shieldwall.render.narrate import describe, namer
from shieldwall.rulesets.into_the_dark.narrate import describe as describe_itd

#: the generic fallback line: "kind: {data}" or "kind: key=value, ..."
_GENERIC = re.compile(r"^[a-z-]+: [\{a-z_]")


def _itd_events() -> list[Event]:
    out: list[Event] = []
    for scen, seed in (
        ("into-the-dark/senlac", 1),
        ("into-the-dark/wye-fords", 2),
        ("into-the-dark/senlac", 5),
    ):
        out.extend(play(load_game(scen), seed, "random", "random").state.events)
    return out


def test_into_the_dark_battle_narrates_turn_by_turn(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["battle", "into-the-dark/senlac", "--seed", "1", "--red", "random", "--blue", "random"]) == 0
    out = capsys.readouterr().out
    assert "Turn 1" in out and "Turn 2" in out and "Result:" in out
    assert "[combat.missile-fire]" in out and "d6 [" in out


def test_into_the_dark_events_have_words_dice_and_clause() -> None:
    events = _itd_events()
    kinds = {e.kind for e in events}
    assert {"move", "fire", "morale-test", "initiative-roll", "result"} <= kinds
    for ev in events:
        line = describe(ev)
        if ev.kind in ("phase", "roll"):
            assert line is None
            continue
        assert line is not None and line, ev
        assert not _GENERIC.match(line), (ev.kind, line)
        if ev.kind not in ("turn", "result", "battle"):
            assert line.endswith(f"[{ev.rule.partition(':')[2]}]"), line
        if ev.data.get("faces") and ev.kind != "initiative-roll":
            faces = ev.data["faces"]
            assert "[" + ", ".join(str(f) for f in faces) + "]" in line, line


def test_melee_and_morale_lines_show_needs_and_modifiers() -> None:
    ev = Event(
        3,
        "melee",
        "red",
        "melee",
        "into-the-dark:combat.melee",
        {
            "unit": "r1",
            "target": "b1",
            "figures": {"front": 8, "flank": 0, "rear": 0},
            "charging": True,
            "impetuous": False,
            "die": "d6",
            "faces": [2, 5],
            "groups": [
                {
                    "label": "front",
                    "dice": 2,
                    "rate": "1 per 4 figures",
                    "armour": 4,
                    "modifiers": [{"name": "charging", "value": 1}],
                    "need": 3,
                    "faces": [2, 5],
                    "hits": 1,
                }
            ],
            "hits": 1,
        },
    )
    line = describe(ev, {"r1": "Huscarls [r1]", "b1": "Knights [b1]"})
    assert line == (
        "Huscarls [r1] fights Knights [b1] (8 on the front; charging): front: 2 dice (1 per 4 figures), "
        "hit on 4+ with +1 charging -> need 3+, d6 [2, 5] = 1 hit [combat.melee]"
    )
    test = Event(
        3,
        "morale",
        "blue",
        "morale-test",
        "into-the-dark:morale.test-triggers",
        {
            "unit": "b1",
            "reason": "lost the melee",
            "die": "d6",
            "faces": [6],
            "morale_level": 4,
            "modifiers": [{"name": "unit shaken", "value": -1}],
            "target": 3,
            "result": "driven back",
        },
    )
    assert describe(test, {"b1": "Knights [b1]"}) == (
        "Knights [b1] tests morale (lost the melee): d6 [6] against 3 (level 4; -1 unit shaken) "
        "-> driven back [morale.test-triggers]"
    )


def test_unknown_or_malformed_into_the_dark_events_fall_back_to_a_generic_line() -> None:
    odd = Event(1, "movement", "red", "comet-sighted", "into-the-dark:omens", {"unit": "r1", "tail": 3})
    assert describe_itd(odd, {"r1": "Fyrd [r1]"}) == "comet-sighted: unit=Fyrd [r1], tail=3 [omens]"
    broken = Event(1, "fire", "red", "fire", "into-the-dark:combat.missile-fire", {"groups": 7})
    line = describe(broken)
    assert line is not None and line.startswith("fire: ")


@pytest.mark.parametrize(
    ("kind", "data", "words"),
    [
        (
            "declare",
            {"unit": "r1", "charge": "b2", "toward": None},
            "Hearth [r1] declares a charge on Raiders [b2]",
        ),
        (
            "declare",
            {"unit": "r1", "charge": None, "toward": [10.5, 3.0]},
            "Hearth [r1] declares a move toward (10.5, 3)",
        ),
        (
            "declared-contact",
            {"unit": "r1", "target": "b2"},
            "Hearth [r1]'s declared move runs into Raiders [b2]: it charges",
        ),
        (
            "declared-no-turn",
            {"unit": "r1", "angle": 63.43, "reason": "movement: the unit would overlap Archers (r6)"},
            "Hearth [r1] may not turn toward its goal (movement: the unit would overlap Archers (r6))",
        ),
        (
            "warband-must-charge",
            {"unit": "r1", "target": "b2"},
            "Hearth [r1] is a warband with an enemy in reach: it must charge Raiders [b2]",
        ),
        ("personality-lost", {"unit": "r1", "personalities": ["hero-r"]}, "hero-r is lost with Hearth [r1]"),
        (
            "last-attack",
            {"unit": "r1", "target": "b2"},
            "Hearth [r1] makes a last attack on Raiders [b2] as the enemy army routs",
        ),
    ],
)
def test_one_hour_optional_rule_events_have_words(kind: str, data: dict[str, object], words: str) -> None:
    ev = Event(2, "movement", "red", kind, f"one-hour-dark-ages:{kind}", dict(data))
    assert describe(ev, {"r1": "Hearth [r1]", "b2": "Raiders [b2]"}) == words


def test_events_of_an_unknown_rule_system_or_kind_get_the_generic_line() -> None:
    stray = Event(1, "movement", "red", "comet-sighted", "no-such-rules:omens", {"tail": 3})
    assert describe(stray) == "comet-sighted: {'tail': 3}"
    assert describe(Event(1, "movement", "red", "move", "", {"unit": "r1"})) == "move: {'unit': 'r1'}"
    odd = Event(1, "movement", "red", "comet-sighted", "one-hour-dark-ages:omens", {"tail": 3})
    assert describe(odd) == "comet-sighted: {'tail': 3}"


def test_namer_shows_the_given_name_else_the_id() -> None:
    nm = namer({"r1": "Huscarls [r1]"})
    assert (nm("r1"), nm("b2"), nm(None)) == ("Huscarls [r1]", "b2", "None")
    assert namer(None)("r1") == "r1"
