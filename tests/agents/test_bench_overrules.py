"""benchmarks/bench_mcts_overrules.py: the search's own estimate of an overrule it reports."""

from __future__ import annotations

from types import ModuleType

from tests.file_module import load

from shieldwall.ai.mcts import MCTSBot, Node


def _bench() -> ModuleType:
    return load("benchmarks/bench_mcts_overrules.py")


def test_with_halving_the_estimate_is_the_confirming_pairs_that_decided() -> None:
    """A menu of two orders has no halving rounds: the root node of the order played holds no pair
    (it printed +0.000 / inf / 0), and the confirming pairs decided; they are what is reported."""
    b = _bench()
    bot = MCTSBot(1, "8:sh")
    bot.last_root = Node(children={"p": Node(), "a": Node()})
    bot.last_confirm = [((1, 2, 3), 1.0), ((4, 5, 6), 2.0), ((7, 8, 9), 3.0)]
    assert b._search_estimate(bot, "a") == "+2.000 / 0.577 / 3 (halving's confirming pairs)"
    bot.last_confirm = []
    kid = Node(paired=2, gain=1.0, gain_square=0.5)  # gains 0.5 and 0.5
    bot.last_root = Node(children={"p": Node(), "a": kid})
    assert b._search_estimate(bot, "a") == f"+0.500 / {kid.gain_error():.3f} / 2"
