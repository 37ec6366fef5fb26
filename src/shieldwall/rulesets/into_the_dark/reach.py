"""What one into-the-dark unit can reach right now, computed with the engine's own rules (for the web).

``reach(state, unit_id)`` answers, for any unit on the table, in the same shape as the one-hour
``reach`` (so the page reads both):

* ``move``: the movement allowance ("Distances"; 4" in shieldwall, halved after interpenetration:
  ``act_move.base_allowance``), what is left of it (``act_move.remaining``) and, when it may not
  move, why (``act_move.can_move``) with the clause;
* ``charges``: the enemies it may charge and on which edge, each found by ``menus.charge_orders``
  (straight ahead, or after a forward wheel squaring up on an edge or aiming at it) and measured by
  ``act_charge.check_charge``; with the order (text and dict) when it is the unit acting now, and
  impetuous when allowed. A unit that is not acting shows its threat: what it could charge with a
  fresh move (its turn's flags cleared on a ``copy()``);
* ``charge_why_not``: for every other enemy, the clause and the reason (too far for the move left,
  another unit in the way, no room to line up, may not move...);
* ``shooting``: for missile troops, close and long range, whether it may shoot now
  (``act_combat.fire_problem``), the enemies it can hit (``act_combat.aim``: range from the front
  rank, foot straight ahead, mounted in any direction, line of sight) and why not the others;
* ``zoc``: the zone of control straight ahead (setup.zone-of-control), melee and missile;
* ``arc``: the forward half-plane a move may reach ("straight forward moves and/or forward wheels");
* ``command``: for a general's figure (Command & Control, command.command-actions): his command
  actions left, whether he leads a unit, the 12" within which he may order units of his division
  (measured from where he stands), which he may order now and why not the others, and the odds
  that new orders given him take effect at once (command.new-orders: d6 <= the two ratings);
* ``highlight``: all of this in the form ``render.svg.render_svg(view, highlight=...)`` takes.

Nothing here changes the state: hypothetical moves are tried on a ``copy()``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from shieldwall.core.errors import IllegalOrder

from . import act_command
from . import orders as O
from .act_charge import check_charge
from .act_combat import aim, exposed, fire_problem
from .act_move import base_allowance, can_move, remaining, zoc_length
from .clauses import cite
from .generals import key_of_figure
from .menus import charge_orders
from .model import Unit
from .profiles import command as command_rules
from .profiles import missile_weapons
from .spatial import gap, in_corridor

if TYPE_CHECKING:
    from .state import IntoTheDarkState


def _why(clause: str, reason: str) -> dict[str, str]:
    return {"rule": cite(clause), "reason": reason}


def _probe(st: IntoTheDarkState, u: Unit, fresh: bool) -> tuple[IntoTheDarkState, Unit]:
    """The state to measure in: the real one, or a copy where ``u`` starts a fresh move."""
    if not fresh:
        return st, u
    probe = st.copy()
    pu = probe.units[u.id]
    pu.acted = pu.charged = pu.fired = pu.rallying = False
    pu.used = pu.travelled = 0.0
    pu.halved = False
    return probe, pu


def _charges(
    st: IntoTheDarkState, u: Unit, enemies: list[Unit], opportunity: bool, now: bool
) -> tuple[list[dict[str, Any]], dict[str, dict[str, str]]]:
    """Charges of ``u`` on ``enemies`` (from the engine's menu) and why not on the others."""
    found: dict[str, list[dict[str, Any]]] = {}
    why_not: dict[str, dict[str, str]] = {}
    prob = can_move(st, u) if not opportunity else None
    if prob:
        for t in enemies:
            why_not[t.id] = _why("movement.movement", f"{u.id}: {prob}")
        return [], why_not
    if not u.has_melee and not u.has_missiles:
        for t in enemies:
            why_not[t.id] = _why("movement.charging", f"{u.id} cannot charge")
        return [], why_not
    for order in charge_orders(st, u, enemies, opportunity=opportunity):
        assert isinstance(order, O.Charge)
        t = st.units[order.target]
        try:
            plan = check_charge(st, u, t, order.steps, order.impetuous, opportunity)
        except IllegalOrder:  # the menu only offers charges that pass; keep to what is proven
            continue
        facings = found.setdefault(order.target, [])
        same = next((f for f in facings if f["facing"] == plan.edge), None)
        if same is None:
            same = {
                "facing": plan.edge,
                "distance": round(plan.cost, 2),
                "wheel": next((s.angle for s in order.steps if isinstance(s, O.Wheel)), None),
                "order": None,
                "text": None,
                "impetuous": None,
            }
            facings.append(same)
        if now:
            if order.impetuous:
                same["impetuous"] = {"order": order.to_dict(), "text": str(order)}
            else:
                same["order"] = order.to_dict()
                same["text"] = str(order)
    limit = base_allowance(st, u) if opportunity else remaining(st, u)
    for t in enemies:
        if t.id in found:
            continue
        g = gap(u.fp, t.fp)
        if g > limit + u.frontage + 0.5:
            why_not[t.id] = _why(
                "movement.charging",
                f'{t.id} is {g:.1f}" away; a charge is the same distance as a normal move '
                f'({limit:.2f}" {"left" if not opportunity else "allowed"})',
            )
            continue
        try:
            check_charge(st, u, t, (), False, opportunity)
        except IllegalOrder as exc:
            why_not[t.id] = {"rule": exc.rule, "reason": exc.reason}
        else:  # reachable straight ahead on paper, yet not offered: say so rather than guess
            why_not[t.id] = _why("movement.charging", f"{u.id} may not charge {t.id} now")
    ranked = sorted(found.items(), key=lambda kv: min(float(x["distance"]) for x in kv[1]))
    charges: list[dict[str, Any]] = [
        {"target": tid, "facings": sorted(f, key=lambda x: float(x["distance"]))} for tid, f in ranked
    ]
    return charges, why_not


def _shooting(st: IntoTheDarkState, u: Unit, now: bool, enemies: list[Unit]) -> dict[str, Any] | None:
    w = u.majority.missile_weapon
    if w is None or not u.has_missiles:
        return None
    mw = missile_weapons()[w]
    close_r = st.d(mw.close)
    long_r = st.d(mw.long) if mw.long is not None else close_r
    prob = fire_problem(st, u)
    edges = ("front", "left", "right", "rear") if u.mounted else ("front",)
    targets: list[str] = []
    why_not: dict[str, dict[str, str]] = {}
    for t in enemies:
        if prob:
            why_not[t.id] = _why("combat.missile-fire", f"{u.id}: {prob}")
            continue
        if exposed(st, t) == 0:
            why_not[t.id] = _why(
                "combat.target-eligibilities",
                f"every figure of {t.id} is involved in melee "
                "(only a third rank or an extended line may be shot at)",
            )
            continue
        if aim(st, u, t) is not None:
            targets.append(t.id)
            continue
        if not any(in_corridor(u.fp, e, t.fp, long_r) for e in edges):
            where = "straight ahead of its front" if not u.mounted else "in any direction"
            why_not[t.id] = _why(
                "combat.target-eligibilities",
                f'{t.id} is not within {long_r:.0f}" {where} (foot shoot '
                "only straight ahead; range is measured from the front rank)"
                if not u.mounted
                else f'{t.id} is beyond {long_r:.0f}" {where}',
            )
        else:
            why_not[t.id] = _why(
                "combat.target-eligibilities",
                f"no figure of {u.id} can see {t.id} (line of sight blocked by terrain or units)",
            )
    p = st.pending
    ordered = {uid for uid, _ in st.fire_orders}
    firing_now = bool(p and p["kind"] == "fire" and p["side"] == u.side and now and u.id not in ordered)
    return {
        "weapon": w,
        "weapon_name": mw.name,
        "range": long_r,
        "close": close_r,
        "long": long_r if mw.long is not None else None,
        "mode": "any direction" if u.mounted else "straight ahead",
        "now": firing_now,
        "problem": prob,
        "targets": targets,
        "orders": {t: O.Shoot(u.id, t).to_dict() for t in targets} if firing_now else {},
        "why_not": why_not,
        "rule": cite("combat.missile-ranges"),
    }


def _command(st: IntoTheDarkState, u: Unit) -> dict[str, Any] | None:
    """What a general's figure may command from where he stands (command.command-actions)."""
    key = key_of_figure(st, u) if u.general else None
    if key is None:
        return None
    g = st.generals[key]
    radius = st.d(command_rules().general.order_radius)
    can, why_not = [], {}
    for x in st.live(u.side):
        if x.general or x.spec.division != g["division"]:
            continue
        prob = act_command.command_problem(st, u.side, key, x.id)
        if prob is None:
            can.append(x.id)
        else:
            why_not[x.id] = _why("command.command-actions", prob)
    boss = next((b for b in st.generals.values() if b["side"] == u.side and b["commanding"]), None)
    immediate = None
    if boss is not None and not g["commanding"]:
        immediate = float(Fraction(min(6, int(boss["rating"]) + int(g["rating"])), 6))
    return {
        "general": key,
        "rating": g["rating"],
        "actions": g["actions"],
        "leading": bool(g["leading"]),
        "radius": round(radius, 2),
        "may_order": can,
        "why_not": why_not,
        "new_orders_at_once": immediate,
        "rule": cite("command.command-actions"),
    }


def reach(st: IntoTheDarkState, unit_id: str) -> dict[str, Any]:
    """Movement allowance, charge targets and edges, missile targets and zone of control of a unit.

    Raises ``IllegalOrder`` for a unit that is not on the table.
    """
    u = st.unit(unit_id)
    p = st.pending
    kind = p["kind"] if p else None
    acting = bool(p and p.get("unit") == u.id and kind == "unit")
    opportunity = bool(p and p.get("unit") == u.id and kind == "opportunity")
    firing = bool(p and kind == "fire" and p["side"] == u.side)
    # a unit of the side moving that has acted is done for this phase
    done = bool(st.phase == "movement" and p and p["side"] == u.side and u.acted and not acting)
    fresh = not (acting or opportunity or firing or done)
    probe, pu = _probe(st, u, fresh)
    enemies = [e for e in probe.live() if e.side != u.side]
    if opportunity:
        assert p is not None
        mover = probe.units[p["data"]["mover"]]
        charges, why_not = _charges(probe, pu, [mover], True, True)
        for t in enemies:
            if t.id != mover.id:
                why_not[t.id] = _why(
                    "movement.opportunity-charges", f"an opportunity charge may only be at {mover.id}"
                )
    elif done:
        charges, why_not = [], {t.id: _why("movement.movement", f"{u.id} has already acted") for t in enemies}
    else:
        charges, why_not = _charges(probe, pu, enemies, False, acting)
    moving = can_move(probe, pu)
    left = 0.0 if (done or moving) else remaining(probe, pu)
    allowance = base_allowance(probe, pu)
    shooting = _shooting(st, u, firing, [e for e in st.live() if e.side != u.side])
    zoc: dict[str, float] = {}
    if u.has_melee:
        zoc["melee"] = round(zoc_length(st, u, "melee"), 2)
    if u.has_missiles:
        zoc["missile"] = round(zoc_length(st, u, "missile"), 2)
    out: dict[str, Any] = {
        "ruleset": "into-the-dark",
        "unit": u.id,
        "side": u.side,
        "active": acting or opportunity,
        "in_melee": st.in_melee(u),
        "move": {
            "radius": round(left, 2),
            "rolled": None,
            "max": round(allowance, 2),
            "left": round(left, 2),
            "used": round(u.used, 2) if not fresh else 0.0,
            "dice": None,
            "now": acting,
            "done": done,
            "why_not": None if not moving else _why("movement.movement", f"{u.id}: {moving}"),
            "turns": None,
            "rule": cite("movement.distances"),
        },
        "charges": charges,
        "charges_now": acting or opportunity,
        "charge_why_not": why_not,
        "shooting": shooting,
        "zoc": zoc,
        "arc": {"half_angle": 90.0, "range": round(left, 2), "rule": cite("movement.movement")},
    }
    out["command"] = _command(st, u)
    band = left
    out["highlight"] = {
        "active": u.id,
        "move_band": {"unit": u.id, "radius": band},
        "charge_targets": [c["target"] for c in charges],
        "shoot_targets": list(shooting["targets"]) if shooting else [],
        "arc": {"unit": u.id, "half_angle": 90.0, "range": band},
    }
    return out
