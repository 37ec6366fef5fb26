"""Clause tests: missile fire in play (combat.missile-fire, combat.long-range, combat.fire-targets,
combat.target-eligibilities, combat.missile-modifiers)."""

from __future__ import annotations

import pytest

from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.into_the_dark.shooting import fire_problem

from .playkit import RS, end_until, events, game, kind, last, script, start, u

ONES = [1] * 40


def archers(bx: float = 10, by: float = 15, code: str = "LUF", weapon: str = "bow", **kw: object) -> object:
    return game(
        [u("r1", code, 10, 5, type_="missile", weapon=weapon, figures=8, frontage=4, **kw)],  # type: ignore[arg-type]
        [u("b1", "CPF", bx, by, 180)],
    )


def to_fire(st: object) -> None:
    end_until(st, "fire", "red")  # type: ignore[arg-type]


def fire_menu(st: object, side: str = "red") -> set[str]:
    """The fire orders open to ``side`` this turn (empty if its Missile Fire phase is skipped)."""
    turn = st.turn  # type: ignore[attr-defined]
    while True:
        d = st.decision()  # type: ignore[attr-defined]
        if d is None or st.turn != turn:  # type: ignore[attr-defined]
            return set()
        if d.kind == "fire" and d.side == side:
            return {str(o) for o in st.legal_orders()}  # type: ignore[attr-defined]
        if d.kind == "fire":
            st.apply("end")  # type: ignore[attr-defined]
        else:
            st.apply(st.legal_orders()[0])  # type: ignore[attr-defined]


def test_combat_long_range_halves_the_dice() -> None:
    st = start(archers(by=15), "red")  # 10" away: long range for a foot bow (6"/18")
    to_fire(st)
    st.apply("shoot r1 b1")
    script(st, [6, *ONES])
    end_until(st, "initiative")
    f = last(st, "fire")
    assert f.data["long"] == 8 and f.data["close"] == 0
    assert f.data["groups"][0]["dice"] == 1 and f.data["groups"][0]["rule"] == f"{RS}:combat.long-range"
    assert st.units["b1"].figures == 7


def test_combat_missile_fire_close_range_and_front_rank_measure() -> None:
    # also exercises into-the-dark:combat.missile-fire.front-rank
    st = start(archers(by=9), "red")  # 4": close range, both ranks (the second uses the front's range)
    to_fire(st)
    st.apply("shoot r1 b1")
    script(st, ONES)
    end_until(st, "initiative")
    f = last(st, "fire")
    assert f.data["close"] == 8 and f.data["groups"][0]["dice"] == 2


def test_combat_target_eligibilities_foot_fire_straight_ahead_only() -> None:
    st = start(archers(bx=24, by=15), "red")
    assert "shoot r1 b1" not in fire_menu(st)
    # mounted may fire in any one direction
    g = game(
        [u("r1", "LUM", 10, 5, type_="missile", weapon="bow", figures=8, frontage=4)],
        [u("b1", "CPF", 20, 2, 180)],
    )
    st2 = start(g, "red")
    assert "shoot r1 b1" in fire_menu(st2)  # to its right


def test_combat_target_eligibilities_no_firing_over_units_unless_elevated() -> None:
    blocker = u("r2", "CPF", 10, 9, figures=8, frontage=8)
    g = game(
        [u("r1", "LUF", 10, 5, type_="missile", weapon="bow"), blocker],
        [u("b1", "CPF", 10, 17, 180)],
    )
    st = start(g, "red")
    assert "shoot r1 b1" not in fire_menu(st)
    hill = {"id": "h", "kind": "hill", "points": [[4, 0], [16, 0], [16, 6], [4, 6]]}
    g2 = game(
        [u("r1", "LUF", 10, 5, type_="missile", weapon="bow"), blocker],
        [u("b1", "CPF", 10, 17, 180)],
        terrain=[hill],
    )
    st2 = start(g2, "red")
    to_fire(st2)
    assert "shoot r1 b1" in {str(o) for o in st2.legal_orders()}


def test_combat_missile_fire_foot_moving_more_than_half_cannot_fire() -> None:
    st = start(archers(by=25), "red")
    st.apply("move r1 fwd 4.5")
    assert "shoot r1 b1" not in fire_menu(st)
    st2 = start(archers(by=25), "red")
    st2.apply("move r1 fwd 4")
    assert "shoot r1 b1" in fire_menu(st2)


def test_combat_missile_fire_foot_moving_half_mounted_their_full_move() -> None:
    # "Foot troops may move up to half their maximum movement and fire, mounted troops may move
    # their full movement and fire": travelled distance against each one's maximum
    g = game(
        [
            u("r1", "LUF", 10, 5, type_="missile", weapon="bow"),
            u("r2", "LUM", 30, 5, type_="missile", weapon="bow"),
        ],
        [u("b1", "CPF", 20, 30, 180)],
    )
    st = start(g, "red")
    foot, horse = st.units["r1"], st.units["r2"]
    foot.travelled = st.d(foot.allowance) / 2.0
    horse.travelled = st.d(horse.allowance)
    assert fire_problem(st, foot) is None and fire_problem(st, horse) is None
    foot.travelled += 0.5
    assert fire_problem(st, foot) == "foot moving more than half their maximum movement cannot fire"


def test_combat_missile_fire_not_when_charging_in_melee_pursuing_or_interpenetrating() -> None:
    # "Units may not fire if charging, in melee, pursuing, or interpenetrating/being interpenetrated"
    g = game(
        [
            u("r1", "LUF", 10, 5, type_="missile", weapon="bow"),
            u("r2", "LUF", 20, 12, type_="missile", weapon="bow"),
        ],
        [u("b1", "CPF", 10, 15, 180), u("b2", "CPF", 20, 12, 180)],
    )
    st = start(g, "red")
    r1, r2 = st.units["r1"], st.units["r2"]
    assert fire_problem(st, r1) is None
    assert fire_problem(st, r2) == "units may not shoot if in melee"
    for flag, value, why in (
        ("charged", True, "charging"),
        ("pursued", True, "pursuing"),
        ("pursuing", "b1", "pursuing"),
        ("interpenetrated", True, "interpenetrating"),
    ):
        setattr(r1, flag, value)
        assert why in (fire_problem(st, r1) or ""), flag
        setattr(r1, flag, False if value is True else None)
    assert fire_problem(st, r1) is None
    to_fire(st)
    shots = {str(o) for o in st.legal_orders()}
    assert "shoot r1 b1" in shots and not any(x.startswith("shoot r2") for x in shots)


def test_swat_crossbow_heavy_crossbows_may_not_move_and_fire() -> None:
    st = start(archers(by=25, options=["heavy-crossbow"]), "red")
    st.apply("move r1 fwd 1")
    assert "shoot r1 b1" not in fire_menu(st)
    st2 = start(archers(by=25, options=["heavy-crossbow"]), "red")
    assert "shoot r1 b1" in fire_menu(st2)


def test_combat_target_eligibilities_troops_in_melee_are_not_targets() -> None:
    g = game(
        [u("r1", "LUF", 10, 5, type_="missile", weapon="bow"), u("r2", "CPF", 20, 12)],
        [u("b1", "CPF", 10, 15, 180), u("b2", "CPF", 20, 12, 180)],
    )
    st = start(g, "red")
    to_fire(st)
    shots = {str(o) for o in st.legal_orders()}
    assert "shoot r1 b1" in shots and "shoot r1 b2" not in shots


def test_combat_target_eligibilities_a_third_rank_not_involved_may_be_shot() -> None:
    """ "Troops involved in melee are not eligible targets, although those not involved (a third
    rank, an extended line, etc) are": b2's two fighting ranks are in the melee with r2, its one
    figure in the third rank is not; r1 may shoot b2 but can hit only that figure."""
    # also exercises into-the-dark:combat.target-eligibilities.troops-in-melee
    from shieldwall.rulesets.into_the_dark.act_combat import exposed

    g = game(
        [u("r1", "LUF", 13, 15, 90, type_="missile", weapon="bow"), u("r2", "CPF", 20, 12)],
        [u("b2", "CPF", 20, 12, 180, figures=9)],
    )
    st = start(g, "red")
    assert exposed(st, st.units["b2"]) == 1
    to_fire(st)
    assert "shoot r1 b2" in {str(o) for o in st.legal_orders()}
    n = len(st.events)
    script(st, [6] * 40)
    st.apply("shoot r1 b2")
    end_until(st, "initiative")
    f = events(st, "fire", n)[0]
    assert f.data["target"] == "b2" and f.data["hits"] == 2  # two dice, both hit
    # the fire's casualties, before the melee's
    cas = [e for e in events(st, "casualties", n) if e.data["unit"] == "b2"][0]
    assert cas.rule == f"{RS}:combat.target-eligibilities" and cas.data["not_involved"] == 1
    assert cas.data["casualties"] == 1 and cas.data["figures"] == 8


def test_combat_target_eligibilities_an_extended_line_may_be_shot() -> None:
    """The figures of an extended line beyond the melee are eligible targets: b2 (2 ranks of 8) is
    fought by r2 (4 wide) across its middle four files, so 8 of its 16 figures are not involved."""
    # also exercises into-the-dark:combat.target-eligibilities.troops-in-melee
    from shieldwall.rulesets.into_the_dark.act_combat import exposed, involved

    g = game(
        [u("r1", "LUF", 10, 5, type_="missile", weapon="bow"), u("r2", "CPF", 30, 12)],
        [u("b2", "CPF", 30, 12, 180, figures=16, frontage=8)],
    )
    st = start(g, "red")
    b2 = st.units["b2"]
    assert exposed(st, b2) == 8
    assert {slot for _, slot in involved(st, b2)} == {2, 3, 4, 5}
    # a unit with both ranks fully engaged stays out of reach (test above)
    g2 = game([u("r2", "CPF", 30, 12)], [u("b2", "CPF", 30, 12, 180, figures=8, frontage=4)])
    assert exposed(start(g2, "red"), start(g2, "red").units["b2"]) == 0


def test_combat_missile_modifiers_target_in_light_cover() -> None:
    wood = {"id": "w", "kind": "open-woods", "points": [[5, 14], [15, 14], [15, 20], [5, 20]]}
    g = game(
        [u("r1", "LUF", 10, 5, type_="missile", weapon="bow")], [u("b1", "CPF", 10, 15, 180)], terrain=[wood]
    )
    st = start(g, "red")
    to_fire(st)
    st.apply("shoot r1 b1")
    script(st, ONES)
    end_until(st, "initiative")
    mods = [m["name"] for m in last(st, "fire").data["groups"][0]["modifiers"]]
    assert "target in light cover" in mods


def test_combat_missile_fire_is_simultaneous() -> None:
    # both shoot; both volleys are rolled before any casualty is removed
    g = game(
        [u("r1", "LUF", 10, 5, type_="missile", weapon="bow")],
        [u("b1", "LUF", 10, 9, 180, type_="missile", weapon="bow")],
    )
    st = start(g, "red")
    to_fire(st)
    st.apply("shoot r1 b1")  # red has no other shooter: blue's turn to choose
    st.apply("shoot b1 r1")
    script(st, [6, 6, 6, 6, *ONES])
    kinds = [e.kind for e in st.events if e.kind in ("fire", "casualties")]
    assert kinds[:4] == ["fire", "fire", "casualties", "casualties"]
    assert last(st, "fire").data["groups"][0]["dice"] == 2  # b1 fired with all 8, though it lost 2


def test_combat_fire_targets_one_target_per_unit() -> None:
    g = game(
        [
            u("r1", "LUF", 10, 5, type_="missile", weapon="bow"),
            u("r2", "LUF", 20, 5, type_="missile", weapon="bow"),
        ],
        [u("b1", "CPF", 10, 15, 180), u("b2", "CPF", 20, 15, 180)],
    )
    st = start(g, "red")
    to_fire(st)
    st.apply("shoot r1 b1")
    with pytest.raises(IllegalOrder) as e:
        st.copy().apply("shoot r1 b1")
    assert e.value.rule == f"{RS}:combat.fire-targets"


def test_morale_test_triggers_missile_fire_long_range_and_fewer_firers() -> None:
    st = start(archers(by=15), "red")
    to_fire(st)
    st.apply("shoot r1 b1")
    script(st, [1, 1, *ONES])
    end_until(st, "initiative")
    t = [e for e in events(st, "morale-test") if e.data["unit"] == "b1"][0]
    names = [m["name"] for m in t.data["modifiers"]]
    assert "receiving long range missile fire only" in names
    assert "missile fire from less enemy than own numbers" not in names  # 8 firers, 8 figures
    assert t.rule == f"{RS}:morale.test-triggers"


def test_combat_fire_targets_split_among_chargers_a_unit_charged_twice_has_fired_at_the_first() -> None:
    """ "A unit that is being charged must split its fire as evenly as possible among all the
    units charging it" read with sequential movement (docs/rulings 65): when r1 fires, b1 is the
    only unit charging it; b2's later charge finds r1 in melee and fired, with no fire left to split."""
    g = game(
        [u("r1", "LUF", 20, 5, type_="missile", weapon="bow", figures=16, frontage=16)],
        [u("b1", "CPF", 17, 8, 180), u("b2", "CPF", 23, 8, 180)],
    )
    st = start(g, "blue")
    end_until(st, "movement", "blue")
    st.apply("activate b1")
    st.apply("charge b1 r1")
    assert "fire r1 b1" in {str(o) for o in st.legal_orders()}
    n = len(st.events)
    script(st, [1] * 80)  # r1 passes its control test not to evade; b1 passes its morale test
    st.apply("fire r1 b1")
    shots = events(st, "fire", n)
    assert [e.data["target"] for e in shots] == ["b1"] and shots[0].data["close"] + shots[0].data[
        "long"
    ] == 16
    r1 = st.units["r1"]
    assert r1.fired and st.in_melee(r1)
    st.apply("activate b2")
    charge = next(str(o) for o in st.legal_orders() if str(o).startswith("charge b2 r1"))
    m = len(st.events)
    st.apply(charge)
    assert not [e for e in st.events[m:] if e.kind in ("reaction", "fire", "opportunity-fire")]
    assert kind(st) == "movement"  # no reaction asked of r1: it is in melee and has fired
