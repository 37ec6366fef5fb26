"""What one Knight Hack unit can reach right now, measured by the engine's own rules (for the web
page's reach shading).

``reach(state, unit_id)`` answers, for a unit on the table:

* ``move``: its normal move (``knight-hack:move.unit-order``; a rallying unit's rally move is at
  most the same, a routed one runs its rout move, a unit in melee or hidden in ambush does not move);
* ``charges``: the enemies it could declare a charge on now (``geom.check_charge``: the charge
  restrictions, the ¼ wheel, the object within normal move along the charge path, R21), each with
  the path length and the facing it would strike; ``charge_why_not``: why not each other enemy it
  sees, with the clause;
* ``shooting``: with a missile weapon, its range, the enemies in its front arc and range, and why
  not the others (``knight-hack:missile.window``);
* ``deploy``: with hand deployment, for the unit to place now, its side's zone (ruling R51), which
  the ``highlight`` then draws instead of the reach;
* ``highlight``: all of this as ``render.svg.render_svg(view, highlight=...)`` takes it.

Only enemies the unit's side can see count (not the other side's hidden ambushers). Nothing here
changes the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.knight_hack.clauses import rule
from shieldwall.rulesets.knight_hack.geom import (
    charge_line,
    check_charge,
    contact_facing,
    missile_range,
    missile_why_not,
    seen_enemies,
)
from shieldwall.rulesets.knight_hack.orders import Order

if TYPE_CHECKING:
    from shieldwall.rulesets.knight_hack.state import KnightHackState


def reach(st: KnightHackState, unit_id: str) -> dict[str, Any]:
    """Movement band, charge targets, shooting targets of a unit (``IllegalOrder`` for a unit that
    is not on the table)."""
    b = st.board
    u = b.units.get(unit_id)
    if u is None or u.gone:
        raise IllegalOrder(rule("turn.sequence"), f"there is no unit {unit_id!r} on the table")
    t = b.tables.types[u.type]
    in_melee = b.in_melee(u.id)
    if in_melee or u.hidden:
        radius = 0.0
    elif u.status == "routed":
        radius = t.rout_move
    else:
        radius = t.normal_move
    d = st.decision()
    declaring = d is not None and d.kind == "declare" and d.unit == u.id
    charges: list[dict[str, Any]] = []
    why_not: dict[str, dict[str, str]] = {}
    for e in seen_enemies(b, u):
        try:
            check_charge(b, u, e)
        except IllegalOrder as exc:
            why_not[e.id] = {"rule": exc.rule, "reason": exc.reason}
            continue
        _, arc, path = charge_line(b, u, e)
        order = Order("charge", u.id, e.id)
        charges.append(
            {
                "target": e.id,
                "distance": round(path, 2),
                "wheel": round(arc, 2),
                "facing": contact_facing(e, u),
                "order": order.to_dict() if declaring else None,
                "text": str(order) if declaring else None,
            }
        )
    rng = missile_range(b, u)
    shooting: dict[str, Any] | None = None
    if rng:
        targets: list[str] = []
        problems: dict[str, dict[str, str]] = {}
        fp = u.footprint()
        for e in seen_enemies(b, u):
            why = missile_why_not(b, fp, e, rng)
            if why is not None:
                problems[e.id] = {"rule": rule("missile.window"), "reason": why}
            else:
                targets.append(e.id)
        shooting = {
            "range": rng,
            "now": d is not None and d.kind == "fire" and d.unit == u.id,
            "targets": targets,
            "orders": {x: Order("fire", u.id, x).to_dict() for x in targets},
            "why_not": problems,
            "rule": rule("missile.window"),
        }
    out: dict[str, Any] = {
        "unit": u.id,
        "side": u.side,
        "status": u.status,
        "in_melee": in_melee,
        "move": {"radius": radius, "normal": t.normal_move, "rule": rule("move.unit-order")},
        "charges": charges,
        "charges_now": declaring,
        "charge_why_not": why_not,
        "shooting": shooting,
    }
    out["highlight"] = {
        "active": u.id,
        "move_band": {"unit": u.id, "radius": radius},
        "charge_targets": [c["target"] for c in charges],
        "shoot_targets": list(shooting["targets"]) if shooting else [],
    }
    ask = b.queue[0] if b.queue and b.result is None else None
    if ask is not None and ask.kind == "deploy" and ask.unit == u.id:
        # hand deployment (ruling R51): the zone it is placed in, drawn on the table
        x0, y0, x1, y1 = b.deploy_zones[u.side]
        out["deploy"] = {"zone": [x0, y0, x1, y1], "rule": rule("deployment.zone")}
        out["highlight"] = {
            "active": u.id,
            "zone": {
                "points": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
                "label": f"{u.side}'s deployment zone",
            },
        }
    return out
