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
    and the phase's place in the charts' sequence of play. A battle ended by its last Game-Turn
    stands after both player turns (``turn.next_phase`` sets the first player again before it
    calls the end, the phase left at the sequence's last); one that ends mid-turn stands where it
    ended. ``ValueError`` naming a phase the sequence does not have."""
    # spi-dark-ages:sequence
    b = state.board
    seq = list(b.charts.rules.sequence)
    if b.result is not None and b.player == 0 and b.phase == seq[-1] and b.turn >= b.turns:
        return (b.turn, len(b.order), 0)
    if b.phase not in seq:
        raise ValueError(f"spi-dark-ages: progress: phase {b.phase!r} is not in the sequence of play")
    return (b.turn, b.player, seq.index(b.phase))
