"""Bots: the scripted general beats random play; bots only use the public State API."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from shieldwall.ai import bot_names, make_bot
from shieldwall.core.errors import UnknownName
from shieldwall.io.scenarios import load_game
from shieldwall.match import play

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_scripted_beats_random_in_at_least_90_percent_of_200_seeded_battles() -> None:
    game = load_game(None)
    wins = 0
    for seed in range(200):
        scripted_side = "red" if seed % 2 == 0 else "blue"
        red, blue = ("scripted", "random") if scripted_side == "red" else ("random", "scripted")
        r = play(game, seed, red, blue).state.result()
        assert r is not None
        wins += r.winner == scripted_side
    print(f"scripted won {wins} of 200")
    assert wins >= 180, f"scripted won only {wins} of 200"


def test_bot_registry_and_unknown_bot() -> None:
    assert {"random", "scripted"} <= set(bot_names())
    with pytest.raises(UnknownName) as e:
        make_bot("grandmaster")
    assert "random" in str(e.value)


def test_bots_use_only_the_public_state_api() -> None:
    # bots may read decision(), legal_orders(), view(), game.params and ruleset public modules;
    # they never touch a state's private attributes or the battle's generator
    for f in (ROOT / "src/shieldwall/ai").glob("*.py"):
        tree = ast.parse(f.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "state"
            ):
                assert node.attr in {
                    "decision",
                    "legal_orders",
                    "view",
                    "game",
                    "apply",
                    "copy",
                    "is_terminal",
                    "result",
                    "events",
                    "parse_order",
                }, (f.name, node.attr)
