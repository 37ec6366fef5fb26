"""Combat strengths, odds and the Combat Results Table: the "distribution of outcomes given a
situation" (:class:`Attack`, :func:`outcomes`) that play samples and ``shieldwall odds`` enumerates.

Strengths are adjusted unit by unit, every multiplication before the fractions are dropped
(``combat.adjust``, ruling A4): an attack strength loses its fraction; a defence strength of 1 or
more loses its fraction, one below 1 stays exact (1 -> 1/2 -> 1/4), so 4 against 1/2 is 8:1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from shieldwall.core.hexgrid import SLOPE, Hex, facing_zone
from shieldwall.core.reference import REFERENCE
from shieldwall.rulesets.spi_dark_ages.board import Board, Unit
from shieldwall.rulesets.spi_dark_ages.schemas import CrtTable, effect_value
from shieldwall.rulesets.spi_dark_ages.tables import FPS_CAP, Charts

ONE = Fraction(1)
HALF = Fraction(1, 2)


@dataclass(frozen=True)
class Attack:
    """One attack on the CRT: ``table`` (melee or fire), the adjusted totals, the net die modifier
    (added to the d6; negative favours the attacker) and what applied, in words with clauses."""

    table: str
    attack: Fraction
    defence: Fraction
    modifier: int
    notes: tuple[str, ...] = ()

    @property
    def odds(self) -> Fraction | None:
        return None if self.defence == 0 else self.attack / self.defence


def attack_adjust(x: Fraction) -> Fraction:
    """``combat.adjust``: an attack strength loses any fraction."""
    return Fraction(math.floor(x))


def defence_adjust(x: Fraction) -> Fraction:
    """``combat.adjust`` / ``demoralization.melee-def``: a defence of 1 or more loses its fraction;
    below 1 it stays exact (it may fall below 1)."""
    return Fraction(math.floor(x)) if x >= 1 else x


def column_for(ea: int, eb: int) -> str | None:
    """The TEC column of a unit at elevation ``ea`` fighting one at ``eb`` (``tec.up-down``): the
    lower unit Uphill, the higher Downhill; slope against slope both Uphill (``tec.slope-slope``)."""
    if ea == eb == SLOPE:
        return "uphill"
    if ea < eb:
        return "uphill"
    if ea > eb:
        return "downhill"
    return None


def terrain_effect(
    b: Board, h: Hex, cls: str, section: str, column: str | None, water: bool = False
) -> Fraction | None:
    """The TEC multiplier of the ``attack`` or ``defense`` section for class ``cls`` in hex ``h``
    (``None``: prohibited, "P"). Several terrain types: the most restrictive for attack, the most
    favourable for defence (ruling A15); the Up/Down column replaces the slope effect."""
    tec, m = b.charts.tec, b.map
    terrains = ("stream",) if water else m.terrain_of(h)  # spi-dark-ages:tec.water-melee
    vals: list[Fraction | None] = []
    for t in terrains:
        if t == "slope" and column is not None:
            continue
        effects = getattr(tec.terrain[t], section)
        v = effect_value(effects.get(cls, "1"))
        if section == "attack" and cls == "V" and t in ("woods", "swamp") and h in m.road_hexes:
            v = HALF  # spi-dark-ages:tec.classV: halved in a woods/road or swamp/road hex
        vals.append(v)
    if column is not None:
        col = getattr(tec, column)
        vals.append(effect_value(getattr(col, section).get(cls, "1")))
    if section == "attack":
        # spi-dark-ages:tec.attack-P: only a P prohibits; spi-dark-ages:tec.sections
        if any(v is None for v in vals):
            return None
        return min((v for v in vals if v is not None), default=ONE)
    return max((v for v in vals if v is not None), default=ONE)


def charge_mas(b: Board, u: Unit) -> tuple[int, str | None]:
    """MAS after a short charge (``cavalry.mc-charge``, ``cavalry.cataphract``): the data's
    shortfall per missing hex, never below the floor (which binds only this reduction:
    ``cavalry.floors``)."""
    t = b.type_of(u)
    if t.charge is None or u.run >= t.charge.min_hexes:
        return t.mas, None
    short = t.charge.min_hexes - u.run
    mas = max(t.mas - short * t.charge.shortfall, min(t.mas, t.charge.floor))
    return mas, f"{u.id}: straight charge of {u.run} < {t.charge.min_hexes}: MAS {t.mas} -> {mas}"


def crossing(b: Board, u: Unit, target: Hex) -> Unit | None:
    """``tec.cross-river`` (ruling A28): the defender in ``target``, not demoralized, with the stream
    or river hex of attacker ``u`` adjacent to its front, when the TEC plays the rule."""
    if b.charts.tec.cross_river is None or u.hex is None:
        return None
    o = b.cross_river_front(u.hex, u.side)
    return o if o is not None and o.hex == target else None


def unit_attack(b: Board, u: Unit, target: Hex, table: str) -> tuple[Fraction, list[str]] | None:
    """The adjusted attack (melee) or missile (fire) strength of ``u`` against hex ``target``;
    None when its terrain prohibits attacking (``tec.attack-P``)."""
    assert u.hex is not None
    notes: list[str] = []
    if table == "melee":
        base, note = charge_mas(b, u)
        if note:
            notes.append(note)
    else:
        base = b.type_of(u).missile
    col = column_for(b.map.elevation(u.hex), b.map.elevation(target))
    water = table == "melee" and b.map.water_between(u.hex, target)
    eff = terrain_effect(b, u.hex, b.cls(u), "attack", col, water)
    if eff is None:
        return None
    cross = ONE
    cr = b.charts.tec.cross_river
    if table == "melee" and cr is not None and crossing(b, u, target) is not None:
        cross = effect_value(cr.attack) or ONE  # spi-dark-ages:tec.cross-river (TEC data, A28)
    s = attack_adjust(base * eff * cross)
    if eff != 1:
        notes.append(f"{u.id}: {base} x {eff} (TEC{', ' + col if col else ''}) = {attack_adjust(base * eff)}")
    if cross != 1:
        notes.append(
            f"{u.id}: attacks across a stream or river: x {cross} = {s} (spi-dark-ages:tec.cross-river)"
        )
    return s, notes


def unit_defence(b: Board, d: Unit, attackers: list[Unit]) -> tuple[Fraction, list[str]]:
    """The adjusted melee defence of ``d`` against ``attackers`` (``facing.flank``, ``cuc``, TEC,
    ``tec.road-only-def``, ``demoralization.melee-def``)."""
    assert d.hex is not None
    t = b.type_of(d)
    notes: list[str] = []
    flank = not b.is_fleet(d) and any(
        (dd := d.hex.direction_to(a.hex)) is not None and facing_zone(d.facing, dd) != "front"  # type: ignore[arg-type]
        for a in attackers
    )
    base: int = t.mds_flank if flank else t.mds_front
    row = b.charts.cuc.defender.get(d.type, {})
    classes = {b.cls(a) for a in attackers}
    # spi-dark-ages:cuc: per unit, by the attacking class; several classes: the best for the defender (A12)
    mults = [
        effect_value(row.get(f"flank_{c}", row.get(c, "1")) if flank else row.get(c, "1")) for c in classes
    ]
    cuc = max((m for m in mults if m is not None), default=ONE)
    terr = max(
        (
            e
            for a in attackers
            if a.hex is not None
            and (
                e := terrain_effect(
                    b,
                    d.hex,
                    b.cls(d),
                    "defense",
                    column_for(b.map.elevation(d.hex), b.map.elevation(a.hex)),
                    b.map.water_between(a.hex, d.hex),
                )
            )
            is not None
        ),
        default=ONE,
    )
    x: Fraction = base * cuc * terr
    road_only = any(b.cls(d) in b.charts.tec.terrain[k].road_only for k in b.map.terrain_of(d.hex))
    if road_only and d.hex in b.map.road_hexes:
        x *= HALF  # spi-dark-ages:tec.road-only-def
    s = defence_adjust(x)
    if b.is_demoralized(d):
        s = defence_adjust(s * HALF)  # spi-dark-ages:demoralization.melee-def
        notes.append(f"{d.id}: demoralized, defence halved")
    notes.append(f"{d.id}: MDS {'flank' if flank else 'front'} {base} x CUC {cuc} x TEC {terr} -> {s}")
    return s, notes


def fps(b: Board, h: Hex) -> int:
    """The Fire Protection Strength of a hex: the sum of its terrain types' values, at most 4 but
    the keep (``tec.fps-cap``; ruling on the sum); a ford counts as a stream (``tec.ford``)."""
    terrains = b.map.terrain_of(h)
    total = sum(b.charts.tec.terrain[t].fps for t in terrains)
    return total if "keep" in terrains else min(FPS_CAP, total)


#: ``lookup``'s answers: per table (by identity; the table kept, so its id is not reused while
#: here), (attack, defence) -> answer; at most ``LOOKUPS_KEPT`` answers a table, emptied when full
_LOOKUPS: dict[int, tuple[CrtTable, dict[tuple[Fraction, Fraction], tuple[int | None, str]]]] = {}
LOOKUPS_KEPT = 4096


def lookup(table: CrtTable, att: Fraction, dfn: Fraction) -> tuple[int | None, str]:
    """The CRT column (rounded down: the highest column whose odds do not exceed att:def), or a
    fixed result code: ``(index, label)`` / ``(None, code)``. A pure function of the table and the
    two strengths, so kept (``_LOOKUPS``: the search's playouts fight the same fights again and
    again); on the reference path always worked out (``lookup_reference``)."""
    if REFERENCE.on:
        return lookup_reference(table, att, dfn)
    kept = _LOOKUPS.get(id(table))
    if kept is None or kept[0] is not table:
        if len(_LOOKUPS) >= 64:
            _LOOKUPS.clear()
        kept = _LOOKUPS[id(table)] = (table, {})
    answers = kept[1]
    got = answers.get((att, dfn))
    if got is None:
        if len(answers) >= LOOKUPS_KEPT:
            answers.clear()
        got = answers[(att, dfn)] = lookup_reference(table, att, dfn)
    return got


def lookup_reference(table: CrtTable, att: Fraction, dfn: Fraction) -> tuple[int | None, str]:
    """``lookup`` worked out: every column's odds compared."""
    cols = table.columns
    odds = None if dfn == 0 else att / dfn
    idx = None
    for i, c in enumerate(cols):
        if odds is None or Fraction(c.att, c.defn) <= odds:
            idx = i
    if idx is None:
        v = table.below_min
    elif idx == len(cols) - 1 and (odds is None or odds > Fraction(cols[-1].att, cols[-1].defn)):
        v = table.above_max
    else:
        return idx, cols[idx].id
    ids = [c.id for c in cols]
    return (ids.index(v), v) if v in ids else (None, v)


def row_for(table: CrtTable, roll: int, modifier: int) -> int:
    return max(table.min_row, min(table.max_row, roll + modifier))


def result_code(charts: Charts, a: Attack, roll: int) -> tuple[str, str, int]:
    """(result code, column label, row) of ``a`` with the die showing ``roll``."""
    table = getattr(charts.crt, a.table)
    idx, label = lookup(table, a.attack, a.defence)
    row = row_for(table, roll, a.modifier)
    if idx is None:
        return label, label, row
    return table.rows[str(row)][idx], label, row


def outcomes(charts: Charts, a: Attack) -> dict[str, Fraction]:
    """The exact distribution of the result code (one d6: ``inventory``)."""
    out: dict[str, Fraction] = {}
    for roll in range(1, 7):
        code = result_code(charts, a, roll)[0]
        out[code] = out.get(code, Fraction(0)) + Fraction(1, 6)
    return out
