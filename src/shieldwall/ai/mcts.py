"""``mcts``: Monte-Carlo tree search over the legal menus, for every rule system.

Names: ``mcts`` (``DEFAULT_PLAYOUTS`` playouts a decision), ``mcts:N`` (N playouts), ``mcts:Ts``
(T seconds of wall-clock time a decision, e.g. ``mcts:0.5s``).

Reproducibility: with a playout budget the bot's choices depend only on its seed and the state,
so a battle with ``mcts`` or ``mcts:N`` replays byte for byte. A time budget counts playouts by the
clock, which depends on the machine and its load: a battle with ``mcts:Ts`` does **not** replay.

The search (open-loop UCT): each playout copies the state, gives the copy fresh dice (a new seed
from the bot's own generator, so the search never sees the battle's coming rolls), walks down the
tree choosing orders by UCB1 among the orders of the copy's menu (the tree is keyed by the orders'
text, since the dice may change a menu), adds one new order, then plays on with the rollout policy
for at most ``ROLLOUT_DECISIONS`` decisions: the rule system's own first bot (its scripted bot)
when the plugin has one, else uniformly random orders. A playout is scored +1 / -1 / 0 for each
side if the battle ended, else by :func:`material`. The bot plays the most visited order.

Fresh dice assume the convention the built-in rule systems follow: a state keeps its battle's
generator (a ``numpy.random.Generator``) in ``state.rng`` or in ``state.board.rng``. A state with
neither is searched with its own dice.

Hidden information: when the rule system's plugin has a ``determinize`` hook (``shieldwall.plugin``),
each playout starts from ``determinize(state, side, rng)``, a copy of the battle in which whatever
the deciding side may not see (the other side's face-down cards, its hidden ambushers) is drawn
anew, consistently with what the side sees; so the search never reads the hidden truth, and two
battles that differ only in it get the same decisions from a bot seeded alike. Without the hook
the playout copies the state (a rule system without hidden information).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from shieldwall import registry
from shieldwall.ai.base import Bot
from shieldwall.core.errors import ShieldwallError
from shieldwall.core.game import State

DEFAULT_PLAYOUTS = 200
#: decisions a rollout plays before it is scored by material
ROLLOUT_DECISIONS = 10
#: the UCB1 exploration constant
EXPLORE = 1.4
#: progressive widening: a node with n visits has at most 1 + WIDEN * sqrt(n) children
WIDEN = 1.0


class BadBudget(ShieldwallError, ValueError):
    """A budget that is neither a number of playouts nor seconds."""


def parse_budget(spec: str) -> tuple[int | None, float | None]:
    """``""`` -> the default playouts; ``"N"`` -> N playouts; ``"Ts"`` -> T seconds."""
    text = spec.strip()
    if not text:
        return DEFAULT_PLAYOUTS, None
    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            if not math.isfinite(seconds) or seconds <= 0:
                raise ValueError
            return None, seconds
        playouts = int(text)
        if playouts < 1:
            raise ValueError
        return playouts, None
    except ValueError:
        raise BadBudget(
            f"mcts budget {spec!r} is neither a number of playouts (mcts:200) nor seconds (mcts:1s)"
        ) from None


def material(state: State) -> dict[str, float]:
    """Each side's share of its units' strength left (hits against hit limits, units off the table
    count nothing) minus the mean of the other sides' shares: in [-1, 1], 0 when even."""
    sides = list(state.game.info.sides)
    left = dict.fromkeys(sides, 0.0)
    full = dict.fromkeys(sides, 0.0)
    for u in state.view().get("units") or []:
        side = u.get("side") if isinstance(u, dict) else None
        if side not in left:
            continue
        full[side] += 1.0
        if any(u.get(k) for k in ("removed", "gone", "destroyed")):
            continue
        hits, limit = u.get("hits"), u.get("max_hits")
        worn = (
            hits / limit if isinstance(hits, int | float) and isinstance(limit, int | float) and limit else 0
        )
        left[side] += max(0.0, 1.0 - float(worn))
    share = {s: left[s] / full[s] if full[s] else 0.0 for s in sides}
    out = {}
    for s in sides:
        others = [share[o] for o in sides if o != s]
        out[s] = share[s] - (sum(others) / len(others) if others else 0.0)
    return out


def outcome(state: State) -> dict[str, float]:
    sides = list(state.game.info.sides)
    result = state.result()
    if result is None or result.winner is None:
        return dict.fromkeys(sides, 0.0)
    return {s: 1.0 if s == result.winner else -1.0 for s in sides}


def fresh_dice(sim: State, seed: int) -> None:
    """Give a copied state new dice: its generator (``sim.rng`` or ``sim.board.rng``) replaced by
    one seeded with ``seed``, so a playout never reads the battle's coming rolls."""
    holders: tuple[Any, ...] = (sim, getattr(sim, "board", None))
    for holder in holders:
        if holder is not None and isinstance(getattr(holder, "rng", None), np.random.Generator):
            holder.rng = np.random.default_rng(seed)
            return


@dataclass
class Node:
    visits: int = 0
    #: summed playout values, by side
    value: dict[str, float] = field(default_factory=dict)
    children: dict[str, Node] = field(default_factory=dict)


class MCTSBot(Bot):
    name = "mcts"

    def __init__(self, seed: int | None = None, spec: str = "") -> None:
        super().__init__(seed)
        self.playouts, self.seconds = parse_budget(spec)
        self._rollout: Bot | None = None
        self._rollout_for: str | None = None
        self._determinize: Any = None
        #: playouts of the last decision (for the benchmark and the tests)
        self.last_playouts = 0
        #: the root of the last decision's search tree (for the tests and for diagnostics)
        self.last_root: Node | None = None

    def choose(self, state: State) -> Any:
        menu = state.legal_orders()
        if len(menu) == 1:
            self.last_playouts = 0
            return menu[0]
        d = state.decision()
        assert d is not None
        side = d.side
        root = Node()
        deadline = time.monotonic() + self.seconds if self.seconds is not None else None
        done = 0
        while True:
            if self.playouts is not None and done >= self.playouts:
                break
            if deadline is not None and done > 0 and time.monotonic() >= deadline:
                break
            self._playout(state, root, side)
            done += 1
        self.last_playouts = done
        self.last_root = root
        by_text = {str(o): o for o in menu}
        known = [t for t in root.children if t in by_text]
        if not known:  # no playout tried an order of the true menu (its side's own menu differs)
            return menu[0]
        best = max(known, key=lambda t: (root.children[t].visits, root.children[t].value.get(side, 0.0)))
        return by_text[best]

    # --- one playout ---------------------------------------------------------------------------

    def _playout(self, state: State, root: Node, side: str) -> None:
        det = self._determinizer(state)
        if det is not None:
            sim: State = det(state, side, np.random.default_rng(int(self.rng.integers(2**63 - 1))))
        else:
            sim = state.copy()
        fresh_dice(sim, int(self.rng.integers(2**63 - 1)))
        path = [root]
        node = root
        while not sim.is_terminal():
            d = sim.decision()
            assert d is not None
            menu = sim.legal_orders()
            if not menu:  # a stuck copy (a rule system's menu that offers nothing): score it
                break
            texts = [str(o) for o in menu]
            tried = [i for i, t in enumerate(texts) if t in node.children]
            if len(tried) < min(len(menu), 1 + int(WIDEN * math.sqrt(node.visits))):
                i = self._expand(sim, node, menu, texts)
                child = node.children[texts[i]] = Node()
                sim.apply(menu[i])
                path.append(child)
                break
            i = tried[self._select(node, [texts[j] for j in tried], d.side)]
            sim.apply(menu[i])
            node = node.children[texts[i]]
            path.append(node)
        values = self._rollout_value(sim)
        for n in path:
            n.visits += 1
            for s, v in values.items():
                n.value[s] = n.value.get(s, 0.0) + v

    def _expand(self, sim: State, node: Node, menu: list[Any], texts: list[str]) -> int:
        """The order to add under ``node``: the rollout policy's choice while it is not a child yet
        (the search starts from what the rule system's own bot would do), else a random new one."""
        policy = self._policy(sim)
        if policy is not None:
            t = str(policy.choose(sim))
            if t not in node.children and t in texts:
                return texts.index(t)
        untried = [i for i, t in enumerate(texts) if t not in node.children]
        return untried[int(self.rng.integers(len(untried)))]

    def _select(self, node: Node, texts: list[str], side: str) -> int:
        log_n = math.log(max(1, sum(node.children[t].visits for t in texts)))
        best, best_score = 0, -math.inf
        for i, t in enumerate(texts):
            c = node.children[t]
            score = c.value.get(side, 0.0) / c.visits + EXPLORE * math.sqrt(log_n / c.visits)
            if score > best_score:
                best, best_score = i, score
        return best

    def _rollout_value(self, sim: State) -> dict[str, float]:
        policy = self._policy(sim)
        for _ in range(ROLLOUT_DECISIONS):
            if sim.is_terminal() or not sim.legal_orders():
                break
            if policy is not None:
                order = policy.choose(sim)
            else:
                menu = sim.legal_orders()
                order = menu[int(self.rng.integers(len(menu)))]
            sim.apply(order)
        return outcome(sim) if sim.is_terminal() else material(sim)

    def _determinizer(self, state: State) -> Any:
        """The rule system's ``determinize`` hook, or None (it has no hidden information)."""
        rid = state.game.info.id
        if self._rollout_for != rid:
            self._policy(state)
        return self._determinize

    def _policy(self, state: State) -> Bot | None:
        """The rule system's own first bot (seeded from this bot's generator), or None (random)."""
        rid = state.game.info.id
        if self._rollout_for != rid:
            self._rollout_for = rid
            rs = registry.get(rid)
            own = next(iter(rs.bots), None)
            cls = rs.bot_class(own) if own is not None else None
            self._rollout = cls(int(self.rng.integers(2**63 - 1))) if cls is not None else None
            self._determinize = rs.optional("determinize")
        return self._rollout
