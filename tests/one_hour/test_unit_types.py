"""Clause tests for "Ideas for Unit Types": one per named type, played through the engine (melee
and shooting dice as the events record them), the Viking Veterans' choice after deployment and the
Mounted Servants' upgrade with Arthur's cavalry in play."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import game, last, script, unit

from shieldwall.core.errors import DataError, IllegalOrder
from shieldwall.io.scenarios import load_game
from shieldwall.match import play

RS = "one-hour-dark-ages"
IDEAS = "ideas-for-unit-types"


def _melee_hits(type_: str, face: int, **kw: Any) -> Any:
    """r1 (``type_``) front to front with blue Raiders (no shieldwall, no terrain): its melee event
    for a die face ``face``."""
    g = game([unit("r1", type_, 20, 12, **kw)], [unit("b1", "raiders", 20, 14, 180)], **_opts(kw))
    st = g.new_state(1)
    _choose_all(st)
    script(st, [face])
    st.apply("end")
    return last(st, "melee")


def _shot(type_: str, face: int) -> Any:
    """r1 (``type_``) 3" short of blue Raiders, shooting in the Shooting phase: its shot event."""
    g = game([unit("r1", type_, 20, 9)], [unit("b1", "raiders", 20, 14, 180)])
    st = g.new_state(1)
    st.apply("end")  # no movement
    assert st.step == "shoot"
    script(st, [face])
    st.apply("shoot r1 b1")
    return last(st, "shot")


def _opts(kw: dict[str, Any]) -> dict[str, Any]:
    return {"options": {"upgrades": True}} if kw.get("upgrade") else {}


def _choose_all(st: Any, choice: str = "infantry") -> None:
    while st.step == "fight-as":
        mine = [o for o in st.legal_orders() if o.choice == choice]
        st.apply(mine[0])


def test_ideas_for_unit_types_roman_militia_melee_d5_minus_1() -> None:
    # "Roman Militia. These are Infantry who melee at d5-1."
    ev = _melee_hits("roman-militia", 4)
    assert ev.data["hits"] == 3 and any(
        m["rule"] == f"{RS}:{IDEAS}.roman-militia" for m in ev.data["modifiers"]
    )


def test_ideas_for_unit_types_roman_cavalry_shoot_and_melee_at_d5() -> None:
    # "Roman Cavalry. These better-equipped cavalry on bigger horses shoot & melee at d5."
    assert _melee_hits("roman-cavalry", 4).data["hits"] == 4
    assert _shot("roman-cavalry", 4).data["hits"] == 4


def test_ideas_for_unit_types_arthurs_cavalry_d5_plus_1() -> None:
    # "Arthur's Cavalry. As above, but are d5+1." (shoot and melee, as Roman Cavalry)
    assert _melee_hits("arthurs-cavalry", 4).data["hits"] == 5
    assert _shot("arthurs-cavalry", 4).data["hits"] == 5


def test_ideas_for_unit_types_arthurs_cavalry_roundtable_knights_fight_d5_plus_2() -> None:
    # 'If "Roundtable Knights", let them fight d5+2.' Fight = melee (ruling R45): they shoot as
    # Arthur's Cavalry, d5+1.
    assert _melee_hits("roundtable-knights", 4).data["hits"] == 6
    assert _shot("roundtable-knights", 4).data["hits"] == 5


def test_ideas_for_unit_types_mounted_servants_javelin_at_d5_minus_2() -> None:
    # "Mounted Servants. These fight with javelin but at d5-2." (melee and their javelins)
    assert _melee_hits("mounted-servants", 4).data["hits"] == 2
    assert _shot("mounted-servants", 4).data["hits"] == 2


def test_ideas_for_unit_types_irish_nobles_fight_at_d5_javelins_d5_minus_1() -> None:
    # "Irish Nobles. These javelin Skirmishers fight at d5." Fight = melee (ruling R45); their
    # javelins shoot as javelin Skirmishers do, d5-1 (Roman Cavalry are the ones who "shoot & melee").
    assert _melee_hits("irish-nobles", 4).data["hits"] == 4
    assert _shot("irish-nobles", 4).data["hits"] == 3


def test_ideas_for_unit_types_scots_nobles_determined_warband_d5_plus_1_18_hits() -> None:
    # "Scots Nobles. These Determined Warband fight at d5+1 with 18 Hits."
    ev = _melee_hits("scots-nobles", 4)
    assert ev.data["hits"] == 5
    g = game([unit("r1", "scots-nobles", 20, 12)], [unit("b1", "raiders", 20, 30, 180)])
    assert g.new_state(1).units["r1"].max_hits == 18


# --- Viking Veterans -----------------------------------------------------------------------------


def _vikings(attacker: str = "red") -> Any:
    return game(
        [unit("r1", "viking-veterans", 20, 12), unit("r2", "viking-veterans", 30, 5)],
        [unit("b1", "raiders", 20, 14, 180), unit("b2", "viking-veterans", 30, 30, 180)],
        attacker=attacker,
    ).new_state(1)


def test_ideas_for_unit_types_viking_veterans_choose_after_deployment() -> None:
    # "Viking Veterans. After deployment choose to fight as Infantry OR Warriors." Each side
    # chooses for its own, in play order, before the first turn (ruling R47).
    st = _vikings()
    d = st.decision()
    assert d is not None and d.kind == "fight-as" and d.side == "red" and st.turn == 1
    assert sorted(str(o) for o in st.legal_orders()) == [
        "fight-as r1 infantry",
        "fight-as r1 warriors",
        "fight-as r2 infantry",
        "fight-as r2 warriors",
    ]
    st.apply("fight-as r1 warriors")
    ev = last(st, "fight-as")
    assert ev.rule == f"{RS}:{IDEAS}.viking-veterans" and ev.data["choice"] == "warriors"
    assert st.units["r1"].profile.category == "warband" and st.units["r1"].profile.move_class == 2
    st.apply("fight-as r2 infantry")
    assert st.units["r2"].profile.shieldwall
    assert st.decision().side == "blue" and [str(o) for o in st.legal_orders()] == [  # type: ignore[union-attr]
        "fight-as b2 infantry",
        "fight-as b2 warriors",
    ]
    st.apply("fight-as b2 infantry")
    # then the first turn starts with the attacker's Movement phase
    assert st.side == "red" and st.phase == "movement" and st.step == "activate"


def test_ideas_for_unit_types_viking_veterans_as_warriors_melee_d5_plus_1() -> None:
    st = _vikings()
    st.apply("fight-as r1 warriors")
    st.apply("fight-as r2 infantry")
    st.apply("fight-as b2 infantry")
    script(st, [4])
    st.apply("end")
    assert last(st, "melee").data["hits"] == 5


def test_ideas_for_unit_types_viking_veterans_choice_is_made_once() -> None:
    st = _vikings()
    with pytest.raises(IllegalOrder) as e:
        st.apply("fight-as r1 cavalry")
    assert e.value.rule == f"{RS}:{IDEAS}.viking-veterans" and "infantry OR warriors" in e.value.reason
    st.apply("fight-as r1 infantry")
    with pytest.raises(IllegalOrder):
        st.apply("fight-as r1 warriors")  # r1 has no choice left
    with pytest.raises(IllegalOrder):
        st.apply("fight-as b2 warriors")  # not red's unit


def test_ideas_for_unit_types_viking_veterans_not_deployed_as_chosen() -> None:
    with pytest.raises(DataError) as e:
        game([unit("r1", "viking-veterans-warriors", 20, 12)], [unit("b1", "raiders", 20, 30, 180)])
    assert e.value.field == "red.units[0].type" and "chosen after deployment" in e.value.reason


def test_ideas_for_unit_types_viking_veterans_bots_choose_and_play() -> None:
    g = game(
        [unit("r1", "viking-veterans", 20, 8), unit("r2", "skirmishers-bows", 30, 5)],
        [unit("b1", "viking-veterans", 20, 28, 180), unit("b2", "skirmishers-javelins", 30, 30, 180)],
    )
    for red, blue in (("scripted", "random"), ("random", "scripted")):
        st = play(g, 3, red, blue).state
        chosen = [e for e in st.events if e.kind == "fight-as"]
        assert {e.data["unit"] for e in chosen} == {"r1", "b1"} and st.result() is not None


# --- Mounted Servants -----------------------------------------------------------------------------


def _army(*units: dict[str, Any]) -> Any:
    return game(list(units), [unit("b1", "infantry", 24, 30, 180)], options={"upgrades": True})


def test_ideas_for_unit_types_mounted_servants_upgrade_with_arthurs_cavalry() -> None:
    # "If Arthur's cavalry is in play, they may also be upgraded. In this case, a second Unit must
    # be downgraded." (ruling R46): the list's own upgrade and downgrade, and the Servants' pair
    g = _army(
        unit("r1", "arthurs-cavalry", 10, 5, upgrade="household"),
        unit("r2", "infantry", 16, 5, upgrade="levy"),
        unit("r3", "mounted-servants", 22, 5, upgrade="household"),
        unit("r4", "infantry", 28, 5, upgrade="reluctant"),
    )
    mods = {u.id: u.attack_mod for u in g.initial_units}
    assert {k: mods[k] for k in ("r1", "r2", "r3", "r4")} == {"r1": 1, "r2": -1, "r3": 1, "r4": 0}
    assert _melee_hits_of(g, "r3", 4) == 3  # d5-2+1


def _melee_hits_of(g: Any, uid: str, face: int) -> int:
    u = next(x for x in g.initial_units if x.id == uid)
    return max(0, face + u.profile.melee + u.attack_mod)


def test_ideas_for_unit_types_mounted_servants_upgrade_needs_arthurs_cavalry() -> None:
    with pytest.raises(DataError) as e:
        _army(
            unit("r3", "mounted-servants", 22, 5, upgrade="household"),
            unit("r4", "infantry", 28, 5, upgrade="levy"),
        )
    assert e.value.field == "red.units[0].upgrade"
    assert f"{IDEAS}.mounted-servants.upgrade" in e.value.reason and "Arthur's cavalry" in e.value.reason


def test_ideas_for_unit_types_mounted_servants_upgrade_needs_a_second_downgrade() -> None:
    with pytest.raises(DataError) as e:
        _army(
            unit("r1", "arthurs-cavalry", 10, 5, upgrade="household"),
            unit("r2", "infantry", 16, 5, upgrade="levy"),
            unit("r3", "mounted-servants", 22, 5, upgrade="household"),
        )
    assert f"{IDEAS}.mounted-servants.upgrade" in e.value.reason and "second" in e.value.reason
    # with Roundtable Knights in play and the Servants' downgrade only: fine
    g = _army(
        unit("r1", "roundtable-knights", 10, 5),
        unit("r3", "mounted-servants", 22, 5, upgrade="household"),
        unit("r4", "infantry", 28, 5, upgrade="levy"),
    )
    assert {u.id: u.attack_mod for u in g.initial_units}["r3"] == 1


def test_ideas_for_unit_types_every_built_in_type_named_in_the_text_has_a_profile() -> None:
    from shieldwall.rulesets.one_hour.profiles import unit_profiles

    names = {p.name for p in unit_profiles().values()}
    for n in (
        "Roman Militia",
        "Roman Cavalry",
        "Arthur's Cavalry",
        "Roundtable Knights",
        "Mounted Servants",
        "Irish Nobles",
        "Scots Nobles",
        "Viking Veterans",
    ):
        assert n in names
    assert load_game(None) is not None


def test_ideas_for_unit_types_viking_veterans_order_text_and_dict_forms() -> None:
    from shieldwall.rulesets.one_hour import orders as O

    o = O.parse("fight-as r1 Warriors")
    assert o == O.FightAs("r1", "warriors") and str(o) == "fight-as r1 warriors"
    assert O.parse(o.to_dict()) == o and o.to_dict() == {
        "kind": "fight-as",
        "unit": "r1",
        "choice": "warriors",
    }
