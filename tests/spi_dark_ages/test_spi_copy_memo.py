"""A copy keeps its original's memoised unit orders (``Board.copy``, issue 16): in a tree of copies
played apart (two siblings from each state chosen, each given its own random orders, mostly steps), every menu
asked of a copy is the one worked out afresh on the reference path (``core.reference``)."""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest

from shieldwall import registry
from shieldwall.core.game import State
from shieldwall.core.reference import reference_path
from shieldwall.io.scenarios import load_game

SCENARIOS = [f"spi-dark-ages/{f}" for f in registry.get("spi-dark-ages").scenario_files()]


def _afresh(state: State) -> list[str]:
    with reference_path():
        return [str(o) for o in state.legal_orders()]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_copies_played_apart_ask_the_menus_worked_out_afresh(scenario: str) -> None:
    rng = random.Random(11)
    frontier = [load_game(scenario).new_state(3)]
    checked = 0
    for _ in range(200):
        parent = frontier[rng.randrange(len(frontier))]
        if parent.is_terminal():
            continue
        parent.legal_orders()  # its memo filled before it is copied
        for _ in range(2):  # two siblings of one state, played apart
            child = parent.copy()
            for _ in range(rng.randrange(1, 4)):
                if child.is_terminal():
                    break
                menu = child.legal_orders()
                assert [str(o) for o in menu] == _afresh(child)
                steps = [o for o in menu if o.kind == "step"]  # moves change the neighbourhoods
                child.apply(rng.choice(steps if steps and rng.random() < 0.8 else menu))
                checked += 1
            frontier.append(child)
        frontier = frontier[-8:]
    assert checked > 500


def _fields(x: object) -> dict[str, object]:
    """Every field of a dataclass (compiled, a unit has no ``__dict__`` for ``vars``)."""
    return {f.name: getattr(x, f.name) for f in dataclasses.fields(x)}  # type: ignore[arg-type]


def test_a_copy_has_units_of_its_own_as_copy_copy_makes_them() -> None:
    state = load_game(SCENARIOS[0]).new_state(1)
    new = state.copy()
    b, c = state.board, new.board  # type: ignore[attr-defined]
    for k, u in b.units.items():
        assert c.units[k] is not u and type(c.units[k]) is type(u)
        assert _fields(c.units[k]) == _fields(copy.copy(u))
    first = next(iter(c.units))
    c.units[first].facing = (b.units[first].facing + 1) % 6
    assert c.units[first].facing != b.units[first].facing
