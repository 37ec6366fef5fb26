"""knight-hack: the point of the game a battle stands at (the plugin's ``progress`` hook).

``turn.sequence``: deployment, then turns of declare, respond, fire, charges, movement, melee and
rally (the stages of :mod:`.turn`). The search bot (``shieldwall.ai.mcts``) plays the playouts it
compares on to the same point (``shieldwall.ai.playout``). Reads the state only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import KnightHackState


def progress(state: KnightHackState) -> tuple[int, int, int]:
    """(deployed, turn, stage): 0 while the armies deploy (the rest 0), else 1 with the turn and
    the stage's place in the turn sequence."""
    # knight-hack:turn.sequence
    b = state.board
    if b.phase == "deployment":
        return (0, 0, 0)
    return (1, b.turn, b.stage)
