"""Knight Hack evolutions, the order of a unit's move, rally and rout (errata pages 11 and 13,
Clarifications 1 and 4)."""

from __future__ import annotations

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import Footprint
from shieldwall.rulesets.knight_hack.evolutions import MovePlan, check_frontage, evolution_allowance
from shieldwall.rulesets.knight_hack.rally import (
    RoutRecord,
    check_faces_threat,
    check_rally_move,
    fanatic_victor_must_charge,
    good_order_from,
    left_table,
)
from shieldwall.rulesets.knight_hack.tables import sample_tables

T = sample_tables()


def _rule(f: object, *args: object, **kw: object) -> str | None:
    try:
        f(*args, **kw)  # type: ignore[operator]
    except IllegalOrder as e:
        return e.rule
    return None


def test_evolution_allowance_by_class_plus_one_for_open() -> None:
    assert evolution_allowance(T, "D", "heavy-infantry") == 1
    assert evolution_allowance(T, "D", "archers") == 2
    assert evolution_allowance(T, "A", "heavy-cavalry") == 3


def test_evolution_frontage_up_to_four_figures() -> None:
    check_frontage(6, 10, 12)
    check_frontage(6, 2, 12)
    assert _rule(check_frontage, 6, 11, 12) == "knight-hack:evolution.frontage"
    assert _rule(check_frontage, 6, 1, 12) == "knight-hack:evolution.frontage"
    # figures in melee do not move: the frontage cannot shrink below them
    assert _rule(check_frontage, 6, 3, 12, in_melee=4) == "knight-hack:evolution.frontage"
    assert _rule(check_frontage, 6, 13, 12) == "knight-hack:evolution.frontage"


def test_evolution_kinds_and_move_unit_order() -> None:
    plan = MovePlan(allowance=1, normal_move=6.0)
    assert _rule(plan.evolve, "somersault") == "knight-hack:evolution.kinds"
    plan.move(6.0)
    # allowance 1: no evolution after the move
    assert _rule(plan.evolve, "face") == "knight-hack:move.unit-order"
    open_plan = MovePlan(allowance=2, normal_move=6.0)
    open_plan.move(4.0)
    open_plan.evolve("face")  # open (1 + 1): one evolution after the move
    assert _rule(open_plan.evolve, "formation") == "knight-hack:move.unit-order"
    two_after = MovePlan(allowance=3, normal_move=6.0)
    two_after.move(1.0)
    two_after.evolve("face")
    assert _rule(two_after.evolve, "face") == "knight-hack:move.unit-order"
    full = MovePlan(allowance=2, normal_move=6.0)
    full.evolve("face")
    full.evolve("frontage")
    assert _rule(full.evolve, "face") == "knight-hack:evolution.allowance"
    assert _rule(full.move, 6.5) == "knight-hack:move.unit-order"
    full.move(6.0)
    assert _rule(full.move, 1.0) == "knight-hack:move.unit-order"


def test_rally_pursuers_the_texts_example() -> None:
    # the victor over open archers in turn 2 rallies in turns 2 and 3, in good order from turn 4's
    # movement phase
    assert good_order_from("pursued", 2) == (4, "movement")
    assert good_order_from("recovered", 5) == (7, "movement")


def test_rally_evaders_in_the_turn_they_evaded() -> None:
    assert good_order_from("evaded", 3) == (3, "end")


def test_rally_no_contact_chargers_rallied_at_the_end_of_the_turn() -> None:
    assert good_order_from("charged-no-contact", 3) == (3, "end")


def test_rally_who_every_cause_has_a_time() -> None:
    for cause in ("evaded", "charged-no-contact", "pursued", "broke-off", "ceased-pursuit", "recovered"):
        turn, phase = good_order_from(cause, 1)
        assert turn in (1, 3) and phase in ("end", "movement")


def test_rally_fanatic_victor_charges_if_enemy_in_reach() -> None:
    assert fanatic_victor_must_charge(True, 1)
    assert not fanatic_victor_must_charge(True, 0)
    assert not fanatic_victor_must_charge(False, 2)


def test_rally_move_close_in_place_others_fall_back() -> None:
    assert _rule(check_rally_move, "close", False, 0.0, 1.0, 4.0) == "knight-hack:rally.move"
    check_rally_move("close", False, 0.0, 0.0, 4.0)
    check_rally_move("open", False, 0.0, 6.0, 6.0)
    assert _rule(check_rally_move, "open", False, 0.0, 6.5, 6.0) == "knight-hack:rally.move"
    assert _rule(check_rally_move, "loose", False, 1.0, 0.0, 6.0) == "knight-hack:rally.move"


def test_rally_fanatic_forward() -> None:
    check_rally_move("close", True, 4.0, 0.0, 4.0)
    assert _rule(check_rally_move, "close", True, 0.0, 1.0, 4.0) == "knight-hack:rally.fanatic-forward"
    assert _rule(check_rally_move, "open", True, 6.5, 0.0, 6.0) == "knight-hack:rally.fanatic-forward"


def test_rally_face_threat() -> None:
    me = Footprint(10.0, 10.0, 0.0, 4.0, 1.0)  # facing north
    ahead = Footprint(10.0, 16.0, 180.0, 4.0, 1.0)
    behind = Footprint(10.0, 7.5, 0.0, 4.0, 1.0)
    check_faces_threat(me, [ahead])
    check_faces_threat(me, [])
    assert _rule(check_faces_threat, me, [behind, ahead]) == "knight-hack:rally.face-threat"


def test_rout_stop_one_test_in_the_owners_movement() -> None:
    rec = RoutRecord()
    assert _rule(rec.check_test, "r1", False) == "knight-hack:rout.stop"
    rec.check_test("r1", True)  # untested in turn T, tested in T+1: allowed
    assert rec.record("r1", True) == "rallying"
    assert _rule(rec.check_test, "r1", True) == "knight-hack:rout.stop"  # a second test
    assert rec.record("r2", False) == "removed"
    assert left_table(-0.5, 10.0, 48.0, 36.0) and not left_table(0.0, 36.0, 48.0, 36.0)
