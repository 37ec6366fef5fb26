"""A Knight Hack unit's formation: its ranks, its width and depth on the table (inches), from its
frontage (figures in the front rank) and the figures it has left. Compiled (issue 16, docs/performance.md
"Knight Hack's view"): the board's units (``board.Unit``, a Python class) and the view's entries
(``unit_view``) ask it at every view and every footprint made."""

from __future__ import annotations

import math
from typing import Any, Final

#: inches of frontage per figure in the front rank, and of depth per rank (R34)
FIGURE_WIDTH: Final = 1.0
RANK_DEPTH: Final = 1.0


def ranks_of(frontage: Any, figures: Any) -> Any:
    """The ranks ``figures`` make ``frontage`` wide (at least one)."""
    return max(1, math.ceil(figures / max(1, min(frontage, figures))))


def width_of(frontage: Any, figures: Any) -> Any:
    """The width of the front rank: the frontage, or the figures left when fewer."""
    return min(frontage, figures) * FIGURE_WIDTH


def depth_of(frontage: Any, figures: Any) -> Any:
    """The depth of the ranks."""
    return ranks_of(frontage, figures) * RANK_DEPTH
