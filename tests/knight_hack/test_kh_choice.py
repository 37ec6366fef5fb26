"""Whether a queued decision offers a choice, answered without its menu (``choice.py``, issue 16):
at every question the turn engine asks in 16 battles (both scenarios, the ambush one's hidden
units included, scripted and random sides) the answer is ``bool(menu)``, every branch is met, and
on the reference path the menu is built."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from shieldwall.core.reference import reference_path
from shieldwall.io.scenarios import load_game
from shieldwall.match import play
from shieldwall.rulesets.knight_hack import choice, turn
from shieldwall.rulesets.knight_hack.board import Ask, Board

SCENARIOS = ("knight-hack/bourgtheroulde-1124", "knight-hack/bourgtheroulde-1124-ambush")
SIDES = (("scripted", "scripted"), ("random", "scripted"), ("scripted", "random"), ("random", "random"))


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[tuple[str, str, bool]]]:
    """Every quick answer compared with its menu's; counts (kind, unit's case, answer)."""
    seen: Counter[tuple[str, str, bool]] = Counter()

    def check(kind: str, quick: Callable[[Board, Ask], bool]) -> Callable[[Board, Ask], bool]:
        def both(b: Board, ask: Ask) -> bool:
            got, menu = quick(b, ask), turn.MENUS[kind](b, ask)
            assert got == bool(menu), (kind, ask, menu)
            u = b.units[str(ask.unit)]
            case = "in melee" if b.in_melee(u.id) else "hidden" if u.hidden else u.status
            if kind == "declare" and u.must_charge:
                case = "must charge"
            seen[(kind, case, got)] += 1
            return got

        return both

    for kind, quick in list(choice.CHOICE.items()):
        monkeypatch.setitem(choice.CHOICE, kind, check(kind, quick))
    yield seen


def test_the_quick_answer_is_whether_the_menu_is_empty_in_every_battle(checked: Counter[Any]) -> None:
    for scenario in SCENARIOS:
        game = load_game(scenario)
        for seed in range(2):
            for red, blue in SIDES:
                play(game, seed, red, blue)
    for want in [
        ("unit", "good", True),
        ("unit", "in melee", False),
        ("unit", "routed", True),
        ("unit", "rallying", True),
        ("unit", "hidden", True),
        ("declare", "good", True),
        ("declare", "good", False),
        ("declare", "in melee", False),
        ("declare", "hidden", False),
    ]:
        assert checked[want] > 0, (want, checked)


def test_the_reference_path_builds_the_menu_and_plays_the_same_battle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = load_game(SCENARIOS[1])
    fast = [e.to_dict() for e in play(game, 2, "scripted", "random").state.events]
    with reference_path():
        ref = [e.to_dict() for e in play(game, 2, "scripted", "random").state.events]
    assert fast == ref
    asked: list[str] = []

    def never(b: Board, ask: Ask) -> bool:
        asked.append(ask.kind)
        return True

    for kind in choice.CHOICE:
        monkeypatch.setitem(choice.CHOICE, kind, never)
    with reference_path():
        play(game, 2, "scripted", "random")
    assert asked == []
