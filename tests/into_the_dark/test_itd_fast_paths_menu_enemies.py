"""The menu's nearest enemies (``menus.nearest_enemies``, issue 16: Into the Dark big armies, fourth
slice) are the first ones of the plain sort of every enemy by distance.

At every menu of seeded battles (senlac, wye-fords, and senlac tiled to 30 a side, where the bound
leaves most enemies unmeasured) the fast answer is compared with the reference's prefix the menu
reads (``READ``), ties in the state's order included; and a tiled battle played on the fast paths
and on their references makes the same decisions.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.core.geometry import Footprint
from shieldwall.io.scenarios import load_game
from shieldwall.match import play
from shieldwall.rulesets.into_the_dark import menus
from shieldwall.rulesets.into_the_dark.model import Unit
from shieldwall.rulesets.into_the_dark.tiling import tiled_game
from shieldwall.sim import referee as R

BATTLES = (("into-the-dark/senlac", 1), ("into-the-dark/wye-fords", 2))


def _checking(monkeypatch: Any) -> dict[str, int]:
    real = menus.nearest_enemies
    seen = {"calls": 0, "pruned": 0}

    def both(u: Unit, enemies: list[Unit], k: int) -> list[Unit]:
        got = real(u, enemies, k)
        want = menus.nearest_enemies_reference(u, enemies)
        assert [e.id for e in got[:k]] == [e.id for e in want[:k]], (u.id, k)
        seen["calls"] += 1
        if len(got) < len(want):
            seen["pruned"] += 1
        return got

    monkeypatch.setattr(menus, "nearest_enemies", both)
    return seen


@pytest.mark.python_sources
def test_the_menus_nearest_enemies_are_the_sorts_first(monkeypatch: Any) -> None:
    seen = _checking(monkeypatch)
    for scenario, seed in BATTLES:
        play(load_game(scenario), seed, "scripted", "scripted")
    game = tiled_game(30)
    R.play_record(
        game, R.Case("into-the-dark/senlac tiled to 30 a side", 1, "scripted", "scripted"), False, limit=250
    )
    assert seen["calls"] > 300 and seen["pruned"] > 200, seen


class _U:
    """A stand-in for a unit: ``nearest_enemies`` reads only the footprint (and keeps the order)."""

    def __init__(self, i: int, fp: Footprint) -> None:
        self.id, self.fp = str(i), fp


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([0.0, 3.0, 6.0, 9.0]),
            st.sampled_from([0.0, 2.0, 4.0]),
            st.sampled_from([0.0, 90.0, 180.0, 45.0]),
        ),
        min_size=1,
        max_size=30,
    ),
    st.integers(1, 6),
)
def test_ties_come_in_list_order(rects: list[tuple[float, float, float]], k: int) -> None:
    """Many equal distances (units on a lattice, some coincident): the answer's first ``k`` are the
    stable sort's."""
    me: Any = _U(-1, Footprint(4.5, -5.0, 0.0, 2.0, 1.0))
    them: Any = [_U(i, Footprint(x, y, a, 2.0, 1.0)) for i, (x, y, a) in enumerate(rects)]
    got = menus.nearest_enemies(me, them, k)
    want = menus.nearest_enemies_reference(me, them)
    assert [e.id for e in got[:k]] == [e.id for e in want[:k]]


def test_a_tiled_battle_makes_the_same_decisions_on_the_reference() -> None:
    game = tiled_game(30)
    case = R.Case("into-the-dark/senlac tiled to 30 a side", 2, "scripted", "scripted")
    fast = R.play_record(game, case, reference=False, limit=120)
    ref = R.play_record(game, case, reference=True, limit=120)
    assert R.first_difference(fast, ref) is None, R.first_difference(fast, ref)
