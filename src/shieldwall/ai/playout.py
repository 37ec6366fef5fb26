"""A playout's rollout and its value, for the search bot (:mod:`shieldwall.ai.mcts`).

A playout starts from a copy of the battle (with its own dice) after its root order, plays on with
the rollout policy and is scored: +1 / -1 / 0 for each side if the battle ended (plus
``END_MARGIN`` of the rule system's ``score`` hook), else the hook's value, else :func:`material`.

**Aligned playouts.** The search compares root orders by playing each on the same battle (the same
dice, the same rollout bot's seed) and taking the difference of their values. The rollout's
horizon is counted in decisions, and two root orders may spend different numbers of decisions to
reach the same point of the game (an order that ends a phase skips the decisions the other spends
in it), so after the same count of decisions one playout may stand before a melee the other has
already fought: the difference is then the melee, not the order (docs/agents.md, "Why the search
loses as blue"). So playouts played against each other are aligned (:meth:`Roller.finish`): each
plays the horizon's decisions, then, with the rule system's ``progress`` hook (its point of the
game: turn, phase, bound, as a tuple that never decreases as the battle goes on), every playout
behind the furthest plays on until it reaches that point (past it, when that playout's battle
ended there: the other has still to play what ended it), for at most ``ALIGN_ROUNDS`` rounds and
``ALIGN_SHARE`` times the horizon's decisions a playout (``search_spec``), and all are scored
there (a playout the cap stops short is scored where it stands). Without the hook, playouts stop at
the horizon alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from shieldwall.ai.base import Bot
from shieldwall.ai.search_spec import ALIGN_SHARE
from shieldwall.core.game import State

#: a finished playout scores its outcome (+1 / -1 / 0) plus this share of the rule system's ``score``
#: hook: a tie-break, so that a draw at the turn limit or a narrow win still says by how much
END_MARGIN = 0.25
#: aligning playouts: at most this many rounds (a playout that overshoots the furthest point sets
#: a new one); a playout plays at most ``ALIGN_SHARE`` times the horizon's decisions past it
ALIGN_ROUNDS = 4

Point = tuple[int, ...]


def roster(state: State) -> dict[str, str]:
    """Unit id -> side of every unit the view lists (the units a playout starts with)."""
    out: dict[str, str] = {}
    for u in state.view().get("units") or []:
        if isinstance(u, dict) and u.get("side") in state.game.info.sides and u.get("id") is not None:
            out[str(u["id"])] = str(u["side"])
    return out


def material(state: State, start: dict[str, str] | None = None) -> dict[str, float]:
    """Each side's share of its units' strength left (hits against hit limits, units off the table
    count nothing) minus the mean of the other sides' shares: in [-1, 1], 0 when even.

    With ``start`` (a :func:`roster` taken earlier in the same battle), a unit of the roster the view
    no longer lists counts as lost too (a rule system whose view drops destroyed units), and the
    shares are of the roster's units."""
    sides = list(state.game.info.sides)
    left = dict.fromkeys(sides, 0.0)
    full = dict.fromkeys(sides, 0.0)
    listed: set[str] = set()
    for u in state.view().get("units") or []:
        side = u.get("side") if isinstance(u, dict) else None
        if side not in left:
            continue
        if start is not None:
            if str(u.get("id")) not in start:
                continue
            listed.add(str(u.get("id")))
        full[side] += 1.0
        if any(u.get(k) for k in ("removed", "gone", "destroyed")):
            continue
        hits, limit = u.get("hits"), u.get("max_hits")
        worn = (
            hits / limit if isinstance(hits, int | float) and isinstance(limit, int | float) and limit else 0
        )
        left[side] += max(0.0, 1.0 - float(worn))
    for uid, side in (start or {}).items():
        if uid not in listed:
            full[side] += 1.0
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


def leaf_score(score: Any, state: State) -> dict[str, float]:
    """A rule system's ``score(state)`` for every side, each clipped to [-1, 1] (a side it leaves
    out scores 0)."""
    given = score(state)
    return {s: max(-1.0, min(1.0, float(given.get(s, 0.0)))) for s in state.game.info.sides}


def fresh_dice(sim: State, seed: int) -> None:
    """Give a copied state new dice: its generator (``sim.rng`` or ``sim.board.rng``) replaced by
    one seeded with ``seed``, so a playout never reads the battle's coming rolls."""
    holders: tuple[Any, ...] = (sim, getattr(sim, "board", None))
    for holder in holders:
        if holder is not None and isinstance(getattr(holder, "rng", None), np.random.Generator):
            holder.rng = np.random.default_rng(seed)
            return


@dataclass(slots=True)
class Run:
    """One playout under way: its battle, its rollout policy (None: random orders), the opponent
    model's draws (None: the opponent is the policy), the units it started with (for
    :func:`material`; empty when the rule system's ``score`` hook scores it), the rollout
    decisions it has played, how many of them were played to align it, and whether the cap on
    those stopped it short of the point it was played on to."""

    sim: State
    policy: Bot | None
    opponent: np.random.Generator | None
    start: dict[str, str]
    played: int = 0
    aligned: int = 0
    short: bool = False


@dataclass(slots=True)
class Roller:
    """How the current search plays its rollouts: the searching ``side``, the opponent model's
    ``mix``, the generator of random rollouts, the rule system's ``score`` and ``progress`` hooks
    (None: material; no alignment) and the ``horizon`` in decisions (None: to the battle's end)."""

    side: str
    mix: float
    rng: np.random.Generator
    score: Callable[[State], dict[str, float]] | None
    progress: Callable[[State], Sequence[int]] | None
    horizon: int | None

    def order(self, run: Run, menu: list[Any] | None) -> Any:
        """The rollout policy's order: the rule system's own bot's, except that with an opponent
        mix below 1 another side's decision is, with probability 1 - mix, a random order of
        ``menu`` (drawn from the playout's opponent generator)."""
        assert run.policy is not None
        sim, opp = run.sim, run.opponent
        if opp is not None:
            d = sim.decision()
            if d is not None and d.side != self.side and opp.random() >= self.mix:
                menu = sim.legal_orders() if menu is None else menu
                return menu[int(opp.integers(len(menu)))]
        return run.policy.choose(sim)

    def step(self, run: Run) -> bool:
        """One rollout decision; False when the playout cannot go on (the battle is over, or a
        stuck copy: a menu that offers nothing). With the rule system's bot as the policy, the
        copy's menu is not built here (the bot asks for what it needs: a full menu costs several
        times a decision)."""
        sim = run.sim
        if sim.is_terminal() or sim.decision() is None:
            return False
        if run.policy is not None:
            order = self.order(run, None)
        else:
            menu = sim.legal_orders()
            if not menu:
                return False
            order = menu[int(self.rng.integers(len(menu)))]
        sim.apply(order)
        run.played += 1
        return True

    def roll(self, run: Run) -> None:
        """Play on for the horizon's decisions (to the battle's end without one)."""
        while (self.horizon is None or run.played < self.horizon) and self.step(run):
            pass

    def point(self, run: Run) -> Point:
        assert self.progress is not None
        return tuple(int(x) for x in self.progress(run.sim))

    def _key(self, run: Run) -> tuple[Point, int]:
        """Where a playout stands, for aligning: its point of the game, and 1 when its battle is
        over, so that a playout still going is behind one that ended at its own point (it has
        still to play what ended the other: the rest of that phase) until it is past it."""
        return (self.point(run), int(run.sim.is_terminal()))

    def align(self, runs: Sequence[Run]) -> None:
        """Play every playout behind the furthest one on to its point of the game (see the module
        docstring); a playout that ended stays where it ended, and one still going is played on
        past the point where another ended. A playout left behind when the cap or the rounds run
        out (or stuck: a menu that offers nothing) is marked ``short``."""
        if self.progress is None or self.horizon is None or len(runs) < 2:
            return
        room = ALIGN_SHARE * self.horizon
        for _ in range(ALIGN_ROUNDS):
            keys = [self._key(r) for r in runs]
            goal = max(keys)
            behind = [r for r, k in zip(runs, keys, strict=True) if k < goal and not r.sim.is_terminal()]
            if not behind:
                return
            for r in behind:
                while r.aligned < room and self._key(r) < goal and self.step(r):
                    r.aligned += 1
        goal = max(self._key(r) for r in runs)
        for r in runs:
            r.short = not r.sim.is_terminal() and self._key(r) < goal

    def value(self, run: Run) -> dict[str, float]:
        """The playout's value for each side where it stands."""
        sim = run.sim
        if sim.is_terminal():
            end = outcome(sim)
            if self.score is None:
                return end
            margin = leaf_score(self.score, sim)
            return {s: v + END_MARGIN * margin[s] for s, v in end.items()}
        if self.score is not None:
            return leaf_score(self.score, sim)
        return material(sim, run.start)

    def finish(self, runs: Sequence[Run]) -> list[dict[str, float]]:
        """Roll every playout to the horizon, align them, and score each."""
        for r in runs:
            self.roll(r)
        self.align(runs)
        return [self.value(r) for r in runs]
