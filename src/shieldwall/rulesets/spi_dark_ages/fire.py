"""Missile fire: range (``combat.D.hilltop-range``) and the line of fire along the hex line
(``combat.D.over-units``, ``combat.D.hilltop-over``, ``combat.D.wooded-slope``)."""

from __future__ import annotations

from shieldwall.core.hexgrid import HILLTOP, LEVEL, SLOPE, Hex, first_block
from shieldwall.rulesets.spi_dark_ages.board import Board, Unit


def fire_range(b: Board, firer: Unit, target: Hex) -> int:
    """The firer's range against ``target``: +1 from a hilltop into a slope or level hex."""
    assert firer.hex is not None
    r = b.type_of(firer).range
    if b.map.elevation(firer.hex) == HILLTOP and b.map.elevation(target) in (SLOPE, LEVEL):
        r += 1  # spi-dark-ages:combat.D.hilltop-range
    return r


def blocking(b: Board, firer: Unit, h: Hex) -> str | None:
    """Why hex ``h`` (between firer and target) blocks the firer's line, as a clause, or None."""
    assert firer.hex is not None
    m, tec = b.map, b.charts.tec
    ef, eh = m.elevation(firer.hex), m.elevation(h)
    terr = m.terrain_of(h)
    if ef == HILLTOP and "woods" in terr and "slope" in terr:
        return "combat.D.wooded-slope"
    if any(tec.terrain[t].blocks_fire for t in terr) and not (ef == HILLTOP and eh == LEVEL):
        return "combat.D.hilltop-over" if ef == HILLTOP else "tec.sections"
    if b.at.get(h) and not eh < ef:
        # spi-dark-ages:combat.D.over-units: only over a unit on lower terrain than the firer
        return "combat.D.over-units"
    return None


def line_of_fire(b: Board, firer: Unit, target: Hex) -> tuple[Hex, str] | None:
    """The first hex blocking the line from the firer to ``target`` and why, or None (clear)."""
    assert firer.hex is not None
    h = first_block(firer.hex, target, lambda x: blocking(b, firer, x) is not None)
    if h is None:
        return None
    why = blocking(b, firer, h)
    assert why is not None
    return h, why


def can_fire_at(b: Board, firer: Unit, target: Hex) -> tuple[bool, str, str]:
    """(allowed, clause, reason) for fire by ``firer`` at ``target`` (range and line only)."""
    assert firer.hex is not None
    dist = firer.hex.distance(target)
    rng = fire_range(b, firer, target)
    if dist < 1 or dist > rng:
        return False, "combat.D.hilltop-range", f"{target} is {dist} hexes away, range {rng}"
    blocked = line_of_fire(b, firer, target)
    if blocked is not None:
        return False, blocked[1], f"the line of fire is blocked at {blocked[0]}"
    return True, "combat.D.over-units", "clear"
