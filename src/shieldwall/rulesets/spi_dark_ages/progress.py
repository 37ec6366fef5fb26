"""spi-dark-ages: the point of the game a battle stands at (the plugin's ``progress`` hook).

``sequence``: each Game-Turn both players play a player turn in order, each the phases of the
sequence of play in the charts' order (``rules.toml``). The search bot (``shieldwall.ai.mcts``)
plays the playouts it compares on to the same point (``shieldwall.ai.playout``). Reads the state
only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import DarkAgesState


def progress(state: DarkAgesState) -> tuple[int, int, int]:
    """(Game-Turn, player turn, phase): the player turn 0 for the first player, 1 for the second,
    and the phase's place in the charts' sequence of play; a battle that is over stands at the end
    of its Game-Turn (after both player turns: the last one's end resets the player before the
    end is called). ``ValueError`` naming a phase the sequence does not have."""
    # spi-dark-ages:sequence
    b = state.board
    if b.result is not None:
        return (b.turn, len(b.order), 0)
    seq = list(b.charts.rules.sequence)
    if b.phase not in seq:
        raise ValueError(f"spi-dark-ages: progress: phase {b.phase!r} is not in the sequence of play")
    return (b.turn, b.player, seq.index(b.phase))
