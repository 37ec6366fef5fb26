"""Where a unit's moves would end, answered without a copy of the state (issue 16, big armies).

The scripted general weighs each move of the unit to act by where it ends and whether it ends
disordered (``bots.general``: ``State.probe`` of the move, then the unit's entry in the copy's
view). ``probe`` copies the state (every unit cloned: linear in the army) and plays the move on:
``act_move.move`` (``plan_move``'s trace, then ``apply_trace``), then the tasks that follow, no
further than the end of the side's Movement phase (``IntoTheDarkState._advance`` with the mover): the
zone of control task and the side's next Movement decision. ``ends_of_moves`` answers the same
question from the trace alone, and is exact when what follows the move changes nothing of the
mover:

- the decision is the unit's own (``pending`` kind "unit" for it) and Command & Control is not in
  play (``act_obey.guard`` checks orders only then);
- after the move, the zone of control task only offers opportunity charges and fire: each offer is a
  decision of the other side (``act_zoc.opportunity``), so play stops there, the mover unchanged;
- then the side's ``move_phase`` asks for its next Movement decision (play stops again) when another
  of its units may still act, and when none may, the phase ends (the probe stops there too); unless
  a fanatic of the side is due to pursue (``turns.move_phase``), which moves first: not answered here
  (the caller probes).

Before 28 November (fourteenth session) the probe played on past the end of the phase, through
shooting and melee with the dice they roll, and this module did not answer the last unit of a side
to act (docs/performance.md, "The scripted general no longer sees the dice of the turn's later
phases").

The trace's end: ``apply_trace`` stands the unit on it (``Unit.place``), and the view gives the
unit's footprint (``Unit.fp``) rounded to 4 places; it ends disordered when it was or when the trace
disorders it (terrain, friends passed through: movement.interpenetration). A move ``plan_move``
refuses is illegal (``probe`` gives None). Not answered on the reference path (``REFERENCE.on``):
there the caller probes every move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import Footprint, heading_vector, round_places
from shieldwall.core.reference import REFERENCE

from . import orders as O
from .generals import on as command_on
from .model import Unit
from .moves import plan_move

if TYPE_CHECKING:
    from .state import IntoTheDarkState

#: a move's end as the view shows it: x, y, heading, frontage, depth (rounded as the view rounds
#: them) and whether the unit ends disordered; None for an illegal move
End = tuple[float, float, float, float, float, bool]


def answerable(st: IntoTheDarkState, uid: str) -> bool:
    """Whether the moves of ``uid`` may be answered without a copy (module docstring)."""
    if REFERENCE.on or st.is_terminal():
        return False
    p = st.pending
    if p is None or p["kind"] != "unit" or p["unit"] != uid or command_on(st):
        return False
    u = st.units.get(uid)
    if u is None or not u.on_table or u.side != p["side"]:
        return False
    # (``move_phase`` sends a fanatic due to pursue after its quarry first)
    return not any(x is not u and x.pursuing and not x.acted and not x.routed for x in st.live(u.side))


def ends_of_moves(st: IntoTheDarkState, uid: str, orders: Sequence[Any]) -> list[End | None] | None:
    """Where each move of ``orders`` (``Move`` orders of ``uid``) would leave ``uid``, as its entry in
    the view of ``probe(order)``'s state shows it (``End``), or None for a move ``probe`` refuses;
    None for the whole when it cannot be answered without the copy (module docstring)."""
    if not answerable(st, uid) or any(not isinstance(o, O.Move) or o.unit != uid for o in orders):
        return None
    u = st.units[uid]
    memo = st.plan_memo
    out: list[End | None] = []
    with memo.held(st.units, st.still_token):  # (planning changes no unit: the units compared once)
        for o in orders:
            try:
                tr = plan_move(st, u, o.steps, verdict=True)
            except IllegalOrder:
                out.append(None)
                continue
            # (a friend passed through that moved too puts the interpenetration clause in the
            # trace's disorder, ``movement.trace``: so ``tr.disorder`` holds every cause)
            out.append(_end(u, tr.fp, bool(tr.disorder)))
    return out


def _end(u: Unit, fp: Footprint, disorders: bool) -> End:
    """``u`` stood on ``fp`` (``Unit.place``), its footprint (``Unit.fp``) as the view rounds it."""
    fx, fy = heading_vector(fp.heading)
    x = fp.x + fx * fp.depth / 2.0
    y = fp.y + fy * fp.depth / 2.0
    heading = fp.heading
    fx, fy = heading_vector(heading)
    depth = u.depth
    d = depth / 2.0
    f = Footprint(x - fx * d, y - fy * d, heading, u.front * u.fig_w, depth)
    return (
        round_places(f.x, 4),
        round_places(f.y, 4),
        round_places(f.heading, 4),
        round_places(f.frontage, 4),
        round_places(f.depth, 4),
        bool(u.disordered) or disorders,
    )
