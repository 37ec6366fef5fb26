"""Hexsides, map edges, enclosed hexes (hilltops), lines of fire along hex lines and CCRR labels:
Hypothesis properties of the hex-wargame extensions of core/hexgrid.py."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.core.hexgrid import (
    Hex,
    ccrr,
    edge_hexes,
    enclosed,
    first_block,
    from_offset,
    hexside,
    hexside_between,
    line,
    line_pairs,
    parse_ccrr,
    to_offset,
)

coord = st.integers(-30, 30)
hexes = st.builds(Hex, coord, coord)


@given(hexes, hexes)
def test_distance_is_symmetric_and_zero_only_on_itself(a: Hex, b: Hex) -> None:
    assert a.distance(b) == b.distance(a)
    assert (a.distance(b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_distance_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(hexes, st.integers(0, 5))
def test_a_hexside_has_one_name_from_either_side(h: Hex, d: int) -> None:
    n = h.neighbour(d)
    assert hexside(h, d) == hexside(n, (d + 3) % 6) == hexside_between(h, n) == hexside_between(n, h)
    assert hexside(h, d)[1] in (0, 1, 2)


@given(hexes, hexes)
def test_line_pairs_are_symmetric_and_between(a: Hex, b: Hex) -> None:
    pairs = line_pairs(a, b)
    assert pairs == list(reversed(line_pairs(b, a)))
    assert len(pairs) == max(0, a.distance(b) - 1)
    for x, y in pairs:
        assert x.distance(y) <= 1
        assert a.distance(x) + x.distance(b) == a.distance(b)
    assert [min(x, y) for x, y in pairs] == [min(x, y) for x, y in pairs]
    interior = line(a, b)[1:-1]
    assert all(h in p for h, p in zip(interior, pairs, strict=True))


@settings(max_examples=200)
@given(hexes, hexes, st.sets(hexes, max_size=40))
def test_line_of_fire_is_symmetric_when_blocking_depends_only_on_the_hex(
    a: Hex, b: Hex, walls: set[Hex]
) -> None:
    def blocks(h: Hex) -> bool:
        return h in walls

    assert (first_block(a, b, blocks) is None) == (first_block(b, a, blocks) is None)


def test_a_line_along_a_hexside_is_blocked_only_if_both_hexes_block() -> None:
    a, b = Hex(0, 0), Hex(2, -1)
    ((x, y),) = line_pairs(a, b)
    assert x != y
    assert first_block(a, b, lambda h: h == x) is None
    assert first_block(a, b, lambda h: h in (x, y)) == x


@given(st.integers(0, 40), st.integers(0, 40))
def test_offset_and_ccrr_round_trip(c: int, r: int) -> None:
    h = from_offset(c, r)
    assert to_offset(h) == (c, r)
    assert parse_ccrr(ccrr(h)) == h


def _grid(cols: int, rows: int) -> set[Hex]:
    return {from_offset(c, r) for c in range(cols) for r in range(rows)}


def test_a_non_slope_hex_ringed_by_slopes_is_enclosed() -> None:
    grid = _grid(9, 9)
    top = from_offset(4, 4)
    ring = set(top.neighbours())
    assert enclosed(grid, ring) == {top}
    assert enclosed(grid, ring - {top.neighbour(0)}) == set()


@settings(max_examples=100)
@given(
    st.integers(2, 9),
    st.integers(2, 9),
    st.sets(st.tuples(st.integers(0, 8), st.integers(0, 8)), max_size=30),
)
def test_enclosed_hexes_are_inner_non_walls_and_not_edges(
    cols: int, rows: int, raw: set[tuple[int, int]]
) -> None:
    grid = _grid(cols, rows)
    walls = {from_offset(c, r) for c, r in raw} & grid
    got = enclosed(grid, walls)
    assert not got & walls
    assert not got & edge_hexes(grid)
    # no enclosed hex has an open neighbour that is not enclosed
    for h in got:
        assert all(n in walls or n in got for n in h.neighbours() if n in grid)
