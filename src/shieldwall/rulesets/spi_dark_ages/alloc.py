"""Attack allocation and defensive fire: who may attack what (rules; no decisions here)."""

from __future__ import annotations

from shieldwall.core.hexgrid import Hex
from shieldwall.rulesets.spi_dark_ages.board import Board, Unit
from shieldwall.rulesets.spi_dark_ages.combat import terrain_effect
from shieldwall.rulesets.spi_dark_ages.fire import can_fire_at
from shieldwall.rulesets.spi_dark_ages.hexmap import neighbours, spiral_of
from shieldwall.rulesets.spi_dark_ages.movement import Refused


def _attacker(b: Board, u: Unit, what: str) -> None:
    if b.phase != "allocation" or u.side != b.phasing:
        # spi-dark-ages:movement.J: no combat in a Movement Phase (attacks are allocated in the
        # Attack Allocation Phase only)
        raise Refused("movement.J", f"{what} is allocated only in the friendly Attack Allocation Phase")
    if not u.on_map or u.aboard is not None:
        raise Refused("sequence", f"{u.id} is not on the map")
    if b.is_demoralized(u):
        clause = "panic.effects" if u.panicked else "demoralization.no-attack"
        raise Refused(clause, f"{u.id} is demoralized and may not initiate an attack")


def _command(b: Board, u: Unit, target: Hex) -> None:
    """``command.B``: stacked with or adjacent to a non-demoralized friendly command unit, unless in
    contact (then it may attack adjacent enemies)."""
    assert u.hex is not None
    if b.is_command(u):
        if not any(o.side == u.side and not b.is_command(o) and o.id != u.id for o in b.around(u.hex)):
            raise Refused("command.B", "a command unit attacks only with friendly combat units by it")
        return
    if b.in_contact(u) and u.hex.distance(target) == 1:
        return
    if not b.has_command_near(u, fresh=True):
        raise Refused("command.B", f"{u.id} is not stacked with or adjacent to a fresh friendly command unit")


def check_melee(b: Board, u: Unit, target: Hex) -> None:
    _attacker(b, u, "melee")
    assert u.hex is not None
    t = b.type_of(u)
    if t.mas == 0:
        raise Refused("combat.zero-mas", f"{u.id} has a Melee Attack Strength of 0")
    if u.id in b.melee_alloc or u.meleed:
        raise Refused("combat.L", f"{u.id} already takes part in a melee attack this Player-Turn")
    if (u.id in b.fire_alloc or u.fired) and t.cls != "I":
        raise Refused(
            "combat.L", f"only Class I units may both fire and melee in a Player-Turn ({u.id} fires)"
        )
    if u.hex.distance(target) != 1:
        raise Refused("tec.melee-prohibited", f"{target} is not adjacent to {u.id}")
    if b.occupant_side(target) not in (b.enemy(u.side),):
        raise Refused("sequence", f"no enemy unit in {target}")
    if terrain_effect(b, u.hex, t.cls, "attack", None) is None:
        raise Refused("tec.attack-P", f"{u.id} may not attack from its terrain (P)")
    _command(b, u, target)


def check_fire(b: Board, u: Unit, target: Hex) -> None:
    _attacker(b, u, "fire")
    assert u.hex is not None
    t = b.type_of(u)
    if t.missile == 0:
        raise Refused("combat.L", f"{u.id} has no missile strength")
    if u.id in b.fire_alloc or u.fired:
        raise Refused("combat.L", f"{u.id} already takes part in a missile attack this Player-Turn")
    if (u.id in b.melee_alloc or u.meleed) and t.cls != "I":
        raise Refused(
            "combat.L", f"only Class I units may both melee and fire in a Player-Turn ({u.id} melees)"
        )
    if b.occupant_side(target) != b.enemy(u.side):
        raise Refused("sequence", f"no enemy unit in {target}")
    if terrain_effect(b, u.hex, t.cls, "attack", None) is None:
        raise Refused("tec.attack-P", f"{u.id} may not fire from its terrain (P)")
    ok, clause, why = can_fire_at(b, u, target)
    if not ok:
        raise Refused(clause, why)
    _command(b, u, target)


def _may_attack(b: Board, u: Unit) -> bool:
    try:
        _attacker(b, u, "an attack")
    except Refused:
        return False
    return True


def melee_targets(b: Board, u: Unit) -> list[Hex]:
    assert u.hex is not None
    if b.type_of(u).mas == 0 or u.meleed or u.id in b.melee_alloc or not _may_attack(b, u):
        return []
    out = []
    for n in neighbours(u.hex):
        if b.occupant_side(n) == b.enemy(u.side):
            try:
                check_melee(b, u, n)
            except Refused:
                continue
            out.append(n)
    return out


def fire_targets(b: Board, u: Unit) -> list[Hex]:
    assert u.hex is not None
    t = b.type_of(u)
    if t.missile == 0 or u.fired or u.id in b.fire_alloc or not _may_attack(b, u):
        return []
    out = []
    for h in spiral_of(u.hex, t.range + 1):
        if h != u.hex and b.occupant_side(h) == b.enemy(u.side):
            try:
                check_fire(b, u, h)
            except Refused:
                continue
            out.append(h)
    return out


def attackers_of(b: Board, h: Hex) -> list[Unit]:
    """Units allocated (melee or fire) against hex ``h`` (ruling A9: an attack on the missile unit's
    hex is an attack on the missile unit)."""
    ids = [i for i, t in b.melee_alloc.items() if t == h] + [i for i, t in b.fire_alloc.items() if t == h]
    return [b.units[i] for i in dict.fromkeys(ids) if b.units[i].on_map]


def check_dfire(b: Board, m: Unit, target: Unit) -> None:
    """``combat.defensive-fire``: only at enemy units allocated to attack the missile unit itself;
    not when demoralized or panicked (``demoralization.no-attack``, ``panic.effects``); it is the
    unit's one missile attack of the Player-Turn (``combat.L``, ruling A10)."""
    if b.phase != "defensive-fire" or m.side == b.phasing:
        raise Refused("combat.defensive-fire", "defensive fire is made in the enemy's Defensive Fire Phase")
    if b.is_demoralized(m):
        raise Refused("demoralization.no-attack", f"{m.id} is demoralized: no defensive fire")
    if m.fired:
        raise Refused("combat.L", f"{m.id} has made its missile attack this Player-Turn")
    assert m.hex is not None and target.hex is not None
    if target not in attackers_of(b, m.hex):
        raise Refused("combat.defensive-fire", f"{target.id} is not allocated to attack {m.id}")
    ok, clause, why = can_fire_at(b, m, target.hex)
    if not ok:
        raise Refused(clause, why)


def dfire_targets(b: Board, m: Unit) -> list[Unit]:
    assert m.hex is not None
    out = []
    for a in attackers_of(b, m.hex):
        try:
            check_dfire(b, m, a)
        except Refused:
            continue
        out.append(a)
    return out
