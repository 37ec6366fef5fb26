"""The charge phase's rules as pure functions (Clarification 1 and errata page 12).

Who may charge whom (``knight-hack:charge.open``, ``knight-hack:charge.infantry-vs-mounted``), how
far a charge may be declared (``knight-hack:charge.declare-range``, ruling R21) and how far it goes
(``knight-hack:charge.distance``, ``knight-hack:charge.full-distance``), its one wheel
(``knight-hack:charge.wheel``), what it contacts after an evade
(``knight-hack:charge.retarget-after-evade``, R24), and which units test morale
(``knight-hack:morale.charger-casualties``, R8; ``knight-hack:morale.receive-charge``, R7). The
refusals raise :class:`IllegalOrder` naming the clause, so the turn engine's orders and the tests
share them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.knight_hack.clauses import rule
from shieldwall.rulesets.knight_hack.tables import Tables

#: measurements within this many inches count as equal (a tape, not a micrometer)
TOL = 1e-9


@dataclass(frozen=True, slots=True)
class Charger:
    """What the charge restrictions look at, for the charger and its object."""

    type: str
    cls: str
    fanatic: bool = False
    ambush: bool = False
    javelin: bool = False


@dataclass(frozen=True, slots=True)
class Contact:
    """Where the charge would strike its object, and the object's state."""

    facing: str = "front"  # "front", "flank" or "rear" of the object
    object_in_melee: bool = False


def check_may_charge(tables: Tables, charger: Charger, obj: Charger, contact: Contact) -> None:
    """``IllegalOrder`` when the text forbids this charge.

    "Open never charge as melee is not their function except for javelin armed in ambush and
    eastern open mounted." "Infantry cannot charge mounted except skirmishers or mounted already in
    melee or flank or rear or if it is fanatic unit or in ambush."
    """
    ct, ot = tables.types[charger.type], tables.types[obj.type]
    if ct.formation == "open":
        javelin_ambush = charger.javelin and charger.ambush
        eastern_mounted = ct.eastern and ct.arm == "mounted"
        if not (javelin_ambush or eastern_mounted):
            raise IllegalOrder(
                rule("charge.open"),
                f"open order troops ({ct.name}) never charge, except javelin-armed in ambush and eastern "
                "open mounted",
            )
    if ct.arm == "foot" and ot.arm == "mounted":
        exceptions = (
            ct.skirmisher,
            contact.object_in_melee,
            contact.facing in ("flank", "rear"),
            charger.fanatic,
            charger.ambush,
        )
        if not any(exceptions):
            raise IllegalOrder(
                rule("charge.infantry-vs-mounted"),
                f"infantry ({ct.name}) cannot charge the front of mounted ({ot.name}) unless skirmishers, "
                "fanatic, in ambush, or the mounted are already in melee",
            )


def wheel_arc(frontage: float, wheel_deg: float) -> float:
    """How far the outer front corner travels when a unit ``frontage`` wide wheels ``wheel_deg``."""
    return frontage * math.radians(abs(wheel_deg))


def check_declare_range(path: float, normal_move: float) -> None:
    """ "The object of a charge must be within normal move when the charge is declared" (the D6 does
    not count; ``path`` is the wheel arc plus the straight distance to the object, R21)."""
    if path > normal_move + TOL:
        raise IllegalOrder(
            rule("charge.declare-range"),
            f"the object is {path:g} in. away along the charge path, beyond the normal move "
            f"of {normal_move:g} in.",
        )


def charge_distance(normal_move: float, d6: int) -> float:
    """ "Charge moves are normal movement plus a charge D6 die roll" (inches)."""
    if not 1 <= d6 <= 6:
        raise ValueError(f"a D6 shows 1..6, got {d6}")
    return normal_move + d6


def check_wheel(
    arc: float, distance: float, *, frontage_change: float = 0.0, facing_change: bool = False
) -> None:
    """ "A charging unit may wheel for only 1/4 of its charge move distance; without expansion or
    evolution … Charges are straight ahead without expansion or evolution." ``arc`` is the wheel's
    length at the outer front corner (:func:`wheel_arc`)."""
    if frontage_change or facing_change:
        raise IllegalOrder(
            rule("charge.wheel"), "a charge is straight ahead: no change of frontage, facing or formation"
        )
    if arc > distance / 4 + TOL:
        raise IllegalOrder(
            rule("charge.wheel"),
            f"a wheel of {arc:g} in. is more than 1/4 of the charge move ({distance / 4:g} in.)",
        )


@dataclass(frozen=True, slots=True)
class ChargeMove:
    """Where a charge ends: the distance moved and the unit contacted (None: no contact)."""

    moved: float
    contacted: str | None


def resolve_charge(
    distance: float, wheel: float, path_enemies: Iterable[tuple[str, float, bool]]
) -> ChargeMove:
    """The charge move: it goes straight on for its full distance unless it contacts an enemy.

    ``path_enemies`` are ``(unit id, distance along the path to contact, evaded)``; an object that
    evaded is passed by and the first other enemy met within reach is contacted ("If the object
    evades and another unit can be contacted, the charge continues and makes contact providing it is
    within reach", R24). With no contact the unit uses its maximum charge distance ("not end its move
    until it has used its maximum charge distance or has contacted the enemy")."""
    reach = distance - wheel
    met = sorted((d, uid) for uid, d, evaded in path_enemies if not evaded and d <= reach + TOL)
    if met:
        d, uid = met[0]
        return ChargeMove(wheel + d, uid)
    return ChargeMove(distance, None)


def charger_must_test(missile_casualties: int) -> bool:
    """ "If a unit charging receives 2 casualties it will test" (at least 2 this phase, R8)."""
    return missile_casualties >= 2


def receiver_must_test(
    tables: Tables, receiver_cls: str, fanatic: bool, charger_classes: Iterable[str]
) -> bool:
    """ "Units that are of a lower morale class than their opponents have to test unless they are
    fanatics" (the Unit Class; lower than any of its chargers, R7)."""
    if fanatic:
        return False
    mine = tables.class_rank(receiver_cls)
    return any(mine > tables.class_rank(c) for c in charger_classes)
