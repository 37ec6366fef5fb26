"""The Movement phase (turn-sequence.movement, movement.*): each side in turn orders its units one
at a time - activate one, hold it, or move it; a move gives the other side's units whose zone of
control it crossed opportunity charges and fire (setup.zone-of-control, ``act_zoc``). Allowances
and the checks of a move are ``moves``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import orders as O
from .moves import (
    act_problem,
    apply_trace,
    bad,
    base_allowance,
    can_move,
    done,
    own_unit,
    plan_move,
    remaining,
    zoc_length,
)

if TYPE_CHECKING:
    from .state import IntoTheDarkState

__all__ = [
    "activate",
    "hold",
    "move",
    # from moves, for reach and the tests
    "base_allowance",
    "can_move",
    "remaining",
    "zoc_length",
]


def activate(st: IntoTheDarkState, order: O.Activate) -> None:
    u = own_unit(st, order.unit)
    prob = act_problem(st, u)
    if prob:
        raise bad("movement.movement", f"{u.id}: {prob}")
    st.active = u.id
    st.ask("unit", u.side, u.id)


def hold(st: IntoTheDarkState, order: O.Hold) -> None:
    u = own_unit(st, order.unit)
    prob = act_problem(st, u)
    if prob:
        raise bad("movement.movement", f"{u.id}: {prob}")
    u.acted = True
    st.log("hold", "movement.movement", side=u.side, unit=u.id)
    done(st, u)


def move(st: IntoTheDarkState, order: O.Move) -> None:
    u = own_unit(st, order.unit)
    tr = plan_move(st, u, order.steps, verdict=st.verdict_only)
    start = (u.x, u.y, u.heading)
    apply_trace(st, u, tr, "movement.movement")
    u.acted = True
    st.log(
        "move",
        "movement.movement",
        side=u.side,
        unit=u.id,
        steps=[s.text() for s in order.steps],
        distance=round(tr.travel, 3),
        cost=round(tr.cost, 3),
        allowance=round(base_allowance(st, u), 3),
        start=[round(v, 3) for v in start],
        to=[round(u.x, 3), round(u.y, 3), round(u.heading, 3)],
        passed_through=tr.passed,
    )
    st.active = None
    st.push(
        ("zoc", u.id, tuple((f.x, f.y, f.heading, f.frontage, f.depth) for f in tr.samples)),
        ("move-phase", u.side),
    )
