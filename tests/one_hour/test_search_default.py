"""One-Hour's default search (the plugin's ``search_options``): plain ``mcts`` plays the measured
default (docs/agents.md, "One-Hour against scripted (issue 22, 26 November 2026, evening)"), and a
battle with it replays from its seed."""

from __future__ import annotations

from shieldwall import registry
from shieldwall.ai.base import make_bot
from shieldwall.ai.mcts import MCTSBot
from shieldwall.ai.search_spec import Options, parse_default
from shieldwall.io.scenarios import load_game

RID = "one-hour-dark-ages"


def test_plain_mcts_on_one_hour_plays_the_measured_default() -> None:
    """48 playouts, rollouts of 24 decisions (a full turn of both sides: a side's turn is 11 to 13
    decisions, so the 10-decision horizon ended inside the searching side's own turn), halving."""
    assert registry.get(RID).search_options == "48:h24:sh"
    spec = parse_default("48:h24:sh")
    assert (spec.playouts, spec.horizon, spec.halving) == (48, 24, True)
    bot = make_bot("mcts", 1, RID)
    assert isinstance(bot, MCTSBot)
    assert (bot.playouts, bot.seconds, bot.mix, bot.options) == (48, None, 1.0, Options(24, True))
    assert bot.use_score  # the victory-score hook scores the horizon


def test_the_default_search_replays_from_its_seed() -> None:
    """Two default searches seeded alike make the same choices, decision by decision, from the same
    battle, and never touch the battle's own dice."""
    game = load_game(f"{RID}/bryn-glas")
    state = game.new_state(5)
    one, two = make_bot("mcts", 21, RID), make_bot("mcts", 21, RID)
    assert isinstance(one, MCTSBot) and isinstance(two, MCTSBot)
    searched = 0
    while searched < 3:
        before = state.rng.bit_generator.state  # type: ignore[attr-defined]
        o1, o2 = one.choose(state), two.choose(state)
        assert str(o1) == str(o2)
        assert (one.last_playouts, one.last_rounds) == (two.last_playouts, two.last_rounds)
        assert state.rng.bit_generator.state == before  # type: ignore[attr-defined]
        if one.last_playouts:
            searched += 1
            assert one.last_rounds  # it searched by halving, as the default says
        state.apply(o1)
