"""knight-hack: each side's standing by its scenarios' victory rule (the plugin's ``score``).

The errata give no victory conditions; every scenario plays ruling R37 (``turn.sequence``,
``phase_melee._check_end``): a side that has lost half its points loses at the end of the turn (a
routed or removed unit counts its whole cost, another unit the cost of the figures it lost:
``Board.points_lost``; a unit held back counts in neither), both at once is a draw, and at the turn
limit the side that lost fewer points wins. So each side's progress toward its own defeat is

    broken(side) = min(1, points lost(side) / (half the points of side)),

and its standing

    standing(side) = tanh((broken(other) - broken(side)) / SCALE)

in [-1, 1], zero-sum, 0 when even; a side one loss from half its points scores near
-tanh(1 / SCALE). A routed unit counts as lost already, as R37 counts it. The search bot
(``shieldwall.ai.mcts``) scores unfinished playouts with it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board import Board
    from .state import KnightHackState

#: progress toward defeat (net) that makes the standing tanh(1) ~ 0.76
SCALE = 0.5


def broken(board: Board, side: str) -> float:
    """``side``'s progress toward losing half its points, 0 to 1 (module docstring)."""
    total = sum(board.points(u) for u in board.units.values() if u.side == side and not u.held_back)
    if not total:
        return 0.0
    return min(1.0, 2 * board.points_lost(side) / total)


def score(state: KnightHackState) -> dict[str, float]:
    """Each side's standing in [-1, 1] (module docstring)."""
    b = state.board
    a, c = b.sides
    v = math.tanh((broken(b, c) - broken(b, a)) / SCALE)
    return {a: v, c: 0.0 - v}
