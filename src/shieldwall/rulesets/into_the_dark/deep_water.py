"""Troops forced into deep water (terrain.deep-water).

"Deep water - may not be entered at all under normal circumstances. If troops are forced into it the
following occurs; unarmoured or protected cavalry may swim at quarter speed, unarmoured infantry and
armoured cavalry loose 50% of their numbers to drowning and the rest swim at quarter speed. All other
troops drown."

A unit is forced into deep water by a driven-back move or a rout move (combat.driven-back,
combat.rout). It meets its fate once, on the step that first takes it into the water; the rest of
the forced move, and every move while any of it is still in the water, costs four inches of
allowance an inch ("quarter speed"). Rulings: docs/rulings/into-the-dark.md.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Literal

from shieldwall.core.geometry import Footprint

from .terrain_grid import terrain_under

if TYPE_CHECKING:
    from shieldwall.core.terrain import TerrainMap

    from .model import Unit
    from .state import IntoTheDarkState

CLAUSE = "terrain.deep-water"
#: "swim at quarter speed": every inch in the water costs four of the allowance.
SWIM_FACTOR = 4.0

Fate = Literal["swim", "half", "drown"]


def fate(u: Unit) -> Fate:
    """What deep water does to ``u``: "unarmoured or protected cavalry may swim ..., unarmoured
    infantry and armoured cavalry loose 50% ... All other troops drown." (terrain.deep-water).
    Cavalry is the mounted category; an unhorsed champion is foot."""
    # into-the-dark:terrain.deep-water.driven-back
    armour = u.majority.armour  # a mixed unit: its majority type (ruling 76)
    if u.mounted:
        if armour in ("U", "P"):
            return "swim"
        return "half" if armour == "A" else "drown"
    return "half" if armour == "U" else "drown"


def in_deep_water(fp: Footprint, terrain: TerrainMap) -> bool:
    """Whether any of ``fp`` is in deep water (a deep-water feature or a lake)."""
    return any(k.clause == CLAUSE for _f, k in terrain_under(fp, terrain))


def plunge(st: IntoTheDarkState, u: Unit, cause: str) -> bool:
    """``u`` is forced into deep water by ``cause`` (a driven-back or rout clause): apply its fate
    and log it. Returns whether anything of it is left to swim."""
    # into-the-dark:terrain.deep-water.driven-back
    f = fate(u)
    lost = 0
    if f == "half":
        # "loose 50% of their numbers": half the figures, rounded up (a champion: one hit)
        lost = u.lose(1 if u.champion else math.ceil(u.figures / 2))
    elif f == "drown":
        lost = u.lose(u.champion_hits - u.wounds if u.champion else u.figures)
        u.destroyed = True
    st.log(
        "forced-into-deep-water",
        CLAUSE,
        side=u.side,
        unit=u.id,
        by=cause,
        fate=f,
        lost=lost,
        left=u.figures if not u.destroyed else 0,
        swims_at="quarter speed" if not u.destroyed else None,
    )
    if u.destroyed:
        st.destroyed_turn.append({"id": u.id, "side": u.side, "corners": [list(p) for p in u.fp.corners()]})
        st.log("destroyed", CLAUSE, side=u.side, unit=u.id, reason="drowned in deep water")
        return False
    return True
