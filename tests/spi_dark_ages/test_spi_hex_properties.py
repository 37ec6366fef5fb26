"""Hex geometry properties (Hypothesis): distance is a metric and agrees with the neighbours, CCRR
labels and offsets round-trip, a hex line reversed is the same line, and the line of fire of
``combat.D.over-units`` / ``tec.sections`` is symmetric where the rules make it so: between two
hexes of the same elevation class, units and blocking terrain on the sample map block it both ways
or neither (from a hilltop into lower ground it is not symmetric: ``combat.D.hilltop-over``)."""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.core.hexgrid import Hex, ccrr, from_offset, line, line_pairs, parse_ccrr, to_offset
from shieldwall.rulesets.spi_dark_ages.board import Board
from shieldwall.rulesets.spi_dark_ages.fire import line_of_fire
from shieldwall.rulesets.spi_dark_ages.hexmap import neighbours, spiral_of

from .fixtures import H, state

hexes = st.builds(Hex, st.integers(-40, 40), st.integers(-40, 40))
COLS, ROWS = 24, 18  # the sample map
cells = st.builds(H, st.integers(0, COLS - 1), st.integers(0, ROWS - 1))


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert a.distance(b) == b.distance(a) >= 0
    assert (a.distance(b) == 0) == (a == b)
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(hexes, st.integers(0, 5))
def test_neighbours_are_at_distance_one_in_their_direction(h: Hex, d: int) -> None:
    n = neighbours(h)[d]
    assert n == h.neighbour(d) and h.distance(n) == 1
    assert h.direction_to(n) == d and n.direction_to(h) == (d + 3) % 6


@given(hexes, st.integers(0, 4))
def test_spiral_is_the_disc_in_order(h: Hex, r: int) -> None:
    sp = spiral_of(h, r)
    assert len(sp) == len(set(sp)) == 1 + 3 * r * (r + 1)
    assert all(x.distance(h) <= r for x in sp)
    assert [x.distance(h) for x in sp] == sorted(x.distance(h) for x in sp)


@given(st.integers(0, 98), st.integers(0, 98))
def test_ccrr_and_offsets_round_trip(c: int, r: int) -> None:
    h = from_offset(c, r)
    assert to_offset(h) == (c, r)
    assert ccrr(h) == f"{c + 1:02d}{r + 1:02d}" and parse_ccrr(ccrr(h)) == h


@given(hexes, hexes)
def test_a_hex_line_reversed_is_the_same_line(a: Hex, b: Hex) -> None:
    ln = line(a, b)
    assert ln[0] == a and ln[-1] == b and len(ln) == a.distance(b) + 1
    assert all(x.distance(y) == 1 for x, y in zip(ln, ln[1:], strict=False))
    assert line_pairs(a, b) == list(reversed(line_pairs(b, a)))


@cache
def _board() -> Board:
    """The sample map with an archer of each side (placed anew for each example)."""
    return state([("ga", "green", "archer", H(0, 0), 1), ("ta", "tan", "archer", H(1, 0), 4)]).board


@settings(max_examples=150, deadline=None)
@given(cells, cells, st.lists(cells, max_size=12))
def test_combat_D_over_units_line_of_fire_is_symmetric_between_equal_elevations(
    a: Hex, b: Hex, blockers: list[Hex]
) -> None:
    b0 = _board().copy()
    m = b0.map
    if a == b or m.elevation(a) != m.elevation(b):
        return
    ga, ta = b0.units["ga"], b0.units["ta"]
    b0.place(ga, a)
    b0.place(ta, b)
    for i, h in enumerate(blockers):
        if h not in (a, b):
            b0.units[f"x{i}"] = type(ga)(f"x{i}", "green", "spear", None)
            b0.place(b0.units[f"x{i}"], h)
    there = line_of_fire(b0, ga, b)
    back = line_of_fire(b0, ta, a)
    assert (there is None) == (back is None), (ccrr(a), ccrr(b), there, back)
    if there is not None and back is not None:
        # each names a hex on the line strictly between the two (the first from its own end)
        between = {x for p in line_pairs(a, b) for x in p}
        assert there[0] in between and back[0] in between
