"""dbm-3.2: the point of the game a battle stands at (the plugin's ``progress`` hook).

The pre-battle phases (terrain, deployment, baggage) come first; then bounds, red's and blue's in
turn, each its PIP moves, then the combats and the pushes forward after them
(``press.forward``). The search bot (``shieldwall.ai.mcts``) plays the playouts it compares on to
the same point (``shieldwall.ai.playout``). Reads the state only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import DbmState

#: the phases in order: three before the battle, then a bound's moves and its pushes forward
PHASES = ("terrain", "deploy", "baggage", "bound", "press")
_INDEX = {p: i for i, p in enumerate(PHASES)}
_SIDES = {"red": 0, "blue": 1}


def progress(state: DbmState) -> tuple[int, int, int, int]:
    """(stage, bound, side, step): stage 0 to 2 for the pre-battle phases (the rest 0), else 3
    with the bound's number (red's and blue's bound share one), 0 for red's bound and 1 for
    blue's, and 0 in the moves, 1 in the pushes forward. ``ValueError`` naming a phase the
    sequence does not have."""
    # dbm-3.2:press.forward
    phase = state.phase
    if phase not in _INDEX:
        raise ValueError(f"dbm-3.2: progress: unknown phase {phase!r}")
    if _INDEX[phase] < _INDEX["bound"]:
        return (_INDEX[phase], 0, 0, 0)
    return (_INDEX["bound"], state.bound_no, _SIDES.get(state.side, 0), _INDEX[phase] - _INDEX["bound"])
