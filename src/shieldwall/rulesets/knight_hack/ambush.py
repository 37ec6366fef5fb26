"""Ambushes (Clarification 1, ``knight-hack:ambush.execute``): "evolutions/normal moves/evolutions/
ambushes … Now ambushes may be executed if the enemy are within reach."

The errata gives no other ambush rule; the engine's (rulings R26, R49, ``docs/rulings/knight-hack.md``):

* a unit is hidden in ambush from deployment when its army file or its scenario placement says
  ``ambush = true``; the other side does not see it (the view marks it ``hidden_from``), cannot
  charge or shoot it, and measures its moves as though it were not there;
* in its side's movement, after all that side's normal moves, a hidden unit with an enemy within
  reach (an enemy it could declare a charge on now: within its normal move along the charge path,
  R21) may spring the ambush: it charges at once, normal move + D6, "in ambush" for the charge
  restrictions (``knight-hack:charge.open``: javelin-armed open; ``knight-hack:charge.infantry-vs-
  mounted``); the object may not evade or respond (it did not see it coming), but takes the
  receive-charge test (``knight-hack:morale.receive-charge``); the melee is fought in this turn's
  melee phase with the charge bonus; or it keeps hidden (an event the other side cannot read);
* an enemy move that would run into a hidden ambusher stops short of it (``contact.only-by-charge``)
  and the ambusher is found; a charge that meets one contacts it (R24) and finds it.
"""

from __future__ import annotations

from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.knight_hack.board import Board, Unit
from shieldwall.rulesets.knight_hack.charge import receiver_must_test
from shieldwall.rulesets.knight_hack.charging import charge_move
from shieldwall.rulesets.knight_hack.clauses import rule
from shieldwall.rulesets.knight_hack.geom import check_charge, seen_enemies
from shieldwall.rulesets.knight_hack.orders import Order
from shieldwall.rulesets.knight_hack.outcomes import apply_fail, take_test


def in_reach(b: Board, u: Unit) -> list[Unit]:
    """The enemies a hidden ``u`` could spring on now (each a legal charge "in ambush")."""
    out = []
    for t in seen_enemies(b, u):
        if t.status == "routed":
            continue
        try:
            check_charge(b, u, t)
        except IllegalOrder:
            continue
        out.append(t)
    return out


def ambush_menu(b: Board, u: Unit) -> list[Order]:
    """Keep hidden or spring on an enemy in reach; nothing to ask with no enemy in reach."""
    if not u.hidden or u.status not in ("good", "disordered") or b.in_melee(u.id):
        return []
    targets = in_reach(b, u)
    return [Order("hide", u.id)] + [Order("ambush", u.id, t.id) for t in targets] if targets else []


def handle_ambush(b: Board, u: Unit, o: Order) -> None:
    if o.kind == "hide":
        if not u.hidden:
            raise IllegalOrder(rule("ambush.execute"), f"{u.id} is not hidden in ambush")
        # the other side reads a bare "hidden" event (shieldwall.visibility)
        b.log("ambush-waits", "ambush.execute", u.side, unit=u.id, hidden_from=[b.other(u.side)])
        return
    t = b.units.get(str(o.target))
    if not u.hidden:
        raise IllegalOrder(rule("ambush.execute"), f"{u.id} is not hidden in ambush")
    if t is None or t not in in_reach(b, u):
        raise IllegalOrder(
            rule("ambush.execute"), f"{o.target} is not an enemy within {u.id}'s reach for an ambush"
        )
    b.charge_heading[u.id] = check_charge(b, u, t)  # "in ambush" while still hidden
    u.hidden = False
    b.log(
        "ambush",
        "ambush.execute",
        u.side,
        unit=u.id,
        target_unit=t.id,
        x=round(u.x, 3),
        y=round(u.y, 3),
        heading=round(u.heading, 1),
    )
    if receiver_must_test(b.tables, t.cls, t.fanatic, [u.cls]) and not take_test(
        b, t, "receive-charge", "morale.receive-charge"
    ):
        apply_fail(b, t, "receive-charge", "morale.receive-charge")
    charge_move(b, u, t)


def reveal_run_into(b: Board, mover: Unit, met: list[Unit]) -> None:
    """``mover``'s move stopped short of hidden ambushers: they are found."""
    for o in met:
        o.hidden = False
        b.log(
            "ambush-found", "ambush.execute", o.side, unit=o.id, by=mover.id, x=o.x, y=o.y, heading=o.heading
        )
