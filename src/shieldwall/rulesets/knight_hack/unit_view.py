"""The units of a Knight Hack state's view (``KnightHackState.view()["units"]``), made in a compiled
module (issue 16, docs/performance.md "Knight Hack's view"): the scripted bot reads the view at every
decision, and the search's playouts are scripted battles. The state stays a Python class (it copies
its board with ``copy.deepcopy``), so the entries are made here, from the board, reading each unit
through the generic attribute API: the same values, the same keys in the same order."""

from __future__ import annotations

from typing import Any

from shieldwall.rulesets.knight_hack import deploy
from shieldwall.rulesets.knight_hack.formation import depth_of, width_of


def unit_entries(b: Any) -> list[dict[str, Any]]:
    """One entry per unit of the board ``b``, in the order of ``b.units``: its place (rounded to
    four places), formation, weapons, figures and status; ``hidden_from`` (the other side) for a
    unit lying in ambush while the battle lasts (shieldwall.visibility); with hand deployment
    (ruling R51), ``deployed``, false for a unit still to place."""
    out: list[dict[str, Any]] = []
    lasts = b.result is None
    left: Any = deploy.waiting(b) if b.deploy_left else None
    for u in b.units.values():
        figures: Any = u.figures
        frontage: Any = u.frontage
        entry: dict[str, Any] = {
            "id": u.id,
            "side": u.side,
            "name": u.name,
            "type": u.type,
            "class": u.cls,
            "x": round(u.x, 4),
            "y": round(u.y, 4),
            "heading": round(u.heading, 4),
            "frontage": float(width_of(frontage, figures)),
            "depth": float(depth_of(frontage, figures)),
            "weapons": list(u.weapons),
            "figures": max(0, figures),
            "muster": u.muster,
            "hits": u.muster - max(0, figures),
            "max_hits": u.muster,
            "status": u.status,
            "disordered": u.status == "disordered",
            "removed": u.gone,
            "in_melee": b.in_melee(u.id),
            "must_charge": u.must_charge,
            "hidden": u.hidden,
        }
        if u.hidden and lasts:
            entry["hidden_from"] = [b.other(u.side)]
        if left is not None:
            entry["deployed"] = u.id not in left
        out.append(entry)
    return out
