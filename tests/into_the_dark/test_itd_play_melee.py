"""Clause tests: melee in play (combat.melee, combat.ranks, combat.flanks-and-rear, combat.dice,
combat.melee-modifiers, movement.disorder, swat.pike)."""

from __future__ import annotations

import pytest

from shieldwall.core.errors import IllegalOrder

from .playkit import RS, end_until, events, game, last, next_turn, script, start, u

ONES = [1] * 60


def melee_events(st: object) -> dict[tuple[str, str], object]:
    return {(e.data["unit"], e.data["target"]): e for e in events(st, "melee")}  # type: ignore[arg-type]


def fight(
    red: list[dict[str, object]], blue: list[dict[str, object]], faces: list[int] | None = None
) -> object:
    st = start(game(red, blue), "red")
    script(st, faces or ONES)
    end_until(st, "initiative")
    return st


def test_combat_ranks_figures_in_contact_and_second_rank() -> None:
    # 4 in contact + 4 behind on each side: 8 figures, 2 dice
    st = fight([u("r1", "CPF", 10, 10)], [u("b1", "CPF", 10, 10, 180)])
    m = melee_events(st)
    assert m[("r1", "b1")].data["figures"]["front"] == 8  # type: ignore[attr-defined]
    assert m[("r1", "b1")].data["groups"][0]["dice"] == 2  # type: ignore[attr-defined]
    assert m[("r1", "b1")].rule == f"{RS}:combat.melee"  # type: ignore[attr-defined]


def test_combat_melee_no_extra_overlapping_figures() -> None:
    # b1 is 8 wide; only the 4 facing r1 (and the 4 behind them) count
    st = fight([u("r1", "CPF", 10, 10)], [u("b1", "CPF", 10, 10, 180, figures=16, frontage=8)])
    assert melee_events(st)[("b1", "r1")].data["figures"]["front"] == 8  # type: ignore[attr-defined]


def test_combat_flanks_and_rear_four_figure_rule() -> None:
    # r1: 4 wide, 3 ranks (3" of flank). b2 hits its left flank with 3 + 3 figures: flanked, 1 die per 2
    red = [u("r1", "CPF", 10, 10, figures=12, frontage=4)]
    blue = [u("b1", "CPF", 10, 10, 180), u("b2", "CPF", 8, 8.5, 90, figures=6, frontage=3)]
    st = fight(red, blue)
    m = melee_events(st)[("b2", "r1")]
    assert m.data["figures"] == {"front": 0, "flank": 6, "rear": 0}  # type: ignore[attr-defined]
    assert m.data["groups"][0]["dice"] == 3 and m.data["groups"][0]["rule"] == f"{RS}:combat.flanks-and-rear"  # type: ignore[attr-defined]
    cas = [e for e in events(st, "casualties") if e.data["unit"] == "r1"]
    assert cas and cas[0].data["flanked"] is True
    # only 3 figures on the flank: they fight as if frontal, and r1 is not flanked
    blue2 = [u("b1", "CPF", 10, 10, 180), u("b2", "CPF", 8, 8.5, 90, figures=3, frontage=3)]
    st2 = fight(red, blue2)
    m2 = melee_events(st2).get(("b2", "r1"))
    assert m2 is not None and m2.data["figures"] == {"front": 3, "flank": 0, "rear": 0}  # type: ignore[attr-defined]
    assert not any(e.data.get("flanked") for e in events(st2, "casualties") if e.data["unit"] == "r1")


def test_movement_disorder_counts_only_the_front_rank_in_melee() -> None:
    st = start(game([u("r1", "CPF", 10, 10)], [u("b1", "CPF", 10, 10, 180)]), "red")
    st.units["r1"].disordered = True
    script(st, ONES)
    end_until(st, "initiative")
    assert melee_events(st)[("r1", "b1")].data["figures"]["front"] == 4  # type: ignore[attr-defined]


def test_swat_pike_four_ranks_fight() -> None:
    st = fight(
        [u("r1", "CUF", 10, 10, figures=16, frontage=4, options=["pike"])], [u("b1", "CPF", 10, 10, 180)]
    )
    assert melee_events(st)[("r1", "b1")].data["figures"]["front"] == 16  # type: ignore[attr-defined]


def test_combat_melee_modifiers_enemy_uphill() -> None:
    hill = {
        "id": "h",
        "kind": "hill",
        "points": [[0, 10], [48, 10], [48, 36], [0, 36]],
        "crest": [[0, 30], [48, 30]],
    }
    st = start(game([u("r1", "CPF", 10, 10)], [u("b1", "CPF", 10, 10, 180)], terrain=[hill]), "red")
    script(st, ONES)
    end_until(st, "initiative")
    mods = [x["name"] for x in melee_events(st)[("r1", "b1")].data["groups"][0]["modifiers"]]  # type: ignore[attr-defined]
    assert "enemy uphill of attacking unit" in mods


def test_combat_melee_modifiers_charging_plus_one_in_the_charge_turn_only() -> None:
    st = start(game([u("r1", "CPF", 10, 5)], [u("b1", "CPF", 10, 9, 180)]), "red")
    st.apply("charge r1 b1")
    st.apply("stand b1")
    script(st, ONES)
    end_until(st, "initiative")
    assert melee_events(st)[("r1", "b1")].data["charging"] is True  # type: ignore[attr-defined]
    n = len(st.events)
    st.apply("keep")
    script(st, ONES)
    end_until(st, "initiative")
    later = [e for e in events(st, "melee", n) if e.data["unit"] == "r1"]
    assert later and later[0].data["charging"] is False


def test_combat_flanks_and_rear_pinned_until_next_turn_then_face() -> None:
    red = [u("r1", "CPF", 10, 10, figures=12, frontage=4)]
    blue = [u("b2", "LPF", 4, 9, 90, figures=6, frontage=3)]
    st = start(game(red, blue), "blue")
    st.apply("charge b2 r1")
    assert last(st, "contact").data["edge"] == "left" and st.units["r1"].pinned
    end_until(st, "movement", "red")
    with pytest.raises(IllegalOrder) as e:
        st.copy().apply("face r1 left column")
    assert e.value.rule == f"{RS}:combat.flanks-and-rear"
    script(st, ONES)
    next_turn(st, "red")
    s1 = st.copy()
    s1.apply("face r1 left column")  # a column facing the enemy: the 3 ranks become the front
    r1 = s1.units["r1"]
    assert (r1.front, r1.ranks) == (3, 4) and r1.heading == pytest.approx(-90)
    s2 = st.copy()
    s2.apply("face r1 left figures")  # only the figures attacked turn: two facings, disordered
    assert s2.units["r1"].faced == ("left",) and s2.units["r1"].disordered


def test_combat_melee_contact_is_mutual_when_only_one_edge_sees_it() -> None:
    """combat.melee: a slightly skewed front edge flush with only the short flank of a one-rank
    unit is contact seen from one side only (the flank's ends lie on the front's line, not the other
    way round). Both units are in the melee: the one struck takes its casualties and records its
    opponent (found in a seeded Senlac battle, where it raised a KeyError)."""
    from shieldwall.core.geometry import Footprint
    from shieldwall.io.scenarios import load_game
    from shieldwall.rulesets.into_the_dark import act_combat

    st = load_game("into-the-dark/senlac").new_state(1)
    b4, r4 = st.units["b4"], st.units["r4"]
    for x in st.units.values():
        if x.id not in ("b4", "r4"):
            x.x, x.y = (2.0, 2.0) if x.side == "blue" else (70.0, 46.0)
    r4.figures, r4.front = 3, 3
    # the two footprints (centres) as they stood in that battle; a unit's x, y is its front centre
    b4.place(
        Footprint(34.341695875091446, 31.174337166267343, 88.91435235431344, b4.fp.frontage, b4.fp.depth)
    )
    r4.place(Footprint(37.47547952049172, 32.03912881009315, 0.0, r4.fp.frontage, r4.fp.depth))
    assert [t.other for t in st.touching(b4)] == ["r4"]
    assert st.touching(r4) == []  # the one-sided contact this test is about
    script(st, ONES)
    act_combat.melee_phase(st)
    assert st.melee["r4"]["opponents"] == ["b4"]
    assert st.melee["b4"]["opponents"] == ["r4"]
    assert any(e.kind == "melee" and e.data["target"] == "r4" for e in st.events)
