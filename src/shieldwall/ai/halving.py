"""Sequential halving at the search bot's root (``mcts:N:sh``, :mod:`shieldwall.ai.mcts`): other
orders of the menu race the prior on common battles, the worse half dropping out each round, and
the survivor is played only if fresh pairs confirm it. The playouts compared on one battle are
aligned (:mod:`shieldwall.ai.playout`)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from shieldwall.ai.tree import CONFIDENCE, MIN_VISITS, Node
from shieldwall.core.game import State

if TYPE_CHECKING:
    from shieldwall.ai.mcts import MCTSBot

#: one candidate order a SH_PER playouts (at most SH_MOST); half the budget is spent choosing among
#: them, the rest confirms the survivor
SH_PER = 16
SH_MOST = 8


def halving(
    bot: MCTSBot, state: State, root: Node, side: str, menu: list[Any], budget: int, spent: int = 0
) -> Any:
    """Sequential halving at the root, then a confirmation. Up to ``budget // SH_PER`` other orders
    of the menu (at most ``SH_MOST``, drawn at random) are each played on the same battles as the
    prior (one battle, its dice and rollout seed shared by the prior and every candidate still in
    the race: common random numbers); after each round the half with the lower mean gain over the
    prior drops out. Half the budget goes to the rounds; the survivor then plays fresh pairs against
    the prior with the rest, and is played only if those pairs (not the ones that chose it, whose
    selection flatters it) give a mean gain above the least gain (``gX``) and above ``CONFIDENCE``
    standard errors, over at least ``MIN_VISITS`` pairs. A survivor whose mean gain in the rounds is
    not above zero is not confirmed: the prior is played. ``spent``: playouts of the budget already
    spent (the plan race's)."""
    by_text = bot._orders = {str(o): o for o in menu}
    prior = str(bot._prior)
    others = [t for t in by_text if t != prior]
    bot.last_rounds, bot.last_confirm = [], []
    done = spent
    if prior not in by_text or not others:
        bot.last_playouts, bot.last_root = done, root
        return by_text.get(prior, menu[0])
    room = budget - spent
    k = min(len(others), SH_MOST, max(1, room // SH_PER))
    alive = [others[int(i)] for i in bot.rng.permutation(len(others))[:k]]
    for t in [prior, *alive]:
        root.children[t] = Node()
    rounds = math.ceil(math.log2(k)) if k > 1 else 0
    for _ in range(rounds):
        bot.last_rounds.append(list(alive))
        samples = max(1, (room // 2) // rounds // (len(alive) + 1))
        for _ in range(samples):
            done += common(bot, state, root, side, alive)
        # stable: among equal gains the earlier drawn stays
        alive = sorted(alive, key=lambda t: -root.children[t].mean_gain())[: math.ceil(len(alive) / 2)]
    best = alive[0]
    bot.last_rounds.append([best])
    b = root.children[best]
    if rounds and b.mean_gain() <= 0:
        bot.last_playouts, bot.last_root = done, root
        return by_text[prior]
    confirm = Node()
    while done + 2 <= budget:
        seeds = bot._seeds()
        base, value = bot._forced(state, root, side, seeds, [prior, best])
        done += 2
        if base is None or value is None:
            continue
        g = value - base
        confirm.paired += 1
        confirm.gain += g
        confirm.gain_square += g * g
        bot.last_confirm.append((seeds, g))
    bot.last_playouts, bot.last_root = done, root
    gain = confirm.mean_gain()
    least = bot.options.least_gain
    if confirm.paired >= MIN_VISITS and gain > least and gain > CONFIDENCE * confirm.gain_error():
        bot.last_overruled = True
        return by_text[best]
    return by_text[prior]


def common(bot: MCTSBot, state: State, root: Node, side: str, alive: list[str]) -> int:
    """One round's sample: the prior and every candidate still in the race on one battle (the
    same determinization, dice and rollout seed); each candidate's gain over the prior is
    added to its node. Returns the playouts played."""
    seeds = bot._seeds()
    prior = str(bot._prior)
    base, *values = bot._forced(state, root, side, seeds, [prior, *alive])
    for t, value in zip(alive, values, strict=True):
        if base is None or value is None:
            continue
        c = root.children[t]
        c.paired += 1
        c.gain += value - base
        c.gain_square += (value - base) ** 2
    return 1 + len(alive)
