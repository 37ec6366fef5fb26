"""The search bot's tree (:mod:`shieldwall.ai.mcts`): its nodes, UCB1, and the evidence it needs to
overrule the prior (the rule system's own bot's order)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

#: the UCB1 exploration constant (on values scaled to [0, 1] at each node)
EXPLORE = 0.7
#: the search overrules the prior (the rule system's own bot's order) only with an order of at
#: least MIN_VISITS paired playouts whose mean gain over the prior is more than CONFIDENCE
#: standard errors above zero (2: at one, half the overrules an independent estimate of 16 to 48
#: fresh pairs did not confirm; ``benchmarks/bench_mcts_overrules.py``, docs/agents.md)
MIN_VISITS = 4
CONFIDENCE = 2.0
#: progressive widening: a node with n visits has at most 1 + WIDEN * sqrt(n) children
WIDEN = 1.0


def add(node: Node, values: dict[str, float]) -> None:
    """Count one playout of ``values`` at ``node``."""
    node.visits += 1
    for s, v in values.items():
        node.value[s] = node.value.get(s, 0.0) + v


@dataclass
class Node:
    visits: int = 0
    #: summed playout values, by side
    value: dict[str, float] = field(default_factory=dict)
    children: dict[str, Node] = field(default_factory=dict)
    #: at the root, an order other than the prior: its playouts paired with one of the prior's on
    #: the same battle, dice and rollout seeds, and the summed gains (its value minus the prior's,
    #: for the deciding side) and squared gains
    paired: int = 0
    gain: float = 0.0
    gain_square: float = 0.0

    def mean(self, side: str) -> float:
        return self.value.get(side, 0.0) / self.visits if self.visits else 0.0

    def mean_gain(self) -> float:
        return self.gain / self.paired if self.paired else 0.0

    def gain_error(self) -> float:
        """The standard error of the mean gain (infinite below two pairs)."""
        if self.paired < 2:
            return math.inf
        m = self.mean_gain()
        var = max(0.0, self.gain_square / self.paired - m * m) * self.paired / (self.paired - 1)
        return math.sqrt(var / self.paired)


def ucb(means: list[float], counts: list[int]) -> int:
    """UCB1 on means scaled to [0, 1] by their range (so small material differences still steer
    the search); every count at least 1."""
    lo, hi = min(means), max(means)
    log_n = math.log(max(1, sum(counts)))
    best, best_score = 0, -math.inf
    for i, (m, n) in enumerate(zip(means, counts, strict=True)):
        q = (m - lo) / (hi - lo) if hi > lo else 0.5
        score = q + EXPLORE * math.sqrt(log_n / n)
        if score > best_score:
            best, best_score = i, score
    return best
