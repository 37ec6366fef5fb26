"""Into the Dark big armies, fourth slice (issue 16): two answers of a decision kept from the plain
computation's with less measured, compared with it.

The menu's nearest enemies (``menus.nearest_enemies``) are the first ``READ`` of the plain sort of
every enemy by distance (ties in the state's order), at every menu of seeded battles (senlac,
wye-fords, senlac tiled to 30 a side, where the bound leaves most enemies unmeasured). The activation
order's distances kept between Movement decisions (``bots.nearest.Activation``) are each unit's
distance from the nearest enemy measured against every enemy, in the same battles and after random
moves, arrivals and departures. A tiled battle played on the fast paths and on their references
makes the same decisions.
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
from shieldwall.rulesets.into_the_dark.bots import nearest
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


# stand-ins are no model.Unit, which the compiled menus refuse: on a compiled build this runs on the
# .py sources (the battles above check the compiled function)
@pytest.mark.python_sources
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


@pytest.mark.python_sources
def test_the_activation_orders_kept_distances_are_the_nearest_enemys(monkeypatch: Any) -> None:
    """At every Movement decision of seeded battles (senlac, wye-fords, senlac tiled to 30 a side)
    each distance ``nearest.Activation`` answers, most of them kept from the decision before, is
    the unit's distance from the nearest enemy measured against every enemy."""
    real = nearest.Activation.gaps
    seen = {"calls": 0, "kept": 0, "units": 0}
    found = nearest.nearest_gap

    def counting(fp: Footprint, index: Any) -> float:
        seen["kept"] -= 1
        return found(fp, index)

    def both(self: Any, side: str, uids: list[str], enemies: Any, fps: Any) -> dict[str, float]:
        got = real(self, side, uids, enemies, fps)
        pieces = [nearest.Piece(fps[e["id"]]) for e in enemies]
        for uid in uids:
            assert got[uid] == nearest.nearest_gap_reference(fps[uid], pieces), uid
        seen["calls"] += 1
        seen["units"] += len(uids)
        seen["kept"] += len(uids)
        return got

    monkeypatch.setattr(nearest.Activation, "gaps", both)
    monkeypatch.setattr(nearest, "nearest_gap", counting)
    for scenario, seed in BATTLES:
        play(load_game(scenario), seed, "scripted", "scripted")
    game = tiled_game(30)
    case = R.Case("into-the-dark/senlac tiled to 30 a side", 1, "scripted", "scripted")
    R.play_record(game, case, False, limit=250)
    assert seen["calls"] > 100 and seen["kept"] > seen["units"] // 2, seen


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.floats(-40.0, 40.0), st.floats(-40.0, 40.0)), min_size=2, max_size=40),
    st.lists(st.tuples(st.integers(0, 39), st.floats(-40.0, 40.0), st.floats(-40.0, 40.0)), max_size=6),
    st.lists(st.integers(0, 39), max_size=3),
)
def test_the_activation_distances_follow_moves_arrivals_and_departures(
    places: list[tuple[float, float]], moves: list[tuple[int, float, float]], leave: list[int]
) -> None:
    """Units on both sides, some enemies and friends moved (nearer or farther), some enemies gone,
    a new one come: every distance answered after the changes is the one measured afresh."""
    units = {f"u{i}": {"id": f"u{i}", "side": "ab"[i % 2]} for i in range(len(places))}
    fps = {f"u{i}": Footprint(x, y, 37.0 * i, 4.0, 1.0) for i, (x, y) in enumerate(places)}
    mine = [k for k, u in units.items() if u["side"] == "a"]
    memo = nearest.Activation()
    for step in range(2):
        enemies = [u for u in units.values() if u["side"] == "b"]
        got = memo.gaps("a", mine, enemies, fps)
        pieces = [nearest.Piece(fps[e["id"]]) for e in enemies]
        for uid in mine:
            assert got[uid] == nearest.nearest_gap_reference(fps[uid], pieces), (step, uid)
        fps = dict(fps)
        for i, x, y in moves:
            k = f"u{i % len(places)}"
            fps[k] = Footprint(x, y, 0.0, 4.0, 1.0)
        for i in leave:
            units.pop(f"u{i % len(places)}", None)
        units["new"] = {"id": "new", "side": "b"}
        fps["new"] = Footprint(0.0, 0.0, 0.0, 4.0, 1.0)
