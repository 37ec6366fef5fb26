"""What the web page draws from a selected unit beyond its reach (the plugin's ``ranges``): the close
and long range of its missile weapon ("Missile Ranges", from data/missile_weapons.toml at the
battle's scale), straight out from its front for foot and from any edge for mounted ("Target
Eligibilities": foot fire only straight ahead, mounted in any one direction), and, for every enemy
on the table, whether a figure of its front rank can see it (the engine's own sight test: terrain,
and no firing over units unless the firer or the target is on elevated ground). Nothing here
changes the state or decides an order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.outlines import corridor

from .clauses import cite
from .profiles import missile_weapons
from .spatial import EDGES, figure_points, on_elevated, sees

if TYPE_CHECKING:
    from .model import Unit
    from .state import IntoTheDarkState


def _pt(p: tuple[float, float]) -> list[float]:
    return [round(p[0], 3), round(p[1], 3)]


def _bands(st: IntoTheDarkState, u: Unit) -> list[dict[str, Any]]:
    w = u.majority.missile_weapon
    if w is None or not u.has_missiles:
        return []
    mw = missile_weapons()[w]
    edges = EDGES if u.mounted else ("front",)
    where = "any direction" if u.mounted else "straight ahead"
    bands = [("long", st.d(mw.long))] if mw.long is not None else []
    bands.append(("close", st.d(mw.close)))
    out = []
    for name, dist in bands:
        for i, e in enumerate(edges):
            out.append(
                {
                    "label": f'{mw.name}: {name} range {dist:g}" ({where})' if i == 0 else "",
                    "kind": "range",
                    "points": corridor(u.fp, e, dist),
                    "rule": cite("combat.missile-ranges"),
                }
            )
    return out


def _sees(st: IntoTheDarkState, u: Unit, t: Unit) -> bool:
    blockers = [x.fp.corners() for x in st.live() if x.id not in (u.id, t.id)]
    elevated = on_elevated(u.fp, st.terrain) or on_elevated(t.fp, st.terrain)
    return any(sees(p, t.fp, blockers, st.terrain, elevated) is not None for p in figure_points(u))


def ranges(st: IntoTheDarkState, unit_id: str) -> dict[str, Any] | None:
    """Missile range bands and sight lines of a unit on the table (None for one that is not)."""
    try:
        u = st.unit(unit_id)
    except IllegalOrder:
        return None
    lines = []
    for t in st.live():
        if t.side == u.side:
            continue
        seen = _sees(st, u, t)
        lines.append(
            {
                "unit": t.id,
                "visible": seen,
                "from": _pt(u.fp.front_centre),
                "to": _pt(t.fp.centre),
                "why": None
                if seen
                else f"no figure of {u.id}'s front rank can see {t.id} (terrain, or units in the way: "
                "no firing over units unless the firer or the target is on elevated ground)",
                "rule": cite("combat.target-eligibilities"),
            }
        )
    return {"unit": u.id, "shapes": _bands(st, u), "sight": lines}
