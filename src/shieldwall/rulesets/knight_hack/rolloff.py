"""Roll-offs: who shoots first (``knight-hack:missile.order``, ruling R11) and who moves first
(``knight-hack:move.initiative``, R12). "Should it be necessary players may roll a die with the high
die roll doing all his shooting or letting his opponent shoot first"; "Initiative roll determines
which player goes first. The high roller determines who makes regular moves first." The die is
unstated: a D6 each (variant: d100), ties rolled again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shieldwall.core.dice import D6, D100, Die

if TYPE_CHECKING:
    import numpy as np

DICE: dict[str, Die] = {"d6": D6, "d100": D100}


def roll_off(
    rng: np.random.Generator, sides: tuple[str, str], die: str = "d6"
) -> tuple[str, list[tuple[int, int]]]:
    """``(winner, rolls)``: each side rolls ``die`` (the first side first), ties rolled again; the
    winner is the side that rolled high. ``rolls`` lists every pair, for the log."""
    d = DICE[die]
    rolls: list[tuple[int, int]] = []
    while True:
        a, b = d.roll(rng), d.roll(rng)
        rolls.append((a, b))
        if a != b:
            return (sides[0] if a > b else sides[1]), rolls


def roll_off_data(sides: tuple[str, str], rolls: list[tuple[int, int]], die: str) -> dict[str, object]:
    """A roll-off as its event records it: the deciding faces by side (``faces``, as the web log
    reads dice), every pair rolled (``rolls``: ties were rolled again) and the die."""
    a, b = rolls[-1]
    return {"faces": {sides[0]: a, sides[1]: b}, "rolls": [list(r) for r in rolls], "die": die}
