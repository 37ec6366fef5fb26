"""Clause tests for the OPTIONAL rules of one-hour-dark-ages (one or more per clause, named after it).

Personalities, Initiative, Variable Quality, Force Morale, Fall Back!, Missile Supply, Declared
Movement and the d6 option. Each test asserts the clause id appears in the IllegalOrder, the event
or the DataError it checks.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import end_movement, game, kinds, last, script, to_move_step, unit

from shieldwall.core.errors import DataError, IllegalOrder
from shieldwall.rulesets.one_hour import spatial as S

RS = "one-hour-dark-ages"


def far(prefix: str, n: int, side: str = "red") -> list[dict[str, Any]]:
    """``n`` idle infantry units along the home edge, far from the action (x 3, 9, 15 ...)."""
    y, h = (2.0, 0.0) if side == "red" else (34.0, 180.0)
    return [unit(f"{prefix}{i}", "infantry", 3 + 6 * i, y, h) for i in range(n)]


def pers(*items: tuple[str, str, str] | tuple[str, str, str, bool]) -> dict[str, Any]:
    """A side's ``personalities`` table from (id, kind, unit[, banner])."""
    out = []
    for it in items:
        d: dict[str, Any] = {"id": it[0], "kind": it[1], "unit": it[2]}
        if len(it) > 3:
            d["banner"] = it[3]
        out.append(d)
    return {"personalities": out}


def to_activate(st: Any) -> None:
    """Close the personality transfers at the start of the Movement phase, if offered."""
    if st.step == "transfer":
        st.apply("end")
    assert st.step == "activate", st.step


def rule_of(exc: pytest.ExceptionInfo[IllegalOrder]) -> str:
    return exc.value.rule


# ================================================================================ personalities


def test_personalities_limit_one_per_three_units() -> None:
    # "For every three Units in a force, a player may pick a suitable personality figure."
    opts = {"personalities": True}
    red = [unit("r1", "infantry", 10, 5), unit("r2", "infantry", 17, 5)]  # + the spare: 3 units
    g = game(red, [unit("b1", "infantry", 10, 30, 180)], options=opts, red_extra=pers(("p1", "hero", "r1")))
    assert [p.id for p in g.initial_personalities] == ["p1"]
    with pytest.raises(DataError) as e:
        game(
            red,
            [unit("b1", "infantry", 10, 30, 180)],
            options=opts,
            red_extra=pers(("p1", "hero", "r1"), ("p2", "leader", "r2")),
        )
    assert e.value.field == "red.personalities" and "one per three units" in e.value.reason
    assert e.value.file == "test.toml"
    # six units: two personalities
    g6 = game(
        [*red, *far("f", 3)],
        [unit("b1", "infantry", 10, 30, 180)],
        options=opts,
        red_extra=pers(("p1", "hero", "r1"), ("p2", "leader", "r2")),
    )
    assert len(g6.initial_personalities) == 2


def test_personalities_banner_counts_as_one_of_the_permitted() -> None:
    # "A Banner counts as one of the permitted Personalities for the side."
    opts = {"personalities": True}
    red = [unit("r1", "infantry", 10, 5), unit("r2", "infantry", 17, 5)]
    with pytest.raises(DataError) as e:
        game(
            red,
            [unit("b1", "infantry", 10, 30, 180)],
            options=opts,
            red_extra=pers(("p1", "hero", "r1", True)),
        )
    assert e.value.field == "red.personalities" and "banner counts as one" in e.value.reason
    g = game(
        [*red, *far("f", 3)],
        [unit("b1", "infantry", 10, 30, 180)],
        options=opts,
        red_extra=pers(("p1", "hero", "r1", True)),
    )
    assert g.initial_personalities[0].banner
    # "This is an upgrade to either personality above": not to a priest
    with pytest.raises(DataError) as e:
        game(
            [*red, *far("f", 3)],
            [unit("b1", "infantry", 10, 30, 180)],
            options=opts,
            red_extra=pers(("p1", "priest", "r1", True)),
        )
    assert e.value.field == "red.personalities[0].banner"


def test_personalities_need_the_option_and_a_unit_of_the_army() -> None:
    red = [unit("r1", "infantry", 10, 5), unit("r2", "infantry", 17, 5)]
    with pytest.raises(DataError) as e:
        game(red, [unit("b1", "infantry", 10, 30, 180)], red_extra=pers(("p1", "hero", "r1")))
    assert e.value.field == "red.personalities" and "options.personalities" in e.value.reason
    with pytest.raises(DataError) as e:
        game(
            red,
            [unit("b1", "infantry", 10, 30, 180)],
            options={"personalities": True},
            red_extra=pers(("p1", "hero", "b1")),
        )
    assert e.value.field == "red.personalities[0].unit"


def _transfer_game(**kw: Any) -> Any:
    # r1 (hero p1) has r2 2" to its east and r3 7" to its west
    red = [
        unit("r1", "infantry", 20, 5),
        unit("r2", "infantry", 27, 5),
        unit("r3", "infantry", 8, 5),
        *far("f", 2),
    ]
    g = game(
        red,
        [unit("b1", "infantry", 20, 30, 180)],
        options={"personalities": True},
        red_extra=pers(("p1", "hero", "r1")),
        **kw,
    )
    return g.new_state(1)


def test_personalities_transfer_within_6_inches_at_start_of_movement() -> None:
    # "All personalities ... may transfer to another Unit within 6" at the start of the friendly
    # Movement Phase."
    st = _transfer_game()
    assert st.step == "transfer" and st.phase == "movement"
    with pytest.raises(IllegalOrder) as e:
        st.apply("transfer p1 r3")  # 7" away
    assert rule_of(e) == f"{RS}:personalities.transfer" and "6" in e.value.reason
    assert st.personalities["p1"].unit == "r1"  # refused orders leave the state unchanged
    st.apply("transfer p1 r2")
    ev = last(st, "transfer")
    assert ev.rule == f"{RS}:personalities.transfer"
    assert (ev.data["frm"], ev.data["to"], ev.data["distance"]) == ("r1", "r2", 2.0)
    assert ev.data["kind"] == "hero"
    assert st.personalities["p1"].unit == "r2"
    # once moving has begun it is no longer the start of the phase
    assert st.step == "activate"
    with pytest.raises(IllegalOrder) as e:
        st.apply("transfer p1 r1")
    assert rule_of(e) == f"{RS}:play-sequence"


def test_personalities_transfer_once_per_phase_and_only_at_the_start() -> None:
    # a second personality keeps the transfer step open; p1 may not move twice in one phase
    red = [
        unit("r1", "infantry", 20, 5),
        unit("r2", "infantry", 27, 5),
        unit("r3", "infantry", 34, 5),
        *far("f", 2),
    ]
    st = game(
        red,
        [unit("b1", "infantry", 20, 30, 180)],
        options={"personalities": True},
        red_extra=pers(("p1", "hero", "r1"), ("p2", "leader", "r3")),
    ).new_state(1)
    st.apply("transfer p1 r2")
    assert st.step == "transfer"
    with pytest.raises(IllegalOrder) as e:
        st.apply("transfer p1 r3")
    assert rule_of(e) == f"{RS}:personalities.transfer" and "already" in e.value.reason
    st.apply("end")
    with pytest.raises(IllegalOrder) as e:
        st.apply("transfer p2 r2")
    assert rule_of(e) == f"{RS}:play-sequence"


def test_personalities_transfer_refused_out_of_a_unit_in_melee() -> None:
    # "If in a Unit that is in melee they may not leave it"
    red = [
        unit("r1", "infantry", 20, 12),
        unit("r2", "infantry", 27, 12),
        unit("r3", "infantry", 34, 5),
        unit("r4", "infantry", 40, 5),
        *far("f", 1),
    ]
    st = game(
        red,
        [unit("b1", "infantry", 20, 14, 180)],
        options={"personalities": True},
        red_extra=pers(("p1", "hero", "r1"), ("p2", "leader", "r3")),
    ).new_state(1)
    assert st.in_melee(st.units["r1"])
    assert st.step == "transfer"  # p2 may still move
    with pytest.raises(IllegalOrder) as e:
        st.apply("transfer p1 r2")
    assert rule_of(e) == f"{RS}:personalities.transfer" and "melee" in e.value.reason
    assert not any(o.personality == "p1" for o in st.legal_orders() if hasattr(o, "personality"))


def test_personalities_hero_plus_one_in_melee() -> None:
    # "Heroes give a +1 bonus in shooting or melee combat."
    red = [unit("r1", "warriors", 20, 12), *far("f", 2)]
    st = game(
        red,
        [unit("b1", "raiders", 20, 14, 180)],
        options={"personalities": True},
        red_extra=pers(("p1", "hero", "r1")),
    ).new_state(1)
    to_activate(st)
    script(st, [3])
    st.apply("end")
    ev = last(st, "melee")
    assert ev.rule == f"{RS}:melee.dice"
    assert ev.data["hits"] == 5  # 3 +1 warriors +1 hero
    mods = ev.data["modifiers"]
    assert mods[0]["value"] == 2
    assert {"name": "hero +1", "rule": f"{RS}:personalities.hero"} in mods


def test_personalities_hero_no_bonus_without_the_option_or_the_hero() -> None:
    st = game([unit("r1", "warriors", 20, 12)], [unit("b1", "raiders", 20, 14, 180)]).new_state(1)
    script(st, [3])
    st.apply("end")
    ev = last(st, "melee")
    assert ev.data["hits"] == 4 and not any("hero" in m["name"] for m in ev.data["modifiers"])


def test_personalities_hero_plus_one_in_shooting() -> None:
    red = [unit("r1", "skirmishers-bows", 20, 5), *far("f", 2)]
    st = game(
        red,
        [unit("b1", "warriors", 20, 18, 180)],
        options={"personalities": True},
        red_extra=pers(("p1", "hero", "r1")),
    ).new_state(1)
    end_movement(st)
    assert st.step == "shoot"
    script(st, [5])
    st.apply("shoot r1 b1")
    ev = last(st, "shot")
    assert ev.rule == f"{RS}:shooting.dice" and ev.data["hits"] == 4  # 5 -2 bows +1 hero
    assert {"name": "hero +1", "rule": f"{RS}:personalities.hero"} in ev.data["modifiers"]


def test_personalities_leader_extra_turn_infantry_turns_at_start_and_end() -> None:
    # "A Leader gives a Unit one additional Turn that may be used at any time during its movement."
    red = [unit("r1", "infantry", 10, 5), unit("r2", "infantry", 30, 5), *far("f", 1)]
    st = game(
        red,
        [unit("b1", "infantry", 20, 30, 180)],
        options={"personalities": True},
        red_extra=pers(("p1", "leader", "r1")),
    ).new_state(1)
    to_activate(st)
    to_move_step(st, "r2", [5])
    with pytest.raises(IllegalOrder) as e:
        st.apply("move r2 turn 45 go 31,6 turn -45")  # no leader: once, at the start OR end
    assert rule_of(e) == f"{RS}:turning.limits"
    st.apply("hold r2")
    to_move_step(st, "r1", [5])
    with pytest.raises(IllegalOrder) as e:
        st.apply("move r1 turn 45 go 11,6 turn -45 go 11,7 turn 10")  # a third turn is too many
    assert rule_of(e) == f"{RS}:turning.limits" and "Leader" in e.value.reason
    st.apply("move r1 turn 45 go 11,6 turn -45")
    ev = last(st, "move")
    assert ev.data["steps"] == ["turn 45@centre", "go 11,6", "turn -45@centre"]
    assert f"{RS}:personalities.leader" in ev.data["checked"]
    assert st.units["r1"].fp.heading == pytest.approx(0.0)


def test_personalities_leader_extra_turn_at_any_time_during_the_move() -> None:
    red = [unit("r1", "infantry", 10, 5), *far("f", 2)]
    st = game(
        red,
        [unit("b1", "infantry", 20, 30, 180)],
        options={"personalities": True},
        red_extra=pers(("p1", "leader", "r1")),
    ).new_state(1)
    to_activate(st)
    to_move_step(st, "r1", [5])
    st.apply("move r1 go 10,7 turn 90 go 12,7")  # a turn in the middle of the move
    assert st.units["r1"].fp.heading == pytest.approx(90.0)


def _rally_game(
    kind: str = "hero",
    banner: bool = True,
    type_: str = "infantry",
    hits: int = 6,
    options: dict[str, Any] | None = None,
    blue: list[dict[str, Any]] | None = None,
    **kw: Any,
) -> Any:
    red = [unit("r1", type_, 20, 12), *far("f", 4)]
    st = game(
        red,
        blue or [unit("b1", "infantry", 20, 30, 180)],
        options={"personalities": True, **(options or {})},
        red_extra=pers(("p1", kind, "r1", banner)),
        **kw,
    ).new_state(1)
    st.units["r1"].hits = hits
    st.units["r1"].reached_five = hits >= 5
    return st


@pytest.mark.parametrize(("face", "rallied"), [(2, 1), (3, 2), (4, 2), (5, 3)])
def test_personalities_banner_rallies_1_to_3(face: int, rallied: int) -> None:
    # "It allows a Unit that is not in Melee, and has not moved or shot, to rally off 1-3 Hits
    # [halve a d5 roll, rounding up]."
    st = _rally_game()
    to_activate(st)
    sd = script(st, [face])
    st.apply("end")  # no move: shooting, melee, then Routs and Rallies
    ev = last(st, "rally")
    assert ev.rule == f"{RS}:personalities.banner"
    assert ev.data["rallied"] == rallied and st.units["r1"].hits == 6 - rallied
    assert last(st, "roll").rule == f"{RS}:personalities.banner"
    assert sd.used == 1 and ev.phase == "routs"


def test_personalities_banner_leader_rallies_too_but_not_a_plain_hero() -> None:
    st = _rally_game(kind="leader")
    to_activate(st)
    script(st, [5])
    st.apply("end")
    assert last(st, "rally").data["rallied"] == 3
    st2 = _rally_game(kind="hero", banner=False)
    to_activate(st2)
    n = len(st2.events)
    script(st2, [])
    st2.apply("end")
    assert "rally" not in kinds(st2, n)


def test_personalities_banner_no_rally_after_moving() -> None:
    st = _rally_game()
    to_activate(st)
    to_move_step(st, "r1", [3])
    st.apply("move r1 go 20,13")
    n = len(st.events)
    script(st, [])  # no rally die may be rolled
    st.apply("end")
    assert "rally" not in kinds(st, n) and st.units["r1"].hits == 6


def test_personalities_banner_a_turn_is_not_a_move() -> None:
    # "Turns are not movement": a unit that only turned may still rally
    st = _rally_game()
    to_activate(st)
    to_move_step(st, "r1", [3])
    st.apply("move r1 turn 30")
    script(st, [4])
    st.apply("end")
    assert last(st, "rally").data["rallied"] == 2


def test_personalities_banner_no_rally_after_shooting() -> None:
    st = _rally_game(type_="skirmishers-bows", blue=[unit("b1", "infantry", 20, 22, 180)])
    end_movement(st)
    script(st, [4])
    st.apply("shoot r1 b1")
    n = len(st.events)
    script(st, [])
    st.apply("end")
    assert "rally" not in kinds(st, n) and st.units["r1"].hits == 6


def test_personalities_banner_no_rally_in_melee() -> None:
    st = _rally_game(blue=[unit("b1", "infantry", 20, 14, 180)])
    to_activate(st)
    n = len(st.events)
    script(st, [4])  # r1's melee attack only
    st.apply("end")
    assert "melee" in kinds(st, n) and "rally" not in kinds(st, n)
    assert st.units["r1"].hits == 6


@pytest.mark.parametrize(("face", "rallied"), [(2, 2), (3, 3), (4, 3), (5, 4)])
def test_personalities_priest_rallies_2_to_4(face: int, rallied: int) -> None:
    # "A Christian Priest rallies off 2-4 Hits [halve a d5 roll, rounding up, then add 1]"
    st = _rally_game(kind="priest", banner=False, hits=8)
    to_activate(st)
    script(st, [face])
    st.apply("end")
    ev = last(st, "rally")
    assert ev.rule == f"{RS}:personalities.priest"
    assert ev.data["rallied"] == rallied and st.units["r1"].hits == 8 - rallied


def test_personalities_rally_never_below_zero() -> None:
    st = _rally_game(kind="priest", banner=False, hits=1)
    to_activate(st)
    script(st, [5])
    st.apply("end")
    assert last(st, "rally").data["rallied"] == 1 and st.units["r1"].hits == 0


def test_personalities_rally_variation_not_below_5_once_it_took_5() -> None:
    # "RALLY VARIATION: Once a Unit has taken 5 or more Hits, it may not rally to below 5 Hits."
    st = _rally_game(hits=7, options={"rally_variation": True})
    to_activate(st)
    script(st, [5])  # 3 hits would take it to 4
    st.apply("end")
    ev = last(st, "rally")
    assert ev.rule == f"{RS}:personalities.banner" and ev.data["variation"] is True
    assert f"{RS}:personalities.rally-variation" in ev.data["checked"]
    assert st.units["r1"].hits == 5 and ev.data["rallied"] == 2
    # without the variation the same roll goes to 4
    st2 = _rally_game(hits=7)
    to_activate(st2)
    script(st2, [5])
    st2.apply("end")
    assert st2.units["r1"].hits == 4


def test_personalities_rally_variation_below_5_if_it_never_took_5() -> None:
    st = _rally_game(hits=4, options={"rally_variation": True})
    to_activate(st)
    script(st, [5])
    st.apply("end")
    assert st.units["r1"].hits == 1 and last(st, "rally").data["variation"] is False


def test_personalities_rally_variation_remembers_hits_taken() -> None:
    # r1 (4 hits) is shot up to 6 in blue's turn, then rallies in its own turn: not below 5
    red = [unit("r1", "infantry", 20, 12), *far("f", 4)]
    blue = [unit("b1", "skirmishers-bows", 20, 22, 180)]
    st = game(
        red,
        blue,
        options={"personalities": True, "rally_variation": True},
        red_extra=pers(("p1", "hero", "r1", True)),
        attacker="blue",
    ).new_state(1)
    st.units["r1"].hits = 4
    end_movement(st)
    script(st, [5])  # (5-2) halved for the shieldwall = 2 -> 6
    st.apply("shoot b1 r1")  # no one else can shoot or fight: on to red's turn
    assert st.units["r1"].hits == 6 and st.units["r1"].reached_five
    assert st.side == "red" and st.phase == "movement"
    to_activate(st)
    script(st, [5])  # 3 off would be 3
    st.apply("end")
    assert st.units["r1"].hits == 5 and last(st, "rally").data["variation"] is True


def test_personalities_fate_lost_with_their_unit() -> None:
    # "If in a Unit that is in melee they may not leave it, sharing its fate if destroyed."
    red = [unit("r1", "raiders", 20, 12), *far("f", 2)]
    st = game(
        red,
        [unit("b1", "warriors", 20, 14, 180)],
        options={"personalities": True},
        red_extra=pers(("p1", "hero", "r1")),
        attacker="blue",
    ).new_state(1)
    st.units["r1"].hits = 12
    script(st, [2])  # b1: 2 + 1 = 3 -> 15: removed
    st.apply("end")
    ev = last(st, "personality-lost")
    assert ev.rule == f"{RS}:personalities.fate" and ev.data["personalities"] == ["p1"]
    assert last(st, "removed").data["personalities_lost"] == ["p1"]
    assert st.personalities["p1"].unit is None
    assert st.step == "activate"  # red has no transfer to make: p1 is gone
    assert st.view()["personalities"][0]["unit"] is None


# ================================================================================ initiative


def _turn_two(faces: list[Any], options: dict[str, Any], **kw: Any) -> Any:
    """Play turn 1 with no moves; ``faces`` are the initiative roll (holder, challenger), rolled on
    a d6 whatever the battle's die (ruling R26)."""
    g = game(
        [unit("r1", "infantry", 10, 5)],
        [unit("b1", "infantry", 10, 30, 180)],
        options={"initiative": True, **options},
        **kw,
    )
    st = g.new_state(1)
    end_movement(st)  # the first player
    sd = script(st, [("d6", f) if isinstance(f, int) else f for f in faces])
    end_movement(st)  # the second player; then turn 2 starts with the roll-off
    assert sd.faces == [] and st.turn == 2
    return st


def _player_turns(st: Any) -> list[tuple[int, str]]:
    return [
        (e.turn, e.data["player"])
        for e in st.events
        if e.kind == "phase" and e.data["phase_name"] == "movement"
    ]


def test_initiative_scenario_attacker_goes_first() -> None:
    # "the scenario attacker has Initiative and goes first each Turn"
    st = game(
        [unit("r1", "infantry", 10, 5)],
        [unit("b1", "infantry", 10, 30, 180)],
        options={"initiative": True},
        attacker="blue",
    ).new_state(1)
    ev = last(st, "initiative")
    assert ev.rule == f"{RS}:initiative" and ev.data["holder"] == "blue"
    assert st.side == "blue" and st.initiative == "blue"
    assert _player_turns(st) == [(1, "blue")]


def test_initiative_no_clear_attacker_roll_off() -> None:
    # "[if no clear Attacker, roll off]"
    g = game(
        [unit("r1", "infantry", 10, 5)],
        [unit("b1", "infantry", 10, 30, 180)],
        options={"initiative": True},
        attacker="roll-off",
    )
    for seed in range(6):
        st = g.new_state(seed)
        ro = next(e for e in st.events if e.kind == "roll-off")
        assert ro.rule == f"{RS}:initiative"
        assert st.initiative == ro.data["winner"] == st.side


def test_initiative_roll_off_from_turn_2_holder_adds_3_and_keeps_on_a_tie() -> None:
    # "at the start of Turn 2 - and every Turn after - roll off adding +3 for the Initiative Side"
    st = _turn_two([("d6", 2), ("d6", 5)], {"dice": "d6"})  # 2+3 = 5 against 5: a tie keeps it
    ev = last(st, "initiative")
    assert ev.rule == f"{RS}:initiative" and ev.turn == 2
    assert ev.data["totals"] == {"red": 5, "blue": 5} and ev.data["changed"] is False
    assert st.initiative == "red" and st.side == "red"
    rolls = [e for e in st.events if e.kind == "roll" and e.rule == f"{RS}:initiative"]
    assert [(r.side, r.data["faces"]) for r in rolls] == [("red", [2]), ("blue", [5])]


def test_initiative_roll_off_die_is_a_declared_parameter() -> None:
    # "roll off adding +3 for the Initiative Side": the text does not name the die; it is the
    # declared parameter initiative_die (ruling R49), a d6 by default whatever the battle's die
    from shieldwall.rulesets.one_hour.params import PARAMETERS

    p = PARAMETERS["initiative_die"]
    assert p.default == "d6" and p.choices == ("d6", "d5") and p.rule == f"{RS}:initiative"
    g = game(
        [unit("r1", "infantry", 10, 5)],
        [unit("b1", "infantry", 10, 30, 180)],
        options={"initiative": True, "initiative_die": "d5"},
    )
    st = g.new_state(1)
    end_movement(st)
    script(st, [5, 5])  # faces of the battle's d5: 5+3 against 5, red keeps it
    end_movement(st)
    rolls = [e for e in st.events if e.kind == "roll" and e.rule == f"{RS}:initiative"]
    assert [r.data["die"] for r in rolls] == ["d5", "d5"]
    assert last(st, "initiative").data["totals"] == {"red": 8, "blue": 5}
    with pytest.raises(DataError):
        game(
            [unit("r1", "infantry", 10, 5)],
            [unit("b1", "infantry", 10, 30, 180)],
            options={"initiative": True, "initiative_die": "d8"},
        )


def test_initiative_passes_only_if_the_holder_loses() -> None:
    # "If the Initiative side loses the roll, Initiative changes to the other side"
    st = _turn_two([("d6", 1), ("d6", 5)], {"dice": "d6"})  # 4 against 5
    ev = last(st, "initiative")
    assert ev.data["changed"] is True and ev.side == "blue"
    assert st.initiative == "blue" and st.side == "blue"
    assert last(st, "turn").data["first"] == "blue"


def test_initiative_seizing_side_goes_twice_in_a_row() -> None:
    # "this allows the side seizing Initiative to go twice in a row as the turn order changes"
    st = _turn_two([("d6", 1), ("d6", 6)], {"dice": "d6"})
    end_movement(st)
    script(st, [("d6", 1), ("d6", 1)])  # turn 3: blue keeps it
    end_movement(st)
    assert _player_turns(st) == [(1, "red"), (1, "blue"), (2, "blue"), (2, "red"), (3, "blue")]


def test_initiative_without_the_option_no_roll_and_attacker_always_first() -> None:
    g = game([unit("r1", "infantry", 10, 5)], [unit("b1", "infantry", 10, 30, 180)])
    st = g.new_state(1)
    for _ in range(4):
        script(st, [])  # no initiative die may be rolled
        end_movement(st)
    assert _player_turns(st) == [(1, "red"), (1, "blue"), (2, "red"), (2, "blue"), (3, "red")]
    assert next(e for e in st.events if e.kind == "initiative").rule == f"{RS}:play-sequence"


@pytest.mark.parametrize(("bonus", "changed"), [(2, True), (3, False), (4, False)])
def test_initiative_bonus_options(bonus: int, changed: bool) -> None:
    # "For more likelihood to change use +2 for the side holding Initiative, for less go with +4."
    st = _turn_two([2, 5], {"initiative_bonus": bonus})  # d5: red 2 + bonus against blue 5
    ev = last(st, "initiative")
    assert ev.rule == (f"{RS}:initiative" if bonus == 3 else f"{RS}:initiative.bonus")
    assert ev.data["bonus"] == bonus and ev.data["totals"]["red"] == 2 + bonus
    assert ev.data["changed"] is changed and st.initiative == ("blue" if changed else "red")


def test_initiative_bonus_option_validated() -> None:
    with pytest.raises(DataError) as e:
        game(
            [unit("r1", "infantry", 10, 5)],
            [unit("b1", "infantry", 10, 30, 180)],
            options={"initiative": True, "initiative_bonus": 5},
        )
    assert e.value.field == "options.initiative_bonus"


def _with_losses(red_lost: int, blue_lost: int, faces: list[Any], options: dict[str, Any]) -> Any:
    red = [unit("r1", "infantry", 10, 5), *far("rx", 3)]
    blue = [unit("b1", "infantry", 10, 30, 180), *far("bx", 3, "blue")]
    g = game(red, blue, options={"initiative": True, **options})
    st = g.new_state(1)
    for side, prefix, n in (("red", "rx", red_lost), ("blue", "bx", blue_lost)):
        for i in range(n):
            st.units[f"{prefix}{i}"].removed = True
        st.lost[side] = n
    end_movement(st)
    script(st, [("d6", f) if isinstance(f, int) else f for f in faces])
    end_movement(st)
    return st


def test_initiative_routed_units_penalty() -> None:
    # "Subtract '1' from the players dice rolls for each of their Units that have routed."
    st = _with_losses(2, 1, [3, 4], {"initiative_routed_penalty": True})
    ev = last(st, "initiative")
    assert ev.rule.startswith(f"{RS}:initiative")
    assert ev.data["totals"] == {"red": 3 + 3 - 2, "blue": 4 - 1} and ev.data["changed"] is False
    st2 = _with_losses(3, 0, [3, 4], {"initiative_routed_penalty": True})
    assert last(st2, "initiative").data["totals"] == {"red": 3, "blue": 4}
    assert st2.initiative == "blue"
    # without the option the losses do not count
    st3 = _with_losses(3, 0, [3, 4], {})
    assert last(st3, "initiative").data["totals"] == {"red": 6, "blue": 4} and st3.initiative == "red"


# ================================================================================ variable quality


def _vq_game(blue: list[dict[str, Any]], **kw: Any) -> Any:
    return game(
        [unit("r1", "warriors", 20, 12), unit("r2", "warriors", 30, 12)],
        blue,
        options={"variable_quality": True},
        **kw,
    )


def test_variable_quality_elite_18_levy_12() -> None:
    # "Elite / Stubborn troops = 18 Casualties before routing. Levy /Nervous troops etc = 12"
    blue = [
        unit("b1", "raiders", 20, 14, 180, quality="elite"),
        unit("b2", "raiders", 30, 14, 180, quality="levy"),
    ]
    st = _vq_game(blue).new_state(1)
    assert (st.units["b1"].max_hits, st.units["b2"].max_hits, st.units["bs"].max_hits) == (18, 12, 15)
    st.units["b1"].hits = 14
    st.units["b2"].hits = 9
    script(st, [2, 2])  # 3 hits each: elite 17 (stays), levy 12 (removed)
    st.apply("end")
    assert not st.units["b1"].removed and st.units["b1"].hits == 17
    ev = last(st, "removed")
    assert ev.rule == f"{RS}:routs-and-rallies.removal"
    assert (ev.data["unit"], ev.data["hits"], ev.data["limit"]) == ("b2", 12, 12)
    view = {u["id"]: u for u in st.view()["units"]}
    assert (view["b1"]["max_hits"], view["b1"]["quality"]) == (18, "elite")


def test_variable_quality_elite_removed_at_18() -> None:
    blue = [
        unit("b1", "raiders", 20, 14, 180, quality="elite"),
        unit("b2", "raiders", 40, 20, 180, quality="levy"),
    ]
    st = _vq_game(blue).new_state(1)
    st.units["b1"].hits = 15
    script(st, [2])
    st.apply("end")
    checked = [f"{RS}:routs-and-rallies.removal", f"{RS}:variable-quality"]
    assert last(st, "removed").data == {
        "unit": "b1",
        "hits": 18,
        "limit": 18,
        "personalities_lost": [],
        "checked": checked,
    }


def test_variable_quality_one_elite_must_be_balanced_by_one_levy() -> None:
    # "allow one Unit to be Elite, but one must be Levy to balance things out!"
    with pytest.raises(DataError) as e:
        _vq_game([unit("b1", "raiders", 20, 14, 180, quality="elite")])
    assert e.value.field == "blue.units[0].quality" and "variable-quality" in e.value.reason
    assert "balanced" in e.value.reason


def test_variable_quality_one_elite_per_six_units() -> None:
    # "For each army of six Units, allow one Unit to be Elite"
    blue = [
        unit(f"b{i}", "infantry", 4 + 6 * i, 30, 180, quality=q)
        for i, q in enumerate(["elite", "elite", "levy", "levy", "", ""])
    ]
    with pytest.raises(DataError) as e:
        _vq_game(blue)  # seven units with the spare: one Elite only
    assert e.value.field == "blue.units[1].quality" and "at most 1 Elite" in e.value.reason
    twelve = blue + [unit(f"c{i}", "infantry", 4 + 6 * i, 26, 180) for i in range(5)]
    g = _vq_game(twelve)  # twelve units: two
    assert sum(u.max_hits == 18 for u in g.initial_units) == 2


def test_variable_quality_needs_the_option() -> None:
    with pytest.raises(DataError) as e:
        game(
            [unit("r1", "warriors", 20, 12, quality="elite"), unit("r2", "warriors", 30, 12, quality="levy")],
            [unit("b1", "infantry", 20, 30, 180)],
        )
    assert e.value.field == "red.units[0].quality" and "options.variable_quality" in e.value.reason


# ================================================================================ force morale


def _fm_game(
    blue_n: int = 4,
    options: dict[str, Any] | None = None,
    blue_extra: dict[str, Any] | None = None,
    red_n: int = 4,
) -> Any:
    """r1/r2 (warriors) fight b1/b2 (raiders) front to front; blue has ``blue_n`` + 1 units (the
    spare), red ``red_n`` + 1."""
    red = [unit("r1", "warriors", 20, 12), unit("r2", "warriors", 30, 12), *far("rx", red_n - 2)]
    blue = [
        unit("b1", "raiders", 20, 14, 180),
        unit("b2", "raiders", 30, 14, 180),
        *far("bx", blue_n - 2, "blue"),
    ]
    g = game(red, blue, options={"force_morale": True, **(options or {})}, blue_extra=blue_extra)
    return g.new_state(1)


def test_force_morale_roll_each_time_a_unit_is_destroyed_needing_more_than_lost() -> None:
    # "rolling a d5 each time a friendly Unit is destroyed, attempting to roll higher than the total
    # number of friendly Units destroyed to keeping fighting"
    st = _fm_game(blue_n=5)  # six blue units
    st.units["b1"].hits = 14
    sd = script(st, [2, 2, 2])  # r1 and r2 attack; b1 is destroyed and blue rolls a 2 against 1 lost
    st.apply("end")
    ev = last(st, "force-morale")
    assert ev.rule == f"{RS}:force-morale" and ev.side == "blue"
    assert (ev.data["faces"], ev.data["total"], ev.data["target"], ev.data["passed"]) == ([2], 2, 1, True)
    assert sd.faces == [] and not st.is_terminal()
    assert last(st, "roll").rule == f"{RS}:force-morale"


def test_force_morale_equal_or_less_routs_the_force_and_ends_the_game() -> None:
    # "If you roll equal or less your force routs and the game ends."
    st = _fm_game(blue_n=5)
    st.units["b1"].hits = 14
    st.units["b2"].hits = 14
    script(st, [2, 2, 2, 2])  # both destroyed: 2 > 1 keeps fighting, then 2 <= 2 routs
    st.apply("end")
    fm = [e for e in st.events if e.kind == "force-morale"]
    assert [(e.data["target"], e.data["passed"]) for e in fm] == [(1, True), (2, False)]
    assert st.is_terminal()
    res = st.result()
    assert res is not None and res.winner == "red" and "Force Morale" in res.reason
    assert last(st, "result").data["winner"] == "red"


def test_force_morale_not_rolled_without_the_option() -> None:
    st = game([unit("r1", "warriors", 20, 12)], [unit("b1", "raiders", 20, 14, 180)]).new_state(1)
    st.units["b1"].hits = 14
    sd = script(st, [2, 5])
    st.apply("end")
    assert st.units["b1"].removed and "force-morale" not in kinds(st)
    assert sd.faces == [5]


@pytest.mark.parametrize(("face", "passed"), [(2, False), (3, True), (5, True)])
def test_force_morale_small_army_rolls_the_die_halved(face: int, passed: bool) -> None:
    # "With a three or four Unit army, roll a d5 halved [round up]."
    st = _fm_game(blue_n=3)  # b1, b2, bx0 and the spare: four units
    st.units["b1"].hits = 14
    script(st, [2, 2, face])
    st.apply("end")
    ev = last(st, "force-morale")
    assert ev.rule == f"{RS}:force-morale.small-army"
    assert ev.data["values"] == [-(-face // 2)] and ev.data["passed"] is passed
    assert st.is_terminal() is not passed


def test_force_morale_five_unit_army_not_halved() -> None:
    st = _fm_game(blue_n=4)  # five units
    st.units["b1"].hits = 14
    script(st, [2, 2, 2])
    st.apply("end")
    ev = last(st, "force-morale")
    assert ev.rule == f"{RS}:force-morale" and ev.data["values"] == [2] and ev.data["passed"]


@pytest.mark.parametrize(("faces", "passed"), [([2, 3], True), ([3, 2], True), ([2, 2], False)])
def test_force_morale_two_dice_either_may_beat_it(faces: list[int], passed: bool) -> None:
    # "you can roll TWO d5 and keep fighting if EITHER roll beats the number of Units lost"
    st = _fm_game(blue_n=5, options={"force_morale_two_dice": True})
    st.units["b1"].hits = 14
    st.units["b2"].hits = 14
    script(st, [2, 2, 5, 5, *faces])  # first loss passes easily; the second needs more than 2
    st.apply("end")
    ev = last(st, "force-morale")
    assert ev.rule == f"{RS}:force-morale.two-dice"
    assert ev.data["faces"] == faces and ev.data["target"] == 2 and ev.data["passed"] is passed
    assert st.is_terminal() is not passed


def _lose(st: Any, side: str, ids: list[str]) -> None:
    for uid in ids:
        st.units[uid].removed = True
    st.lost[side] += len(ids)


def test_force_morale_emboldened_plus_one_if_the_opponent_lost_more() -> None:
    # "You could also get a +1 to your roll if your opponent has lost more Units"
    for emboldened in (True, False):
        st = _fm_game(blue_n=5, red_n=5, options={"force_morale_emboldened": emboldened})
        _lose(st, "red", ["rx0", "rx1", "rx2"])
        _lose(st, "blue", ["bx0"])
        st.units["b1"].hits = 14
        script(st, [2, 2, 2])  # blue has lost 2 (red 3): a 2 needs the +1
        st.apply("end")
        ev = last(st, "force-morale")
        assert ev.data["emboldened"] is emboldened and ev.data["bonus"] == int(emboldened)
        assert (f"{RS}:force-morale.emboldened" in ev.data["checked"]) is emboldened
        assert ev.data["passed"] is emboldened and st.is_terminal() is not emboldened


def test_force_morale_emboldened_not_when_the_opponent_lost_as_many() -> None:
    st = _fm_game(blue_n=5, red_n=5, options={"force_morale_emboldened": True})
    _lose(st, "red", ["rx0", "rx1"])
    _lose(st, "blue", ["bx0"])
    st.units["b1"].hits = 14
    script(st, [2, 2, 2])
    st.apply("end")
    ev = last(st, "force-morale")
    assert ev.data["bonus"] == 0 and not ev.data["passed"]


def test_force_morale_scenario_bonus() -> None:
    # "consider fun ways to gain a bonus point or two on the die roll"
    st = _fm_game(blue_n=5, blue_extra={"force_morale_bonus": 1})
    _lose(st, "blue", ["bx0"])
    st.units["b1"].hits = 14
    script(st, [2, 2, 2])
    st.apply("end")
    ev = last(st, "force-morale")
    assert ev.rule == f"{RS}:force-morale"
    assert (ev.data["bonus"], ev.data["total"], ev.data["target"], ev.data["passed"]) == (1, 3, 2, True)
    assert f"{RS}:force-morale.bonus" in ev.data["checked"]
    with pytest.raises(DataError) as e:
        game(
            [unit("r1", "warriors", 20, 12)],
            [unit("b1", "raiders", 20, 14, 180)],
            blue_extra={"force_morale_bonus": 4},
        )
    assert e.value.field == "blue.force_morale_bonus"


def test_force_morale_campaign_last_free_attack() -> None:
    # "In a campaign game, allow the opposing side to get one last free attack as they rout."
    st = _fm_game(blue_n=3, options={"force_morale_last_attack": True})
    st.units["b1"].hits = 14
    sd = script(st, [2, 2, 2, 4])  # r1, r2 attack; b1 destroyed; blue rolls 2 halved = 1: routs; r2 again
    st.apply("end")
    ev = last(st, "last-attack")
    assert ev.rule == f"{RS}:force-morale.last-attack"
    assert (ev.data["unit"], ev.data["target"]) == ("r2", "b2")
    melees = [e for e in st.events if e.kind == "melee"]
    assert [(m.data["unit"], m.data["faces"]) for m in melees] == [("r1", [2]), ("r2", [2]), ("r2", [4])]
    assert st.units["b2"].hits == 3 + 5 and st.is_terminal() and sd.faces == []


def test_force_morale_no_last_attack_without_the_campaign_option() -> None:
    st = _fm_game(blue_n=3)
    st.units["b1"].hits = 14
    sd = script(st, [2, 2, 2, 4])
    st.apply("end")
    assert st.is_terminal() and "last-attack" not in kinds(st) and sd.faces == [4]


# ================================================================================ fall back


def _fb(red_type: str, blue: list[dict[str, Any]], options: dict[str, Any] | None = None, **kw: Any) -> Any:
    """r1 at (20, 12) facing north; b1 usually front to front at (20, 14)."""
    return game(
        [unit("r1", red_type, 20, 12)], blue, options={"fall_back": True, **(options or {})}, **kw
    ).new_state(1)


def test_fall_back_cavalry_full_move_directly_back() -> None:
    # "Skirmishers and cavalry may make a full move directly back out of melee"
    st = _fb("cavalry", [unit("b1", "infantry", 20, 14, 180)])
    assert any(str(o) == "fallback r1" for o in st.legal_orders())
    sd = script(st, [2, 2, 2, 5])  # r1 rolls 8"; the infantry 7": no free attack
    st.apply("fallback r1")
    ev = last(st, "fall-back")
    assert ev.rule == f"{RS}:fall-back" and ev.data["rolled"] == 8 and ev.data["moved"] == pytest.approx(8.0)
    r1 = st.units["r1"].fp
    assert (r1.x, r1.y, r1.heading) == pytest.approx((20, 4, 0))
    assert not st.in_melee(st.units["r1"]) and "free-attack" not in kinds(st) and sd.faces == []
    assert st.units["r1"].hits == 0


def test_fall_back_dice_off_enemy_wins_free_attack_first() -> None:
    # "If an enemy Unit is in frontal Contact with the FB Unit, dice-off their movement distances -
    # if it wins the enemy Unit makes a free attack before the Skirmish or Cavalry Unit moves"
    st = _fb("skirmishers-javelins", [unit("b1", "infantry", 20, 14, 180)])
    script(st, [2, 2, 5, 4])  # r1 6", b1 7": b1 wins and attacks with a 4
    st.apply("fallback r1")
    ks = kinds(st)
    assert ks.index("free-attack") < ks.index("melee") < ks.index("fall-back")
    fa = last(st, "free-attack")
    assert fa.rule == f"{RS}:fall-back.dice-off" and (fa.data["theirs"], fa.data["ours"]) == (7, 6)
    m = last(st, "melee")
    assert m.side == "blue" and m.data["unit"] == "b1" and m.data["target"] == "r1" and m.data["hits"] == 4
    assert st.units["r1"].hits == 4
    assert last(st, "roll").rule == f"{RS}:fall-back.dice-off"
    assert st.units["r1"].fp.y == pytest.approx(6.0)  # then it moves the 6" it rolled


def test_fall_back_dice_off_tie_no_free_attack() -> None:
    st = _fb("skirmishers-javelins", [unit("b1", "infantry", 20, 14, 180)])
    script(st, [2, 3, 5])  # 7 against 7: the enemy does not win
    st.apply("fallback r1")
    assert "free-attack" not in kinds(st) and st.units["r1"].hits == 0


def test_fall_back_only_skirmishers_and_cavalry() -> None:
    st = _fb("infantry", [unit("b1", "infantry", 20, 14, 180)])
    with pytest.raises(IllegalOrder) as e:
        st.apply("fallback r1")
    assert rule_of(e) == f"{RS}:fall-back" and "Skirmishers and Cavalry" in e.value.reason
    st2 = _fb("raiders", [unit("b1", "infantry", 20, 14, 180)])
    with pytest.raises(IllegalOrder) as e:
        st2.apply("fallback r1")
    assert rule_of(e) == f"{RS}:fall-back"


def test_fall_back_needs_a_higher_movement_class_than_all_enemies() -> None:
    # "IF they are from a higher movement class than all enemy Units in the melee"
    st = _fb("skirmishers-bows", [unit("b1", "warriors", 20, 14, 180)])  # class 2 against class 2
    assert not any(str(o) == "fallback r1" for o in st.legal_orders())
    with pytest.raises(IllegalOrder) as e:
        st.apply("fallback r1")
    assert rule_of(e) == f"{RS}:fall-back" and "higher movement class" in e.value.reason
    # cavalry with infantry in front but enemy cavalry on its right flank
    st2 = _fb("cavalry", [unit("b1", "infantry", 20, 14, 180), unit("b2", "cavalry", 23.5, 11, 270)])
    assert {f for _, f, _ in st2.touching(st2.units["r1"])} == {"front", "right"}
    with pytest.raises(IllegalOrder) as e:
        st2.apply("fallback r1")
    assert rule_of(e) == f"{RS}:fall-back" and "higher movement class" in e.value.reason


def test_fall_back_not_with_an_enemy_on_the_rear() -> None:
    # "AND no enemy are in contact with their rear facing."
    st = _fb("cavalry", [unit("b1", "infantry", 20, 14, 180), unit("b2", "infantry", 20, 10, 0)])
    assert {f for _, f, _ in st.touching(st.units["r1"])} == {"front", "rear"}
    with pytest.raises(IllegalOrder) as e:
        st.apply("fallback r1")
    assert rule_of(e) == f"{RS}:fall-back" and "rear" in e.value.reason


def test_fall_back_needs_the_option_and_a_melee() -> None:
    st = game([unit("r1", "cavalry", 20, 12)], [unit("b1", "infantry", 20, 14, 180)]).new_state(1)
    with pytest.raises(IllegalOrder) as e:
        st.apply("fallback r1")
    assert rule_of(e) == f"{RS}:fall-back" and "option" in e.value.reason
    st2 = _fb("cavalry", [unit("b1", "infantry", 20, 24, 180)])
    with pytest.raises(IllegalOrder) as e:
        st2.apply("fallback r1")
    assert rule_of(e) == f"{RS}:fall-back" and "not in melee" in e.value.reason


def test_fall_back_flank_enemy_only_no_dice_off() -> None:
    # the dice-off is only with an enemy in frontal contact
    st = _fb("cavalry", [unit("b1", "infantry", 23.5, 12, 270)])
    assert [f for _, f, _ in st.touching(st.units["r1"])] == ["right"]
    sd = script(st, [5, 5, 5])  # only r1's own move dice: 17"
    st.apply("fallback r1")
    assert sd.faces == [] and "free-attack" not in kinds(st)
    assert last(st, "fall-back").data["moved"] == pytest.approx(11.0)  # it stops at the table edge
    assert st.units["r1"].fp.y == pytest.approx(1.0)


# ================================================================================ missile supply


def _ms_game(options: dict[str, Any] | None = None, turns: int = 6) -> Any:
    red = [unit("r1", "skirmishers-bows", 20, 5), unit("r2", "skirmishers-bows", 30, 5)]
    blue = [unit("b1", "infantry", 20, 18, 180), unit("b2", "infantry", 30, 18, 180)]
    return game(red, blue, options={"missile_supply": True, **(options or {})}, turns=turns).new_state(1)


def _to_red_shooting(st: Any) -> None:
    while not (st.side == "red" and st.phase == "shooting"):
        if st.step == "shoot":
            st.apply("end")
        else:
            end_movement(st)


def test_missile_supply_natural_5_uses_the_last_missiles() -> None:
    # "Any shooting roll of a natural '5' results in the Unit having used the last of their missiles"
    st = _ms_game()
    _to_red_shooting(st)
    script(st, [5])
    st.apply("shoot r1 b1")
    ev = last(st, "out-of-missiles")
    assert ev.rule == f"{RS}:missile-supply" and ev.data["unit"] == "r1"
    assert last(st, "shot").data["hits"] == 2  # the shot itself still hits: (5-2) halved for the shieldwall
    assert st.units["r1"].out_of_missiles
    st.apply("end")
    _to_red_shooting(st)
    assert st.step == "shoot"  # r2 may still shoot
    with pytest.raises(IllegalOrder) as e:
        st.apply("shoot r1 b1")
    assert rule_of(e) == f"{RS}:missile-supply"
    assert [u["shots_left"] for u in st.view()["units"] if u["id"] in ("r1", "r2")] == [0, None]


def test_missile_supply_replaces_the_three_shot_limit() -> None:
    # "This replaces the three-shot limit. Statistically, this will result in more shots by a Unit."
    st = _ms_game()
    for _ in range(5):
        _to_red_shooting(st)
        script(st, [4])
        st.apply("shoot r1 b1")
        st.apply("end")
    shots = [e for e in st.events if e.kind == "shot" and e.data["unit"] == "r1"]
    assert len(shots) == 5 and "out-of-missiles" not in kinds(st)
    # without the option the fourth shot is refused
    st2 = _ms_game({"missile_supply": False})
    for i in range(4):
        _to_red_shooting(st2)
        if i < 3:
            script(st2, [4])
            st2.apply("shoot r1 b1")
            st2.apply("end")
    with pytest.raises(IllegalOrder) as e:
        st2.apply("shoot r1 b1")
    assert rule_of(e) == f"{RS}:shooting.three-shots"


def test_missile_supply_moving_shot_natural_5() -> None:
    red = [unit("r1", "skirmishers-javelins", 20, 5)]
    st = game(red, [unit("b1", "infantry", 20, 12, 180)], options={"missile_supply": True}).new_state(1)
    to_move_step(st, "r1", [2, 2])
    script(st, [5])
    st.apply("shot r1 b1")
    assert last(st, "out-of-missiles").rule == f"{RS}:missile-supply"
    assert st.units["r1"].out_of_missiles


# ================================================================================ declared movement


def _dm(
    red: list[dict[str, Any]],
    blue: list[dict[str, Any]],
    terrain: list[dict[str, Any]] | None = None,
    **kw: Any,
) -> Any:
    return game(red, blue, terrain or [], options={"declared_movement": True}, **kw).new_state(1)


def test_declared_movement_intent_required() -> None:
    # "The player indicates a Unit, states the intent of its move, rolls the dice"
    st = _dm([unit("r1", "infantry", 20, 5)], [unit("b1", "infantry", 20, 30, 180)])
    with pytest.raises(IllegalOrder) as e:
        st.apply("activate r1")
    assert rule_of(e) == f"{RS}:declared-movement"
    assert all(o.charge or o.toward for o in st.legal_orders() if type(o).__name__ == "Activate")
    st2 = game([unit("r1", "infantry", 20, 5)], [unit("b1", "infantry", 20, 30, 180)]).new_state(1)
    with pytest.raises(IllegalOrder) as e:
        st2.apply("activate r1 toward 20,20")
    assert rule_of(e) == f"{RS}:declared-movement"


def test_declared_movement_full_distance_even_if_farther_than_desired() -> None:
    # "Units move the full distance rolled even if farther than desired."
    st = _dm([unit("r1", "infantry", 20, 5)], [unit("b1", "infantry", 20, 30, 180)])
    script(st, [5])  # 7"
    st.apply("activate r1 toward 20,8")
    dec = last(st, "declare")
    assert dec.rule == f"{RS}:declared-movement" and dec.data["toward"] == [20, 8]
    mv = last(st, "move")
    assert mv.data["distance"] == pytest.approx(7.0) and st.units["r1"].fp.y == pytest.approx(12.0)
    assert st.step == "activate"  # the move was made for the player


def test_declared_movement_full_distance_after_turning_toward_the_point() -> None:
    st = _dm([unit("r1", "cavalry", 20, 5)], [unit("b1", "infantry", 40, 30, 180)])
    script(st, [2, 2, 2])  # 8"
    st.apply("activate r1 toward 30,5")
    r1 = st.units["r1"].fp
    assert r1.heading == pytest.approx(90.0) and (r1.x, r1.y) == pytest.approx((28.0, 5.0))


def test_declared_movement_a_unit_that_may_not_turn_goes_straight_on_when_that_nears_its_goal() -> None:
    """Ruling R33: "The unit turns to face the goal if it may". Skirmishers stand just ahead of
    r1 (infantry may pass through them, not stand on them): turned toward (40, 15) r1 would
    overlap them, so it does not turn and goes its whole 7" straight ahead, through them (the goal
    is 63 degrees off its front: ahead brings it nearer). It used to hold (the refused turn made
    the whole move illegal)."""
    st = _dm(
        [unit("r1", "infantry", 20, 5), unit("r2", "skirmishers-bows", 20, 7)],
        [unit("b1", "infantry", 20, 30, 180)],
    )
    script(st, [5])  # 7"
    n = len(st.events)
    st.apply("activate r1 toward 40,15")
    assert kinds(st, n) == ["declare", "roll", "move-roll", "declared-no-turn", "move"]
    ev = last(st, "declared-no-turn")
    assert ev.rule == f"{RS}:declared-movement" and ev.data["angle"] == pytest.approx(63.43)
    assert "Skirmishers" in ev.data["reason"] or "r2" in ev.data["reason"]
    r1 = st.units["r1"].fp
    assert r1.heading == 0.0 and (r1.x, r1.y) == pytest.approx((20.0, 12.0))
    assert last(st, "move").data["distance"] == pytest.approx(7.0)


def test_declared_movement_a_unit_that_may_not_turn_holds_when_its_goal_is_not_ahead() -> None:
    """The same, with the goal behind r1's front line (104 degrees off): going straight on would
    take it away, so it holds."""
    st = _dm(
        [unit("r1", "infantry", 20, 5), unit("r2", "skirmishers-bows", 20, 7)],
        [unit("b1", "infantry", 20, 30, 180)],
    )
    script(st, [5])
    n = len(st.events)
    st.apply("activate r1 toward 40,0")
    assert kinds(st, n) == ["declare", "roll", "move-roll", "declared-no-turn", "hold"]
    assert abs(last(st, "declared-no-turn").data["angle"]) >= 90.0
    r1 = st.units["r1"].fp
    assert r1.heading == 0.0 and (r1.x, r1.y) == (20.0, 5.0)


def test_declared_movement_warband_must_contact_an_enemy_when_they_roll_enough() -> None:
    # "Warband must contact an enemy Unit if they roll enough distance."
    st = _dm([unit("r1", "warriors", 20, 5)], [unit("b1", "infantry", 20, 15, 180)])
    script(st, [4, 4])  # 10" >= the 8" gap
    st.apply("activate r1 toward 10,5")
    ev = last(st, "warband-must-charge")
    assert ev.rule == f"{RS}:declared-movement.warband" and ev.data["target"] == "b1"
    assert last(st, "charge").rule == f"{RS}:charging.contact"
    assert st.in_melee(st.units["r1"])


def test_declared_movement_warband_short_roll_moves_on() -> None:
    st = _dm([unit("r1", "warriors", 20, 5)], [unit("b1", "infantry", 20, 15, 180)])
    script(st, [2, 2])  # 6" < 8"
    st.apply("activate r1 toward 20,9")
    assert "warband-must-charge" not in kinds(st) and not st.in_melee(st.units["r1"])
    assert last(st, "move").data["distance"] == pytest.approx(6.0)


def test_declared_movement_other_units_need_not_charge() -> None:
    st = _dm([unit("r1", "cavalry", 20, 5)], [unit("b1", "infantry", 20, 15, 180)])
    script(st, [4, 4, 4])
    st.apply("activate r1 toward 2,5")
    assert "warband-must-charge" not in kinds(st) and "charge" not in kinds(st)


def test_declared_movement_declared_charge_goes_in() -> None:
    st = _dm([unit("r1", "infantry", 20, 9)], [unit("b1", "infantry", 20, 15, 180)])
    script(st, [3])  # 5" > 4" gap
    st.apply("activate r1 charge b1")
    assert last(st, "declare").data["charge"] == "b1"
    assert last(st, "charge").data["target"] == "b1" and st.in_melee(st.units["r1"])


def test_declared_movement_may_stop_at_a_bonus_terrain_point() -> None:
    # "They may however stop ... at a terrain feature that gives a movement or combat bonus [e.g. road, hill]"
    hill = {"id": "h", "kind": "hill", "points": [[15, 7], [25, 7], [25, 12], [15, 12]], "crest": [[20, 10]]}
    st = _dm([unit("r1", "infantry", 20, 5)], [unit("b1", "infantry", 20, 30, 180)], [hill])
    script(st, [5])  # 7", but the declared point on the hill is 4" away
    st.apply("activate r1 toward 20,9")
    assert last(st, "move").data["distance"] == pytest.approx(4.0)
    assert st.units["r1"].fp.y == pytest.approx(9.0)
    # a point in the open is overshot
    st2 = _dm([unit("r1", "infantry", 20, 5)], [unit("b1", "infantry", 20, 30, 180)])
    script(st2, [5])
    st2.apply("activate r1 toward 20,9")
    assert st2.units["r1"].fp.y == pytest.approx(12.0)


def test_declared_movement_may_stop_alongside_a_unit_with_a_banner() -> None:
    # "They may however stop alongside a Unit with a banner"
    red = [unit("r1", "infantry", 20, 5), unit("r2", "infantry", 26, 9), *far("f", 3)]
    g = game(
        red,
        [unit("b1", "infantry", 20, 30, 180)],
        options={"declared_movement": True, "personalities": True},
        red_extra=pers(("p1", "leader", "r2", True)),
    )
    st = g.new_state(1)
    to_activate(st)
    script(st, [5])
    st.apply("activate r1 toward 20,9")
    assert st.units["r1"].fp.y == pytest.approx(9.0)


def test_declared_movement_must_stop_at_a_unit_it_may_not_interpenetrate() -> None:
    # "... and must stop at any Unit they may not interpenetrate"
    red = [unit("r1", "infantry", 20, 5), unit("r2", "infantry", 20, 12)]
    st = _dm(red, [unit("b1", "infantry", 20, 30, 180)])
    script(st, [5])  # 7" would run into r2 (5" of clear ground)
    st.apply("activate r1 toward 20,20")
    r1 = st.units["r1"]
    assert r1.fp.y == pytest.approx(10.0, abs=0.3)
    assert S.distance_between(r1, st.units["r2"]) < 0.3


def test_declared_movement_must_stop_at_an_enemy_contacting_for_melee() -> None:
    # "... must stop at any Unit they may not interpenetrate, Contacting for Melee if an enemy Unit."
    st = _dm([unit("r1", "cavalry", 20, 5)], [unit("b1", "infantry", 20, 15, 180)])
    script(st, [3, 3, 3])  # 11": b1 is 8" away, straight ahead on the declared line
    st.apply("activate r1 toward 20,30")
    assert st.in_melee(st.units["r1"])
    ev = last(st, "declared-contact")
    assert ev.rule == f"{RS}:declared-movement.must-stop" and ev.data["target"] == "b1"
    assert last(st, "charge").data["target"] == "b1"


def test_declared_movement_too_short_to_reach_the_enemy_stops_short() -> None:
    st = _dm([unit("r1", "infantry", 20, 5)], [unit("b1", "infantry", 20, 15, 180)])
    script(st, [3])  # 5" of the 8"
    st.apply("activate r1 toward 20,30")
    assert not st.in_melee(st.units["r1"]) and "declared-contact" not in kinds(st)
    assert st.units["r1"].fp.y == pytest.approx(10.0)


# ================================================================================ dice


def test_dice_d6_option_names_the_die_in_combat_events() -> None:
    # "If you want more extreme swings, switch to a d6."
    st = game(
        [unit("r1", "warriors", 20, 12)], [unit("b1", "raiders", 20, 14, 180)], options={"dice": "d6"}
    ).new_state(1)
    script(st, [6])  # a face the d5 does not have
    st.apply("end")
    ev = last(st, "melee")
    assert ev.data["die"] == "d6" and ev.data["faces"] == [6] and ev.data["hits"] == 7
    assert next(e for e in st.events if e.kind == "battle").data["options"] == {"dice": "d6"}


def test_dice_d6_option_in_rallies_and_force_morale() -> None:
    st = _rally_game(options={"dice": "d6"})
    to_activate(st)
    script(st, [6])
    st.apply("end")
    assert last(st, "roll").data["die"] == "d6" and last(st, "rally").data["rallied"] == 3
    fm = _fm_game(blue_n=5, options={"dice": "d6"})
    fm.units["b1"].hits = 14
    script(fm, [4, 4, 1])  # a natural 1 on the d6 fails against one Unit lost
    fm.apply("end")
    ev = last(fm, "force-morale")
    assert ev.data["faces"] == [1] and not ev.data["passed"] and fm.is_terminal()
    assert last(fm, "roll").data["die"] == "d6"


def test_dice_d5_default_names_the_average_die() -> None:
    st = game([unit("r1", "warriors", 20, 12)], [unit("b1", "raiders", 20, 14, 180)]).new_state(1)
    script(st, [5])
    st.apply("end")
    assert last(st, "melee").data["die"] == "d5"
