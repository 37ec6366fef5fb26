"""Clause tests for the ARMY LISTS rules of one-hour-dark-ages: "Variations for All Armies" and
"Allied Forces". Each test names its clause and checks the clause id in the DataError reason, the
IllegalOrder or the event.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import game, kinds, last, script, to_move_step, unit

from shieldwall.core.errors import DataError, IllegalOrder

RS = "one-hour-dark-ages"
VARIATIONS = "army-lists.variations"
ALLIES = "army-lists.allies"


def red_army(*units: dict[str, Any], options: dict[str, Any] | None = None, **kw: Any) -> Any:
    """A game with the given red units (+ the spare) against one blue infantry unit far away."""
    return game(list(units), [unit("b1", "infantry", 24, 30, 180)], options=options or {}, **kw)


def row(i: int, type_: str = "infantry", **kw: Any) -> dict[str, Any]:
    return unit(f"r{i}", type_, 4 + 6 * i, 5, **kw)


UP = {"upgrades": True}


# ================================================================================ variations


def test_army_lists_variations_household_plus_one_attack() -> None:
    # "Upgrades. One Unit made Household [+1 to D5 attack]"
    g = game(
        [unit("r1", "infantry", 20, 12, upgrade="household"), row(5, upgrade="levy")],
        [unit("b1", "raiders", 20, 14, 180)],
        options=UP,
    )
    st = g.new_state(1)
    assert st.units["r1"].attack_mod == 1
    script(st, [3])
    st.apply("end")
    ev = last(st, "melee")
    assert ev.data["hits"] == 4 and ev.data["modifiers"][0]["value"] == 1
    assert {"name": "household +1", "rule": f"{RS}:{VARIATIONS}"} in ev.data["modifiers"]


def test_army_lists_variations_levy_minus_one_attack() -> None:
    # "Downgrades. One Unit made Levy [-1 to D5 attack]"
    g = game(
        [unit("r1", "warriors", 20, 12, upgrade="levy"), row(5, upgrade="determined")],
        [unit("b1", "raiders", 20, 14, 180)],
        options=UP,
    )
    st = g.new_state(1)
    script(st, [3])
    st.apply("end")
    ev = last(st, "melee")
    assert ev.data["hits"] == 3 and ev.data["modifiers"][0]["value"] == 0  # +1 warriors -1 levy
    assert {"name": "levy -1", "rule": f"{RS}:{VARIATIONS}"} in ev.data["modifiers"]


def test_army_lists_variations_levy_shooting() -> None:
    g = game(
        [unit("r1", "skirmishers-javelins", 20, 5, upgrade="levy"), row(5, upgrade="household")],
        [unit("b1", "raiders", 20, 12, 180)],
        options=UP,
    )
    st = g.new_state(1)
    st.apply("end")
    script(st, [5])
    st.apply("shoot r1 b1")
    ev = last(st, "shot")
    assert ev.rule == f"{RS}:shooting.dice" and ev.data["hits"] == 3  # 5 -1 javelins -1 levy


def test_army_lists_variations_determined_18_reluctant_12() -> None:
    # "Determined [18 Hits before routing]" / "Reluctant [12 Hits then routing]"
    g = red_army(row(1, upgrade="determined"), row(2, upgrade="reluctant"), row(3), options=UP)
    hits = {u.id: u.max_hits for u in g.initial_units}
    assert (hits["r1"], hits["r2"], hits["r3"]) == (18, 12, 15)
    # removal uses the changed limit
    g2 = game(
        [unit("r1", "warriors", 20, 12)],
        [
            unit("b1", "raiders", 20, 14, 180, upgrade="reluctant"),
            unit("b2", "raiders", 40, 24, 180, upgrade="household"),
        ],
        options=UP,
    )
    st = g2.new_state(1)
    st.units["b1"].hits = 9
    script(st, [2])  # 3 hits: 12
    st.apply("end")
    ev = last(st, "removed")
    assert ev.data["unit"] == "b1" and ev.data["limit"] == 12


def test_army_lists_variations_upgrade_must_come_with_a_downgrade() -> None:
    # "Each list may select ONE upgrade and MUST then select a downgrade, also."
    with pytest.raises(DataError) as e:
        red_army(row(1, upgrade="household"), row(2), options=UP)
    assert e.value.field == "red.units[0].upgrade" and VARIATIONS in e.value.reason
    assert "MUST also select a downgrade" in e.value.reason
    red_army(row(1, upgrade="household"), row(2, upgrade="reluctant"), options=UP)  # fine


def test_army_lists_variations_only_one_upgrade_and_one_downgrade() -> None:
    with pytest.raises(DataError) as e:
        red_army(
            row(1, upgrade="household"), row(2, upgrade="determined"), row(3, upgrade="levy"), options=UP
        )
    assert e.value.field == "red.units[1].upgrade" and "ONE upgrade" in e.value.reason
    with pytest.raises(DataError) as e:
        red_army(row(1, upgrade="household"), row(2, upgrade="levy"), row(3, upgrade="reluctant"), options=UP)
    assert e.value.field == "red.units[2].upgrade" and VARIATIONS in e.value.reason


def test_army_lists_variations_each_list_separately() -> None:
    # both sides may take their own upgrade and downgrade
    g = game(
        [row(1, upgrade="household"), row(2, upgrade="levy")],
        [
            unit("b1", "infantry", 10, 30, 180, upgrade="determined"),
            unit("b2", "infantry", 20, 30, 180, upgrade="reluctant"),
        ],
        options=UP,
    )
    changes = sorted(u.upgrade for u in g.initial_units if u.upgrade)
    assert changes == ["determined", "household", "levy", "reluctant"]


def test_army_lists_variations_one_change_per_unit() -> None:
    # "Units may only get one change"
    opts = {"upgrades": True, "variable_quality": True}
    with pytest.raises(DataError) as e:
        red_army(
            row(1, upgrade="household", quality="elite"), row(2, upgrade="levy", quality="levy"), options=opts
        )
    assert e.value.field == "red.units[0]" and "one change" in e.value.reason and VARIATIONS in e.value.reason


@pytest.mark.parametrize(
    ("type_", "change", "what"),
    [
        ("roundtable-knights", "household", "melee attack would be +3"),
        ("mounted-servants", "levy", "melee attack would be -3"),
        ("skirmishers-bows", "levy", "attack would be -3"),
    ],
)
def test_army_lists_variations_not_past_plus_two_or_minus_two(type_: str, change: str, what: str) -> None:
    # "cannot be upgraded past +2, or downgraded past -2"
    other = "levy" if change == "household" else "household"
    with pytest.raises(DataError) as e:
        red_army(row(1, type_, upgrade=change), row(2, upgrade=other), options=UP)
    assert e.value.field == "red.units[0].upgrade" and what in e.value.reason and VARIATIONS in e.value.reason


def test_army_lists_variations_up_to_plus_two_is_fine() -> None:
    g = red_army(
        row(1, "arthurs-cavalry", upgrade="household"),
        row(2, "skirmishers-javelins", upgrade="levy"),
        options=UP,
    )
    mods = {u.id: u.attack_mod for u in g.initial_units}
    assert (mods["r1"], mods["r2"]) == (1, -1)


def test_army_lists_variations_warriors_bonus_parameter_counts() -> None:
    # with the Warriors' bonus set back to +2 a Household Warriors unit would be +3
    with pytest.raises(DataError) as e:
        red_army(
            row(1, "warriors", upgrade="household"),
            row(2, upgrade="levy"),
            options={"upgrades": True, "warriors_bonus": 2},
        )
    assert "+3" in e.value.reason


def test_army_lists_variations_fixed_units_may_not_be_changed() -> None:
    # "Units in italics may not be changed."
    with pytest.raises(DataError) as e:
        red_army(row(1, upgrade="household", fixed=True), row(2, upgrade="levy"), options=UP)
    assert e.value.field == "red.units[0].upgrade" and "fixed" in e.value.reason
    g = red_army(row(1, fixed=True), row(2, upgrade="household"), row(3, upgrade="levy"), options=UP)
    assert [u.upgrade for u in g.initial_units if u.side == "red"] == ["", "household", "levy", ""]


def test_army_lists_variations_need_the_option() -> None:
    with pytest.raises(DataError) as e:
        red_army(row(1, upgrade="household"), row(2, upgrade="levy"))
    assert e.value.field == "red.units[0].upgrade" and "options.upgrades" in e.value.reason


def test_army_lists_variations_unknown_change_refused() -> None:
    with pytest.raises(DataError) as e:
        red_army(row(1, upgrade="heroic"), options=UP)
    assert e.value.field == "red.units[0].upgrade"


# ================================================================================ allies

AL = {"allies": True}


def test_army_lists_allies_one_to_three_units() -> None:
    # "You may field 1-3 Units as an Allied force from another list's required Units."
    g = red_army(*(row(i, allied=True) for i in range(1, 4)), row(4), options=AL)
    assert sum(u.allied for u in g.initial_units) == 3
    with pytest.raises(DataError) as e:
        red_army(*(row(i, allied=True) for i in range(1, 5)), options=AL)
    assert e.value.field == "red.units[3].allied" and ALLIES in e.value.reason


def test_army_lists_allies_need_the_option() -> None:
    with pytest.raises(DataError) as e:
        red_army(row(1, allied=True))
    assert e.value.field == "red.units[0].allied" and "options.allies" in e.value.reason


def _allied_state(
    n_allied: int = 1,
    type_: str = "infantry",
    allied_pers: bool = False,
    options: dict[str, Any] | None = None,
) -> Any:
    red = [row(i, type_, allied=True) for i in range(n_allied)]
    red += [row(i) for i in range(n_allied, 6)]
    extra = None
    if allied_pers:
        extra = {"personalities": [{"id": "p1", "kind": "leader", "unit": "r0", "allied": True}]}
    opts = {**AL, **({"personalities": True} if allied_pers else {}), **(options or {})}
    st = red_army(*red, options=opts, red_extra=extra).new_state(1)
    if st.step == "transfer":
        st.apply("end")
    return st


def test_army_lists_allies_debate_natural_2_no_move() -> None:
    # "If 1-2 Units, then if a natural '2' is rolled for Movement it will not move while the leaders
    # debate what's in their best interest."
    st = _allied_state(1)
    script(st, [2])
    st.apply("activate r0")
    ev = last(st, "allies-debate")
    assert ev.rule == f"{RS}:{ALLIES}.debate" and ev.data["unit"] == "r0"
    assert st.step == "activate" and st.active is None and st.units["r0"].activated
    with pytest.raises(IllegalOrder) as e:
        st.apply("move r0 go 4,6")
    assert e.value.rule == f"{RS}:play-sequence"
    with pytest.raises(IllegalOrder) as e:
        st.apply("activate r0")  # it has had its go
    assert e.value.rule == f"{RS}:movement"


def test_army_lists_allies_other_rolls_move_normally() -> None:
    st = _allied_state(2)
    to_move_step(st, "r0", [3])
    assert "allies-debate" not in kinds(st)
    st.apply("move r0 go 4,10")
    assert st.units["r0"].fp.y == 10


def test_army_lists_allies_debate_natural_2_on_the_first_die_only() -> None:
    # Ruling R48: "a natural '2' is rolled for Movement" is one die, the first of the roll: an
    # allied Cavalry unit (3 dice) debates 1 time in 6 like an Infantry unit (1 die), not 42%.
    st = _allied_state(1, "cavalry")
    to_move_step(st, "r0", [4, 2, 5])  # a 2, but not on the first die: it moves
    assert "allies-debate" not in kinds(st)
    st2 = _allied_state(1, "cavalry")
    script(st2, [2, 5, 5])
    st2.apply("activate r0")
    ev = last(st2, "allies-debate")
    assert ev.rule == f"{RS}:{ALLIES}.debate" and ev.data["faces"] == [2, 5, 5]
    assert ev.data["reading"] == "first-die"


def test_army_lists_allies_debate_any_die_is_a_declared_parameter() -> None:
    # the former reading (any of the dice) stays available: allies_debate = "any-die"
    st = _allied_state(1, "cavalry", options={"allies_debate": "any-die"})
    script(st, [4, 2, 5])
    st.apply("activate r0")
    assert last(st, "allies-debate").data["reading"] == "any-die"


def test_army_lists_allies_debate_rate_by_class() -> None:
    # the exact rates of the two readings with the d5 (faces 2,3,3,4,4,5: a 2 is 1 in 6)
    from shieldwall.rulesets.one_hour.params import PARAMETERS

    assert PARAMETERS["allies_debate"].default == "first-die"
    p = 1 / 6
    first = {n: p for n in (1, 2, 3)}
    anyd = {n: 1 - (1 - p) ** n for n in (1, 2, 3)}
    assert round(anyd[3], 2) == 0.42 and round(anyd[1], 2) == 0.17 and first[3] == first[1]


def test_army_lists_allies_host_units_never_debate() -> None:
    st = _allied_state(1)
    to_move_step(st, "r3", [2])
    assert "allies-debate" not in kinds(st)


def test_army_lists_allies_debate_with_the_d6_too() -> None:
    st = _allied_state(2, options={"dice": "d6"})
    script(st, [2])
    st.apply("activate r1")
    assert last(st, "allies-debate").data["unit"] == "r1"


def test_army_lists_allies_personality_three_units_with_one_do_not_roll() -> None:
    # "If 3 Units, a Personality may be taken for the Allies, in which case they will not need to
    # roll as in #2 above."
    st = _allied_state(3, allied_pers=True)
    to_move_step(st, "r1", [2])
    assert "allies-debate" not in kinds(st)
    # three allied Units without a Personality still debate
    st2 = _allied_state(3)
    script(st2, [2])
    st2.apply("activate r1")
    assert last(st2, "allies-debate").rule == f"{RS}:{ALLIES}.debate"


def test_army_lists_allies_personality_only_for_three_allied_units() -> None:
    red = [row(0, allied=True), row(1, allied=True), *(row(i) for i in range(2, 6))]
    with pytest.raises(DataError) as e:
        red_army(
            *red,
            options={**AL, "personalities": True},
            red_extra={"personalities": [{"id": "p1", "kind": "hero", "unit": "r0", "allied": True}]},
        )
    assert e.value.field == "red.personalities[0].allied" and f"{ALLIES}.personality" in e.value.reason


def test_army_lists_allies_personality_counts_against_the_limit() -> None:
    # "This Personality counts against any total Personality limit chosen by the players"
    red = [row(i, allied=True) for i in range(3)] + [row(i) for i in range(3, 6)]  # + spare: 7 -> 2
    ps = [
        {"id": "p1", "kind": "leader", "unit": "r0", "allied": True},
        {"id": "p2", "kind": "hero", "unit": "r3"},
        {"id": "p3", "kind": "hero", "unit": "r4"},
    ]
    with pytest.raises(DataError) as e:
        red_army(*red, options={**AL, "personalities": True}, red_extra={"personalities": ps})
    assert e.value.field == "red.personalities" and "3 personality choices" in e.value.reason
    red_army(*red, options={**AL, "personalities": True}, red_extra={"personalities": ps[:2]})


def test_army_lists_allies_own_list_personalities_attach_only_to_units_of_their_list() -> None:
    # "Personalities may only affect or attach to Units of their own list, Host or Allied."
    red = [row(i, allied=True) for i in range(3)] + [row(i) for i in range(3, 6)]
    opts = {**AL, "personalities": True}
    with pytest.raises(DataError) as e:
        red_army(
            *red, options=opts, red_extra={"personalities": [{"id": "p1", "kind": "hero", "unit": "r0"}]}
        )
    assert e.value.field == "red.personalities[0].unit" and ALLIES in e.value.reason
    with pytest.raises(DataError) as e:
        red_army(
            *red,
            options=opts,
            red_extra={"personalities": [{"id": "p1", "kind": "hero", "unit": "r3", "allied": True}]},
        )
    assert e.value.field == "red.personalities[0].unit" and ALLIES in e.value.reason


def test_army_lists_allies_own_list_transfer_refused_to_a_unit_of_another_list() -> None:
    # a host hero in r3 may join r4 (host, 1" away) but not r2 (allied, 1" away)
    red = [row(i, allied=True) for i in range(3)] + [row(i) for i in range(3, 6)]
    st = red_army(
        *red,
        options={**AL, "personalities": True},
        red_extra={"personalities": [{"id": "p1", "kind": "hero", "unit": "r3"}]},
    ).new_state(1)
    assert st.step == "transfer"
    assert {str(o) for o in st.legal_orders()} == {"end", "transfer p1 r4"}
    with pytest.raises(IllegalOrder) as e:
        st.apply("transfer p1 r2")
    assert e.value.rule == f"{RS}:{ALLIES}.own-list"
    st.apply("transfer p1 r4")
    assert st.personalities["p1"].unit == "r4"
