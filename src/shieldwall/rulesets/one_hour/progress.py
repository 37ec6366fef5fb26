"""one-hour-dark-ages: the point of the game a battle stands at (the plugin's ``progress`` hook).

``play-sequence``: each turn both sides play a player turn in the turn's order, each of movement,
shooting, melee, and routs and rallies; deployment by hand and the choices made after it ("Viking
Veterans") come before turn 1. The search bot (``shieldwall.ai.mcts``) plays the playouts it
compares on to the same point (``shieldwall.ai.playout``). Reads the state only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import OneHourState

#: the phases of a player turn in order
PHASES = ("movement", "shooting", "melee", "routs")
_INDEX = {p: i for i, p in enumerate(PHASES)}


def progress(state: OneHourState) -> tuple[int, int, int, int]:
    """(stage, turn, player, phase): stage 0 before the battle ((0, 0, 0, 0) in deployment by
    hand, then (0, 1, the chooser's place in the play order, 0) for the choices after it), else
    1 with the turn, the player turn (0 first, 1 second) and the phase's place in ``PHASES``.
    ``ValueError`` naming a phase the sequence does not have."""
    # one-hour-dark-ages:play-sequence
    if state.phase == "deployment":
        return (0, 0, 0, 0)
    if state.step == "fight-as":
        return (0, 1, state.player, 0)
    if state.phase not in _INDEX:
        raise ValueError(f"one-hour-dark-ages: progress: unknown phase {state.phase!r}")
    return (1, state.turn, state.player, _INDEX[state.phase])
