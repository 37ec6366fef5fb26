"""What one unit can reach right now, computed with the engine's own rules (for the web page).

``reach(state, unit_id)`` answers, for any unit on the table:

* ``move``: how far it may move — the distance rolled when it is the unit being moved, otherwise
  the most its movement dice can give ("Movement": Class 1 1d5+2, Class 2 2d5+2, Class 3 3d5+2);
* ``charges``: the enemies it may charge and on which facings ("Charging" 1-4), each found by
  ``menus.charge_orders`` and measured by ``actions.plan_charge``; with the unit not yet rolled,
  against the best roll (``now`` is false), so a player sees the threat range;
* ``shooting``: its range and, for each enemy, whether it may shoot it now or why not
  (``actions.shot_problem``: arc, line of sight to the facing, range, shots left...);
* ``arc``: the front arc (half-angle of the "arc" parameter) for charging and shooting;
* ``highlight``: all of this in the form ``render.svg.render_svg(view, highlight=...)`` takes.

Nothing here changes the state: hypothetical rolls are tried on a ``copy()``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.one_hour import actions as A
from shieldwall.rulesets.one_hour import menus
from shieldwall.rulesets.one_hour import orders as O
from shieldwall.rulesets.one_hour.clauses import rule
from shieldwall.rulesets.one_hour.model import Unit, other

if TYPE_CHECKING:
    from shieldwall.rulesets.one_hour.state import OneHourState


def max_move(st: OneHourState, u: Unit) -> float:
    """The longest move the unit's movement dice can give: n dice at their highest face, + 2."""
    return float(u.profile.move_class * max(st.die.faces) + 2)


def missile_range(st: OneHourState, u: Unit) -> float | None:
    if u.profile.missile == "bow":
        return float(st.params["bow_range"])
    if u.profile.missile == "javelin":
        return float(st.params["javelin_range"])
    return None


def _problem(text: str) -> dict[str, str]:
    clause, _, reason = text.partition(": ")
    return {"rule": rule(clause), "reason": reason}


def _charges(st: OneHourState, u: Unit, now: bool) -> tuple[list[dict[str, Any]], dict[str, dict[str, str]]]:
    """Legal charges of ``u`` with the state's roll (``now``) or the best roll, and why each other
    enemy in reach of the best roll may not be charged."""
    probe = st
    if not now:
        probe = st.copy()
        probe.rolled = max_move(st, u)
    pu = probe.units[u.id]
    found: dict[str, list[dict[str, Any]]] = {}
    for order in menus.charge_orders(probe, pu):
        t = probe.units[order.target]
        need, _, _ = A.plan_charge(probe, pu, t, order.facing, order.turn)
        found.setdefault(order.target, []).append(
            {
                "facing": order.facing,
                "turn": None if order.turn is None else order.turn.angle,
                "distance": round(need, 2),
                "order": order.to_dict() if now else None,
                "text": str(order) if now else None,
            }
        )
    charges = [{"target": tid, "facings": facings} for tid, facings in found.items()]
    why_not: dict[str, dict[str, str]] = {}
    for t in probe.live(other(u.side)):
        if t.id in found:
            continue
        try:
            A.plan_charge(probe, pu, t, "front", None)
        except IllegalOrder as exc:
            why_not[t.id] = {"rule": exc.rule, "reason": exc.reason}
        else:  # reachable on paper but refused by the menu's other checks
            why_not[t.id] = {"rule": rule("charging"), "reason": f"{u.id} may not charge {t.id} now"}
    return charges, why_not


def reach(st: OneHourState, unit_id: str) -> dict[str, Any]:
    """Movement band, charge targets and facings, shooting targets and the front arc of a unit.

    Raises ``IllegalOrder`` (clause ``orders``) for a unit that is not on the table.
    """
    u = st.unit(unit_id)
    active = st.active == u.id and st.step in ("move", "after-shot")
    moving_now = active and st.step == "move"
    arc = float(st.params["arc"])
    best = max_move(st, u)
    # a unit of the side playing that has already moved (or is past its move) goes nowhere this phase
    done = u.side == st.side and u.activated and not moving_now
    radius = st.rolled if moving_now else (0.0 if done else best)
    in_melee = st.in_melee(u)

    # --- charging ----------------------------------------------------------------------------
    if in_melee or (u.activated and not moving_now):
        charges: list[dict[str, Any]] = []
        why_not: dict[str, dict[str, str]] = {}
        reason = (
            f"{u.id} is in melee: it may only turn to face or fall back"
            if in_melee
            else f"{u.id} has already moved this phase"
        )
        for t in st.live(other(u.side)):
            why_not[t.id] = {"rule": rule("melee.locked" if in_melee else "movement"), "reason": reason}
    else:
        charges, why_not = _charges(st, u, now=moving_now)

    # --- shooting ----------------------------------------------------------------------------
    rng = missile_range(st, u)
    shooting: dict[str, Any] | None = None
    if rng is not None:
        moving_shot = active and u.profile.missile == "javelin"
        targets: list[str] = []
        problems: dict[str, dict[str, str]] = {}
        for t in st.live(other(u.side)):
            prob = A.shot_problem(st, u, t, moving=moving_shot)
            if prob is None:
                targets.append(t.id)
            else:
                problems[t.id] = _problem(prob)
        kind = O.MovingShot if moving_shot else O.Shoot
        shooting = {
            "weapon": u.profile.missile,
            "range": rng,
            "mode": "moving-shot" if moving_shot else "shooting",
            "now": moving_shot or (st.step == "shoot" and u.side == st.side),
            "targets": targets,
            "orders": {t: kind(u.id, t).to_dict() for t in targets},
            "why_not": problems,
            "rule": rule("moving-shots" if moving_shot else "shooting.range"),
        }

    per_type, extra = A.turns_allowed(st, u)
    out: dict[str, Any] = {
        "unit": u.id,
        "side": u.side,
        "active": active,
        "in_melee": in_melee,
        "move": {
            "radius": radius,
            "rolled": st.rolled if moving_now else None,
            "max": best,
            "dice": f"{u.profile.move_class}{st.die.name}+2",
            "now": moving_now,
            "done": done,
            "road_bonus": float(st.params["road_bonus"]),
            "turns": per_type + extra,
            "rule": rule("movement.dice"),
        },
        "charges": charges,
        "charges_now": moving_now,
        "charge_why_not": why_not,
        "shooting": shooting,
        "arc": {"half_angle": arc, "range": rng if rng is not None else radius, "rule": rule("charging.arc")},
    }
    if st.step == "deploy":  # hand deployment (ruling R50): where the unit may be placed
        x0, y0, x1, y1 = st.game.deploy_zones[u.side]
        out["deploy"] = {"zone": [x0, y0, x1, y1], "rule": rule("deployment.zone")}
        out["highlight"] = {
            "active": u.id,
            "zone": {
                "points": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
                "label": f"{u.side}'s deployment zone",
            },
        }
        return out
    out["highlight"] = {
        "active": u.id,
        "move_band": {"unit": u.id, "radius": radius},
        "charge_targets": [c["target"] for c in charges],
        "shoot_targets": list(shooting["targets"]) if shooting else [],
        "arc": {"unit": u.id, "half_angle": arc, "range": out["arc"]["range"]},
    }
    return out
