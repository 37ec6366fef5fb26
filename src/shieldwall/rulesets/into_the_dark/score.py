"""into-the-dark: each side's standing by the end-of-battle rule (the plugin's ``score``).

The text gives no victory conditions (``turn-sequence.end-of-battle``, rulings 39 and 74), so this
follows the engine's own (``turns.check_end``, ``turns.finish_on_time``): an army with no formed
(non-routing) unit left on the table is driven from the field; at the turn limit the side that lost
the smaller share of its points wins (a unit destroyed, gone or routing counts its whole cost, a
fallen general his points: ``state.losses``), and equal shares are broken by casualties (each unit
still in the field costs its points pro rata to the figures it lost: ``turns.casualty_shares``).
A routing unit is counted lost already (it is lost unless it rallies), and the wear of the units
still in the field counts for a part of a loss, as the tie break does:

    standing(side) = tanh((lost'(other) - lost'(side)) / SCALE),
    lost' = share of points lost + WEAR * share of points in casualties

in [-1, 1], zero-sum, 0 when even. The search bot (``shieldwall.ai.mcts``) scores unfinished
playouts with it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .model import SIDES
from .turns import casualty_shares

if TYPE_CHECKING:
    from .state import IntoTheDarkState

#: the share of the casualties of units still in the field that counts as points lost
WEAR = 0.5
#: the share of an army's points lost (net) that makes the standing tanh(1) ~ 0.76
SCALE = 0.25


def effective_losses(state: IntoTheDarkState) -> dict[str, float]:
    """Each side's share of its points lost plus ``WEAR`` times its casualty share (docstring)."""
    # into-the-dark:turn-sequence.end-of-battle - the turn-limit count (ruling 39), its tie break weighed
    worn = casualty_shares(state)
    out = {}
    for s in SIDES:
        loss = state.losses(s)
        share = loss["points_lost"] / loss["points"] if loss["points"] else 0.0
        out[s] = share + WEAR * worn[s]
    return out


def score(state: IntoTheDarkState) -> dict[str, float]:
    """Each side's standing in [-1, 1] (module docstring)."""
    a, b = SIDES
    lost = effective_losses(state)
    v = math.tanh((lost[b] - lost[a]) / SCALE)
    return {a: v, b: 0.0 - v}
