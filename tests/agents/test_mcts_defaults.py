"""A rule system's default search options (``RuleSystem.search_options``): plain ``mcts`` plays
with them, a spec the user writes overrides each kind it gives, a bad value is a clear error."""

from __future__ import annotations

import dataclasses

import pytest

from shieldwall import registry
from shieldwall.ai.base import check_bot, make_bot
from shieldwall.ai.mcts import MCTSBot, default_spec
from shieldwall.ai.search_spec import DEFAULT_PLAYOUTS, ROLLOUT_DECISIONS, Options, parse_default
from shieldwall.core.errors import ShieldwallError
from shieldwall.io.scenarios import load_game
from shieldwall.plugin import PluginError, RuleSystem

QUICK = "one-hour-dark-ages/bryn-glas"
RID = "one-hour-dark-ages"


def with_default(monkeypatch: pytest.MonkeyPatch, text: str | None) -> None:
    real = registry.get

    def get(rid: str) -> RuleSystem:
        rs = real(rid)
        return dataclasses.replace(rs, search_options=text) if rid == RID else rs

    monkeypatch.setattr(registry, "get", get)


def test_every_rule_system_s_default_parses() -> None:
    for rid, rs in registry.systems().items():
        if rs.search_options is not None:
            spec = parse_default(rs.search_options)
            assert spec.playouts is not None, rid  # a default budget replays: playouts
        bot = make_bot("mcts", 1, rid)
        assert isinstance(bot, MCTSBot) and bot.playouts is not None


def test_plain_mcts_plays_with_the_rule_system_s_default(monkeypatch: pytest.MonkeyPatch) -> None:
    with_default(monkeypatch, "12:h3:sh:mix0.5")
    bot = make_bot("mcts", 1, RID)
    assert isinstance(bot, MCTSBot)
    assert (bot.playouts, bot.seconds, bot.mix, bot.options) == (12, None, 0.5, Options(3, True))
    # a bot made without the rule system settles at its first decision
    late = make_bot("mcts", 1)
    assert isinstance(late, MCTSBot) and late.playouts == DEFAULT_PLAYOUTS and not late.options.halving
    state = load_game(QUICK).new_state(2)
    while len(state.legal_orders()) < 2:
        state.apply(state.legal_orders()[0])
    late.choose(state)
    assert (late.playouts, late.mix, late.options) == (12, 0.5, Options(3, True))
    assert late.last_rounds  # it searched by halving, as the default says
    # without a default: the built-in ones
    with_default(monkeypatch, None)
    bot = make_bot("mcts", 1, RID)
    assert isinstance(bot, MCTSBot)
    assert (bot.playouts, bot.mix, bot.options) == (DEFAULT_PLAYOUTS, 1.0, Options(ROLLOUT_DECISIONS, False))


def test_an_explicit_option_overrides_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    with_default(monkeypatch, "12:hend:sh:mix0.5")
    bot = make_bot("mcts:40", 1, RID)
    assert isinstance(bot, MCTSBot) and (bot.playouts, bot.mix, bot.options) == (40, 0.5, Options(None, True))
    bot = make_bot("mcts:40:h7:duel:mix1", 1, RID)
    assert isinstance(bot, MCTSBot) and (bot.playouts, bot.mix, bot.options) == (40, 1.0, Options(7, False))
    # a time budget keeps the default horizon but not its halving (which needs playouts)
    bot = make_bot("mcts:0.5s", 1, RID)
    assert isinstance(bot, MCTSBot) and (bot.playouts, bot.seconds, bot.options) == (
        None,
        0.5,
        Options(None, False),
    )
    bot = make_bot("mcts:material", 1, RID)
    assert isinstance(bot, MCTSBot) and not bot.use_score and bot.playouts == 12


@pytest.mark.parametrize("bad", ["lots", "12:material", "1s", "12:h0", "12:sh:duel", "12:mix3"])
def test_a_bad_default_is_a_plugin_error_naming_the_field(monkeypatch: pytest.MonkeyPatch, bad: str) -> None:
    with_default(monkeypatch, bad)
    with pytest.raises(
        PluginError, match=f"rule system '{RID}': search_options '{bad}' is not a search spec"
    ):
        default_spec(RID)
    with pytest.raises(PluginError, match="search_options"):
        make_bot("mcts:16", 1, RID)
    with pytest.raises(ShieldwallError, match="search_options"):
        check_bot("mcts", RID)


def test_into_the_dark_s_default_asks_for_a_gain_that_matters() -> None:
    """Into the Dark's default plays 64 playouts (docs/agents.md, "Into the Dark at 64 playouts on
    twelve seeds": 36 of 48 decisive against scripted, where 32 won 26 of the same 48) and refuses
    overrules worth less than 0.02 of the standing (docs/agents.md, "Why the search loses as blue":
    against scripted on seeds 0 to 2, the aligned search won 6 of 12 without the least gain and 8
    of 12 with it); the user's own ``gX`` overrides it."""
    bot = make_bot("mcts", 1, "into-the-dark")
    assert isinstance(bot, MCTSBot) and bot.playouts == 64 and bot.options.least_gain == 0.02
    mine = make_bot("mcts:g0", 1, "into-the-dark")
    assert isinstance(mine, MCTSBot) and mine.options.least_gain == 0.0


def test_spi_s_default_plays_to_the_battle_s_end_by_halving() -> None:
    """SPI's default plays 32 playouts to the battle's end by sequential halving (docs/agents.md,
    "SPI at playouts to the end": on the same 18 battles against scripted it won 11 where the old
    default, 256 playouts over 10 decisions, won 7); the hold plan races only when asked (``pf``)."""
    bot = make_bot("mcts", 1, "spi-dark-ages")
    assert isinstance(bot, MCTSBot) and bot.playouts == 32
    assert bot.options.horizon is None and bot.options.halving and not bot.options.plans
    mine = make_bot("mcts:pf", 1, "spi-dark-ages")
    assert isinstance(mine, MCTSBot) and mine.options.plans and mine.playouts == 32
