"""The search's rollouts (cheap: no menus built by the host; their horizon, ``hH`` / ``hend``; a
finished playout's margin) and its sequential halving at the root (``sh``)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from tests.agents.aligned import by_hand

from shieldwall.ai.base import make_bot
from shieldwall.ai.mcts import (
    END_MARGIN,
    MIN_VISITS,
    ROLLOUT_DECISIONS,
    BadBudget,
    MCTSBot,
    Options,
    leaf_score,
    outcome,
    roster,
)
from shieldwall.ai.search_spec import parse, settle
from shieldwall.core.game import State
from shieldwall.io.scenarios import load_game
from shieldwall.match import play

QUICK = "one-hour-dark-ages/bryn-glas"
DBM = "dbm-3.2/ash-strand"


def test_the_horizon_and_halving_options() -> None:
    assert settle(parse("64")).options == Options(ROLLOUT_DECISIONS, False)
    assert settle(parse("64:h40:sh")).options == Options(40, True)
    got = settle(parse("sh:hend:mix0.5"))
    assert got.options == Options(None, True) and got.mix == 0.5
    assert settle(parse("64:duel")).options == Options(ROLLOUT_DECISIONS, False)
    for bad in ("h0", "64:h0"):
        with pytest.raises(BadBudget, match="horizon"):
            parse(bad)
    bot = make_bot("mcts:32:hend:sh:mix0.7", 1)
    assert isinstance(bot, MCTSBot) and bot.playouts == 32 and bot.mix == 0.7
    assert bot.options == Options(None, True)
    with pytest.raises(BadBudget, match="sequential halving"):
        make_bot("mcts:1s:sh", 1)


class Counts:
    """Counts the full menus asked of a state and the orders applied to it (its methods wrapped on
    the instance, so the state keeps its type for the rule system's bot)."""

    def __init__(self, state: State) -> None:
        self.menus = 0
        self.applied = 0
        menu, apply = state.legal_orders, state.apply

        def legal_orders() -> list[Any]:
            self.menus += 1
            return menu()

        def applied(order: Any) -> Any:
            self.applied += 1
            return apply(order)

        state.legal_orders = legal_orders  # type: ignore[method-assign]
        state.apply = applied  # type: ignore[method-assign]


def _mid_battle(name: str, decisions: int, seed: int = 0) -> State:
    game = load_game(name)
    state = game.new_state(seed)
    bot = make_bot("scripted", 1, game.info.id)
    for _ in range(decisions):
        state.apply(bot.choose(state))
    return state


def test_a_rollout_with_the_rule_system_s_bot_builds_no_menu_itself() -> None:
    """A DBM menu costs several times a scripted decision (the bot plans its bound without it);
    the rollout used to build one before every decision only to see that it was not empty, most of
    a playout's cost. Now only the bot asks for what it needs: the DBM bound asks nothing."""
    state = _mid_battle(DBM, 12)
    bot = make_bot("mcts:4:h10", 3, "dbm-3.2")  # the 10-decision horizon, whatever the default
    assert isinstance(bot, MCTSBot)
    bot._policy(state)
    d = state.decision()
    assert d is not None and d.kind == "bound"
    sim = bot._start(state, d.side, (1, 2, 3))
    counts = Counts(sim)
    bot._rollout_value(sim, roster(state), bot._fresh_policy(7))
    assert counts.applied == ROLLOUT_DECISIONS and counts.menus == 0


def test_the_horizon_bounds_the_rollout_and_hend_plays_to_the_end() -> None:
    state = _mid_battle(QUICK, 30)
    d = state.decision()
    assert d is not None
    for spec, most in (("mcts:4:h3", 3), ("mcts:4:h10", ROLLOUT_DECISIONS), ("mcts:4:hend", None)):
        bot = make_bot(spec, 3, "one-hour-dark-ages")
        assert isinstance(bot, MCTSBot)
        bot._policy(state)
        sim = bot._start(state, d.side, (1, 2, 3))
        counts = Counts(sim)
        bot._rollout_value(sim, roster(state), bot._fresh_policy(7))
        if most is None:
            assert sim.is_terminal() and counts.applied > ROLLOUT_DECISIONS
        else:
            assert counts.applied == most and not sim.is_terminal()


def test_a_finished_playout_scores_its_outcome_and_its_margin() -> None:
    """A playout that ends is worth +1 / -1 / 0 and END_MARGIN of the victory-score hook: two draws
    at the turn limit are not worth the same when one side lost more."""
    state = _mid_battle(QUICK, 30)
    d = state.decision()
    assert d is not None
    bot = make_bot("mcts:4:hend", 3, "one-hour-dark-ages")
    assert isinstance(bot, MCTSBot)
    bot._policy(state)
    sim = bot._start(state, d.side, (1, 2, 3))
    values = bot._rollout_value(sim, roster(state), bot._fresh_policy(7))
    assert sim.is_terminal() and bot._score is not None
    margin = leaf_score(bot._score, sim)
    end = outcome(sim)
    assert values == {s: pytest.approx(end[s] + END_MARGIN * margin[s]) for s in end}
    assert any(margin[s] != 0 for s in margin)


def test_halving_drops_the_worse_half_each_round_and_confirms_on_fresh_pairs() -> None:
    state = _mid_battle(QUICK, 20)
    d = state.decision()
    assert d is not None
    bot = make_bot("mcts:64:sh", 5, "one-hour-dark-ages")
    assert isinstance(bot, MCTSBot)
    order = bot.choose(state)
    rounds = bot.last_rounds
    assert len(rounds[0]) == 4 and [len(r) for r in rounds] == [4, 2, 1]
    root = bot.last_root
    assert root is not None
    for r, nxt in zip(rounds, rounds[1:], strict=False):
        kept = sorted(r, key=lambda t: -root.children[t].mean_gain())[: math.ceil(len(r) / 2)]
        assert nxt == kept
    assert bot.last_playouts <= 64
    # the confirmation: fresh pairs (not the rounds' battles), each gain recomputed by hand
    judge = make_bot("mcts:1", 1, "one-hour-dark-ages")
    assert isinstance(judge, MCTSBot)
    judge._policy(state)
    best = rounds[-1][0]
    if root.children[best].mean_gain() <= 0:
        assert not bot.last_confirm and str(order) == bot._prior
        return
    assert len(bot.last_confirm) >= MIN_VISITS
    for seeds, gain in bot.last_confirm:  # each pair recomputed by hand, aligned (tests/agents/aligned.py)
        (prior, *_), (value, *_) = by_hand(judge, state, d.side, seeds, [str(bot._prior), best])
        assert gain == pytest.approx(value - prior, abs=1e-12)
    gains = [g for _, g in bot.last_confirm]
    mean = sum(gains) / len(gains)
    assert (str(order) == best) is bot.last_overruled
    if bot.last_overruled:
        assert mean > 0


def test_halving_plays_the_scripted_order_unless_a_survivor_is_confirmed() -> None:
    """Over a stretch of battle, every overrule was confirmed by its fresh pairs (two standard
    errors), and every other decision played the scripted bot's order."""
    state = _mid_battle(QUICK, 10, seed=2)
    bot = make_bot("mcts:48:sh", 9, "one-hour-dark-ages")
    assert isinstance(bot, MCTSBot)
    for _ in range(12):
        if state.is_terminal():
            break
        order = bot.choose(state)
        if bot.last_playouts:
            if bot.last_overruled:
                gains = [g for _, g in bot.last_confirm]
                n = len(gains)
                mean = sum(gains) / n
                sd = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1))
                assert n >= MIN_VISITS and mean > 2.0 * sd / math.sqrt(n)
            else:
                assert str(order) == bot._prior
        state.apply(order)


@pytest.mark.parametrize("spec", ["mcts:24:sh", "mcts:8:hend:sh"])
def test_a_battle_with_halving_replays_byte_for_byte(spec: str) -> None:
    game = load_game("knight-hack/bourgtheroulde-1124")
    a = play(game, 3, spec, "scripted")
    b = play(game, 3, spec, "scripted")
    assert [e.to_dict() for e in a.state.events] == [e.to_dict() for e in b.state.events]
    assert a.state.is_terminal()
