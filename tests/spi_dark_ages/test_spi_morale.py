"""Demoralization, panic, flight and rally."""

from __future__ import annotations

import pytest

from shieldwall.core.dice import Die
from shieldwall.rulesets.spi_dark_ages import morale
from shieldwall.rulesets.spi_dark_ages.morale import demoralize, eliminate, expire, flee, rally

from .fixtures import H, phase, state, unit


def test_demoralization_cause_any_unit_even_a_command_unit_and_combat_dispersed() -> None:
    st = state([("gl", "green", "leader", H(3, 8), 1), ("t1", "tan", "spear", H(8, 8), 4)])
    demoralize(st.board, unit(st, "gl"))
    assert unit(st, "gl").demoralized is not None
    assert st.events[-1].kind == "demoralized" and st.events[-1].rule == "spi-dark-ages:demoralization.cause"
    # one status only (spi-dark-ages:combat.dispersed): the view has no other
    # (spi-dark-ages:demoralization.marker: the view marks it for the renderer)
    assert {"demoralized", "panicked"} <= set(st.view()["units"][0])


def test_demoralization_duration_to_the_end_of_the_same_phase_of_the_next_game_turn() -> None:
    st = state([("g1", "green", "spear", H(3, 8), 1), ("t1", "tan", "spear", H(8, 8), 4)])
    b = phase(st, "defensive-fire", "green")
    b.turn = 3
    u = unit(st, "g1")
    demoralize(b, u)  # by defensive fire in its own Player-Turn of turn 3
    b.turn, b.phase = 4, "movement"
    expire(b)
    assert u.demoralized is not None  # still demoralized in the Movement Phase of turn 4
    b.player = 1 - b.player
    b.phase = "defensive-fire"
    expire(b)
    assert u.demoralized is not None  # the enemy's Defensive Fire Phase is not the same phase
    b.player = 1 - b.player
    expire(b)
    assert u.demoralized is None
    assert st.events[-1].rule == "spi-dark-ages:demoralization.duration"


def _panic_board():  # type: ignore[no-untyped-def]
    enemy = H(2, 8)
    near = H(5, 8)  # 3 hexes from the enemy
    far, ten = H(13, 8), H(12, 8)
    assert far.distance(enemy) == 11 and ten.distance(enemy) == 10
    st = state(
        [
            ("gl", "green", "leader", H(5, 10), 1),
            ("ga", "green", "spear", H(5, 11), 1),
            ("gn", "green", "spear", near, 1),
            ("gf", "green", "spear", far, 1),
            ("gt", "green", "spear", ten, 1),
            ("gx", "green", "axe", H(6, 6), 1),
            ("t1", "tan", "spear", enemy, 4),
            ("tx", "tan", "axe", H(0, 5), 4),
        ],
        green_pl=22,
        tan_pl=4,
    )
    return st


def test_panic_trigger_panic_immediate_panic_exempt_and_command_no_panic() -> None:
    st = _panic_board()
    b = st.board
    b.losses["green"] = 18
    eliminate(b, unit(st, "gx"))  # 4 VP: 22 reached, mid-phase (spi-dark-ages:panic.immediate)
    assert "green" in b.panicked_armies
    assert unit(st, "gn").panicked and unit(st, "gt").panicked  # ten hexes away still panics
    assert not unit(st, "gl").panicked  # command units never panic
    assert not unit(st, "ga").panicked  # next to a command unit
    assert not unit(st, "gf").panicked  # more than ten hexes from the nearest enemy
    rules = {e.data.get("unit"): e.rule for e in st.events if e.kind in ("panics", "panic-exempt")}
    assert rules["gl"] == "spi-dark-ages:command.no-panic"
    assert rules["gf"] == "spi-dark-ages:panic.exempt" and rules["gn"] == "spi-dark-ages:panic.mark"
    assert unit(st, "gn").flight_edge == "west" and not b.in_contact(unit(st, "gn"))


def test_panic_once_per_army_and_the_other_army_may_still_panic() -> None:
    st = _panic_board()
    b = st.board
    b.losses["green"] = 18
    eliminate(b, unit(st, "gx"))
    unit(st, "gn").panicked = False
    b.losses["green"] = 29
    eliminate(b, unit(st, "gn"))  # 32: no second panic
    assert not any(u.panicked for u in b.units.values() if u.id == "gn")
    assert sum(e.kind == "army-panics" for e in st.events) == 1
    eliminate(b, unit(st, "tx"))  # the tans' losses reach their level
    assert "tan" in b.panicked_armies and unit(st, "t1").panicked


def test_panic_effects_full_allowance_panic_flight_order_and_panic_flight_exit() -> None:
    st = state(
        [
            ("g1", "green", "spear", H(1, 8), 1),
            ("gl", "green", "leader", H(8, 8), 1),
            ("t1", "tan", "spear", H(8, 14), 4),
        ]
    )
    u = unit(st, "g1")
    u.panicked, u.flight_edge = True, "west"
    b = phase(st, "movement", "green")
    assert u.mp_left == 4  # panicked units keep their full allowance
    flee(b)
    kinds = [e.kind for e in st.events[-3:]]
    assert "flees" in kinds and kinds[-1] == "flees-off"
    assert st.events[-1].rule == "spi-dark-ages:panic.flight.exit"
    assert u.gone == "exited" and b.losses["green"] == 0  # ruling A22: neither VP nor loss
    # spi-dark-ages:panic.flight.rules: flight pays terrain and facing costs
    # (two hexside turns, 1 MP to enter, 1 to leave)
    assert st.events[-2].data["mp_left"] == pytest.approx(4 - 1 - 1)


def test_panic_flight_toward_the_edge_through_as_few_enemy_adjacent_hexes_as_possible() -> None:
    st = state(
        [
            ("g1", "green", "spear", H(4, 16), 1),
            ("gl", "green", "leader", H(8, 8), 1),
            ("t1", "tan", "spear", H(5, 17), 4),
        ]
    )
    u = unit(st, "g1")
    u.panicked, u.flight_edge = True, "south"
    b = phase(st, "movement", "green")
    flee(b)
    flights = [e for e in st.events if e.kind in ("flees", "flees-off")]
    assert flights and flights[-1].kind == "flees-off"
    first = flights[0].data["to"]
    from shieldwall.core.hexgrid import parse_ccrr

    assert first == "0418" and not b.enemy_adjacent(parse_ccrr(first), "green")


def _fixed(monkeypatch: pytest.MonkeyPatch, face: int) -> None:
    monkeypatch.setattr(morale, "D6", Die("d6", (face,)))


@pytest.mark.parametrize(("face", "ok"), [(1, True), (5, True), (6, False)])
def test_rally_rolls_a_command_unit_rallies_on_any_roll_but_six(
    monkeypatch: pytest.MonkeyPatch, face: int, ok: bool
) -> None:
    _fixed(monkeypatch, face)
    st = state(
        [
            ("gl", "green", "leader", H(3, 8), 1),
            ("g1", "green", "spear", H(4, 8), 1),
            ("t1", "tan", "spear", H(8, 14), 4),
        ]
    )
    unit(st, "g1").panicked = True
    b = phase(st, "movement", "green")
    rally(b)
    assert unit(st, "g1").panicked is (not ok)
    assert st.events[-1].rule == "spi-dark-ages:rally.rolls" and st.events[-1].data["target"] == 5


@pytest.mark.parametrize(("face", "ok"), [(3, True), (4, False)])
def test_rally_who_a_combat_unit_rallies_on_one_to_three(
    monkeypatch: pytest.MonkeyPatch, face: int, ok: bool
) -> None:
    _fixed(monkeypatch, face)
    st = state(
        [
            ("g2", "green", "axe", H(3, 8), 1),
            ("g1", "green", "spear", H(4, 8), 1),
            ("t1", "tan", "spear", H(8, 14), 4),
        ]
    )
    unit(st, "g1").panicked = True
    unit(st, "g2").demoralized = (9, 0, "melee")  # ruling A21: demoralized units may rally others
    b = phase(st, "movement", "green")
    rally(b)
    assert unit(st, "g1").panicked is (not ok)


def test_rally_rallied_a_unit_rallied_this_turn_rallies_no_one(monkeypatch: pytest.MonkeyPatch) -> None:
    _fixed(monkeypatch, 1)
    st = state(
        [
            ("gl", "green", "leader", H(2, 8), 1),
            ("g1", "green", "spear", H(3, 8), 1),
            ("g2", "green", "spear", H(4, 8), 1),
            ("t1", "tan", "spear", H(8, 14), 4),
        ]
    )
    unit(st, "g1").panicked = unit(st, "g2").panicked = True
    b = phase(st, "movement", "green")
    rally(b)
    assert not unit(st, "g1").panicked and unit(st, "g2").panicked  # g1 may not rally g2 this turn
    b.turn += 1
    rally(b)
    assert not unit(st, "g2").panicked


def test_victory_vp_command_units_are_worth_ten_and_losses_count_vp() -> None:
    st = state(
        [
            ("gl", "green", "leader", H(3, 8), 1),
            ("g1", "green", "spear", H(4, 8), 1),
            ("t1", "tan", "spear", H(8, 14), 4),
        ]
    )
    b = st.board
    eliminate(b, unit(st, "gl"))
    eliminate(b, unit(st, "g1"))
    assert b.losses["green"] == 13
    assert st.events[-2].rule == "spi-dark-ages:victory.vp" and st.events[-2].data["vp"] == 10


def test_panic_flight_order_panicked_units_flee_before_any_other_unit_moves() -> None:
    from shieldwall.rulesets.spi_dark_ages.turn import begin_phase

    st = state(
        [
            ("g1", "green", "spear", H(1, 8), 4),
            ("gl", "green", "leader", H(4, 8), 1),
            ("g2", "green", "spear", H(4, 8), 1),
            ("t1", "tan", "spear", H(8, 14), 4),
        ]
    )
    unit(st, "g1").panicked, unit(st, "g1").flight_edge = True, "west"
    b = st.board
    b.player = b.order.index("green")
    b.phase = "movement"
    n = len(st.events)
    begin_phase(b)
    kinds = [e.kind for e in st.events[n:]]
    assert kinds[0] == "phase" and kinds[1] == "flees"
    d = st.decision()
    assert d is not None and d.kind == "move" and all(o.unit != "g1" for o in st.legal_orders())


def test_command_A_a_demoralized_command_unit_still_controls_movement() -> None:
    st = state(
        [
            ("gl", "green", "leader", H(3, 8), 1),
            ("g1", "green", "spear", H(4, 8), 1),
            ("t1", "tan", "spear", H(8, 14), 4),
        ]
    )
    unit(st, "gl").demoralized = (9, 0, "melee")
    phase(st, "movement", "green")
    st.apply("step g1 1")  # spi-dark-ages:demoralization.command: it keeps its control over movement
    assert unit(st, "g1").hex == H(5, 8)


def test_stacking_C_a_fleeing_fleet_passes_through_another_fleet_s_hex_but_never_stops_there() -> None:
    start = H(22, 2)
    for blockers, exits in (("green", True), ("tan", False)):
        st = state(
            [
                ("t1", "tan", "spear", H(3, 16), 4),
                ("gl", "green", "leader", H(10, 10), 0),
                ("f1", "green", "fleet", start, 0),
                ("f2", "green", "fleet", H(22, 1), 0),  # the only river hex nearer the north edge
                ("f3", blockers, "fleet", H(22, 0), 0),  # and the edge hexes beyond it
                ("f4", blockers, "fleet", H(23, 0), 0),
            ]
        )
        b = phase(st, "movement", "green")
        f1 = unit(st, "f1")
        f1.panicked, f1.demoralized, f1.flight_edge = True, (9, 0, "melee"), "north"
        flee(b)
        if exits:  # through the friendly fleets' hexes and off the map
            assert f1.gone == "exited"
        else:  # the enemy holds the edge: it would be stuck in f2's hex, so it does not go in
            assert f1.hex == start and f1.gone is None
