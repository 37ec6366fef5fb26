"""Slice 4: PIPs and commands, allies, losses, victory; the terrain procedure; deployment.
(Clause tests T11, T16, T17, T20; the sample data is illustrative, NOT the published tables.)"""

from __future__ import annotations

from fractions import Fraction

import pytest

from shieldwall.core.dice import seeded_rng
from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import Footprint
from shieldwall.rulesets.dbm.command import (
    CommandState,
    Mover,
    ally_flips,
    baggage_loss,
    check_demoralised,
    check_formation_change,
    check_group_move,
    ee,
    flank_march_compare,
    march_surcharge,
    must_flee_demoralised,
    pip_cost,
    pip_regular,
    quarter_transfer,
)
from shieldwall.rulesets.dbm.deploy import (
    assign_baggage,
    boxes_conflict,
    check_deploy_first,
    check_flank_marcher,
    check_rectangles,
)
from shieldwall.rulesets.dbm.tables import Tables
from shieldwall.rulesets.dbm.terrain import (
    Placed,
    TerrainLog,
    bua_position_ok,
    check_phases,
    check_roads,
    defender_river,
    defender_total,
    defender_ww,
    feature_fe,
    fort_angles_ok,
    going_of,
    hill_features,
    invader_area,
    invader_option,
    position_ok,
    river_in_band,
    river_zone,
    run_procedure,
    visibility_of,
    ww_extent_ok,
)


def test_pip_march_extra(tables: Tables) -> None:  # T11
    sp = [Mover("Sp", "O")] * 4
    assert march_surcharge(sp, 3, False) == 0 and march_surcharge(sp, 4, False) == 1
    bd = [Mover("Bd", "O", regular=False)] * 4
    assert march_surcharge(bd, 3, single_column=False) == 1
    assert march_surcharge(bd, 3, single_column=True) == 0
    gen = [Mover("Kn", "O", general=True), Mover("Sp", "O")]
    assert march_surcharge(gen, 3, False) == 0
    assert march_surcharge([Mover("Kn", "O"), Mover("Sp", "O")], 3, False) == 1
    assert march_surcharge([Mover("Hd", "O")], 3, False) == 1
    assert march_surcharge([Mover("Ps", "O", regular=False, skirmisher=True)], 3, False) == 0
    assert pip_cost(tables, "march_move", sp, 4) == tables.pips.cost["march_move"] + 1
    assert pip_cost(tables, "tactical_move", sp) == tables.pips.cost["tactical_move"]


def test_size_el_general_pips_regular() -> None:
    assert pip_regular(Mover("El", "O", regular=False, general=True, el_general_regular=True))


def test_group_formation() -> None:
    check_formation_change([0.0, 30.0], [0.0, 60.0])
    with pytest.raises(IllegalOrder, match="dbm-3.2:group.formation"):
        check_formation_change([0.0, 30.0], [-10.0, 60.0])


def test_group_limits() -> None:
    with pytest.raises(IllegalOrder, match="dbm-3.2:group.limits"):
        check_group_move(True, False)
    with pytest.raises(IllegalOrder, match="dbm-3.2:group.limits"):
        check_group_move(False, True)
    check_group_move(False, False)


def test_loss_ee() -> None:  # T16
    got = [
        ee("WWg", "I"),
        ee("Ps", "O"),
        ee("Hd", "O"),
        ee("Hd", "I"),
        ee("Exp", "O"),
        ee("Ax", "I", regular=False),
        ee("Ax", "I", regular=True),
        ee("Bd", "O"),
        ee("Bts", "F"),
    ]
    assert got == [3, Fraction(1, 2), Fraction(1, 2), 0, 0, Fraction(1, 2), 1, 1, Fraction(1, 2)]


def test_loss_baggage() -> None:  # T16
    assert (baggage_loss("cc"), baggage_loss("other"), baggage_loss("demoralised")) == (2, 1, 0)
    assert ee("Bge", "O") == 0  # not in a command's original EE


def _cmd(name: str, side: str, orig: int, lost: float, **kw: object) -> CommandState:
    return CommandState(name, side, Fraction(orig), Fraction(lost), **kw)  # type: ignore[arg-type]


def test_victory_quarter() -> None:  # T17
    cmds = [
        _cmd("r1", "red", 12, 3),
        _cmd("r2", "red", 8, 2),
        _cmd("b1", "blue", 12, 3),
        _cmd("b2", "blue", 8, 1),
    ]
    vp, ev = quarter_transfer({"red": 5, "blue": 5}, cmds)
    assert vp == {"red": 4, "blue": 6} and ev is not None and ev["rule"] == "dbm-3.2:victory.quarter"
    even = [_cmd("r1", "red", 12, 3), _cmd("b1", "blue", 12, 3)]
    assert quarter_transfer({"red": 5, "blue": 5}, even) == ({"red": 5, "blue": 5}, None)
    dem = [*cmds, _cmd("b3", "blue", 4, 4, demoralised=True)]
    assert quarter_transfer({"red": 5, "blue": 5}, dem)[1] is None
    assert not _cmd("x", "red", 12, Fraction(11, 4)).quarter_lost  # type: ignore[arg-type]


def test_ally_unreliable_b() -> None:
    main = {"red": "Franks", "blue": "Norse-Irish"}
    ally = _cmd("ally", "red", 8, 0, ally=True, irregular_general=True, nation="Bretons")
    reg = _cmd("ally2", "red", 8, 0, ally=True, irregular_general=False, nation="Bretons")
    cw = _cmd("ally3", "red", 8, 0, ally=True, nation="Franks", civil_war=True)
    same = _cmd("ally4", "red", 8, 0, ally=True, irregular_general=True, nation="Franks")
    main_c = _cmd("c1", "red", 12, 6, demoralised=True)
    ev = ally_flips([main_c, ally, reg, cw, same], main)
    assert [e["command"] for e in ev] == ["ally", "ally3"]
    assert ally.side == "blue" and reg.side == "red" and same.side == "red"
    assert (
        ally_flips([_cmd("c1", "red", 12, 0), _cmd("a", "red", 8, 0, ally=True, civil_war=True)], main) == []
    )


def test_demor_flee_and_demoralisation(tables: Tables) -> None:
    assert must_flee_demoralised(True, False, False, False)
    assert not must_flee_demoralised(True, False, False, True)  # front edge in contact with enemy
    assert not must_flee_demoralised(True, True, False, False)
    assert not must_flee_demoralised(True, False, True, False)
    assert not must_flee_demoralised(False, False, False, False)
    assert check_demoralised(tables, _cmd("c", "red", 12, 4)) == (
        Fraction(4) >= Fraction(tables.game.demoralised_at_fraction).limit_denominator(1000) * 12
    )


def test_flank_both() -> None:
    assert (flank_march_compare(6, 4), flank_march_compare(4, 6), flank_march_compare(5, 5)) == (
        "a",
        "b",
        "equal",
    )


def test_flank_who() -> None:
    with pytest.raises(IllegalOrder, match="dbm-3.2:flank.who"):
        check_flank_marcher(True, False)
    with pytest.raises(IllegalOrder, match="dbm-3.2:flank.who"):
        check_flank_marcher(False, True)


def _fp(x: float, y: float) -> Footprint:
    return Footprint(x, y, 0, 80, 30)


def test_deploy_rectangle_touching_and_overlapping() -> None:  # T20
    a = [_fp(40, 15), _fp(120, 15)]  # box x 0..160
    b = [_fp(200, 15)]  # box x 160..240: touching
    check_rectangles({"a": a, "b": b})
    c = [_fp(199, 15)]  # overlaps 1 p
    with pytest.raises(IllegalOrder, match="dbm-3.2:deploy.rectangle"):
        check_rectangles({"a": a, "c": c})
    assert boxes_conflict((0, 0, 100, 100), (10, 10, 20, 20))  # inside


def test_deploy_first() -> None:  # T20
    check_deploy_first("c1", {"c1": 8, "c2": 8})  # ruling R9: any of the equal largest
    with pytest.raises(IllegalOrder, match="dbm-3.2:deploy.first"):
        check_deploy_first("c2", {"c1": 8, "c2": 6})


def test_size_assign_baggage_after_deployment() -> None:
    assert assign_baggage("c1", ["c1", "c2"], True)["rule"] == "dbm-3.2:deploy.baggage"
    with pytest.raises(IllegalOrder, match="dbm-3.2:deploy.baggage"):
        assign_baggage("c1", ["c1"], False)
    with pytest.raises(IllegalOrder, match="dbm-3.2:deploy.baggage"):
        assign_baggage("flank", ["c1"], True)


def test_terrain_invader_one_only_and_ww_needs_naval() -> None:
    log = TerrainLog()
    with pytest.raises(IllegalOrder, match="dbm-3.2:terrain.invader"):
        invader_option(seeded_rng(1), log, "two things", 0, [])
    with pytest.raises(IllegalOrder, match="dbm-3.2:terrain.inv-ww"):
        invader_option(seeded_rng(1), log, "WW", 1, [])
    # compulsory for the defender: no dicing
    assert invader_option(seeded_rng(1), TerrainLog(), "WW", 2, ["WW"]) == "WW"


def test_terrain_inv_ww_dicing_and_fallback() -> None:
    results = set()
    for seed in range(30):
        log = TerrainLog()
        got = invader_option(seeded_rng(seed), log, "WW", 2, [], fallback="road")
        face = log.events[0]["face"]
        assert (got == "WW") == (face >= 4)
        results.add(got)
    assert results == {"WW", "road"}


def test_terrain_inv_river_band() -> None:
    for seed in range(20):
        log = TerrainLog()
        if invader_option(seeded_rng(seed), log, "river", 0, ["river"]) == "river":
            d = log.events[-2]["face"]
            assert log.features[0].params["band_p"] == (250 + 50 * d, 600 + 100 * d)
    assert river_in_band([400, 500, 650], (400, 700)) and not river_in_band([390, 500], (400, 700))


def test_terrain_inv_road_hills() -> None:
    log = TerrainLog()
    assert invader_option(seeded_rng(0), log, "road", 0, [], hills_fe=2.5) == "road"
    hill = log.features[1]
    assert hill.params == {"class": "H(S)", "counts_compulsory": False}
    with pytest.raises(IllegalOrder, match="dbm-3.2:terrain.inv-road"):
        invader_option(seeded_rng(0), TerrainLog(), "road", 0, [], hills_fe=1)


def test_terrain_def_total_halves_compulsory() -> None:
    assert defender_total([Placed("wood", 1.0, compulsory=True), Placed("hill-gentle", 1.5)]) == 2.0
    with pytest.raises(IllegalOrder, match="dbm-3.2:terrain.def-total"):
        defender_total([Placed("wood", 1.0, compulsory=True), Placed("brush", 1.0)])


def test_terrain_def_phases() -> None:
    check_phases(
        [
            Placed("river", 1, phase="compulsory"),
            Placed("wood", 1, phase="compulsory"),
            Placed("BUA", 1, phase="optional"),
        ]
    )
    with pytest.raises(IllegalOrder, match="dbm-3.2:terrain.def-phases"):
        check_phases([Placed("wood", 1, phase="compulsory"), Placed("river", 1, phase="compulsory")])
    with pytest.raises(IllegalOrder, match="dbm-3.2:terrain.def-phases"):
        check_phases([Placed("wood", 1, phase="optional"), Placed("brush", 1, phase="compulsory")])


def test_terrain_def_ww() -> None:
    with pytest.raises(IllegalOrder, match="dbm-3.2:terrain.def-ww"):
        defender_ww(seeded_rng(0), TerrainLog(), False, True, False, False)
    with pytest.raises(IllegalOrder, match="dbm-3.2:terrain.def-ww"):
        defender_ww(seeded_rng(0), TerrainLog(), False, False, True, False)
    assert defender_ww(seeded_rng(0), TerrainLog(), True, False, False, False)
    for seed in range(10):
        log = TerrainLog()
        got = defender_ww(seeded_rng(seed), log, False, False, False, False)
        assert got == (log.events[0]["face"] >= 5)


def test_terrain_def_river_zones() -> None:
    assert [river_zone(f) for f in range(1, 7)] == [0, 1, 1, 2, 2, 3]
    log = TerrainLog()
    band = defender_river(seeded_rng(3), log, True, 1600)
    q = river_zone(log.events[0]["face"])
    assert band == (q * 400, (q + 1) * 400)
    for seed in range(10):
        log = TerrainLog()
        got = defender_river(seeded_rng(seed), log, False, 1600)
        assert (got is not None) == (log.events[0]["face"] == 6)


def test_terrain_def_bua() -> None:
    assert bua_position_ok(seeded_rng(0), TerrainLog(), True, True, False, False, True)
    assert not bua_position_ok(seeded_rng(0), TerrainLog(), False, True, True, False, True)
    assert not bua_position_ok(seeded_rng(0), TerrainLog(), False, False, False, False, True)
    for seed in range(10):
        log = TerrainLog()
        got = bua_position_ok(seeded_rng(seed), log, False, False, True, False, False)
        assert got == (log.events[0]["face"] >= 5)


def test_terrain_def_roads() -> None:
    assert check_roads([{"links": False}, {"links": False}], compulsory=True) == 1.0
    with pytest.raises(IllegalOrder, match="dbm-3.2:terrain.def-roads"):
        check_roads([{"links": True}] * 3, compulsory=False)
    with pytest.raises(IllegalOrder, match="dbm-3.2:terrain.def-roads"):
        check_roads([{"links": False}], compulsory=False)


def test_terrain_inv_area() -> None:
    invader_area(False, 1.5, ["wood"], ["wood"])
    for args in (
        (True, 1.0, ["wood"]),
        (False, 2.0, ["wood"]),
        (False, 1.0, ["BUA"]),
        (False, 1.0, ["marsh"]),
    ):
        with pytest.raises(IllegalOrder, match="dbm-3.2:terrain.inv-area"):
            invader_area(args[0], args[1], args[2], ["wood", "BUA"])  # type: ignore[arg-type]


def test_terrain_position() -> None:
    assert position_ok(1, 0) and not position_ok(2, 10)
    assert position_ok(3, 100) and position_ok(4, 300) and not position_ok(3, 99)
    assert position_ok(5, 301) and not position_ok(6, 300)  # "within 300 p" includes 300


def test_terrain_mixed_going(tables: Tables) -> None:
    assert going_of(tables, ["good", "rough"]) == "rough"
    assert going_of(tables, ["rough", "difficult", "good"]) == "difficult"
    assert visibility_of(["wood", "brush"], tables) == "clear"
    assert visibility_of(["wood"], tables) == "blocks"


def test_terrain_hill(tables: Tables) -> None:
    assert hill_features(["steep", "wooded", "gentle"]) == 1


def test_terrain_fe(tables: Tables) -> None:
    assert feature_fe(tables, "WW") == 1 and feature_fe(tables, "river") == 1


def test_terrain_ww_extent() -> None:
    assert ww_extent_ok([300, 450, 650, 700], 4)
    assert not ww_extent_ok([650, 700, 700, 300], 4)  # 3 of 4 deeper than 600
    assert not ww_extent_ok([299, 400], 6)
    assert not ww_extent_ok([300, 800], 4)  # deeper than 300 + 100 x 4


def test_fort_corner_angle() -> None:
    square = [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)]
    ell = [(0.0, 0.0), (200.0, 0.0), (200.0, 100.0), (100.0, 100.0), (100.0, 200.0), (0.0, 200.0)]
    tri = [(0.0, 0.0), (100.0, 0.0), (50.0, 80.0)]
    assert fort_angles_ok(square) and fort_angles_ok(list(reversed(square)))
    assert fort_angles_ok(ell) and fort_angles_ok(list(reversed(ell)))
    assert not fort_angles_ok(tri) and not fort_angles_ok(list(reversed(tri)))


def test_terrain_procedure_seeded_and_logged(tables: Tables) -> None:
    a = run_procedure(seeded_rng(7), tables, "frankish-illustrative", 0)
    b = run_procedure(seeded_rng(7), tables, "frankish-illustrative", 0)
    assert a.events == b.events and a.events[-1]["kind"] == "terrain-done"
    assert all(str(e["rule"]).startswith("dbm-3.2:terrain.") for e in a.events)
    assert 2 <= a.events[-1]["defender_fe"] <= 3
