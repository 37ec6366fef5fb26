"""Resolving fire and melee: the situation on the CRT (``combat.Attack``), the roll, the result,
contact bonds afterwards."""

from __future__ import annotations

from fractions import Fraction

from shieldwall.core.dice import D6
from shieldwall.core.hexgrid import Hex, ccrr
from shieldwall.rulesets.spi_dark_ages.board import Board, Unit
from shieldwall.rulesets.spi_dark_ages.combat import (
    Attack,
    crossing,
    fps,
    result_code,
    unit_attack,
    unit_defence,
)
from shieldwall.rulesets.spi_dark_ages.morale import apply_result

ZERO = Fraction(0)


def melee_situation(b: Board, attackers: list[Unit], target: Hex) -> Attack:
    """The melee of ``attackers`` on hex ``target`` as an :class:`Attack`."""
    defenders = [d for d in b.units_at(target)]
    notes: list[str] = []
    att = ZERO
    for a in attackers:
        got = unit_attack(b, a, target, "melee")
        if got is not None:
            att += got[0]
            notes += got[1]
    dfn = ZERO
    for d in defenders:
        s, n = unit_defence(b, d, attackers)
        dfn += s
        notes += n
    side = attackers[0].side
    enemy = b.enemy(side)
    mod = 0
    # spi-dark-ages:command.C.mods: attackers with a command unit subtract, defenders with one add
    # (the largest bonus each side, ruling A13; none from a demoralized command unit)
    ab = max((b.command_bonus_near(a.hex, side) for a in attackers if a.hex is not None), default=0)
    db = b.command_bonus_near(target, enemy)
    if ab:
        notes.append(f"attacker's command unit: -{ab} ({'spi-dark-ages:command.C.mods'})")
    if db:
        notes.append(f"defender's command unit: +{db} ({'spi-dark-ages:command.C.mods'})")
    mod += db - ab
    cr = b.charts.tec.cross_river
    if cr is not None and cr.shift and any(crossing(b, a, target) is not None for a in attackers):
        mod += cr.shift  # spi-dark-ages:tec.cross-river: the TEC's shift (A28)
        notes.append(f"attack across a stream or river: {cr.shift:+d} (spi-dark-ages:tec.cross-river)")
    for who, sign in ((side, -1), (enemy, +1)):
        army = b.armies[who]
        if army.ferocity:
            mod += sign  # spi-dark-ages:ferocity
            notes.append(f"{army.name} ferocious: {sign:+d} (spi-dark-ages:ferocity)")
        if army.vitality:
            mod += sign  # spi-dark-ages:vitality
            notes.append(f"{army.name} vitality: {sign:+d} (spi-dark-ages:vitality)")
    return Attack("melee", att, dfn, mod, tuple(notes))


def fire_situation(b: Board, firers: list[Unit], target: Hex) -> Attack:
    """Fire at hex ``target``: the adjusted missile strengths against the hex's Fire Protection
    Strength, whatever the state of the units in it (``demoralization.fire-immune``); no command,
    ferocity or vitality modifier (``command.C.melee-only``)."""
    notes: list[str] = []
    att = ZERO
    for f in firers:
        got = unit_attack(b, f, target, "fire")
        if got is not None:
            att += got[0]
            notes += got[1]
    p = fps(b, target)
    notes.append(f"FPS of {ccrr(target)}: {p} (spi-dark-ages:tec.fps-cap)")
    return Attack("fire", att, Fraction(p), 0, tuple(notes))


def roll(b: Board, a: Attack) -> tuple[str, int, str, int]:
    face = D6.roll(b.rng)
    code, col, row = result_code(b.charts, a, face)
    return code, face, col, row


def resolve_fire(
    b: Board, firers: list[Unit], target: Hex, clause: str, victims: list[Unit] | None = None
) -> None:
    a = fire_situation(b, firers, target)
    code, face, col, row = roll(b, a)
    for f in firers:
        f.fired = True
    defenders = victims if victims is not None else b.units_at(target)
    b.log(
        "fire",
        clause,
        firers[0].side,
        units=[f.id for f in firers],
        target=ccrr(target),
        defenders=[d.id for d in defenders],
        attack=str(a.attack),
        defence=str(a.defence),
        column=col,
        faces=[face],
        modifiers=0,
        row=row,
        result=code,
    )
    hit = apply_result(b, code, [], defenders, fire=True)
    if hit:
        b.log("fire-result", "crt.result", firers[0].side, result=code, target=ccrr(target))


def resolve_melee(b: Board, attackers: list[Unit], target: Hex) -> None:
    defenders = b.units_at(target)
    if not defenders or not attackers:
        return
    a = melee_situation(b, attackers, target)
    code, face, col, row = roll(b, a)
    for u in attackers:
        u.meleed = True
    b.log(
        "melee",
        "crt.result",
        attackers[0].side,
        units=[u.id for u in attackers],
        target=ccrr(target),
        defenders=[d.id for d in defenders],
        attack=str(a.attack),
        defence=str(a.defence),
        column=col,
        faces=[face],
        modifiers=a.modifier,
        row=row,
        result=code,
        notes=list(a.notes),
    )
    hit = apply_result(b, code, attackers, defenders, fire=False)
    if hit:
        return
    # spi-dark-ages:combat.K.contact: no unit eliminated or demoralized: the units remain in contact,
    # but cavalry is never held by solely non-cavalry units (spi-dark-ages:cavalry.contact, ruling A7)
    pairs = []
    for x in attackers:
        for d in defenders:
            if not (x.on_map and d.on_map) or b.is_fleet(d):
                continue
            if b.is_cavalry(x) != b.is_cavalry(d):
                continue
            b.bond(x.id, d.id)
            pairs.append([x.id, d.id])
    if pairs:
        b.log("contact", "combat.K.contact", attackers[0].side, pairs=pairs)
    else:
        b.log("no-contact", "cavalry.contact", attackers[0].side, target=ccrr(target))
