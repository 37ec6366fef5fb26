"""What the web page draws from a selected unit beyond its reach (the plugin's ``ranges``), in hexes:

* a missile unit's fire range: every map hex within its range, +1 into slope or level hexes from a
  hilltop (``fire.fire_range``, ``combat.D.hilltop-range``), outlined;
* the hexes its stack controls: those next to its front where an enemy's move stops at once, a
  Class IV or V missile unit's three front hexes (``movement.K.stop``) and, when the TEC plays its
  Cross River Attack rule, the stream or river hexes at its front (``tec.cross-river``), found with
  the engine's own ``Board.controller``;
* for a missile unit, a line to every enemy on the map: clear, or blocked at the first hex on the
  hex line that blocks fire and why (``fire.line_of_fire``: a unit not on lower ground,
  ``combat.D.over-units``; blocking terrain, ``tec.sections``; from a hilltop,
  ``combat.D.hilltop-over`` and ``combat.D.wooded-slope``). The errata's only line rule is the line
  of fire: a unit without missile strength gets no lines.

Nothing here changes the state or decides an order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shieldwall.core.hexgrid import HILLTOP, Hex, ccrr, spiral
from shieldwall.core.outlines import cells_outline

from .clauses import CLAUSES
from .fire import fire_range, line_of_fire
from .picture import centre, corners

if TYPE_CHECKING:
    from .board import Board, Unit
    from .state import DarkAgesState

RS = "spi-dark-ages"


def _outline(b: Board, hexes: list[Hex], label: str, kind: str, clause: str) -> list[dict[str, Any]]:
    """One shape per connected piece of ``hexes`` (the first one labelled)."""
    loops = cells_outline([corners(b.map, h) for h in hexes])
    return [
        {"label": label if i == 0 else "", "kind": kind, "points": pts, "rule": f"{RS}:{clause}"}
        for i, pts in enumerate(loops)
    ]


def in_range(b: Board, u: Unit) -> list[Hex]:
    """The map hexes within the fire range of missile unit ``u`` (its own hex included)."""
    assert u.hex is not None
    r = b.type_of(u).range
    return [h for h in spiral(u.hex, r + 1) if b.map.on_map(h) and u.hex.distance(h) <= fire_range(b, u, h)]


def controlled(b: Board, u: Unit) -> dict[str, list[Hex]]:
    """The hexes next to ``u``'s hex whose entry stops an enemy because of ``u``'s stack, by clause."""
    assert u.hex is not None
    out: dict[str, list[Hex]] = {}
    for h in u.hex.neighbours():
        if not b.map.on_map(h):
            continue
        c = b.controller(h, b.enemy(u.side))
        if c is not None and c[0].hex == u.hex:
            out.setdefault(c[1], []).append(h)
    return out


def _lines(b: Board, u: Unit) -> list[dict[str, Any]]:
    assert u.hex is not None
    start = list(centre(b.map, u.hex))
    out = []
    for e in sorted(b.units.values(), key=lambda x: x.id):
        if e.side != b.enemy(u.side) or not e.on_map or e.hex is None:
            continue
        blocked = line_of_fire(b, u, e.hex)
        row: dict[str, Any] = {
            "unit": e.id,
            "visible": blocked is None,
            "from": start,
            "to": list(centre(b.map, e.hex)),
            "why": None,
            "rule": f"{RS}:combat.D.over-units",
        }
        if blocked is not None:
            h, clause = blocked
            row["why"] = f"the line of fire is blocked at {ccrr(h)}: {CLAUSES[clause][1]}"
            row["rule"] = f"{RS}:{clause}"
        out.append(row)
    return out


def ranges(st: DarkAgesState, unit_id: str) -> dict[str, Any] | None:
    """Fire range, controlled hexes and lines of fire of a unit on the map (None for one that is
    not)."""
    b = st.board
    u = b.units.get(unit_id)
    if u is None or not u.on_map or u.hex is None:
        return None
    t = b.type_of(u)
    shapes: list[dict[str, Any]] = []
    missile = t.missile > 0 and t.range > 0
    if missile:
        extra = " (+1 downhill from a hilltop)" if b.map.elevation(u.hex) == HILLTOP else ""
        label = f"fire range {t.range} hex{'es' if t.range != 1 else ''}{extra}"
        shapes += _outline(b, in_range(b, u), label, "range", "combat.D.hilltop-range")
    for clause, hexes in sorted(controlled(b, u).items()):
        label = "front hexes: an enemy entering stops" + (
            " (cross river)" if clause == "tec.cross-river" else ""
        )
        shapes += _outline(b, hexes, label, "arc", clause)
    out: dict[str, Any] = {"unit": u.id, "shapes": shapes, "sight": _lines(b, u) if missile else []}
    if missile:
        out["sight_label"] = "has a clear line of fire to"
    return out
