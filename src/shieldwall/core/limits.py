"""The sizes a scenario may have, so that every request does bounded work.

The engine's legal-order generators and geometric routines are polynomial in the number of units,
of terrain features and of their points; these caps bound that work for any valid scenario (a
scenario at the caps answers a menu in well under a second on one core). Every rule system's
scenario schema applies them, and every number must be finite (no NaN, no infinity).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

#: the largest table side (inches, paces or hexes)
MAX_TABLE = 240.0
#: a coordinate of anything placed on or around the table (terrain may overhang the edges)
MAX_COORD = 1000.0
#: units (or deployments) a side
MAX_UNITS = 40
#: figures in one unit (rule systems that count figures)
MAX_FIGURES = 100
#: terrain features, and points of one feature's outline or line
MAX_FEATURES = 40
MAX_POINTS = 64
#: generals, personalities, dummies and such of one side
MAX_EXTRAS = 20
#: a name or a description
MAX_TEXT = 2000

#: (strict: a number, never ``true`` read as 1.0 or a string read as its number)
Coord = Annotated[float, Field(ge=-MAX_COORD, le=MAX_COORD, allow_inf_nan=False, strict=True)]
Heading = Annotated[float, Field(ge=-3600, le=3600, allow_inf_nan=False, strict=True)]
Pt = tuple[Coord, Coord]


def off_table(x: float, y: float, width: float, depth: float) -> str | None:
    """Why the point (x, y) is not on a table ``width`` x ``depth`` (None when it is)."""
    if 0 <= x <= width and 0 <= y <= depth:
        return None
    return f"({x:g}, {y:g}) is off the {width:g} x {depth:g} table"
