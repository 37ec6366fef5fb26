"""Knight Hack charge-phase rules, each test named after its clause (errata page 12, Clarification 1)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.knight_hack.charge import (
    ChargeMove,
    Charger,
    Contact,
    charge_distance,
    charger_must_test,
    check_declare_range,
    check_may_charge,
    check_wheel,
    receiver_must_test,
    resolve_charge,
    wheel_arc,
)
from shieldwall.rulesets.knight_hack.rolloff import roll_off
from shieldwall.rulesets.knight_hack.tables import sample_tables

T = sample_tables()


def _refused(charger: Charger, obj: Charger, contact: Contact = Contact()) -> str | None:
    try:
        check_may_charge(T, charger, obj, contact)
    except IllegalOrder as e:
        return e.rule
    return None


def test_charge_open_never_charges_with_the_two_exceptions() -> None:
    hc = Charger("heavy-cavalry", "B")
    assert _refused(Charger("open-foot", "C"), hc) == "knight-hack:charge.open"
    assert _refused(Charger("archers", "C"), Charger("archers", "C")) == "knight-hack:charge.open"
    assert (
        _refused(Charger("open-foot", "C", javelin=True), Charger("open-foot", "C"))
        == "knight-hack:charge.open"
    )
    assert (
        _refused(Charger("open-foot", "C", ambush=True), Charger("open-foot", "C"))
        == "knight-hack:charge.open"
    )
    # javelin-armed in ambush; eastern open mounted
    assert _refused(Charger("open-foot", "C", javelin=True, ambush=True), Charger("open-foot", "C")) is None
    assert _refused(Charger("eastern-light-cavalry", "C"), Charger("archers", "C")) is None


@pytest.mark.parametrize(
    ("charger", "contact", "refused"),
    [
        (Charger("heavy-infantry", "C"), Contact(), True),
        (Charger("light-infantry", "D"), Contact(), True),
        (Charger("heavy-infantry", "C"), Contact(facing="flank"), False),
        (Charger("heavy-infantry", "C"), Contact(facing="rear"), False),
        (Charger("heavy-infantry", "C", fanatic=True), Contact(), False),
        (Charger("heavy-infantry", "C", ambush=True), Contact(), False),
        (Charger("heavy-infantry", "C"), Contact(object_in_melee=True), False),
    ],
)
def test_charge_infantry_vs_mounted(charger: Charger, contact: Contact, refused: bool) -> None:
    got = _refused(charger, Charger("heavy-cavalry", "B"), contact)
    assert got == ("knight-hack:charge.infantry-vs-mounted" if refused else None)


def test_charge_infantry_vs_mounted_skirmishers_may() -> None:
    # skirmishers are open order, so only their open-order exceptions stand in the way: the
    # infantry-vs-mounted rule itself lets them charge mounted
    with pytest.raises(IllegalOrder) as e:
        check_may_charge(T, Charger("skirmishers", "C"), Charger("heavy-cavalry", "B"), Contact())
    assert e.value.rule == "knight-hack:charge.open"
    check_may_charge(
        T, Charger("skirmishers", "C", javelin=True, ambush=True), Charger("heavy-cavalry", "B"), Contact()
    )
    # mounted may charge anyone
    check_may_charge(T, Charger("heavy-cavalry", "B"), Charger("heavy-infantry", "C"), Contact())


def test_charge_declare_range_within_normal_move() -> None:
    check_declare_range(6.0, 6.0)
    with pytest.raises(IllegalOrder) as e:
        check_declare_range(6.1, 6.0)
    assert e.value.rule == "knight-hack:charge.declare-range"


def test_charge_distance_is_normal_plus_d6() -> None:
    assert charge_distance(6, 4) == 10
    with pytest.raises(ValueError, match="1..6"):
        charge_distance(6, 7)


def test_charge_full_distance_without_contact() -> None:
    # normal 6, D6 = 4, the object evaded and nothing else is in the path: exactly 10 straight ahead
    assert resolve_charge(charge_distance(6, 4), 0.0, [("b1", 5.0, True)]) == ChargeMove(10.0, None)


def test_charge_retarget_after_evade_contacts_the_first_in_reach() -> None:
    path = [("b1", 3.0, True), ("b3", 9.0, False), ("b2", 7.5, False)]
    assert resolve_charge(10.0, 0.0, path) == ChargeMove(7.5, "b2")
    # beyond reach: no contact, full distance
    assert resolve_charge(10.0, 0.0, [("b1", 3.0, True), ("b2", 10.5, False)]) == ChargeMove(10.0, None)
    # the wheel uses part of the distance
    assert resolve_charge(10.0, 2.0, [("b2", 8.5, False)]) == ChargeMove(10.0, None)


def test_charge_wheel_a_quarter_of_the_charge_move() -> None:
    check_wheel(2.5, 10.0)
    with pytest.raises(IllegalOrder) as e:
        check_wheel(2.6, 10.0)
    assert e.value.rule == "knight-hack:charge.wheel"
    with pytest.raises(IllegalOrder, match="straight ahead"):
        check_wheel(0.0, 10.0, frontage_change=1.0)
    with pytest.raises(IllegalOrder, match="straight ahead"):
        check_wheel(0.0, 10.0, facing_change=True)
    assert wheel_arc(4.0, 90.0) == pytest.approx(2 * math.pi)


def test_morale_charger_casualties_two_or_more() -> None:
    assert [charger_must_test(n) for n in (0, 1, 2, 3)] == [False, False, True, True]


def test_morale_receive_charge_lower_class_tests_unless_fanatic() -> None:
    assert receiver_must_test(T, "C", False, ["B"])
    assert not receiver_must_test(T, "C", False, ["C"])
    assert not receiver_must_test(T, "C", False, ["D"])
    assert not receiver_must_test(T, "D", True, ["B"])
    assert receiver_must_test(T, "C", False, ["D", "A"])  # lower than any of its chargers (R7)


def test_missile_order_roll_off_rerolls_ties() -> None:
    class Faces:
        def __init__(self, *faces: int) -> None:
            self.faces = list(faces)

        def integers(self, n: int) -> int:
            return self.faces.pop(0) - 1

    assert roll_off(Faces(3, 3, 2, 5), ("red", "blue")) == ("blue", [(3, 3), (2, 5)])  # type: ignore[arg-type]
    assert roll_off(Faces(40, 7), ("red", "blue"), "d100") == ("red", [(40, 7)])  # type: ignore[arg-type]


def test_move_initiative_roll_off_is_fair() -> None:
    rng = np.random.default_rng(2)
    wins = [roll_off(rng, ("red", "blue"))[0] for _ in range(2000)]
    assert abs(wins.count("red") / 2000 - 0.5) < 0.04
