"""dbm-3.2: each side's standing by its own victory conditions (the plugin's ``score``).

How a battle is won here (``state.DbmState._end_of_bound``, ruling R32): an army that has lost
``army_defeat_fraction`` (user data) of its original element equivalents is defeated, its baggage
losses added (``loss.ee``: what an element is worth; ``loss.baggage``: 2 if destroyed in close
combat, 1 if lost otherwise, added to army losses for defeat only). A command that has lost
``demoralised_at_fraction`` of its own EE is demoralised, and its other mobile elements flee in
spontaneous retreat (``demor.flee``): they are the likeliest next losses, so a part of what such a
command has left counts as lost already. At the bound limit both sides hold 5 VP and
``victory.quarter`` moves 1 VP from the side with more commands that lost a quarter of their EE
(only when no command is demoralised). So each side's progress toward its own defeat is

    broken(side) = min(1, lost'(side) / (army_defeat_fraction * original EE(side))),
    lost' = EE lost + baggage losses + DEMORALISED * EE left in the side's demoralised commands

and its standing is

    standing(side) = tanh((broken(other) - broken(side)) / SCALE
                          + QUARTER * (quartered(other) - quartered(side)))

with ``quartered`` the side's commands at a quarter EE lost (the bound-limit tie break, only while
no command is demoralised): in [-1, 1], zero-sum, 0 when even. A side one loss from defeat scores
near -tanh(1 / SCALE). The search bot (``shieldwall.ai.mcts``) scores unfinished playouts with it.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING

from shieldwall.rulesets.dbm.command import data_fraction
from shieldwall.rulesets.dbm.state import SIDES

if TYPE_CHECKING:
    from shieldwall.rulesets.dbm.state import DbmState

#: the share of a demoralised command's EE left that counts as lost (demor.flee)
DEMORALISED = 0.5
#: progress toward defeat (net) that makes the standing tanh(1) ~ 0.76
SCALE = 0.5
#: what one command at a quarter lost (net) adds to the standing's argument (victory.quarter)
QUARTER = 0.1


def broken(state: DbmState, side: str) -> float:
    """``side``'s progress toward army defeat, 0 (nothing lost) to 1 (defeated): module docstring."""
    orig = Fraction(0)
    lost = Fraction(state.baggage_losses[side])
    shaken = Fraction(0)
    for c in state.commands.values():
        if c.side != side:
            continue
        orig += c.original_ee
        lost += c.lost_ee
        if c.demoralised:
            shaken += max(Fraction(0), c.original_ee - c.lost_ee)
    if not orig:
        return 0.0
    at = float(data_fraction(state.tables.game.army_defeat_fraction) * orig)
    return min(1.0, (float(lost) + DEMORALISED * float(shaken)) / at)


def quartered(state: DbmState) -> dict[str, int]:
    """Each side's commands that lost a quarter of their EE (victory.quarter); all 0 once any
    command is demoralised (the transfer then does not apply)."""
    n = {s: 0 for s in SIDES}
    for c in state.commands.values():
        if c.demoralised:
            return {s: 0 for s in SIDES}
        if c.quarter_lost:
            n[c.side] += 1
    return n


def score(state: DbmState) -> dict[str, float]:
    """Each side's standing in [-1, 1] (module docstring)."""
    a, b = SIDES
    gap = (broken(state, b) - broken(state, a)) / SCALE
    q = quartered(state)
    gap += QUARTER * (q[b] - q[a])
    v = math.tanh(gap)
    return {a: v, b: 0.0 - v}
