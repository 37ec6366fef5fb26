"""The search bot's opponent model (``mcts:N:mixP``): its names, its replays, its effect."""

from __future__ import annotations

import pytest

from shieldwall.ai.base import make_bot
from shieldwall.ai.mcts import DEFAULT_MIX, DEFAULT_PLAYOUTS, BadBudget, MCTSBot
from shieldwall.ai.search_spec import parse, settle
from shieldwall.io.scenarios import load_game

QUICK = "one-hour-dark-ages/bryn-glas"


def parse_spec(text: str) -> tuple[int | None, float | None, float]:
    s = settle(parse(text))
    return s.playouts, s.seconds, s.mix


def test_mix_names() -> None:
    assert parse_spec("") == (DEFAULT_PLAYOUTS, None, DEFAULT_MIX)
    assert parse_spec("16") == (16, None, DEFAULT_MIX)
    assert parse_spec("16:mix0.7") == (16, None, 0.7)
    assert parse_spec("mix0.5") == (DEFAULT_PLAYOUTS, None, 0.5)
    assert parse_spec("0.5s:mix0") == (None, 0.5, 0.0)
    bot = make_bot("mcts:16:mix0.7", 1, "one-hour-dark-ages")
    assert isinstance(bot, MCTSBot) and (bot.playouts, bot.mix) == (16, 0.7)
    for bad in ("16:mix1.5", "16:mix-0.1", "16:mixhalf", "mix", "16:mix0.5:mix0.7", "fast:mix0.5"):
        with pytest.raises(BadBudget):
            parse_spec(bad)


def _values(name: str, seed: int) -> list[list[tuple[str, int, float]]]:
    """Each searched decision's root (order, visits, summed value) over a dozen decisions of a
    One-Hour battle, and its orders played by the scripted bot (so every bot sees the same states)."""
    game = load_game(QUICK)
    state = game.new_state(3)
    bot = make_bot(name, seed, game.info.id)
    lead = make_bot("scripted", 5, game.info.id)
    out = []
    for _ in range(12):
        bot.choose(state)
        root = bot.last_root  # type: ignore[attr-defined]
        if bot.last_playouts:  # type: ignore[attr-defined]
            d = state.decision()
            assert d is not None and root is not None
            out.append(
                sorted((t, c.visits, round(c.value.get(d.side, 0.0), 9)) for t, c in root.children.items())
            )
        state.apply(lead.choose(state))
    return out


def test_a_mixed_opponent_replays_and_changes_the_playouts() -> None:
    """``mix`` is seeded (two bots seeded alike search alike), ``mix1`` is the default (the
    opponent is the scripted bot), and a mix below 1 changes what the playouts find."""
    mixed = _values("mcts:8:mix0.3", 4)
    assert mixed and mixed == _values("mcts:8:mix0.3", 4)
    assert _values("mcts:8:mix1", 4) == _values("mcts:8", 4)
    assert mixed != _values("mcts:8", 4)
