"""The scripted bot's nearest-enemy field (``bots.nearest_enemy_field``) and its memo on the map
(issue 16): the field is a function of the set of enemy-held cells alone, so the map keeps the
fields it has searched (``HexMap.fields``); the search's playouts ask for the same one again and
again. Checked here against an independent oracle (a breadth-first search from each enemy cell on
its own, the least distance, ties to the lowest cell), on boards of every built-in scenario and on
random sets of enemy cells; the memo's answer is the search's, whatever the memo held before."""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.ai.base import make_bot
from shieldwall.core.hexgrid import Hex
from shieldwall.core.reference import reference_path
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.spi_dark_ages import bots as B
from shieldwall.rulesets.spi_dark_ages.board import Board
from shieldwall.rulesets.spi_dark_ages.hexmap import HexMap
from shieldwall.rulesets.spi_dark_ages.state import DarkAgesState

SCENARIOS = ("spi-dark-ages/dorylaeum", "spi-dark-ages/stamford-bridge", "spi-dark-ages/tours")


def _oracle(m: HexMap, enemy_cells: list[Hex]) -> dict[Hex, tuple[int, Hex]]:
    """Per cell: (fewest steps over the map's cells to an enemy cell, the lowest such cell)."""
    best: dict[Hex, tuple[int, Hex]] = {}
    for e in enemy_cells:
        seen = {e: 0}
        todo = deque([e])
        while todo:
            h = todo.popleft()
            for n in h.neighbours():
                if n in m.index and n not in seen:
                    seen[n] = seen[h] + 1
                    todo.append(n)
        for h, d in seen.items():
            if h not in best or (d, e) < best[h]:
                best[h] = (d, e)
    return best


def _enemy_cells(b: Board, side: str) -> list[Hex]:
    return [h for h, ids in b.at.items() if ids and b.units[ids[0]].side != side and h in b.map.index]


def _boards(scenario: str) -> list[Board]:
    """The board after every tenth decision of a scripted battle's first 120."""
    st_ = load_game(scenario).new_state(4)
    assert isinstance(st_, DarkAgesState)
    red, blue = make_bot("scripted", 1, "spi-dark-ages"), make_bot("scripted", 2, "spi-dark-ages")
    out = []
    for i in range(120):
        if st_.is_terminal():
            break
        d = st_.decision()
        assert d is not None
        st_.apply((red if d.side == st_.board.sides[0] else blue).choose(st_))
        if i % 10 == 0:
            out.append(st_.board.copy())
    return out


def _as_dict(f: B.EnemyField, m: HexMap) -> dict[Hex, tuple[int, Hex]]:
    return {h: f[h] for h in m.order if h in f}


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_field_is_the_nearest_enemy_cell_of_every_cell_kept_or_searched(scenario: str) -> None:
    boards = _boards(scenario)
    assert len(boards) >= 6
    for b in boards:
        for side in b.sides:
            want = _oracle(b.map, _enemy_cells(b, side))
            with reference_path():
                searched = B.nearest_enemy_field(b, side)
            first = B.nearest_enemy_field(b, side)
            again = B.nearest_enemy_field(b, side)
            assert _as_dict(searched, b.map) == want == _as_dict(first, b.map)
            assert again is first  # kept on the map: the second asking finds the first's field
            assert tuple(sorted(b.map.index[h] for h in _enemy_cells(b, side))) in b.map.fields


def test_the_maps_fields_are_bounded_and_emptied_when_full() -> None:
    b = _boards("spi-dark-ages/tours")[-1]
    m = b.map
    m.fields.clear()
    cells = list(m.order)
    for k in range(B.FIELDS_KEPT):
        m.fields[(len(cells) + k,)] = None  # (keys no board can have: no cell has such an index)
    assert len(m.fields) == B.FIELDS_KEPT
    got = B.nearest_enemy_field(b, b.sides[0])
    assert len(m.fields) == 1 and next(iter(m.fields.values())) is got
    assert _as_dict(got, m) == _oracle(m, _enemy_cells(b, b.sides[0]))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_random_enemy_cells_give_the_oracles_field(data: st.DataObject) -> None:
    """Enemy units put on random cells of Tours' board (the others taken off it): the field kept or
    searched is the oracle's, and a unit moved makes another field."""
    b = _BOARD.copy()
    side = b.sides[0]
    foes = [u for u in b.units.values() if u.side != side]
    cells = data.draw(
        st.lists(st.sampled_from(b.map.order), min_size=1, max_size=min(8, len(foes)), unique=True)
    )
    b.at = {}
    for u, h in zip(foes, cells, strict=False):
        b.at[h] = [u.id]
    got = B.nearest_enemy_field(b, side)
    assert _as_dict(got, b.map) == _oracle(b.map, cells)
    with reference_path():
        assert _as_dict(B.nearest_enemy_field(b, side), b.map) == _as_dict(got, b.map)


def _board() -> Board:
    st_ = load_game("spi-dark-ages/tours").new_state(0)
    assert isinstance(st_, DarkAgesState)
    return st_.board


_BOARD = _board()


def test_a_pickled_or_deep_copied_map_is_the_map_without_its_caches() -> None:
    import copy
    import pickle

    b = _BOARD.copy()
    B.nearest_enemy_field(b, b.sides[0])
    assert b.map.fields
    for m in (pickle.loads(pickle.dumps(b.map)), copy.deepcopy(b.map)):
        assert m.fields == {} and m.memo == {} and m.drawn == {}
        assert m == b.map and m.order == b.map.order and m.adjacent == b.map.adjacent
        assert m.hilltops == b.map.hilltops and m.slopes == b.map.slopes and m.road_hexes == b.map.road_hexes


def test_a_field_and_a_led_copy_and_pickle_as_themselves() -> None:
    import copy
    import pickle

    b = _BOARD.copy()
    f = B.nearest_enemy_field(b, b.sides[0])
    led = B.Led([Hex(1, 1), None, Hex(4, 2)])
    for twin in (copy.deepcopy(f), pickle.loads(pickle.dumps(f))):
        assert twin is not f and _as_dict(twin, b.map) == _as_dict(f, b.map)
    for other in (copy.deepcopy(led), pickle.loads(pickle.dumps(led))):
        assert other.leaders == led.leaders and other.hexes == led.hexes
