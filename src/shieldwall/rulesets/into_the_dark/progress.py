"""into-the-dark: the point of the game a battle stands at (the plugin's ``progress`` hook).

``turn-sequence.sequence-of-play``: each turn runs rally (with the orders), initiative, movement
(the side with the initiative first, ``turn-sequence.initiative``), missile fire, melee and morale
tests, in that order; set-up and deployment come before turn 1. The search bot
(``shieldwall.ai.mcts``) plays the playouts it compares on to the same point
(``shieldwall.ai.playout``). Reads the state only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import IntoTheDarkState

#: the phases of the battle in the order the turn sequence runs them (the two before turn 1 first)
PHASES = ("setup", "deployment", "rally", "initiative", "movement", "fire", "melee", "morale")
_INDEX = {p: i for i, p in enumerate(PHASES)}


def progress(state: IntoTheDarkState) -> tuple[int, int, int]:
    """(turn, phase, mover): the turn (0 before the first), the phase's place in ``PHASES`` and,
    in the movement phase, 0 while the side with the initiative moves, 1 while the other does.
    ``ValueError`` naming a phase the turn sequence does not have."""
    # into-the-dark:turn-sequence.sequence-of-play
    phase = state.phase
    if phase not in _INDEX:
        raise ValueError(f"into-the-dark: progress: unknown phase {phase!r}")
    if phase in ("setup", "deployment"):
        return (0, _INDEX[phase], 0)
    mover = 0
    if phase == "movement" and state.__dict__.get("mover") not in (None, state.first):
        mover = 1
    return (state.turn, _INDEX[phase], mover)
