"""An oracle for the search's aligned playouts, written apart from ``shieldwall.ai.playout``: the
root orders played by hand on one battle (the search's seeds), each rolled on with the rule
system's bot for the horizon's decisions, then every one behind the furthest point of the game
(the plugin's ``progress`` hook) played on to it, and scored as the search scores a playout."""

from __future__ import annotations

from typing import Any

from shieldwall import registry
from shieldwall.ai.mcts import END_MARGIN, MCTSBot, leaf_score, outcome
from shieldwall.ai.search_spec import ALIGN_SHARE
from shieldwall.core.game import State


def by_hand(
    judge: MCTSBot, state: State, side: str, seeds: tuple[int, int, int], orders: list[str]
) -> list[Any]:
    """Each order's value for ``side`` (the judge's horizon, mix 1), and where its playout ended:
    [(value, point, decisions played after the order, whether the battle ended, decisions of
    those played to align), ...]."""
    judge._policy(state)
    rs = registry.get(state.game.info.id)
    progress, score = rs.load("progress"), rs.load("score")
    horizon = judge.options.horizon
    assert horizon is not None and judge.mix == 1.0
    sims, bots, played = [], [], []
    for text in orders:
        sim = judge._start(state, side, seeds)
        sim.apply({str(o): o for o in sim.legal_orders()}[text])
        bot = judge._fresh_policy(seeds[2])
        n = 0
        while n < horizon and not sim.is_terminal():
            sim.apply(bot.choose(sim))
            n += 1
        sims.append(sim)
        bots.append(bot)
        played.append(n)
    extra = [0] * len(sims)

    def key(sim: State) -> tuple[tuple[int, ...], bool]:  # a battle over is past its own point
        return (tuple(progress(sim)), sim.is_terminal())

    for _ in range(4):
        goal = max(key(s) for s in sims)
        moved = False
        for i, sim in enumerate(sims):
            while extra[i] < ALIGN_SHARE * horizon and not sim.is_terminal() and key(sim) < goal:
                sim.apply(bots[i].choose(sim))
                played[i] += 1
                extra[i] += 1
                moved = True
        if not moved:
            break
    out = []
    for sim, n in zip(sims, played, strict=True):
        if sim.is_terminal():
            v = outcome(sim)[side] + END_MARGIN * leaf_score(score, sim)[side]
        else:
            v = leaf_score(score, sim)[side]
        out.append((v, tuple(progress(sim)), n, sim.is_terminal(), extra[len(out)]))
    return out
