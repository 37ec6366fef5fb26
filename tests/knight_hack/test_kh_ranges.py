"""The ranges Knight Hack's table draws from a selected unit (the plugin's ``ranges``): the missile
window's range band and front arc (knight-hack:missile.window, ruling R41) and a line to each enemy
the unit's side sees, saying what the engine's own tests say: a target of the missile window's menu,
or a charge the engine would let it declare (knight-hack:charge.declare-range, knight-hack:charge.wheel);
the other side's hidden ambushers get no line (knight-hack:ambush.execute)."""

from __future__ import annotations

import math

from shieldwall import registry
from shieldwall.core.errors import IllegalOrder
from shieldwall.core.polygons import point_in_polygon
from shieldwall.rulesets.knight_hack.geom import check_charge
from shieldwall.rulesets.knight_hack.phase_charge import fire_targets
from shieldwall.rulesets.knight_hack.ranges import ranges

from .test_kh_game import game, unit


def _state() -> object:
    return game(
        [(unit("r1", "archers", weapons=["bow"], cls="C"), 20, 10, 0), (unit("r2"), 10, 10, 0)],
        [
            (unit("b1"), 20, 20, 180),  # ahead, within 12 in.
            (unit("b2"), 40, 30, 180),  # beyond the bow's range
            (unit("b3"), 2, 14, 90),  # within range, out of the front arc
            (unit("b4", ambush=True), 26, 16, 180),  # hidden in ambush
        ],
    ).new_state(1)


def test_missile_window_range_band_and_front_arc_are_the_engines() -> None:
    s = _state()
    b = s.board  # type: ignore[attr-defined]
    r = ranges(s, "r1")  # type: ignore[arg-type]
    assert r is not None and r["sight_label"] == "may shoot at"
    band, arc = r["shapes"]
    assert band["label"] == "bow range 12 in." and band["kind"] == "range" and arc["kind"] == "arc"
    assert band["rule"] == arc["rule"] == "knight-hack:missile.window"
    fp = b.units["r1"].footprint()
    # the band: every point 12 in. from the base (closest points), a little more at its corners
    far = [min(math.dist(p, c) for c in fp.corners()) for p in band["points"]]
    assert min(far) >= 12 - 0.02 and max(far) <= 12 + 0.02
    # the arc covers the target ahead, not the one beside the unit
    assert point_in_polygon((20, 20), [tuple(p) for p in arc["points"]])
    assert not point_in_polygon((2, 14), [tuple(p) for p in arc["points"]])
    lines = {x["unit"]: x for x in r["sight"]}
    assert set(lines) == {"b1", "b2", "b3"}  # not the hidden ambusher b4
    # the lines say what the missile window's menu offers
    assert (
        {k for k, v in lines.items() if v["visible"]}
        == {t.id for t in fire_targets(b, b.units["r1"])}
        == {"b1"}
    )
    assert lines["b2"]["why"] == "b2 is beyond 12 in." and lines["b3"]["why"] == "b3 is not in the front arc"


def test_a_unit_without_missiles_lines_are_the_charges_the_engine_allows() -> None:
    s = _state()
    b = s.board  # type: ignore[attr-defined]
    r = ranges(s, "r2")  # type: ignore[arg-type]
    assert r is not None and r["shapes"] == [] and r["sight_label"] == "may charge"
    for line in r["sight"]:
        try:
            check_charge(b, b.units["r2"], b.units[line["unit"]])
            allowed, clause = True, None
        except IllegalOrder as exc:
            allowed, clause = False, exc.rule
        assert line["visible"] is allowed
        if not allowed:
            assert line["rule"] == clause and line["why"]
    assert ranges(s, "zz") is None  # type: ignore[arg-type]


def test_knight_hack_plugin_names_its_ranges() -> None:
    rs = registry.find("knight-hack")
    assert rs is not None and rs.optional("ranges") is ranges
