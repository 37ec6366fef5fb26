"""What the web page draws from a selected unit beyond its reach (the plugin's ``ranges``): its
missile range band ("Shooting": 12" for bows, 6" for javelins, from the closest points), its front
arc ("Charging" and "Shooting": the rule's arc, here cut off at its range or the most its movement
dice give) and, for every enemy, whether it has a line of sight to it ("Line of Sight", the engine's
own sight lines). Nothing here changes the state or decides an order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.outlines import front_arc, grown
from shieldwall.rulesets.one_hour.act_common import sight
from shieldwall.rulesets.one_hour.clauses import rule
from shieldwall.rulesets.one_hour.model import other
from shieldwall.rulesets.one_hour.reach import max_move, missile_range

if TYPE_CHECKING:
    from shieldwall.rulesets.one_hour.state import OneHourState


def _pt(p: tuple[float, float]) -> list[float]:
    return [round(p[0], 3), round(p[1], 3)]


def ranges(st: OneHourState, unit_id: str) -> dict[str, Any] | None:
    """Range band, front arc and sight lines of a unit on the table (None for one that is not)."""
    try:
        u = st.unit(unit_id)
    except IllegalOrder:
        return None
    if u.removed:
        return None
    fp = u.fp
    arc = float(st.params["arc"])
    rng = missile_range(st, u)
    shapes: list[dict[str, Any]] = []
    if rng is not None:
        shapes.append(
            {
                "label": f'{u.profile.missile} range {rng:g}"',
                "kind": "range",
                "points": grown(fp.corners(), rng),
                "rule": rule("shooting.range"),
            }
        )
    reach = rng if rng is not None else max_move(st, u)
    shapes.append(
        {
            "label": f"front arc {arc:g}°" + (" (shooting, charging)" if rng is not None else " (charging)"),
            "kind": "arc",
            "points": front_arc(fp, arc, reach),
            "rule": rule("shooting.arc" if rng is not None else "charging.arc"),
        }
    )
    lines = []
    for t in st.live(other(u.side)):
        seen, n = sight(st, u, t)
        if seen == 0:
            why = f"units, hills, woods or buildings block every line from {u.id}'s front to {t.id}"
        elif seen < n:
            why = f"{seen} of {n} points of {t.id}'s outline in view"
        else:
            why = None
        lines.append(
            {
                "unit": t.id,
                "visible": seen > 0,
                "from": _pt(fp.front_centre),
                "to": _pt(t.fp.centre),
                "why": why,
                "rule": rule("line-of-sight"),
            }
        )
    return {"unit": u.id, "shapes": shapes, "sight": lines}
