"""What the web page draws from a selected DBM element beyond its bases (the plugin's ``ranges``), in
paces: for an element that shoots (dbm-3.2:shoot.who: Art, Bw, WWg (S)/(O), El (X), ...), its range
from the tables' ``range_p`` (Bw 200 p, dbm-3.2:fig.10b) as a band around the base (closest points)
and its arc of fire, the rectangle 1 BW either side of its front out to that range (ruling R27:
``geom.shooting_box``, the rectangle ``geom.can_target`` tests).

The amendments played give no line-of-sight rule (ruling R34): the lines go to the enemy elements
within its range and say whether the engine lets it shoot at each this bound, with the engine's own
reason when not (``shooting.shooter_why_not``, ``shooting.target_why_not``: the tests
``shooting.targets`` makes); the target it must shoot, the one most directly to its front
(dbm-3.2:fig.10b), is named in the arc's label. Nothing here changes the state or decides an order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shieldwall.core.outlines import grown
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.geom import shooting_box
from shieldwall.rulesets.dbm.shooting import may_shoot, shooter_why_not, target_why_not, targets

if TYPE_CHECKING:
    from shieldwall.rulesets.dbm.state import DbmState


def _pt(p: tuple[float, float]) -> list[float]:
    return [round(p[0], 3), round(p[1], 3)]


def ranges(st: DbmState, unit_id: str) -> dict[str, Any] | None:
    """Range band, arc of fire and a line to each enemy within range of an element on the table
    (None for one that is not, or that does not shoot)."""
    board = st.board
    e = board.el.get(unit_id)
    if e is None:
        return None
    rng = board.tables.ranges.range_p.get(e.code)
    if not may_shoot(e) or rng is None:
        return {"unit": e.id, "shapes": [], "sight": []}
    marched = st.bound.marched if st.bound is not None and st.bound.side == e.side else set()
    ts = targets(board, e, marched)
    arc = "arc of fire: 1 BW either side of the front"
    if ts:
        arc += f"; shoots {ts[0].id}, most directly to its front"
    shapes = [
        {
            "label": f"{e.code} range {rng:g} p",
            "kind": "range",
            "points": grown(e.fp.corners(), rng),
            "rule": rule("fig.10b"),
        },
        {
            "label": arc,
            "kind": "arc",
            "points": [_pt(p) for p in shooting_box(e.fp, rng, board.tables.bw)],
            "rule": rule("shoot.who"),
        },
    ]
    barred = shooter_why_not(board, e, marched)
    lines = []
    for o in sorted(board.within(e, rng), key=lambda x: x.id):
        if o.side == e.side:
            continue
        why = barred or target_why_not(board, e, o, rng)
        lines.append(
            {
                "unit": o.id,
                "visible": why is None,
                "from": _pt(e.fp.front_centre),
                "to": _pt(o.fp.centre),
                "why": None if why is None else why[1],
                "rule": rule("shoot.who" if why is None else why[0]),
            }
        )
    return {"unit": e.id, "shapes": shapes, "sight": lines, "sight_label": "may shoot at"}
