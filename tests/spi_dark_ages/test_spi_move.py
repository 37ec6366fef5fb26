"""Movement clauses: one unit at a time, the stop rule, the command restriction, facing, contact,
terrain costs, stacking and fleets, dismounting."""

from __future__ import annotations

from pathlib import Path

import pytest

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.hexgrid import ccrr

from .fixtures import H, phase, state, unit

ARCHER = H(6, 8)
STAMFORD = (
    Path(__file__).resolve().parents[2]
    / "src/shieldwall/rulesets/spi_dark_ages/scenarios/stamford-bridge.toml"
)


def _stop_setup(demoralized: bool = False):  # type: ignore[no-untyped-def]
    st = state(
        [
            ("ta", "tan", "archer", ARCHER, 4),
            ("tl", "tan", "leader", ARCHER, 4),
            ("gs", "green", "spear", H(3, 8), 1),
            ("gl", "green", "leader", H(3, 8), 1),
        ]
    )
    if demoralized:
        unit(st, "ta").demoralized = (9, 0, "melee")
    phase(st, "movement", "green")
    return st


def test_movement_K_stop_entering_a_front_hex_of_an_enemy_missile_unit_ends_the_move() -> None:
    st = _stop_setup()
    st.apply("step gs 1")
    st.apply("step gs 1")
    assert unit(st, "gs").hex == ARCHER.neighbour(4)
    assert unit(st, "gs").stopped and unit(st, "gs").mp_left == 0
    assert st.events[-1].rule == "spi-dark-ages:movement.K.stop"
    with pytest.raises(IllegalOrder) as e:
        st.apply("step gs 0")
    assert e.value.rule == "spi-dark-ages:movement.K.stop"
    with pytest.raises(IllegalOrder):
        st.apply("turn gs left")  # ruling A6: no MP at all after the stop


def test_movement_K_stop_a_flank_hex_does_not_stop() -> None:
    st = state(
        [
            ("ta", "tan", "archer", ARCHER, 4),
            ("tl", "tan", "leader", ARCHER, 4),
            ("gs", "green", "spear", ARCHER.neighbour(2).neighbour(3), 0),
            ("gl", "green", "leader", ARCHER.neighbour(2).neighbour(3), 0),
        ]
    )
    phase(st, "movement", "green")
    st.apply("step gs 0")  # into the archer's SE hex: a flank hex
    assert unit(st, "gs").hex == ARCHER.neighbour(2)
    assert not unit(st, "gs").stopped


def test_movement_K_leave_a_later_phase_may_leave_and_stops_again_in_another_front_hex() -> None:
    st = _stop_setup()
    st.apply("step gs 1")
    st.apply("step gs 1")
    assert unit(st, "gs").stopped
    st.board.place(unit(st, "gl"), ARCHER.neighbour(4).neighbour(3))
    phase(st, "movement", "green")  # the next friendly Movement Phase
    assert not unit(st, "gs").stopped
    st.apply("step gs 0")  # directly into another front hex (the archer's NW)
    assert unit(st, "gs").hex == ARCHER.neighbour(5)
    assert unit(st, "gs").stopped


def test_demoralization_control_a_demoralized_missile_unit_stops_nobody() -> None:
    st = _stop_setup(demoralized=True)
    st.apply("step gs 1")
    st.apply("step gs 1")
    assert not unit(st, "gs").stopped


def test_movement_C_a_unit_moves_fully_before_the_next_and_is_closed_when_another_starts() -> None:
    st = state(
        [
            ("g1", "green", "spear", H(3, 8), 1),
            ("g2", "green", "spear", H(3, 9), 1),
            ("gl", "green", "leader", H(3, 8), 1),
            ("t1", "tan", "spear", H(8, 16), 4),
        ]
    )
    phase(st, "movement", "green")
    st.apply("step g1 1")
    assert [str(o) for o in st.legal_orders()][-1] == "done g1"
    assert all(o.unit == "g1" for o in st.legal_orders())
    st.apply("step g2 1")  # another unit begins: g1's move is over
    assert any(e.kind == "move-ends" and e.rule == "spi-dark-ages:movement.C" for e in st.events)
    with pytest.raises(IllegalOrder) as e:
        st.apply("step g1 1")
    assert e.value.rule == "spi-dark-ages:movement.C"


def test_movement_F_no_enemy_movement_in_the_friendly_movement_phase() -> None:
    st = _stop_setup()
    with pytest.raises(IllegalOrder) as e:
        st.apply("step ta 4")
    assert e.value.rule == "spi-dark-ages:movement.F"


def test_movement_J_no_combat_in_a_movement_phase() -> None:
    st = _stop_setup()
    for order in ("melee gs " + ccrr(H(4, 8)), "fire gs " + ccrr(ARCHER), "dfire ta gs"):
        with pytest.raises(IllegalOrder) as e:
            st.apply(order)
        assert e.value.rule == "spi-dark-ages:movement.J"


def test_command_A_a_unit_away_from_command_at_the_phase_start_cannot_move() -> None:
    st = state(
        [
            ("g1", "green", "spear", H(1, 8), 1),
            ("g2", "green", "spear", H(6, 6), 1),
            ("gl", "green", "leader", H(1, 9), 1),
            ("t1", "tan", "spear", H(8, 16), 4),
        ]
    )
    phase(st, "movement", "green")
    with pytest.raises(IllegalOrder) as e:
        st.apply("step g2 1")
    assert e.value.rule == "spi-dark-ages:command.A"
    st.apply("step gl 1")  # the leader moves away: g1 began the phase beside it and still moves
    st.apply("step g1 1")
    assert unit(st, "g1").hex == H(2, 8)


def test_demoralization_ma_a_demoralized_unit_beside_command_moves_half_its_allowance() -> None:
    st = state(
        [
            ("g1", "green", "mc", H(1, 8), 1),
            ("gl", "green", "leader", H(1, 9), 1),
            ("t1", "tan", "spear", H(8, 16), 4),
        ]
    )
    unit(st, "g1").demoralized = (9, 0, "melee")
    phase(st, "movement", "green")
    assert unit(st, "g1").mp_left == 4  # MA 8 halved


def test_facing_I_phase_facing_changes_only_in_the_own_movement_phase() -> None:
    st = _stop_setup()
    phase(st, "allocation", "green")
    with pytest.raises(IllegalOrder):
        st.apply("turn gs left")
    phase(st, "movement", "green")
    with pytest.raises(IllegalOrder) as e:
        st.apply("turn ta left")
    assert e.value.rule in ("spi-dark-ages:facing.I.phase", "spi-dark-ages:movement.F")


def test_facing_I_command_a_paid_turn_needs_the_command_condition() -> None:
    st = state(
        [
            ("g2", "green", "spear", H(6, 6), 1),
            ("gl", "green", "leader", H(1, 9), 1),
            ("t1", "tan", "spear", H(8, 16), 4),
        ]
    )
    phase(st, "movement", "green")
    with pytest.raises(IllegalOrder) as e:
        st.apply("turn g2 left")
    assert e.value.rule == "spi-dark-ages:facing.I.command"


def test_facing_I_contact_one_hexside_turn_per_phase_and_no_leaving_combat_K_bound() -> None:
    st = state(
        [
            ("g1", "green", "spear", H(3, 8), 1),
            ("gl", "green", "leader", H(3, 8), 1),
            ("t1", "tan", "spear", H(4, 8), 4),
        ]
    )
    st.board.bond("g1", "t1")
    phase(st, "movement", "green")
    with pytest.raises(IllegalOrder) as e:
        st.apply("step g1 0")
    assert e.value.rule == "spi-dark-ages:combat.K.bound"
    st.apply("turn g1 left")
    with pytest.raises(IllegalOrder) as e:
        st.apply("turn g1 left")
    assert e.value.rule == "spi-dark-ages:facing.I.contact"


def test_cavalry_back_up_units_move_only_into_front_hexes() -> None:
    st = _stop_setup()
    with pytest.raises(IllegalOrder) as e:
        st.apply("step gs 4")  # backwards
    assert e.value.rule == "spi-dark-ages:cavalry.back-up"
    st.apply("turn gs left")  # backing up is paid turns and forward steps
    st.apply("turn gs left")
    st.apply("turn gs left")
    assert unit(st, "gs").facing == 4 and unit(st, "gs").mp_left == pytest.approx(2.5)


def test_cavalry_last_hex_no_facing_change_in_the_last_hex_of_a_charge() -> None:
    st = state(
        [
            ("gc", "green", "mc", H(2, 8), 1),
            ("gl", "green", "leader", H(2, 8), 1),
            ("t1", "tan", "spear", H(5, 8), 4),
        ]
    )
    phase(st, "movement", "green")
    st.apply("step gc 1")
    st.apply("step gc 1")  # now next to the enemy after a straight run of 2
    with pytest.raises(IllegalOrder) as e:
        st.apply("turn gc left")
    assert e.value.rule == "spi-dark-ages:cavalry.last-hex"


def test_facing_general_fleets_have_no_facing() -> None:
    st = state(
        [
            ("gf", "green", "fleet", H(22, 10), 0),
            ("gl", "green", "leader", H(21, 10), 0),
            ("t1", "tan", "spear", H(3, 16), 4),
        ]
    )
    phase(st, "movement", "green")
    unit(st, "gf").cmd_ok = True
    with pytest.raises(IllegalOrder) as e:
        st.apply("turn gf left")
    assert e.value.rule == "spi-dark-ages:facing.general"
    st.apply("step gf 2")  # a fleet may move on the river, in any direction
    assert unit(st, "gf").hex == H(22, 11)


def _mover(at, facing=1, typ="spear"):  # type: ignore[no-untyped-def]
    st = state(
        [
            ("g1", "green", typ, at, facing),
            ("gl", "green", "leader", at, facing),
            ("t1", "tan", "spear", H(3, 16), 4),
        ]
    )
    phase(st, "movement", "green")
    return st


def test_tec_mixed_mp_a_wooded_slope_costs_four() -> None:
    st = _mover(H(9, 3), 1)  # west of the wooded slope 1104
    st.apply("step g1 1")
    assert "woods" in st.board.map.terrain_of(unit(st, "g1").hex) and "slope" in st.board.map.terrain_of(
        unit(st, "g1").hex
    )
    assert st.events[-1].data["cost"] == 4


def test_tec_road_half_a_point_through_a_road_hexside_else_the_other_terrain() -> None:
    st = _mover(H(16, 9), 0)
    b = st.board
    road_dirs = [d for d in range(6) if b.map.road_between(H(16, 9), H(16, 9).neighbour(d))]
    assert road_dirs
    from shieldwall.rulesets.spi_dark_ages.movement import entry_cost

    u = unit(st, "g1")
    assert entry_cost(b, u, H(16, 9), H(16, 9).neighbour(road_dirs[0])) == 0.5
    off = next(d for d in range(6) if d not in road_dirs and b.map.on_map(H(16, 9).neighbour(d)))
    assert entry_cost(b, u, H(16, 9), H(16, 9).neighbour(off)) == 1.0


def test_tec_bridge_half_from_a_road_hex_one_otherwise_and_tec_river_is_closed() -> None:
    st = _mover(H(21, 7), 1)
    b = st.board
    from shieldwall.rulesets.spi_dark_ages.movement import Refused, entry_cost

    u = unit(st, "g1")
    assert entry_cost(b, u, H(21, 7), H(22, 7)) == 0.5  # from a road hex
    assert entry_cost(b, u, H(21, 8), H(22, 7)) == 1.0  # from a non-road hex
    with pytest.raises(Refused) as e:
        entry_cost(b, u, H(21, 9), H(22, 9))
    assert e.value.clause == "tec.river"


def test_tec_stream_two_to_enter_two_more_to_cross_none_at_a_ford_tec_ford_clear_for_movement() -> None:
    st = _mover(H(2, 10), 2)
    b = st.board
    u = unit(st, "g1")
    from shieldwall.rulesets.spi_dark_ages.movement import entry_cost

    stream = H(2, 10).neighbour(2)
    assert b.map.is_stream(stream)
    st.apply("step g1 2")
    assert st.events[-1].data["cost"] == 2
    across = next(
        d
        for d in (1, 2, 3)
        if not b.map.is_stream(stream.neighbour(d)) and stream.neighbour(d).distance(H(2, 10)) > 1
    )
    assert entry_cost(b, u, stream, stream.neighbour(across)) == 3  # 1 + 2 to cross
    back = H(2, 10)
    assert entry_cost(b, u, stream, back) == 1  # back to the same bank
    ford = H(4, 11)
    assert ford in b.map.ford
    assert entry_cost(b, u, H(4, 10), ford) == 1  # a ford is clear for movement


def test_tec_land_water_crossing_a_water_hexside_costs_two_more() -> None:
    st = _mover(H(8, 15), 1)
    from shieldwall.rulesets.spi_dark_ages.movement import entry_cost

    assert entry_cost(st.board, unit(st, "g1"), H(8, 15), H(9, 15)) == 3


def test_tec_notes_road_only_class_enters_swamp_only_on_a_road_hex() -> None:
    st = _mover(H(14, 13), 1, "axe")  # class I: road-only in the sample's swamp
    from shieldwall.rulesets.spi_dark_ages.movement import Refused, entry_cost

    with pytest.raises(Refused) as e:
        entry_cost(st.board, unit(st, "g1"), H(14, 13), H(15, 13))
    assert e.value.clause == "tec.notes"


def test_stacking_C_limit_and_fleets_pass_but_do_not_end_together() -> None:
    st = state(
        [
            ("g1", "green", "mc", H(3, 8), 1),
            ("g2", "green", "mc", H(4, 8), 1),
            ("g3", "green", "spear", H(4, 8), 1),
            ("gl", "green", "leader", H(3, 8), 1),
            ("t1", "tan", "spear", H(3, 16), 4),
        ]
    )
    phase(st, "movement", "green")
    with pytest.raises(IllegalOrder) as e:
        st.apply("step g1 1")  # 3 + 3 + 2 > 6
    assert e.value.rule == "spi-dark-ages:stacking.C"
    from shieldwall.rulesets.spi_dark_ages.movement import fleet_end_ok

    st2 = state(
        [
            ("f1", "green", "fleet", H(22, 10), 0),
            ("f2", "green", "fleet", H(22, 12), 0),
            ("gl", "green", "leader", H(21, 10), 0),
            ("c1", "green", "spear", H(21, 10), 0),
            ("t1", "tan", "spear", H(3, 16), 4),
        ]
    )
    b = st2.board
    b.place(unit(st2, "f1"), H(22, 12))
    assert not fleet_end_ok(b, unit(st2, "f1"))


def test_stacking_C_capacity_three_combat_units_and_any_command_units() -> None:
    st = state(
        [
            ("f1", "green", "fleet", H(22, 10), 0),
            ("c1", "green", "spear", H(21, 10), 0),
            ("gl", "green", "leader", H(21, 11), 0),
            ("t1", "tan", "spear", H(3, 16), 4),
        ]
    )
    from shieldwall.rulesets.spi_dark_ages.movement import fleet_cargo_ok

    b = st.board
    for i in range(3):
        assert fleet_cargo_ok(b, unit(st, "f1"), unit(st, "c1"))
        b.units[f"x{i}"] = type(unit(st, "c1"))(f"x{i}", "green", "spear", None, 0, aboard="f1")
    assert not fleet_cargo_ok(b, unit(st, "f1"), unit(st, "c1"))
    assert fleet_cargo_ok(b, unit(st, "f1"), unit(st, "gl"))


def test_dismount_phase_only_in_the_own_movement_phase_and_dismount_vp() -> None:
    st = state(
        [
            ("gc", "green", "mc", H(3, 8), 1),
            ("gl", "green", "leader", H(3, 8), 1),
            ("t1", "tan", "spear", H(3, 16), 4),
        ]
    )
    phase(st, "allocation", "green")
    with pytest.raises(IllegalOrder):
        st.apply("dismount gc")
    phase(st, "movement", "green")
    st.apply("dismount gc")
    b = st.board
    assert unit(st, "gc").type == "mc-foot" and unit(st, "gc-mounts").hex == H(3, 8)
    assert st.events[-1].rule == "spi-dark-ages:dismount.phase"
    # spi-dark-ages:dismount.vp: the dismounted unit alone, the mounts alone, both = the cavalry's VP
    assert b.vp_lost(unit(st, "gc")) == 2
    assert b.vp_lost(unit(st, "gc-mounts")) == 4 - 2
    phase(st, "movement", "green")
    st.apply("remount gc")
    assert unit(st, "gc").type == "mc" and not unit(st, "gc-mounts").on_map


def _fleet_state():  # type: ignore[no-untyped-def]
    from shieldwall.core.datafiles import read_toml
    from shieldwall.rulesets.spi_dark_ages.game import DarkAgesGame

    data = read_toml(STAMFORD)
    return DarkAgesGame.from_data(data, str(STAMFORD)).new_state(1)


def test_fleets_E_troops_disembark_only_from_a_moored_fleet_in_their_own_movement_phase() -> None:
    st = _fleet_state()
    b = st.board
    fleet = unit(st, "fleet1")
    land = next(
        n for n in fleet.hex.neighbours() if b.map.on_map(n) and not b.map.is_river(n) and not b.at.get(n)
    )
    phase(st, "allocation", "tan")
    with pytest.raises(IllegalOrder):
        st.apply(f"disembark n-f1a {ccrr(land)}")
    phase(st, "movement", "tan")
    assert f"disembark n-f1a {ccrr(land)}" in [str(o) for o in st.legal_orders()]
    st.copy().apply(f"disembark n-f1a {ccrr(land)}")
    st.apply("step fleet1 2")  # the fleet moves: no longer moored this phase
    with pytest.raises(IllegalOrder) as e:
        st.apply(f"disembark n-f1a {ccrr(land)}")
    assert e.value.rule == "spi-dark-ages:fleets.E"
    phase(st, "movement", "tan")
    land = next(
        n for n in fleet.hex.neighbours() if b.map.on_map(n) and not b.map.is_river(n) and not b.at.get(n)
    )
    st.apply(f"disembark n-f1a {ccrr(land)}")
    assert unit(st, "n-f1a").hex == land and unit(st, "n-f1a").aboard is None
    assert st.events[-1].rule in ("spi-dark-ages:fleets.E", "spi-dark-ages:movement.K.stop")


def test_stacking_C_capacity_a_fourth_combat_unit_may_not_embark_but_a_command_unit_may() -> None:
    st = _fleet_state()
    b = st.board
    fleet = unit(st, "fleet1")
    shore = next(
        n for n in fleet.hex.neighbours() if b.map.on_map(n) and not b.map.is_river(n) and not b.at.get(n)
    )
    from shieldwall.rulesets.spi_dark_ages.board import Unit

    b.units["n-x"] = Unit("n-x", "tan", "spear", None, 0)
    b.place(b.units["n-x"], shore)
    b.units["n-l"] = Unit("n-l", "tan", "leader", None, 0)
    b.place(b.units["n-l"], shore)
    phase(st, "movement", "tan")
    with pytest.raises(IllegalOrder) as e:
        st.apply("embark n-x fleet1")
    assert e.value.rule == "spi-dark-ages:stacking.C.capacity"
    st.apply("embark n-l fleet1")
    assert unit(st, "n-l").aboard == "fleet1" and not unit(st, "n-l").on_map
    free = next(
        n
        for n in fleet.hex.neighbours()
        if b.map.on_map(n)
        and not b.map.is_river(n)
        and b.stack_points(n, "tan") <= 4
        and b.occupant_side(n) != "green"
    )
    st.apply(f"disembark n-f1b {ccrr(free)}")
    st.apply("embark n-x fleet1")  # room again
    assert unit(st, "n-x").aboard == "fleet1"


def test_reach_lists_the_hexes_a_unit_can_end_in_with_their_cost_and_the_stop_hexes() -> None:
    from shieldwall.rulesets.spi_dark_ages.reach import reach

    st = _stop_setup()
    r = reach(st, "gs")
    by = {h["hex"]: h for h in r["hexes"]}
    assert by[ccrr(H(4, 8))]["mp"] == 1 and not by[ccrr(H(4, 8))]["stop"]
    assert by[ccrr(ARCHER.neighbour(4))]["stop"]  # spi-dark-ages:movement.K.stop
    assert all(h["mp"] <= 4 for h in r["hexes"])
    assert ccrr(ARCHER) not in by  # an enemy hex
    before = [e.to_dict() for e in st.events]
    reach(st, "ta")
    assert [e.to_dict() for e in st.events] == before  # reach changes nothing
    phase(st, "allocation", "green")
    assert reach(st, "gs")["highlight"]["active"] == "gs"


def _two_fleets(*extra: tuple[str, str, str, object, int]):  # type: ignore[no-untyped-def]
    st = state(
        [
            ("f1", "green", "fleet", H(22, 10), 0),
            ("f2", "green", "fleet", H(22, 12), 0),
            ("gl", "green", "leader", H(21, 10), 0),
            ("t1", "tan", "spear", H(3, 16), 4),
            *extra,  # type: ignore[list-item]
        ]
    )
    phase(st, "movement", "green")
    return st


def _step_to(st, uid: str, target) -> str:  # type: ignore[no-untyped-def]
    h = unit(st, uid).hex
    assert h is not None
    d = h.direction_to(target)
    assert d is not None
    return f"step {uid} {d}"


def test_stacking_C_a_fleet_enters_another_fleet_s_hex_only_if_it_can_leave_it_again() -> None:
    between, other = H(22, 11), H(22, 12)
    for mp, ok in ((2.0, False), (3.0, True)):
        st = _two_fleets()
        unit(st, "f1").mp_left = mp
        st.apply(_step_to(st, "f1", between))
        assert unit(st, "f1").mp_left == mp - 1.0  # 1 MP a river hex for a fleet
        order = _step_to(st, "f1", other)
        assert (order in [str(o) for o in st.legal_orders()]) is ok
        if not ok:
            with pytest.raises(IllegalOrder) as e:
                st.apply(order)
            assert e.value.rule == "spi-dark-ages:stacking.C" and "not end" in str(e.value)
            continue
        st.apply(order)  # passing through: it must move on, "done" is not on the menu
        assert unit(st, "f1").hex == other
        assert "done f1" not in [str(o) for o in st.legal_orders()]
        for other_order in ("done f1", "turn gl left", "end"):  # nor ended by another unit or the phase
            with pytest.raises(IllegalOrder) as e:
                st.apply(other_order)
            assert e.value.rule == "spi-dark-ages:stacking.C", other_order
        st.apply(_step_to(st, "f1", other.neighbour(2)))
        assert "done f1" in [str(o) for o in st.legal_orders()]


def test_stacking_C_a_fleet_may_not_enter_another_fleet_s_hex_where_the_stop_rule_would_hold_it() -> None:
    other = H(22, 12)
    land = H(21, 12)
    d = land.direction_to(other)
    assert d is not None
    st = _two_fleets(("ta", "tan", "archer", land, d))
    st.apply(_step_to(st, "f1", H(22, 11)))
    with pytest.raises(IllegalOrder) as e:
        st.apply(_step_to(st, "f1", other))
    assert e.value.rule == "spi-dark-ages:stacking.C"


def test_dismount_phase_the_types_a_dismount_gives_are_loss_types_so_simulate_runs() -> None:
    """`shieldwall simulate spi-dark-ages/tours --red scripted --blue random` stopped at battle 1
    ("a tan mc-horse was lost but the army has none"): a dismount (``dismount.phase``) gives the
    dismounted unit and its riderless mounts types the army does not list. The game names them
    (``Game.unit_types``), so they are loss columns, and the battle is simulated."""
    from shieldwall.io.scenarios import load_game
    from shieldwall.sim.simulate import SimConfig, run

    tours = load_game("spi-dark-ages/tours")
    types = tours.unit_types()
    listed = {str(u["type"]) for u in tours.new_state(0).view()["units"] if u["side"] == "tan"}
    assert "mc" in listed and not {"mc-foot", "mc-horse"} & listed
    assert {"mc", "mc-foot", "mc-horse"} <= set(types["tan"])
    assert not {"mc-foot", "mc-horse"} & set(types["green"])  # (green has no mounted crossbowmen)
    res = run(SimConfig("spi-dark-ages/tours", battles=2, workers=1, red="scripted", blue="random"))
    lost = res.summaries[0].to_dict()["mean_losses"]["tan"]
    assert set(lost) == set(types["tan"]) and lost["mc-horse"] > 0  # (battle 1: the mounts were lost)
