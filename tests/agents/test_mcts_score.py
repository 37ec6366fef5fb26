"""The search bot's leaf values: the rule system's ``score`` hook when its plugin has one, else
material; ``mcts:N:material`` opts out of the hook."""

from __future__ import annotations

import dataclasses

import pytest

from shieldwall import registry
from shieldwall.ai.base import make_bot
from shieldwall.ai.mcts import MCTSBot, leaf_score
from shieldwall.ai.search_spec import parse, settle
from shieldwall.core.game import State
from shieldwall.io.scenarios import load_game
from shieldwall.plugin import PluginError, RuleSystem

QUICK = "one-hour-dark-ages/bryn-glas"
CALLS: list[int] = []


def fake_score(state: State) -> dict[str, float]:
    """Every unfinished playout is worth 0.3 to red (and 5, clipped to 1, to nobody named)."""
    CALLS.append(1)
    return {"red": 0.3, "blue": -0.3, "nobody": 5.0}


def with_score(monkeypatch: pytest.MonkeyPatch, ref: str | None) -> None:
    real = registry.get

    def get(rid: str) -> RuleSystem:
        rs = real(rid)
        return dataclasses.replace(rs, score=ref) if rid == "one-hour-dark-ages" else rs

    monkeypatch.setattr(registry, "get", get)


def test_the_material_option() -> None:
    assert not settle(parse("16:material")).use_score
    assert not settle(parse("16:mix0.5:material")).use_score
    assert not settle(parse("material")).use_score
    assert settle(parse("16")).use_score
    bot = make_bot("mcts:16:material:mix0.5", 1)
    assert isinstance(bot, MCTSBot) and not bot.use_score and bot.playouts == 16 and bot.mix == 0.5


def test_a_bad_score_reference_is_a_plugin_error() -> None:
    rs = registry.get("one-hour-dark-ages")
    with pytest.raises(PluginError, match="score"):
        dataclasses.replace(rs, score="no-colon")


def test_leaf_score_clips_and_fills_every_side() -> None:
    st = load_game(QUICK).new_state(1)
    assert leaf_score(lambda s: {"red": 4.0}, st) == {"red": 1.0, "blue": 0.0}


def test_mcts_scores_unfinished_playouts_with_the_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    with_score(monkeypatch, f"{__name__}:fake_score")
    st = load_game(QUICK).new_state(1)
    CALLS.clear()
    bot = MCTSBot(3, "8")
    bot.choose(st)
    assert CALLS and bot.last_root is not None
    means = [c.mean("red") for c in bot.last_root.children.values() if c.visits]
    assert means and all(m == pytest.approx(0.3) for m in means)  # the hook's value, not material's


@pytest.mark.parametrize("spec,ref", [("8:material", f"{__name__}:fake_score"), ("8", None)])
def test_without_the_hook_or_with_material_the_leaves_are_material(
    monkeypatch: pytest.MonkeyPatch, spec: str, ref: str | None
) -> None:
    with_score(monkeypatch, ref)
    st = load_game(QUICK).new_state(1)
    CALLS.clear()
    bot = MCTSBot(3, spec)
    bot.choose(st)
    assert not CALLS and bot.last_root is not None
    assert any(c.mean("red") != pytest.approx(0.3) for c in bot.last_root.children.values() if c.visits)


def test_each_leaf_setting_replays() -> None:
    st = load_game(QUICK).new_state(2)
    picks: dict[str, str] = {}
    for spec in ("8", "8:material"):
        a, b = MCTSBot(5, spec), MCTSBot(5, spec)
        picks[spec] = str(a.choose(st.copy()))
        assert picks[spec] == str(b.choose(st.copy()))


@pytest.mark.parametrize("spec,rosters", [("8", False), ("8:material", True)])
def test_a_playout_takes_the_roster_only_when_material_scores_it(
    monkeypatch: pytest.MonkeyPatch, spec: str, rosters: bool
) -> None:
    """``roster`` (a whole view of the battle at each playout's start) serves ``material`` alone:
    with the rule system's ``score`` hook no playout takes it."""
    import shieldwall.ai.mcts as mcts_module

    taken: list[int] = []
    real = mcts_module.roster

    def spy(state: State) -> dict[str, str]:
        taken.append(1)
        return real(state)

    monkeypatch.setattr(mcts_module, "roster", spy)
    bot = MCTSBot(3, spec)
    bot.choose(load_game(QUICK).new_state(1))
    assert bot.last_playouts and bool(taken) is rosters
