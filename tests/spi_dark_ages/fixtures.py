"""Small battles on the illustrative sample map for the clause tests (no registry needed)."""

from __future__ import annotations

from typing import Any

from shieldwall.core.hexgrid import Hex, ccrr, from_offset
from shieldwall.rulesets.spi_dark_ages.board import Board, Unit
from shieldwall.rulesets.spi_dark_ages.game import DarkAgesGame
from shieldwall.rulesets.spi_dark_ages.movement import start_phase
from shieldwall.rulesets.spi_dark_ages.state import DarkAgesState

RS = "spi-dark-ages"


def H(col: int, row: int) -> Hex:
    """The hex at 0-based offset column and row of the sample map."""
    return from_offset(col, row)


def scenario(units: list[tuple[str, str, str, Hex, int]], **army: Any) -> dict[str, Any]:
    """Scenario data: ``units`` as (id, side green|tan, type, hex, facing)."""
    armies: dict[str, Any] = {
        "g": {"name": "Greens", "colour": "green", "pv": 500, "pl": army.get("green_pl", 400), "unit": []},
        "t": {"name": "Tans", "colour": "tan", "pv": 500, "pl": army.get("tan_pl", 400), "unit": []},
    }
    for k in ("ferocity", "vitality"):
        for side, key in (("green", "g"), ("tan", "t")):
            if army.get(f"{side}_{k}"):
                armies[key][k] = True
    for uid, side, typ, h, facing in units:
        armies["g" if side == "green" else "t"]["unit"].append(
            {"id": uid, "type": typ, "at": ccrr(h), "facing": facing}
        )
    return {
        "ruleset": RS,
        "name": "Test",
        "turns": army.get("turns", 5),
        "first_listed": "g",
        "second_listed": "t",
        "army": armies,
    }


def state(units: list[tuple[str, str, str, Hex, int]], **army: Any) -> DarkAgesState:
    game = DarkAgesGame.from_data(scenario(units, **army), "test.toml")
    return game.new_state(1)


def phase(st: DarkAgesState, name: str, side: str) -> Board:
    """Put the board in ``side``'s phase ``name`` (movement: the phase's start-of-phase state)."""
    b = st.board
    b.player = b.order.index(side)
    b.phase = name
    b.closed = False
    b.active = None
    if name == "movement":
        start_phase(b)
    return b


def unit(st: DarkAgesState, uid: str) -> Unit:
    return st.board.units[uid]
