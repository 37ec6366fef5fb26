"""What the web page draws from a selected Knight Hack unit beyond its reach (the plugin's
``ranges``): for a unit with a missile weapon, its range band (the longest range of its weapons,
closest points) and its front arc out to that range, the missile window's two conditions
(``knight-hack:missile.window``, ruling R41); a line to every enemy its side sees.

The errata has no line-of-sight rule: a unit's side sees every enemy but the other side's hidden
ambushers (``knight-hack:ambush.execute``, ruling R49). So each line says whether the engine lets the
unit act on that enemy now, with the engine's own reason when not: a missile unit may shoot at it
(``geom.missile_why_not``, the test the missile window's menu uses), another unit may declare a
charge on it (``geom.check_charge``: the charge restrictions, the ¼ wheel, the object within normal
move, R21). Both come from ``reach.reach``; nothing here changes the state or decides an order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shieldwall.core.crossings import FRONT_ARC_HALF_ANGLE
from shieldwall.core.errors import IllegalOrder
from shieldwall.core.outlines import front_arc, grown
from shieldwall.rulesets.knight_hack.clauses import rule
from shieldwall.rulesets.knight_hack.geom import missile_range, seen_enemies
from shieldwall.rulesets.knight_hack.reach import reach

if TYPE_CHECKING:
    from shieldwall.rulesets.knight_hack.state import KnightHackState


def _pt(p: tuple[float, float]) -> list[float]:
    return [round(p[0], 3), round(p[1], 3)]


def ranges(st: KnightHackState, unit_id: str) -> dict[str, Any] | None:
    """Missile range band, front arc and a line to each seen enemy (None for a unit that is not on
    the table)."""
    try:
        r = reach(st, unit_id)
    except IllegalOrder:
        return None
    b = st.board
    u = b.units[unit_id]
    fp = u.footprint()
    rng = missile_range(b, u)
    shapes: list[dict[str, Any]] = []
    if rng:
        weapon = max(
            (w for w in u.weapons if b.tables.weapons[w].range), key=lambda w: (b.tables.weapons[w].range, w)
        )
        shapes.append(
            {
                "label": f"{weapon} range {rng:g} in.",
                "kind": "range",
                "points": grown(fp.corners(), rng),
                "rule": rule("missile.window"),
            }
        )
        shapes.append(
            {
                "label": "front arc (missile window)",
                "kind": "arc",
                "points": front_arc(fp, FRONT_ARC_HALF_ANGLE, rng),
                "rule": rule("missile.window"),
            }
        )
    lines = []
    shooting = r["shooting"]
    if shooting is not None:
        ok = set(shooting["targets"])
        why_not: dict[str, dict[str, str]] = shooting["why_not"]
        label = "may shoot at"
    else:
        ok = {c["target"] for c in r["charges"]}
        why_not = r["charge_why_not"]
        label = "may charge"
    for e in sorted(seen_enemies(b, u), key=lambda x: x.id):
        no = why_not.get(e.id)
        if no is not None:
            clause = no["rule"]
        else:
            clause = rule("missile.window" if shooting is not None else "charge.declare")
        lines.append(
            {
                "unit": e.id,
                "visible": e.id in ok,
                "from": _pt(fp.front_centre),
                "to": _pt(e.footprint().centre),
                "why": None if no is None else no["reason"],
                "rule": clause,
            }
        )
    return {"unit": u.id, "shapes": shapes, "sight": lines, "sight_label": label}
