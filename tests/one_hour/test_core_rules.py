"""Clause tests for the basic rules of one-hour-dark-ages (one or more per clause, named after it).

Each test asserts the clause id appears in the event or the IllegalOrder it checks.
"""

from __future__ import annotations

import pytest
from helpers import end_movement, game, last, script, to_move_step, unit

from shieldwall.core.dice import AVERAGE_DIE, D6
from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.one_hour.combat import AttackSituation
from shieldwall.rulesets.one_hour.profiles import unit_profiles

RS = "one-hour-dark-ages"

# ------------------------------------------------------------------------------ dice & units


def test_dice_average_die_faces_and_d6_option() -> None:
    # "Dice": the d5 average die has pips 2,3,3,4,4,5; the d6 option swaps it
    assert AVERAGE_DIE.faces == (2, 3, 3, 4, 4, 5)
    g = game([unit("r1", "infantry", 10, 5)], [unit("b1", "infantry", 10, 30, 180)], options={"dice": "d6"})
    st = g.new_state(3)
    st.apply("activate r1")
    ev = last(st, "roll")
    assert ev.data["die"] == "d6" and ev.rule == f"{RS}:movement.dice"


def test_unit_definitions_attack_modifiers() -> None:
    # "Unit Definitions": Warriors d5+1, Raiders d5, Cavalry and Infantry d5, javelins d5-1, bows d5-2
    p = unit_profiles()
    assert p["warriors"].melee == 1 and p["warriors"].melee_param == "warriors_bonus"
    assert (p["raiders"].melee, p["cavalry"].melee, p["infantry"].melee) == (0, 0, 0)
    assert (p["cavalry-javelins"].melee, p["skirmishers-javelins"].melee, p["skirmishers-bows"].melee) == (
        -1,
        -1,
        -2,
    )
    # Raiders "can enter terrain like Skirmishers"; Warriors "have same terrain limits as Infantry"
    assert p["raiders"].rough_terrain and not p["warriors"].rough_terrain


def test_ideas_for_unit_types_profiles() -> None:
    # "Ideas for Unit Types": Roman Militia d5-1, Arthur's Cavalry d5+1, Knights d5+2, Servants d5-2,
    # Irish Nobles d5, Scots Nobles d5+1 with 18 Hits
    p = unit_profiles()
    assert p["roman-militia"].melee == -1 and p["roman-cavalry"].shoot == 0
    assert p["arthurs-cavalry"].melee == 1 and p["roundtable-knights"].melee == 2
    assert p["mounted-servants"].melee == -2 and p["irish-nobles"].melee == 0
    assert p["scots-nobles"].melee == 1 and p["scots-nobles"].hits == 18


# ------------------------------------------------------------------------------ combat maths


def test_melee_dice_warriors_plus_one_hits_equal_die() -> None:
    # "Melee": roll 1D5 +1 Warriors; the final result is the Hits
    s = AttackSituation("melee", AVERAGE_DIE, 1)
    assert [s.hits_for_face(f) for f in (2, 3, 4, 5)] == [3, 4, 5, 6]
    assert s.rule_of("dice") == f"{RS}:melee.dice"


def test_melee_terrain_halves_round_up() -> None:
    # "Melee. Terrain": uphill or defending woods/river bank/gully/wall halve Hits [round up]
    s = AttackSituation("melee", AVERAGE_DIE, 0, terrain=True)
    assert [s.hits_for_face(f) for f in (2, 3, 4, 5)] == [1, 2, 2, 3]


def test_melee_shieldwall_halves_infantry() -> None:
    # "Melee. Shieldwall": Infantry halve Hits
    s = AttackSituation("melee", AVERAGE_DIE, 1, shieldwall=True)
    assert s.dist().probabilities() == {2: pytest.approx(0.5), 3: pytest.approx(0.5)}


def test_melee_unshielded_flank_rear_double() -> None:
    # "Unshielded or Unprepared": double Hits on the flank or rear facing
    for facing in ("flank", "rear"):
        s = AttackSituation("melee", AVERAGE_DIE, 0, facing=facing)
        assert s.hits_for_face(4) == 8
    assert AttackSituation("melee", AVERAGE_DIE, 0, facing="front").hits_for_face(4) == 4


def test_melee_stacked_modifiers_quarter_cap() -> None:
    # "Stacked Modifiers": at most 1/4 hits: woods + shieldwall = quarter, rounded up
    s = AttackSituation("melee", AVERAGE_DIE, 1, terrain=True, shieldwall=True)
    assert [s.hits_for_face(f) for f in (2, 3, 4, 5)] == [1, 1, 2, 2]
    assert len(s.halvings()) == 2


def test_shooting_dice_bows_minus_two_javelins_minus_one_never_negative() -> None:
    # "Shooting": roll 1D5, subtract 2 for bows, 1 for javelins
    bow = AttackSituation("shoot", AVERAGE_DIE, -2)
    jav = AttackSituation("shoot", AVERAGE_DIE, -1)
    assert [bow.hits_for_face(f) for f in (2, 3, 4, 5)] == [0, 1, 2, 3]
    assert [jav.hits_for_face(f) for f in (2, 3, 4, 5)] == [1, 2, 3, 4]
    assert AttackSituation("shoot", D6, -2).hits_for_face(1) == 0


def test_shooting_unshielded_rear_doubles_and_stacked_cap() -> None:
    # "Unshielded or unprepared. Double Hits from Units shooting at the rear Facing."
    s = AttackSituation("shoot", AVERAGE_DIE, -1, facing="rear")
    assert [s.hits_for_face(f) for f in (2, 3, 4, 5)] == [2, 4, 6, 8]
    assert any(m["rule"] == f"{RS}:shooting.unshielded" for m in s.breakdown(5)["modifiers"])
    # "Stacked Modifiers. The max defensive benefit any Unit may receive is 1/4 Hits"
    w = AttackSituation("shoot", AVERAGE_DIE, 0, facing="front", terrain=True, shieldwall=True)
    assert w.hits_for_face(5) == 2  # ceil(5/4)
    assert any(m["rule"] == f"{RS}:shooting.stacked" for m in w.breakdown(5)["modifiers"])


def test_shooting_shieldwall_only_front_and_flank() -> None:
    # "Shooting. Shieldwall": halve Hits from shooting at their front or flank facings
    assert AttackSituation("shoot", AVERAGE_DIE, 0, facing="front", shieldwall=True).hits_for_face(5) == 3
    assert AttackSituation("shoot", AVERAGE_DIE, 0, facing="flank", shieldwall=True).hits_for_face(5) == 3
    # "Unshielded or unprepared": double Hits from Units shooting at the rear Facing
    assert AttackSituation("shoot", AVERAGE_DIE, 0, facing="rear", shieldwall=True).hits_for_face(5) == 10
    assert AttackSituation("shoot", AVERAGE_DIE, 0, facing="flank").hits_for_face(5) == 5


# ------------------------------------------------------------------------------ play sequence


def test_play_sequence_four_phases_attacker_first() -> None:
    # "Play Sequence": attacker's Movement, Shooting, Melee, Routs, then the defender's
    g = game([unit("r1", "infantry", 10, 5)], [unit("b1", "infantry", 40, 30, 180)], attacker="blue")
    st = g.new_state(1)
    for _ in range(2):
        st.apply("end")
    phases = [(e.data["player"], e.data["phase_name"]) for e in st.events if e.kind == "phase"]
    assert phases[:8] == [
        ("blue", "movement"),
        ("blue", "shooting"),
        ("blue", "melee"),
        ("blue", "routs"),
        ("red", "movement"),
        ("red", "shooting"),
        ("red", "melee"),
        ("red", "routs"),
    ]
    assert all(e.rule == f"{RS}:play-sequence" for e in st.events if e.kind == "phase")


def test_play_sequence_order_for_the_wrong_side_is_refused() -> None:
    g = game([unit("r1", "infantry", 10, 5)], [unit("b1", "infantry", 40, 30, 180)])
    st = g.new_state(1)
    with pytest.raises(IllegalOrder) as e:
        st.apply("activate b1")
    assert e.value.rule == f"{RS}:play-sequence"


# ------------------------------------------------------------------------------ movement


@pytest.mark.parametrize(
    ("type_", "dice"), [("infantry", 1), ("warriors", 2), ("skirmishers-bows", 2), ("cavalry", 3)]
)
def test_movement_dice_by_class(type_: str, dice: int) -> None:
    # "Movement": Class 1 Infantry 1d5+2, Class 2 Warband/Skirmishers 2d5+2, Class 3 Cavalry 3d5+2
    g = game([unit("r1", type_, 10, 5)], [unit("b1", "infantry", 40, 30, 180)])
    st = g.new_state(1)
    script(st, [3] * dice)
    st.apply("activate r1")
    roll = last(st, "roll")
    assert roll.rule == f"{RS}:movement.dice" and len(roll.data["faces"]) == dice
    assert st.rolled == 3 * dice + 2


def test_movement_no_corner_exceeds_distance_rolled() -> None:
    # "Movement": no corner exceeding the total distance rolled in inches (path length counts)
    g = game([unit("r1", "infantry", 10, 5)], [unit("b1", "infantry", 40, 30, 180)])
    st = g.new_state(1)
    to_move_step(st, "r1", [3])  # 5"
    with pytest.raises(IllegalOrder) as e:
        st.apply("move r1 go 10,10.2")
    assert e.value.rule == f"{RS}:movement"
    with pytest.raises(IllegalOrder):
        st.apply("move r1 go 13,9 go 13,10")  # 5 + 1 = 6 > 5
    st.apply("move r1 go 13,9")  # exactly 5
    assert last(st, "move").data["distance"] == pytest.approx(5.0)


def test_movement_columns_pass_a_gap_narrower_than_frontage() -> None:
    # "Movement": to fit through a gap the bases may be placed one behind the other
    red = [unit("r1", "infantry", 20, 5), unit("r2", "infantry", 14.5, 9), unit("r3", "infantry", 25.5, 9)]
    g = game(red, [unit("b1", "infantry", 40, 32, 180)])
    st = g.new_state(1)
    # r2 spans x 12..17 and r3 23..28: a 6" gap; r1 (5" wide) goes straight through it
    to_move_step(st, "r1", [5])  # 7"
    st.apply("move r1 go 20,12")
    assert st.units["r1"].fp.y == 12


def test_turning_limits_infantry_once_start_or_end() -> None:
    # "Turning" 1: Warband & Infantry may Turn once, at the start OR end of their move
    g = game([unit("r1", "infantry", 20, 5)], [unit("b1", "infantry", 40, 30, 180)])
    st = g.new_state(1)
    to_move_step(st, "r1", [5])
    with pytest.raises(IllegalOrder) as e:
        st.apply("move r1 turn 45 go 22,7 turn -45")
    assert e.value.rule == f"{RS}:turning.limits"
    st.apply("move r1 turn 45 go 22,7")
    assert st.units["r1"].fp.heading == pytest.approx(45.0)


def test_turning_limits_cavalry_twice_and_180_max() -> None:
    # "Turning" 2: Skirmishers & Cavalry may Turn twice, once at the start AND once at the end
    g = game([unit("r1", "cavalry", 20, 5)], [unit("b1", "infantry", 40, 30, 180)])
    st = g.new_state(1)
    to_move_step(st, "r1", [3, 3, 3])
    with pytest.raises(IllegalOrder) as e:
        st.apply("move r1 turn 200")
    assert e.value.rule == f"{RS}:turning"
    with pytest.raises(IllegalOrder) as e:
        st.apply("move r1 turn 10 go 22,9 turn 10 go 22,11")
    assert e.value.rule == f"{RS}:turning.limits"
    st.apply("move r1 turn 45 go 24,9 turn -90@front")
    assert st.units["r1"].fp.heading == pytest.approx(-45.0)


def test_turning_is_not_movement_pivot_on_centre_front() -> None:
    # "Turning": rotating on the centre front keeps that point; turns are not measured
    g = game([unit("r1", "infantry", 20, 5)], [unit("b1", "infantry", 40, 30, 180)])
    st = g.new_state(1)
    to_move_step(st, "r1", [2])  # 4"
    before = st.units["r1"].fp.front_centre
    st.apply("move r1 turn 90@front")
    after = st.units["r1"].fp.front_centre
    assert after == pytest.approx(before)
    assert last(st, "move").data["distance"] == 0


# ------------------------------------------------------------------------------ terrain


def _woods() -> dict[str, object]:
    return {"id": "w", "kind": "woods", "points": [[15, 10], [25, 10], [25, 18], [15, 18]]}


@pytest.mark.parametrize(
    ("type_", "allowed"),
    [
        ("infantry", False),
        ("warriors", False),
        ("cavalry", False),
        ("raiders", True),
        ("skirmishers-javelins", True),
    ],
)
def test_terrain_woods_marsh_only_skirmishers_and_raiders_enter(type_: str, allowed: bool) -> None:
    # "Woods, Marsh": only Skirmishers and Raiders may enter
    g = game([unit("r1", type_, 20, 5)], [unit("b1", "infantry", 40, 32, 180)], [_woods()])
    st = g.new_state(1)
    to_move_step(st, "r1", [5] * unit_profiles()[type_].move_class)
    if allowed:
        st.apply("move r1 go 20,12")
        assert st.units["r1"].fp.y == 12
    else:
        with pytest.raises(IllegalOrder) as e:
            st.apply("move r1 go 20,12")
        assert e.value.rule == f"{RS}:terrain.woods-marsh" and "woods" in e.value.reason


def _hill(**kw: object) -> dict[str, object]:
    return {"id": "h", "kind": "hill", "points": [[10, 8], [30, 8], [30, 20], [10, 20]], **kw}


def test_terrain_hills_movement_no_effect() -> None:
    # "Hills. Area. No movement effect.": any type crosses a hill at the full distance rolled
    for type_ in ("infantry", "warriors", "cavalry"):
        g = game([unit("r1", type_, 20, 5)], [unit("b1", "infantry", 40, 32, 180)], [_hill(crest=[[20, 14]])])
        st = g.new_state(1)
        n = unit_profiles()[type_].move_class
        to_move_step(st, "r1", [5] * n)
        rolled = 5.0 * n + 2.0
        st.apply(f"move r1 go 20,{5 + rolled}")
        assert st.units["r1"].fp.y == pytest.approx(5 + rolled)


def test_terrain_hills_uphill_centre_point_crest_or_plateau() -> None:
    # "'Uphill' must be defined by center point, crest or plateau": higher = nearer to it
    point = _hill(crest=[[20, 14]])
    crest = _hill(crest=[[10, 14], [30, 14]])
    plateau = _hill(crest=[[15, 12], [25, 12], [25, 16], [15, 16]], plateau=True)
    for hill, top in ((point, (20.0, 14.0)), (crest, (12.0, 14.0)), (plateau, (16.0, 15.0))):
        g = game([unit("r1", "infantry", 20, 3)], [unit("b1", "infantry", 40, 32, 180)], [hill])
        f = g.new_state(1).terrain.features[0]
        assert f.elevation(top) == pytest.approx(1.0)
        assert 0.0 < f.elevation((20.0, 9.0)) < f.elevation((20.0, 11.0)) < 1.0
        assert f.elevation((5.0, 5.0)) == 0.0
    # the defensive bonus follows it: of two units on one hill, the one nearer the crest is uphill
    st = _engaged(
        "warriors",
        "raiders",
        terrain=[_hill(points=[[0, 8], [40, 8], [40, 30], [0, 30]], crest=[[0, 25], [40, 25]])],
    )
    script(st, [5])  # type: ignore[arg-type]
    st.apply("end")  # type: ignore[attr-defined]
    assert last(st, "melee").data["terrain"] == "uphill"


def test_terrain_lakes_impassable() -> None:
    # "Lakes. Area, impassible."
    lake = {"id": "l", "kind": "lake", "points": [[15, 10], [25, 10], [25, 18], [15, 18]]}
    g = game([unit("r1", "skirmishers-bows", 20, 5)], [unit("b1", "infantry", 40, 32, 180)], [lake])
    st = g.new_state(1)
    to_move_step(st, "r1", [5, 5])
    with pytest.raises(IllegalOrder) as e:
        st.apply("move r1 go 20,12")
    assert e.value.rule == f"{RS}:terrain.lakes" and "nobody" in e.value.reason


def _river() -> dict[str, object]:
    return {
        "id": "r",
        "kind": "river",
        "points": [[0, 12], [48, 12]],
        "width": 2,
        "crossings": [{"kind": "ford", "at": [10, 12], "width": 4}],
    }


def test_terrain_rivers_impassable_except_at_crossings() -> None:
    # "Rivers. Linear, impassible. Any Unit may cross at a bridge, a ford, or if shallow."
    g = game(
        [unit("r1", "cavalry", 30, 6), unit("r2", "cavalry", 10, 6)],
        [unit("b1", "infantry", 40, 32, 180)],
        [_river()],
    )
    st = g.new_state(1)
    to_move_step(st, "r1", [5, 5, 5])
    with pytest.raises(IllegalOrder) as e:
        st.apply("move r1 go 30,17")
    assert e.value.rule == f"{RS}:terrain.rivers" and "rivers are impassable" in e.value.reason
    st.apply("hold r1")
    to_move_step(st, "r2", [5, 5, 5])
    st.apply("move r2 go 10,17")
    assert st.units["r2"].fp.y == 17


def _crosses_at_full_distance(feature: dict[str, object]) -> None:
    """Every type of unit that may enter it moves across ``feature`` the full distance rolled."""
    for type_ in ("infantry", "warriors", "cavalry"):
        g = game([unit("r1", type_, 20, 5)], [unit("b1", "infantry", 40, 32, 180)], [feature])
        st = g.new_state(1)
        n = unit_profiles()[type_].move_class
        to_move_step(st, "r1", [5] * n)
        rolled = 5.0 * n + 2.0
        st.apply(f"move r1 go 20,{5 + rolled}")
        assert st.units["r1"].fp.y == pytest.approx(5 + rolled)


def test_terrain_villages_movement_no_effect() -> None:
    # "Villages. Area. No movement effect.": Infantry, Warriors and Cavalry cross one at full distance
    _crosses_at_full_distance(
        {"id": "v", "kind": "village", "points": [[10, 9], [30, 9], [30, 14], [10, 14]]}
    )


def test_terrain_villages_defence_inside_halves_hits() -> None:
    # "Villages. ... Defensive bonus when inside.": b1 inside the village halves r1's Hits
    vil = {"id": "v", "kind": "village", "points": [[15, 13.2], [25, 13.2], [25, 20], [15, 20]]}
    for terrain, hits in (([vil], 3), ([], 5)):  # (4+1) halved, rounded up; without it 5
        st = _engaged("warriors", "raiders", terrain=terrain)
        script(st, [4])  # type: ignore[arg-type]
        st.apply("end")  # type: ignore[attr-defined]
        ev = last(st, "melee")
        assert ev.data["hits"] == hits
        assert (ev.data["terrain"] == "village") is bool(terrain)


def test_terrain_woods_marsh_entry_only_skirmishers_and_raiders() -> None:
    # "Woods, Marsh. Area. Only Skirmishers and Raiders may enter." (woods and marsh alike)
    marsh = {**_woods(), "kind": "marsh"}
    for feature in (_woods(), marsh):
        for type_, allowed in (
            ("infantry", False),
            ("cavalry", False),
            ("raiders", True),
            ("skirmishers-bows", True),
        ):
            g = game([unit("r1", type_, 20, 5)], [unit("b1", "infantry", 40, 32, 180)], [feature])
            st = g.new_state(1)
            to_move_step(st, "r1", [5] * unit_profiles()[type_].move_class)
            if allowed:
                st.apply("move r1 go 20,12")
                assert st.units["r1"].fp.y == 12
                continue
            with pytest.raises(IllegalOrder) as e:
                st.apply("move r1 go 20,12")
            assert e.value.rule == f"{RS}:terrain.woods-marsh" and feature["kind"] in e.value.reason


def test_terrain_woods_marsh_defence_inside_halves_hits() -> None:
    # "Woods, Marsh. ... Defensive bonus when inside.": raiders inside a wood (or marsh) halve Hits
    for kind in ("woods", "marsh"):
        wood = {"id": "w", "kind": kind, "points": [[15, 13.2], [25, 13.2], [25, 20], [15, 20]]}
        st = _engaged("warriors", "raiders", terrain=[wood])
        script(st, [4])  # type: ignore[arg-type]
        st.apply("end")  # type: ignore[attr-defined]
        ev = last(st, "melee")
        assert ev.data["terrain"] == kind and ev.data["hits"] == 3  # ceil((4+1)/2)
        assert f"{RS}:terrain.woods-marsh" in ev.data["checked"]


def test_terrain_rivers_impassable_away_from_a_crossing() -> None:
    # "Rivers. Linear, impassible.": no type crosses, or stands in, the water away from a crossing
    for type_ in ("cavalry", "raiders", "skirmishers-bows"):
        g = game([unit("r1", type_, 30, 6)], [unit("b1", "infantry", 40, 32, 180)], [_river()])
        st = g.new_state(1)
        to_move_step(st, "r1", [5] * unit_profiles()[type_].move_class)
        for y in (12, 17):  # into the water, across it
            with pytest.raises(IllegalOrder) as e:
                st.apply(f"move r1 go 30,{y}")
            assert e.value.rule == f"{RS}:terrain.rivers"


@pytest.mark.parametrize("kind", ["bridge", "ford", "shallows"])
def test_terrain_rivers_crossings_any_unit_at_a_bridge_ford_or_shallows(kind: str) -> None:
    # "Any Unit may cross at a bridge, a ford, or if shallow."
    river = {**_river(), "crossings": [{"kind": kind, "at": [10, 12], "width": 4}]}
    for type_ in ("infantry", "warriors", "cavalry"):
        g = game([unit("r1", type_, 10, 6)], [unit("b1", "infantry", 40, 32, 180)], [river])
        st = g.new_state(1)
        n = unit_profiles()[type_].move_class
        to_move_step(st, "r1", [5] * n)
        st.apply(f"move r1 go 10,{6 + 5 * n + 2}")  # across (or onto) the crossing
        assert st.units["r1"].fp.y == 6 + 5 * n + 2


def test_terrain_walls_gullies_movement_no_effect() -> None:
    # "Walls, Gullies. Linear. No movement effect": any type crosses either at the full distance
    for kind in ("wall", "gully"):
        _crosses_at_full_distance({"id": "w", "kind": kind, "points": [[10, 12], [30, 12]], "width": 1})


def test_terrain_walls_gullies_defence_behind_halves_hits() -> None:
    # "Walls, Gullies. ... defensive bonus.": a unit defending either halves the Hits of melee
    for kind in ("wall", "gully"):
        feature = {"id": "w", "kind": kind, "points": [[10, 13], [30, 13]], "width": 0.5}
        st = _engaged("warriors", "raiders", terrain=[feature])
        script(st, [5])  # type: ignore[arg-type]
        st.apply("end")  # type: ignore[attr-defined]
        ev = last(st, "melee")
        assert ev.data["terrain"] == kind and ev.data["hits"] == 3  # ceil((5+1)/2)
        assert f"{RS}:terrain.walls-gullies" in ev.data["checked"]


def test_terrain_roads_three_inch_bonus_entirely_on_road_not_turning() -> None:
    # "Roads": Units get a 3" bonus moving entirely on a road, neither Charging nor Turning
    road = {"id": "rd", "kind": "road", "points": [[20, 0], [20, 36]], "width": 3}
    g = game(
        [unit("r1", "infantry", 20, 5), unit("r2", "infantry", 30, 5)],
        [unit("b1", "infantry", 40, 32, 180)],
        [road],
    )
    st = g.new_state(1)
    to_move_step(st, "r1", [2])  # 4" + 3" road bonus
    st.apply("move r1 go 20,12")
    ev = last(st, "move")
    assert ev.rule == f"{RS}:terrain.roads" and ev.data["road_bonus"] is True
    to_move_step(st, "r2", [2])  # off the road: no bonus
    with pytest.raises(IllegalOrder):
        st.apply("move r2 go 30,12")


def test_terrain_roads_no_bonus_when_turning() -> None:
    road = {"id": "rd", "kind": "road", "points": [[20, 0], [20, 36]], "width": 3}
    g = game([unit("r1", "cavalry", 20, 5)], [unit("b1", "infantry", 40, 32, 180)], [road])
    st = g.new_state(1)
    to_move_step(st, "r1", [2, 2, 2])  # 8"
    with pytest.raises(IllegalOrder):
        st.apply("move r1 go 20,15 turn 10")  # 10" with a turn: no bonus


def test_interpenetration_skirmishers_pass_friends_infantry_do_not() -> None:
    # "Interpenetration": only by Skirmishers and any Unit, and vice-versa
    red = [
        unit("r1", "skirmishers-javelins", 20, 5),
        unit("r2", "infantry", 20, 9),
        unit("r3", "infantry", 30, 5),
        unit("r4", "infantry", 30, 9),
    ]
    g = game(red, [unit("b1", "infantry", 40, 32, 180)])
    st = g.new_state(1)
    to_move_step(st, "r1", [5, 5])
    st.apply("move r1 go 20,13")  # through r2
    to_move_step(st, "r3", [5])
    with pytest.raises(IllegalOrder) as e:
        st.apply("move r3 go 30,12")  # r4 is in the way
    assert "runs into" in e.value.reason


def test_interpenetration_any_unit_through_skirmishers_never_enemies() -> None:
    red = [unit("r1", "infantry", 20, 5), unit("r2", "skirmishers-bows", 20, 8.5)]
    g = game(red, [unit("b1", "skirmishers-bows", 30, 15, 180), unit("b2", "infantry", 40, 32, 180)])
    st = g.new_state(1)
    to_move_step(st, "r1", [5])
    st.apply("move r1 go 20,12")  # an infantry unit through the friendly skirmishers
    assert st.units["r1"].fp.y == 12
    st.apply("end")
    # blue: its skirmishers may not pass through the enemy infantry
    blue = game(
        red,
        [unit("b1", "skirmishers-bows", 20, 16, 180), unit("b2", "infantry", 40, 32, 180)],
        attacker="blue",
    ).new_state(1)
    to_move_step(blue, "b1", [5, 5])
    with pytest.raises(IllegalOrder) as e:
        blue.apply("move b1 go 20,2")
    assert "runs into" in e.value.reason


# ------------------------------------------------------------------------------ line of sight
from shieldwall.rulesets.one_hour import sight as LOS  # noqa: E402
from shieldwall.rulesets.one_hour import spatial as S  # noqa: E402


def _los(st: object, a: str, b: str) -> bool:
    return LOS.has_los(st.units[a], st.units[b], st.live(), st.terrain)  # type: ignore[attr-defined]


def test_line_of_sight_blocked_by_intervening_units() -> None:
    # "Line of Sight": blocked by any intervening Units
    g = game(
        [unit("r1", "skirmishers-bows", 20, 5), unit("r2", "infantry", 20, 12, frontage=6)],
        [unit("b1", "infantry", 20, 20, 180)],
    )
    st = g.new_state(1)
    assert not _los(st, "r1", "b1")
    g2 = game([unit("r1", "skirmishers-bows", 20, 5)], [unit("b1", "infantry", 20, 20, 180)])
    assert _los(g2.new_state(1), "r1", "b1")


def test_line_of_sight_woods_into_and_out_of_but_not_through_two_sides() -> None:
    # "Units may see into and out of woods, but not through two sides of a wood."
    woods = {"id": "w", "kind": "woods", "points": [[10, 10], [30, 10], [30, 16], [10, 16]]}
    g = game(
        [unit("r1", "skirmishers-bows", 20, 5)],
        [unit("b1", "infantry", 20, 24, 180), unit("b2", "skirmishers-bows", 20, 13, 180)],
        [woods],
    )
    st = g.new_state(1)
    assert not _los(st, "r1", "b1")  # through the wood
    assert _los(st, "r1", "b2")  # into the wood
    assert _los(st, "b2", "b1")  # out of the wood


def test_line_of_sight_hills_block_unless_on_the_hill() -> None:
    hill = {
        "id": "h",
        "kind": "hill",
        "points": [[10, 10], [30, 10], [30, 16], [10, 16]],
        "crest": [[20, 13]],
    }
    g = game(
        [unit("r1", "skirmishers-bows", 20, 5)],
        [unit("b1", "infantry", 20, 24, 180), unit("b2", "infantry", 20, 13, 180)],
        [hill],
    )
    st = g.new_state(1)
    assert not _los(st, "r1", "b1")
    assert _los(st, "r1", "b2")  # the target stands on the hill


def test_line_of_sight_required_to_charge() -> None:
    # "Units must have LoS to shoot or charge enemy Units at the time of the shooting or charge."
    woods = {"id": "w", "kind": "woods", "points": [[15, 9], [25, 9], [25, 12], [15, 12]]}
    g = game([unit("r1", "warriors", 20, 5)], [unit("b1", "infantry", 20, 16, 180)], [woods])
    st = g.new_state(1)
    to_move_step(st, "r1", [5, 5])
    with pytest.raises(IllegalOrder) as e:
        st.apply("charge r1 b1 front")
    assert e.value.rule == f"{RS}:line-of-sight.required"


# ------------------------------------------------------------------------------ charging


def test_charging_arc_target_within_45_degrees() -> None:
    # "Charging" 1: the target must be within 45 degrees of the charging Unit's front
    g = game([unit("r1", "warriors", 10, 10)], [unit("b1", "infantry", 22, 12, 270)])
    st = g.new_state(1)
    to_move_step(st, "r1", [5, 5])
    with pytest.raises(IllegalOrder) as e:
        st.apply("charge r1 b1 front")
    assert e.value.rule == f"{RS}:charging.arc"
    # ...but it may turn first (its one turn) and then charge
    st.apply("charge r1 b1 front turn 85@centre")
    assert last(st, "charge").rule == f"{RS}:charging.contact"


def test_charging_contact_moves_along_the_line_and_stops_in_contact() -> None:
    # "Charging" 4: along the shortest line to the centre of the facing; stops on contact
    g = game([unit("r1", "warriors", 20, 5)], [unit("b1", "infantry", 20, 15, 180)])
    st = g.new_state(1)
    to_move_step(st, "r1", [3, 4])  # 9"; the gap is 15-1 - (5+1) = 8
    st.apply("charge r1 b1 front")
    ev = last(st, "charge")
    assert ev.rule == f"{RS}:charging.contact"
    assert ev.data["distance"] == pytest.approx(8.0)
    r1 = st.units["r1"].fp
    assert (r1.x, r1.y, r1.heading) == pytest.approx((20, 13, 0))
    assert S.contacts(st.units["r1"], st.live())[0][1:] == ("front", "front")


def test_charging_contact_needs_the_distance() -> None:
    g = game([unit("r1", "warriors", 20, 5)], [unit("b1", "infantry", 20, 16, 180)])
    st = g.new_state(1)
    to_move_step(st, "r1", [2, 2])  # 6" < 9"
    with pytest.raises(IllegalOrder) as e:
        st.apply("charge r1 b1 front")
    assert e.value.rule == f"{RS}:charging.contact"


def test_charging_no_closing_the_door() -> None:
    # "There is no additional free movement to achieve fully aligned edge-to-edge contact"
    g = game([unit("r1", "warriors", 20, 5, heading=20)], [unit("b1", "infantry", 22, 14, 180)])
    st = g.new_state(1)
    to_move_step(st, "r1", [5, 5])
    st.apply("charge r1 b1 front")
    assert st.units["r1"].fp.heading == pytest.approx(20.0)  # not swung round to align


def test_charging_flank_rear_only_from_past_the_line() -> None:
    # "Charging" 2: contacting the flank is only possible if the entire charger is past the flank line
    g = game([unit("r1", "cavalry", 10, 12, 90)], [unit("b1", "infantry", 20, 12, 0)])
    st = g.new_state(1)
    to_move_step(st, "r1", [5, 5, 5])
    with pytest.raises(IllegalOrder) as e:
        st.apply("charge r1 b1 right")
    assert e.value.rule == f"{RS}:charging.flank-rear"
    st.apply("charge r1 b1 left")
    assert last(st, "charge").data["facing"] == "left"


def test_charging_flank_refused_when_charger_straddles_the_line() -> None:
    # r1 stands in front of b1, straddling the line of b1's left flank (x = 19.5)
    g = game([unit("r1", "cavalry", 19, 18, 180)], [unit("b1", "infantry", 22, 12, 0)])
    st = g.new_state(1)
    to_move_step(st, "r1", [5, 5, 5])
    with pytest.raises(IllegalOrder) as e:
        st.apply("charge r1 b1 left")
    assert e.value.rule == f"{RS}:charging.flank-rear"


def test_charging_one_attacker_per_facing() -> None:
    # "Charging" 3: contact by only one attacking Unit per facing
    red = [unit("r1", "warriors", 20, 5), unit("r2", "warriors", 26, 5)]
    g = game(red, [unit("b1", "infantry", 22, 15, 180, frontage=6)])
    st = g.new_state(1)
    to_move_step(st, "r1", [5, 5])
    st.apply("charge r1 b1 front")
    to_move_step(st, "r2", [5, 5])
    with pytest.raises(IllegalOrder) as e:
        st.apply("charge r2 b1 front")
    assert e.value.rule == f"{RS}:charging.one-per-facing"


def test_movement_only_a_charge_ends_in_contact() -> None:
    g = game([unit("r1", "warriors", 20, 5)], [unit("b1", "infantry", 20, 15, 180)])
    st = g.new_state(1)
    to_move_step(st, "r1", [5, 5])
    with pytest.raises(IllegalOrder) as e:
        st.apply("move r1 go 20,13")
    assert "only a charge" in e.value.reason


# ------------------------------------------------------------------------------ grey areas


def test_grey_areas_too_close_to_call_roll_off() -> None:
    # "Grey Areas": a measurement too close to call is resolved with a friendly roll off
    g = game([unit("r1", "warriors", 20, 5)], [unit("b1", "infantry", 20, 15.05, 180)])
    st = g.new_state(1)
    to_move_step(st, "r1", [3, 3])  # 8" against 8.05" needed
    script(st, [("d6", 2), ("d6", 5)])  # red rolls 2, blue 5: red loses the roll-off
    st.apply("charge r1 b1 front")
    ev = last(st, "roll-off")
    assert ev.rule == f"{RS}:grey-areas" and ev.data["winner"] == "blue"
    assert last(st, "charge-short").rule == f"{RS}:grey-areas"
    assert not S.contacts(st.units["r1"], st.live())


def test_grey_areas_roll_off_won_charge_goes_in() -> None:
    g = game([unit("r1", "warriors", 20, 5)], [unit("b1", "infantry", 20, 15.05, 180)])
    st = g.new_state(1)
    to_move_step(st, "r1", [3, 3])
    script(st, [("d6", 6), ("d6", 1)])
    st.apply("charge r1 b1 front")
    assert last(st, "charge").rule == f"{RS}:charging.contact"


# ------------------------------------------------------------------------------ shooting


def _shooting_state(
    shooter: str, target_at: tuple[float, float], heading: float = 180, **kw: object
) -> object:
    g = game(
        [unit("r1", shooter, 20, 5)], [unit("b1", "warriors", target_at[0], target_at[1], heading)], **kw
    )
    st = g.new_state(1)
    st.apply("end")  # no movement
    return st


def test_shooting_range_bows_12_javelins_6() -> None:
    # "Range is 12" for bows and 6" for javelins measured from the closest points of the Units"
    st = _shooting_state("skirmishers-bows", (20, 18))  # gap 18-1-6 = 11
    assert st.step == "shoot"  # type: ignore[attr-defined]
    st2 = _shooting_state("skirmishers-bows", (20, 20))  # gap 13
    assert st2.phase != "shooting" or st2.step != "shoot"  # type: ignore[attr-defined]
    st3 = _shooting_state("skirmishers-javelins", (20, 12))  # gap 5
    assert st3.step == "shoot"  # type: ignore[attr-defined]


def test_shooting_dice_event_names_clause_and_modifiers() -> None:
    st = _shooting_state("skirmishers-bows", (20, 18))
    script(st, [5])  # type: ignore[arg-type]
    st.apply("shoot r1 b1")  # type: ignore[attr-defined]
    ev = last(st, "shot")
    assert ev.rule == f"{RS}:shooting.dice"
    assert ev.data["faces"] == [5] and ev.data["hits"] == 3 and ev.data["facing"] == "front"


def test_shooting_arc_45_degrees() -> None:
    st = _shooting_state("skirmishers-bows", (35, 10))
    assert st.step != "shoot"  # type: ignore[attr-defined]  # far outside the arc: no shot offered


def test_shooting_three_shots() -> None:
    # "Bows and javelins have three shots."
    g = game([unit("r1", "skirmishers-bows", 20, 5)], [unit("b1", "infantry", 20, 18, 180)], turns=5)
    st = g.new_state(1)
    shots = 0
    for _ in range(4):
        while st.side == "red" and st.phase == "movement":
            st.apply("end")
        if st.step == "shoot":
            st.apply("shoot r1 b1")
            shots += 1
        while st.side != "red" or st.phase != "movement":
            st.apply("end")
    assert shots == 3
    assert st.units["r1"].shots_used == 3


def test_shooting_bows_may_not_shoot_after_moving_but_may_after_turning() -> None:
    # "Bows may not shoot if they moved during the Movement Phase - Turns are not movement."
    g = game([unit("r1", "skirmishers-bows", 20, 5, 20)], [unit("b1", "infantry", 20, 16, 180)])
    st = g.new_state(1)
    to_move_step(st, "r1", [2, 2])
    st.apply("move r1 turn -20")
    end_movement(st)
    assert st.step == "shoot"
    script(st, [4])
    st.apply("shoot r1 b1")
    assert last(st, "shot").data["unit"] == "r1"
    g2 = game([unit("r1", "skirmishers-bows", 20, 5)], [unit("b1", "infantry", 20, 16, 180)])
    st2 = g2.new_state(1)
    to_move_step(st2, "r1", [2, 2])
    st2.apply("move r1 go 20,6")
    end_movement(st2)
    assert st2.step != "shoot"
    from shieldwall.rulesets.one_hour.actions import shot_problem

    prob = shot_problem(st2, st2.units["r1"], st2.units["b1"], moving=False)
    assert prob is not None and prob.startswith("shooting.bows-moved:")


def test_moving_shots_javelins_before_or_after_then_no_shooting() -> None:
    # "Moving Shots": javelin Units may shoot in their Movement Phase before or after moving;
    # "Javelins may not shoot if they performed a Moving Shot"
    g = game([unit("r1", "skirmishers-javelins", 20, 5)], [unit("b1", "infantry", 20, 12, 180)])
    st = g.new_state(1)
    to_move_step(st, "r1", [2, 2])
    script(st, [4])
    st.apply("shot r1 b1")
    assert last(st, "shot").rule == f"{RS}:moving-shots"
    st.apply("move r1 go 20,3")
    from shieldwall.rulesets.one_hour.actions import shot_problem

    prob = shot_problem(st, st.units["r1"], st.units["b1"], moving=False)
    assert prob is not None and prob.startswith("shooting.javelins-moving-shot:")


def test_shooting_into_melee_allowed() -> None:
    # "Fulfilling the above restrictions, they may shoot into a melee."
    # r2 fights b1's front; r1 sees b1's whole left flank from the east
    red = [unit("r1", "skirmishers-bows", 34, 16, 270), unit("r2", "warriors", 20, 14)]
    g = game(red, [unit("b1", "infantry", 20, 16, 180)])
    st = g.new_state(1)
    assert S.contacts(st.units["r2"], st.live())
    st.apply("end")
    script(st, [4, 3])  # the shot, then r2's melee attack
    st.apply("shoot r1 b1")
    assert last(st, "shot").data["in_melee"] is True


def test_shooting_terrain_halves_in_village() -> None:
    vil = {"id": "v", "kind": "village", "points": [[15, 14], [25, 14], [25, 22], [15, 22]]}
    st = _shooting_state("skirmishers-bows", (20, 18), terrain=[vil])
    script(st, [5])  # type: ignore[arg-type]
    st.apply("shoot r1 b1")  # type: ignore[attr-defined]
    ev = last(st, "shot")
    assert ev.data["terrain"] == "village" and ev.data["hits"] == 2
    assert any(m["rule"] == f"{RS}:shooting.terrain" for m in ev.data["modifiers"])
    # "Villages ... Defensive bonus when inside."
    assert f"{RS}:terrain.villages" in ev.data["checked"]


def test_shooting_los_facing_needs_an_entire_facing_in_view() -> None:
    # "They must have a clear Line of Sight to an entire Facing."  r2 hides half of b1's front.
    red = [unit("r1", "skirmishers-bows", 20, 5), unit("r2", "infantry", 22.5, 11)]
    st = game(red, [unit("b1", "warriors", 20, 17, 180)]).new_state(1)
    from shieldwall.rulesets.one_hour.actions import shot_problem

    prob = shot_problem(st, st.units["r1"], st.units["b1"], moving=False)
    assert prob is not None and prob.startswith("shooting.los-facing:")


# ------------------------------------------------------------------------------ melee


def _engaged(attacker: str = "warriors", defender: str = "infantry", **kw: object) -> object:
    """r1 and b1 front to front; red to play, movement phase."""
    return game([unit("r1", attacker, 20, 12)], [unit("b1", defender, 20, 14, 180)], **kw).new_state(1)


def test_melee_one_sided_only_the_phasing_player_inflicts_hits() -> None:
    # "One-Sided Melee. Units only inflict casualties during their own player turn."
    st = _engaged()
    script(st, [4])  # type: ignore[arg-type]
    st.apply("end")  # type: ignore[attr-defined]  # movement; no shooting; melee resolves
    ev = last(st, "melee")
    assert ev.side == "red" and ev.data["unit"] == "r1" and ev.rule == f"{RS}:melee.dice"
    assert st.units["r1"].hits == 0  # type: ignore[attr-defined]
    assert st.units["b1"].hits == 3  # type: ignore[attr-defined]  # (4+1) halved for shieldwall, rounded up


def test_melee_locked_units_may_not_move_away() -> None:
    st = _engaged()
    with pytest.raises(IllegalOrder) as e:
        st.apply("activate r1")  # type: ignore[attr-defined]
    assert e.value.rule == f"{RS}:melee.locked"


def test_melee_front_only_flanked_unit_does_not_strike_until_it_turns() -> None:
    # "Units only fight melee combats to their Front"; "Turning" 3: it may face the attacker
    red = [unit("r1", "infantry", 20, 12, 90)]
    blue = [unit("b1", "warriors", 23.5, 12, 0)]  # b1 faces north; r1's front touches b1's left flank
    st = game(red, blue, attacker="blue").new_state(1)
    touching = S.contacts(st.units["b1"], st.live())
    assert touching and touching[0][1] == "left"
    # blue's turn: b1 may turn to face r1 (90 degrees)
    st.apply("face b1 r1")
    ev = last(st, "face")
    assert ev.rule == f"{RS}:turning.face-melee" and ev.data["angle"] in (90.0, -90.0)
    assert S.contacts(st.units["b1"], st.live())[0][1] == "front"


def test_melee_flank_attack_doubles_in_the_engine() -> None:
    red = [unit("r1", "warriors", 20, 12, 90)]
    blue = [unit("b1", "raiders", 23.5, 12, 0)]
    st = game(red, blue).new_state(1)
    assert S.contacts(st.units["r1"], st.live())[0][1:] == ("front", "left")
    script(st, [3])
    st.apply("end")
    ev = last(st, "melee")
    assert ev.data["facing"] == "flank" and ev.data["hits"] == 8  # (3+1) x 2
    assert any(m["rule"] == f"{RS}:melee.unshielded" for m in ev.data["modifiers"])


def test_melee_terrain_uphill_halves() -> None:
    hill = {
        "id": "h",
        "kind": "hill",
        "points": [[10, 13.5], [30, 13.5], [30, 30], [10, 30]],
        "crest": [[20, 25]],
    }
    st = _engaged("warriors", "raiders", terrain=[hill])
    script(st, [5])  # type: ignore[arg-type]
    st.apply("end")  # type: ignore[attr-defined]
    ev = last(st, "melee")
    assert ev.data["terrain"] == "uphill" and ev.data["hits"] == 3  # ceil(6/2)
    assert f"{RS}:terrain.hills" in ev.data["checked"]


def test_melee_terrain_defending_a_wall() -> None:
    wall = {"id": "w", "kind": "wall", "points": [[10, 13], [30, 13]], "width": 0.5}
    st = _engaged("warriors", "raiders", terrain=[wall])
    script(st, [5])  # type: ignore[arg-type]
    st.apply("end")  # type: ignore[attr-defined]
    ev = last(st, "melee")
    assert ev.data["terrain"] == "wall" and ev.data["hits"] == 3
    assert f"{RS}:terrain.walls-gullies" in ev.data["checked"]


def test_routs_and_rallies_removal_at_15_hits() -> None:
    # "Any Unit with 15 or more Hits is removed from the table" (in the Routs and Rallies phase)
    st = _engaged("warriors", "raiders")
    st.units["b1"].hits = 12  # type: ignore[attr-defined]
    script(st, [2])  # type: ignore[arg-type]  # 3 hits -> 15
    st.apply("end")  # type: ignore[attr-defined]
    ev = last(st, "removed")
    assert ev.rule == f"{RS}:routs-and-rallies.removal" and ev.data["hits"] == 15
    assert st.units["b1"].removed and st.lost["blue"] == 1  # type: ignore[attr-defined]


def test_routs_and_rallies_not_removed_at_14() -> None:
    st = _engaged("warriors", "raiders")
    st.units["b1"].hits = 11  # type: ignore[attr-defined]
    script(st, [2])  # type: ignore[arg-type]
    st.apply("end")  # type: ignore[attr-defined]
    assert not st.units["b1"].removed and st.units["b1"].hits == 14  # type: ignore[attr-defined]


def test_figures_basing_frontage_4_to_6_inches() -> None:
    # "Figures & Basing: 4-6 inch frontage per Unit"
    from shieldwall.core.errors import DataError

    with pytest.raises(DataError) as e:
        game([unit("r1", "infantry", 20, 5, frontage=8)], [unit("b1", "infantry", 20, 30, 180)])
    assert "figures-basing" in str(e.value) and "red.units[0].frontage" in str(e.value)
    game([unit("r1", "infantry", 20, 5, frontage=4)], [unit("b1", "infantry", 20, 30, 180, frontage=6)])


def test_melee_terrain_village_defended_in_melee_too() -> None:
    vil = {"id": "v", "kind": "village", "points": [[15, 13.2], [25, 13.2], [25, 20], [15, 20]]}
    st = _engaged("warriors", "raiders", terrain=[vil])
    script(st, [4])  # type: ignore[arg-type]
    st.apply("end")  # type: ignore[attr-defined]
    ev = last(st, "melee")
    assert ev.data["terrain"] == "village" and ev.data["hits"] == 3  # ceil(5/2)
    assert f"{RS}:terrain.villages" in ev.data["checked"]


def test_routs_and_rallies_rally_happens_in_phase_four() -> None:
    # "4) Routs and Rallies: Any Unit eligible to rally off Hits due to an Optional Rule does so now."
    red = [unit("r1", "infantry", 10, 5), unit("r2", "infantry", 20, 5), unit("r3", "infantry", 30, 5)]
    pers = [{"id": "p1", "kind": "priest", "unit": "r1"}]
    g = game(
        red,
        [unit("b1", "infantry", 20, 30, 180)],
        options={"personalities": True},
        red_extra={"personalities": pers},
        spare=False,
    )
    st = g.new_state(1)
    st.units["r1"].hits = 6
    st.apply("end")  # no transfer
    script(st, [5])  # the priest's rally die: ceil(5/2) + 1 = 4
    st.apply("end")  # no movement -> shooting, melee, routs and rallies
    ev = last(st, "rally")
    assert ev.rule == f"{RS}:personalities.priest" and ev.data["rallied"] == 4
    assert f"{RS}:routs-and-rallies.rally" in ev.data["checked"]
    before = [e.data["phase_name"] for e in st.events[: st.events.index(ev)] if e.kind == "phase"]
    assert before[-1] == "routs"
