"""The ranges SPI Dark Ages's hex board draws from a selected unit (the plugin's ``ranges``), in
hexes: a missile unit's fire range, +1 downhill from a hilltop (combat.D.hilltop-range), outlined
around exactly the hexes the engine's ``fire_range`` allows; the front hexes where an enemy's move
stops (movement.K.stop, the engine's ``Board.controller``); and the lines of fire to every enemy,
clear or blocked where ``line_of_fire`` says (combat.D.over-units)."""

from __future__ import annotations

from shieldwall import registry
from shieldwall.core.hexgrid import ccrr, spiral
from shieldwall.core.outlines import cells_outline
from shieldwall.core.polygons import point_in_polygon
from shieldwall.rulesets.spi_dark_ages.fire import can_fire_at, fire_range, line_of_fire
from shieldwall.rulesets.spi_dark_ages.picture import centre, corners
from shieldwall.rulesets.spi_dark_ages.ranges import ranges

from .fixtures import H, state

A = H(8, 8)
B = A.neighbour(1)
ARCHER = A.neighbour(3)


def _st() -> object:
    return state(
        [
            ("ts", "tan", "spear", A, 1),
            ("ta", "tan", "archer", ARCHER, 1),
            ("gs", "green", "spear", B, 4),
            ("gl", "green", "leader", B.neighbour(1), 4),
            ("gx", "green", "spear", H(8, 3), 4),
        ]
    )


def _inside(pt: tuple[float, float], shapes: list[dict[str, object]]) -> bool:
    return any(point_in_polygon(pt, [tuple(p) for p in s["points"]]) for s in shapes)  # type: ignore[attr-defined]


def test_fire_range_outline_holds_exactly_the_hexes_in_range() -> None:
    st = _st()
    b = st.board  # type: ignore[attr-defined]
    u = b.units["ta"]
    r = ranges(st, "ta")  # type: ignore[arg-type]
    assert r is not None
    band = [s for s in r["shapes"] if s["kind"] == "range"]
    assert band and band[0]["label"] == f"fire range {b.type_of(u).range} hexes"
    assert band[0]["rule"] == "spi-dark-ages:combat.D.hilltop-range"
    for h in spiral(u.hex, b.type_of(u).range + 3):
        if not b.map.on_map(h):
            continue
        assert _inside(centre(b.map, h), band) is (u.hex.distance(h) <= fire_range(b, u, h)), ccrr(h)


def test_front_hexes_where_an_enemy_stops_are_the_engines() -> None:
    st = _st()
    b = st.board  # type: ignore[attr-defined]
    u = b.units["ta"]
    r = ranges(st, "ta")  # type: ignore[arg-type]
    assert r is not None
    arc = [s for s in r["shapes"] if s["kind"] == "arc"]
    assert arc and arc[0]["rule"] == "spi-dark-ages:movement.K.stop"
    for h in u.hex.neighbours():
        c = b.controller(h, "green")
        assert _inside(centre(b.map, h), arc) is (c is not None and c[0].id == "ta"), ccrr(h)
    # a spear (not a missile unit) controls nothing and has no line of fire
    spear = ranges(st, "ts")  # type: ignore[arg-type]
    assert spear == {"unit": "ts", "shapes": [], "sight": []}
    assert ranges(st, "zz") is None  # type: ignore[arg-type]


def test_lines_of_fire_are_clear_or_blocked_where_the_engine_says() -> None:
    st = _st()
    b = st.board  # type: ignore[attr-defined]
    u = b.units["ta"]
    r = ranges(st, "ta")  # type: ignore[arg-type]
    assert r is not None and r["sight_label"] == "has a clear line of fire to"
    lines = {x["unit"]: x for x in r["sight"]}
    assert set(lines) == {"gs", "gl", "gx"}
    for uid, line in lines.items():
        blocked = line_of_fire(b, u, b.units[uid].hex)
        assert line["visible"] is (blocked is None)
        if blocked is not None:
            assert line["rule"] == f"spi-dark-ages:{blocked[1]}" and ccrr(blocked[0]) in line["why"]
        if line["visible"] and u.hex.distance(b.units[uid].hex) <= fire_range(b, u, b.units[uid].hex):
            assert can_fire_at(b, u, b.units[uid].hex)[0]
    assert lines["gl"]["rule"] == "spi-dark-ages:combat.D.over-units" and not lines["gl"]["visible"]


def test_cells_outline_of_a_ring_has_its_hole() -> None:
    st = _st()
    m = st.board.map  # type: ignore[attr-defined]
    ring = [h for h in spiral(A, 2) if A.distance(h) >= 1]
    loops = cells_outline([corners(m, h) for h in ring])
    assert sorted(len(x) for x in loops) == [6, 30]  # the hole (A's hexagon) and the outer edge
    assert len(cells_outline([corners(m, A)])[0]) == 6


def test_spi_plugin_names_its_ranges() -> None:
    rs = registry.find("spi-dark-ages")
    assert rs is not None and rs.optional("ranges") is ranges
