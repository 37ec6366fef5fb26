"""The search's plan portfolio (``pf``, ``shieldwall.ai.portfolio``): the rule system's plans for
the searching side race on common battles, and the best one's bot plays that side in the rollouts
and gives the root search its prior."""

from __future__ import annotations

from typing import Any

import pytest

from shieldwall import registry
from shieldwall.ai import mcts as mcts_module
from shieldwall.ai.base import make_bot
from shieldwall.ai.mcts import BadBudget, MCTSBot, Options
from shieldwall.ai.portfolio import Split, best_plan, plans_of
from shieldwall.ai.search_spec import parse, parse_default, settle
from shieldwall.core.game import State
from shieldwall.io.scenarios import load_game

DBM = "dbm-3.2/ford-of-ash"
QUICK = "one-hour-dark-ages/bryn-glas"


def test_the_portfolio_option() -> None:
    assert settle(parse("64:pf")).options == Options(10, False, True)
    assert settle(parse("64:nopf")).options.plans is False
    assert settle(parse("64")).options.plans is False
    # a rule system's default pf is kept, unless the user says nopf, and dropped under seconds
    assert settle(parse("32"), parse_default("80:sh:pf")).options.plans is True
    assert settle(parse("32:nopf"), parse_default("80:sh:pf")).options.plans is False
    assert settle(parse("1s"), parse_default("80:sh:pf")).options.plans is False
    with pytest.raises(BadBudget, match="plan portfolio"):
        parse("64:pf:nopf")
    with pytest.raises(BadBudget, match="plan portfolio"):
        make_bot("mcts:1s:pf", 1)


class A:
    pass


class B:
    pass


def test_plans_of_and_best_plan() -> None:
    assert plans_of(A, None) == [("own", A)]
    assert plans_of(A, {"b": B, "again": A}) == [("own", A), ("b", B)]
    assert plans_of(None, {"b": B}) == []  # no bot of its own: random rollouts, no race
    assert best_plan([-0.5, -0.2, -0.2]) == 1  # the earlier among equals
    assert best_plan([0.0, 0.0]) == 0  # a tie keeps the rule system's own bot
    assert best_plan([-1.0, 0.5, 0.25]) == 1


def blue_bound(seed: int = 0) -> State:
    """Ford of Ash, the scripted bot on both sides, at blue's first bound decision in which the
    scripted bot does not end the bound."""
    g = load_game(DBM)
    st = g.new_state(seed)
    bots = {s: make_bot("scripted", i, g.info.id) for i, s in enumerate(g.info.sides)}
    while not st.is_terminal():
        d = st.decision()
        assert d is not None
        o = bots[d.side].choose(st)
        if d.side == g.info.sides[1] and d.kind == "bound" and str(o) != "end":
            return st
        st.apply(o)
    raise AssertionError("no such decision")


def test_the_plugin_lists_its_plans_and_the_race_runs() -> None:
    plans = registry.get("dbm-3.2").optional("search_plans")
    assert set(plans) == {"hold", "attack"}
    st = blue_bound()
    bot = MCTSBot(5, "16:h4:pf:sh")
    order = bot.choose(st)
    assert bot.last_plan in ("own", "hold", "attack")
    assert [n for n, _ in bot.last_plan_values] == ["own", "hold", "attack"]
    assert bot.last_playouts <= 16
    again = MCTSBot(5, "16:h4:pf:sh")
    assert str(again.choose(st)) == str(order)
    assert again.last_plan_values == bot.last_plan_values
    # nopf (DBM's default has pf): no race
    plain = MCTSBot(5, "16:h4:sh:nopf")
    plain.choose(st)
    assert plain.last_plan is None


def test_the_chosen_plan_gives_the_prior_and_plays_the_rollouts(monkeypatch: Any) -> None:
    st = blue_bound()
    scripted = str(make_bot("scripted", 0, "dbm-3.2").choose(st))
    assert scripted != "end"
    # the race forced to the hold plan: its order (end the bound) is the prior, which a budget too
    # small to overrule plays, and its bot plays blue in the rollouts
    monkeypatch.setattr(mcts_module, "best_plan", lambda totals: 1)
    bot = MCTSBot(3, "8:h2:pf:sh")
    assert str(bot.choose(st)) == "end"
    assert bot.last_plan == "hold"
    rollout = bot._rollout
    assert isinstance(rollout, Split) and type(rollout.own).__name__ == "HoldBot"
    assert rollout.side == st.decision().side  # type: ignore[union-attr]
    # forced to the rule system's own bot: its order, and no split rollouts
    monkeypatch.setattr(mcts_module, "best_plan", lambda totals: 0)
    bot = MCTSBot(3, "8:h2:pf:sh")
    assert str(bot.choose(st)) == scripted
    assert bot.last_plan == "own" and not isinstance(bot._rollout, Split)


def test_no_plans_listed_changes_nothing() -> None:
    """A rule system that lists no plans: ``pf`` is the same search, decision for decision."""
    assert registry.get("one-hour-dark-ages").search_plans is None
    g = load_game(QUICK)
    st = g.new_state(2)
    a, b = MCTSBot(7, "8:pf"), MCTSBot(7, "8")
    for _ in range(12):
        if st.is_terminal():
            break
        oa, ob = a.choose(st), b.choose(st)
        assert str(oa) == str(ob) and a.last_plan is None
        st.apply(oa)


def test_a_battle_with_the_portfolio_replays() -> None:
    g = load_game(DBM)

    def orders() -> list[str]:
        st = g.new_state(1)
        bots = {s: MCTSBot(11 + i, "8:h3:pf:sh") for i, s in enumerate(g.info.sides)}
        out = []
        for _ in range(40):
            if st.is_terminal():
                break
            d = st.decision()
            assert d is not None
            o = bots[d.side].choose(st)
            out.append(str(o))
            st.apply(o)
        return out

    assert orders() == orders()
