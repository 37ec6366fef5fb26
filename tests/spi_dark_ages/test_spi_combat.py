"""Combat clauses: strengths unit by unit, facing, CUC, terrain, fire lines, allocation, command
and die modifiers, results."""

from __future__ import annotations

from fractions import Fraction

import pytest

from shieldwall.core.dice import Die
from shieldwall.core.errors import IllegalOrder
from shieldwall.core.hexgrid import ccrr
from shieldwall.rulesets.spi_dark_ages import resolve
from shieldwall.rulesets.spi_dark_ages.combat import (
    attack_adjust,
    charge_mas,
    defence_adjust,
    fps,
    lookup,
    terrain_effect,
    unit_attack,
    unit_defence,
)
from shieldwall.rulesets.spi_dark_ages.fire import fire_range, line_of_fire
from shieldwall.rulesets.spi_dark_ages.morale import apply_result, demoralize
from shieldwall.rulesets.spi_dark_ages.resolve import fire_situation, melee_situation

from .fixtures import H, phase, state, unit

F = Fraction


def test_facing_flank_melee_from_a_non_front_hex_uses_mds_flank() -> None:
    d = H(4, 8)
    st = state(
        [
            ("t1", "tan", "spear", d, 1),
            ("g1", "green", "axe", d.neighbour(4), 1),
            ("g2", "green", "axe", d.neighbour(1), 4),
        ]
    )
    b = st.board
    assert unit_defence(b, unit(st, "t1"), [unit(st, "g1")])[0] == 2  # from its rear
    assert unit_defence(b, unit(st, "t1"), [unit(st, "g2")])[0] == 4  # from its front


def test_cuc_and_combat_adjust_each_unit_is_adjusted_on_its_own() -> None:
    d = H(4, 8)
    st = state(
        [
            ("t1", "tan", "spear", d, 1),
            ("t2", "tan", "archer", d, 1),
            ("g1", "green", "mc", d.neighbour(1), 4),
        ]
    )
    b = st.board
    # the sample CUC doubles spearmen against class III (the errata's "one doubled", not the stack)
    assert unit_defence(b, unit(st, "t1"), [unit(st, "g1")])[0] == 8
    assert unit_defence(b, unit(st, "t2"), [unit(st, "g1")])[0] == F(1, 2)  # 1 x 1/2, kept below 1
    a = melee_situation(b, [unit(st, "g1")], d)
    assert a.defence == F(17, 2)


def test_combat_adjust_fractions_lost_but_defence_below_one_kept_and_4_vs_half_is_8_to_1() -> None:
    assert attack_adjust(F(3, 2)) == 1
    assert defence_adjust(F(3, 2)) == 1
    assert defence_adjust(F(1, 2)) == F(1, 2)
    st = state([("g1", "green", "spear", H(3, 8), 1), ("t1", "tan", "spear", H(5, 8), 4)])
    table = st.board.charts.crt.melee
    idx, label = lookup(table, F(4), F(1, 2))
    assert F(4) / F(1, 2) == 8 and label == "6-1"  # above the last column: rounded down to it
    assert lookup(table, F(5), F(2))[1] == "2-1"  # 5:2 rounds down to 2-1


def test_demoralization_melee_def_halved_even_below_one() -> None:
    d = H(4, 8)
    st = state(
        [
            ("t1", "tan", "archer", d, 1),
            ("t2", "tan", "spear", d, 1),
            ("g1", "green", "spear", d.neighbour(1), 4),
        ]
    )
    b = st.board
    unit(st, "t1").demoralized = (9, 0, "melee")
    unit(st, "t2").panicked = True
    assert unit_defence(b, unit(st, "t1"), [unit(st, "g1")])[0] == F(1, 2)
    assert unit_defence(b, unit(st, "t2"), [unit(st, "g1")])[0] == 2


def _alloc(units, side="green", **kw):  # type: ignore[no-untyped-def]
    st = state(units, **kw)
    phase(st, "allocation", side)
    return st


def test_combat_zero_mas_never_initiates_melee() -> None:
    st = _alloc(
        [
            ("g1", "green", "mc-horse", H(3, 8), 1),
            ("gl", "green", "leader", H(3, 8), 1),
            ("t1", "tan", "spear", H(4, 8), 4),
        ]
    )
    with pytest.raises(IllegalOrder) as e:
        st.apply(f"melee g1 {ccrr(H(4, 8))}")
    assert e.value.rule == "spi-dark-ages:combat.zero-mas"


def test_combat_L_one_missile_and_one_melee_attack_only_class_I_does_both() -> None:
    t = H(4, 8)
    st = _alloc(
        [
            ("ga", "green", "archer", H(3, 8), 1),
            ("gx", "green", "axe", t.neighbour(5), 2),
            ("gl", "green", "leader", H(3, 8), 1),
            ("gm", "green", "leader", t.neighbour(5), 1),
            ("t1", "tan", "spear", t, 4),
        ]
    )
    st.apply(f"fire ga {ccrr(t)}")
    with pytest.raises(IllegalOrder) as e:
        st.apply(f"melee ga {ccrr(t)}")
    assert e.value.rule == "spi-dark-ages:combat.L"
    st.apply(f"fire gx {ccrr(t)}")
    st.apply(f"melee gx {ccrr(t)}")  # class I: both
    with pytest.raises(IllegalOrder) as e:
        st.apply(f"melee gx {ccrr(t)}")
    assert e.value.rule == "spi-dark-ages:combat.L"


def test_command_B_attack_needs_a_fresh_command_unit_near_unless_in_contact() -> None:
    t = H(4, 8)
    st = _alloc(
        [
            ("g1", "green", "spear", H(3, 8), 1),
            ("t1", "tan", "spear", t, 4),
            ("gl", "green", "leader", H(0, 12), 1),
        ]
    )
    with pytest.raises(IllegalOrder) as e:
        st.apply(f"melee g1 {ccrr(t)}")
    assert e.value.rule == "spi-dark-ages:command.B"
    st.board.bond("g1", "t1")
    st.apply(f"melee g1 {ccrr(t)}")
    st2 = _alloc(
        [
            ("g1", "green", "spear", H(3, 8), 1),
            ("t1", "tan", "spear", t, 4),
            ("gl", "green", "leader", H(3, 8), 1),
        ]
    )
    unit(st2, "gl").demoralized = (9, 0, "melee")
    with pytest.raises(IllegalOrder):
        st2.apply(f"melee g1 {ccrr(t)}")


def test_demoralization_no_attack_and_panic_effects_no_attack_menu() -> None:
    t = H(4, 8)
    st = _alloc(
        [
            ("g1", "green", "spear", H(3, 8), 1),
            ("gl", "green", "leader", H(3, 8), 1),
            ("t1", "tan", "spear", t, 4),
        ]
    )
    unit(st, "g1").demoralized = (9, 0, "melee")
    assert not [o for o in st.legal_orders() if o.unit == "g1"]
    with pytest.raises(IllegalOrder) as e:
        st.apply(f"melee g1 {ccrr(t)}")
    assert e.value.rule == "spi-dark-ages:demoralization.no-attack"
    unit(st, "g1").demoralized = None
    unit(st, "g1").panicked = True
    with pytest.raises(IllegalOrder) as e:
        st.apply(f"melee g1 {ccrr(t)}")
    assert e.value.rule == "spi-dark-ages:panic.effects"


def test_combat_defensive_fire_only_at_attackers_of_the_missile_unit_and_voluntary() -> None:
    a = H(6, 8)
    st = _alloc(
        [
            ("ta", "tan", "archer", a, 4),
            ("tb", "tan", "spear", H(6, 10), 4),
            ("g1", "green", "spear", a.neighbour(4), 1),
            ("g2", "green", "spear", H(6, 10).neighbour(4), 1),
            ("gl", "green", "leader", a.neighbour(4).neighbour(3), 1),
        ]
    )
    st.apply(f"melee g1 {ccrr(a)}")
    st.apply(f"melee g2 {ccrr(H(6, 10))}")
    d = st.decision()
    if d is not None and d.kind == "allocate":
        st.apply("end")
    d = st.decision()
    assert d is not None and d.kind == "defensive-fire" and d.side == "tan"
    assert [str(o) for o in st.legal_orders()] == ["dfire ta g1", "pass ta"]
    with pytest.raises(IllegalOrder) as e:
        st.apply("dfire ta g2")
    assert e.value.rule == "spi-dark-ages:combat.defensive-fire"
    st.copy().apply("pass ta")
    st.apply("dfire ta g1")
    assert any(e.kind == "fire" and e.rule == "spi-dark-ages:combat.defensive-fire" for e in st.events)


HILLTOP = H(11, 6)  # 1207


def test_combat_D_hilltop_def_hilltops_are_computed_from_the_slopes() -> None:
    st = state([("g1", "green", "spear", H(3, 8), 1), ("t1", "tan", "spear", H(5, 12), 4)])
    m = st.board.map
    assert {ccrr(h) for h in m.hilltops} == {"1106", "1205", "1206", "1207", "1305", "1306", "1307"}
    assert m.elevation(HILLTOP) == 2 and m.elevation(H(10, 6)) == 1 and m.elevation(H(3, 8)) == 0


def test_combat_D_hilltop_range_plus_one_downhill_only() -> None:
    st = state([("ga", "green", "archer", HILLTOP, 2), ("t1", "tan", "spear", H(5, 12), 4)])
    b = st.board
    assert fire_range(b, unit(st, "ga"), H(11, 10)) == 5  # level target
    assert fire_range(b, unit(st, "ga"), H(10, 7)) == 5  # slope target
    assert fire_range(b, unit(st, "ga"), H(12, 5)) == 4  # another hilltop


def test_combat_D_hilltop_over_units_on_slope_and_level_combat_D_over_units_blocked_on_level() -> None:
    target = H(11, 9)
    st = state(
        [
            ("ga", "green", "archer", HILLTOP, 2),
            ("g1", "green", "spear", H(11, 7), 2),  # on the slope below
            ("g2", "green", "spear", H(11, 8), 2),  # on level ground
            ("t1", "tan", "spear", target, 4),
            ("ta", "tan", "archer", H(3, 8), 1),
            ("tx", "tan", "spear", H(4, 8), 1),
            ("gt", "green", "spear", H(5, 8), 4),
        ]
    )
    b = st.board
    assert line_of_fire(b, unit(st, "ga"), target) is None
    blocked = line_of_fire(b, unit(st, "ta"), H(5, 8))
    assert blocked is not None and blocked[0] == H(4, 8) and blocked[1] == "combat.D.over-units"


def test_combat_D_wooded_slope_blocks_a_hilltop_firer() -> None:
    st = state([("ga", "green", "archer", H(11, 4), 0), ("t1", "tan", "spear", H(11, 1), 4)])
    blocked = line_of_fire(st.board, unit(st, "ga"), H(11, 1))
    assert blocked is not None and blocked[1] == "combat.D.wooded-slope"


def test_tec_sections_and_demoralization_fire_immune() -> None:
    t = H(3, 3)  # woods
    st = state(
        [
            ("ga", "green", "archer", H(2, 3), 1),
            ("gb", "green", "archer", H(6, 7), 1),
            ("t1", "tan", "spear", t, 4),
        ]
    )
    b = st.board
    assert unit_attack(b, unit(st, "ga"), t, "fire") == (F(1), ["ga: 3 x 1/2 (TEC) = 1"])  # firing from woods
    fresh = fire_situation(b, [unit(st, "gb")], t)  # spi-dark-ages:demoralization.fire-immune
    unit(st, "t1").demoralized = (9, 0, "melee")
    unit(st, "t1").panicked = True
    assert fire_situation(b, [unit(st, "gb")], t) == fresh
    assert fresh.defence == 3


def test_tec_fps_cap_at_most_four_but_the_keep() -> None:
    st = state([("g1", "green", "spear", H(3, 8), 1), ("t1", "tan", "spear", H(5, 12), 4)])
    b = st.board
    assert fps(b, H(10, 3)) == 4  # wooded slope: 3 + 2 capped
    assert fps(b, H(1, 15)) == 6  # the keep


def test_command_C_mods_and_command_C_melee_only_and_demoralization_command() -> None:
    t = H(4, 8)
    units = [
        ("g1", "green", "spear", H(3, 8), 1),
        ("gl", "green", "leader", H(3, 8), 1),
        ("t1", "tan", "spear", t, 4),
        ("tl", "tan", "leader", t.neighbour(1), 4),
    ]
    st = state(units)
    b = st.board
    # spi-dark-ages:demoralization.command: a demoralized command unit gives no bonus
    assert melee_situation(b, [unit(st, "g1")], t).modifier == 0  # -1 attacker, +1 defender
    unit(st, "tl").demoralized = (9, 0, "melee")
    assert melee_situation(b, [unit(st, "g1")], t).modifier == -1
    unit(st, "gl").demoralized = (9, 0, "melee")
    assert melee_situation(b, [unit(st, "g1")], t).modifier == 0
    assert fire_situation(b, [unit(st, "g1")], t).modifier == 0  # spi-dark-ages:command.C.melee-only


def test_ferocity_and_vitality_one_off_or_on_the_melee_roll() -> None:
    t = H(4, 8)
    units = [("g1", "green", "spear", H(3, 8), 1), ("t1", "tan", "spear", t, 4)]
    st = state(units, green_ferocity=True)
    assert melee_situation(st.board, [unit(st, "g1")], t).modifier == -1  # a ferocious 5 becomes 4
    assert melee_situation(st.board, [unit(st, "t1")], H(3, 8)).modifier == 1  # against them: 5 -> 6
    st2 = state(units, tan_vitality=True)  # spi-dark-ages:vitality
    assert melee_situation(st2.board, [unit(st2, "t1")], H(3, 8)).modifier == -1
    assert melee_situation(st2.board, [unit(st2, "g1")], t).modifier == 1


def test_cavalry_mc_charge_cavalry_cataphract_and_cavalry_floors() -> None:
    st = state(
        [
            ("m", "green", "mc", H(3, 8), 1),
            ("c", "green", "cat", H(3, 9), 1),
            ("h", "green", "hc", H(3, 10), 1),
            ("t1", "tan", "spear", H(8, 8), 4),
        ]
    )
    b = st.board
    m, c, h = unit(st, "m"), unit(st, "c"), unit(st, "h")
    m.run = 2
    assert charge_mas(b, m)[0] == 4  # medium cavalry: two hexes is enough
    m.run = 0
    assert charge_mas(b, m)[0] == 2
    c.run = 3
    assert charge_mas(b, c)[0] == 7
    c.run = 2
    assert charge_mas(b, c)[0] == 5
    c.run = 0
    assert charge_mas(b, c)[0] == 2  # never below two for too short a charge
    h.run = 0
    assert charge_mas(b, h)[0] == 2
    # terrain may take it lower: a cataphract's 2 halved in the swamp
    b.place(c, H(15, 12))
    assert unit_attack(b, c, H(14, 12), "melee") is not None
    assert unit_attack(b, c, H(14, 12), "melee")[0] == 1  # type: ignore[index]


def test_tec_up_down_and_tec_slope_slope() -> None:
    st = state(
        [
            ("g1", "green", "spear", H(9, 6), 1),
            ("t1", "tan", "spear", H(10, 6), 4),
            ("t2", "tan", "spear", H(10, 7), 4),
        ]
    )
    b = st.board
    g1 = unit(st, "g1")  # level, attacking up the slope
    assert terrain_effect(b, H(9, 6), "II", "attack", "uphill") == F(1, 2)
    assert unit_attack(b, g1, H(10, 6), "melee")[0] == 1  # type: ignore[index]
    assert unit_defence(b, unit(st, "t1"), [g1])[0] == 8  # the higher unit: Downhill column x2
    b.place(g1, H(9, 5))  # spi-dark-ages:tec.slope-slope: slope 1006 against slope 1107, both Uphill
    assert b.map.elevation(H(9, 5)) == b.map.elevation(H(10, 6)) == 1
    assert unit_defence(b, unit(st, "t1"), [g1])[0] == 4


def test_tec_classV_no_attack_in_woods_halved_on_a_woods_road() -> None:
    st = state(
        [
            ("h1", "green", "ha", H(14, 2), 1),
            ("h2", "green", "ha", H(16, 2), 1),
            ("t1", "tan", "spear", H(8, 8), 4),
        ]
    )
    b = st.board
    assert terrain_effect(b, H(14, 2), "V", "attack", None) is None
    assert H(16, 2) in b.map.road_hexes and "woods" in b.map.terrain_of(H(16, 2))
    assert terrain_effect(b, H(16, 2), "V", "attack", None) == F(1, 2)


def test_tec_attack_P_prohibits_allocation_and_tec_melee_prohibited_allows_unenterable_targets() -> None:
    st = _alloc(
        [
            ("h1", "green", "ha", H(14, 2), 1),
            ("gl", "green", "leader", H(14, 2), 1),
            ("t1", "tan", "spear", H(15, 2), 4),
        ]
    )
    with pytest.raises(IllegalOrder) as e:
        st.apply(f"melee h1 {ccrr(H(15, 2))}")
    assert e.value.rule == "spi-dark-ages:tec.attack-P"
    st2 = _alloc(
        [
            ("x", "green", "axe", H(14, 13), 1),
            ("gl", "green", "leader", H(14, 13), 1),
            ("t1", "tan", "spear", H(15, 13), 4),
        ]
    )
    st2.apply(
        f"melee x {ccrr(H(15, 13))}"
    )  # spi-dark-ages:tec.melee-prohibited: class I may not enter that swamp hex but may melee into it


def test_tec_road_only_def_halved_on_such_a_road_hex() -> None:
    st = state([("x", "green", "axe", H(16, 13), 1), ("t1", "tan", "spear", H(16, 13).neighbour(1), 4)])
    b = st.board
    assert H(16, 13) in b.map.road_hexes
    assert unit_defence(b, unit(st, "x"), [unit(st, "t1")])[0] == 1  # 3 x 1/2 (road-only), fraction lost


def test_tec_water_melee_and_tec_ford_fight_as_in_a_stream() -> None:
    st = state(
        [
            ("g1", "green", "spear", H(8, 15), 1),
            ("t1", "tan", "spear", H(9, 15), 4),
            ("t2", "tan", "spear", H(4, 11), 4),
        ]
    )
    b = st.board
    assert unit_attack(b, unit(st, "g1"), H(9, 15), "melee")[0] == 1  # type: ignore[index]  # 3 x 1/2
    assert unit_defence(b, unit(st, "t1"), [unit(st, "g1")])[0] == 2  # 4 x 1/2
    b.place(unit(st, "g1"), H(4, 10))
    assert unit_defence(b, unit(st, "t2"), [unit(st, "g1")])[0] == 2  # the ford: a stream for combat


def test_crt_loss_command_units_go_last_and_crt_cmd_fire_spares_a_stacked_command_unit() -> None:
    t = H(4, 8)
    st = state(
        [("t1", "tan", "spear", t, 4), ("tl", "tan", "leader", t, 4), ("g1", "green", "spear", H(3, 8), 1)]
    )
    b = st.board
    apply_result(b, "1E", [unit(st, "g1")], b.units_at(t), fire=False)
    assert not unit(st, "t1").on_map and unit(st, "tl").on_map
    st2 = state(
        [("t1", "tan", "spear", t, 4), ("tl", "tan", "leader", t, 4), ("g1", "green", "spear", H(3, 8), 1)]
    )
    b2 = st2.board
    apply_result(b2, "2E", [], b2.units_at(t), fire=True)  # spi-dark-ages:crt.cmd-fire
    assert not unit(st2, "t1").on_map and unit(st2, "tl").on_map
    apply_result(b2, "1E", [], b2.units_at(t), fire=True)  # now alone: it can be hit
    assert not unit(st2, "tl").on_map


def test_demoralization_DD_on_a_demoralized_or_panicked_unit_eliminates() -> None:
    st = state(
        [
            ("t1", "tan", "spear", H(4, 8), 4),
            ("t2", "tan", "spear", H(4, 10), 4),
            ("g1", "green", "spear", H(3, 8), 1),
        ]
    )
    b = st.board
    demoralize(b, unit(st, "t1"))
    assert unit(st, "t1").on_map
    apply_result(b, "DD", [], [unit(st, "t1")], fire=False)
    assert not unit(st, "t1").on_map
    unit(st, "t2").panicked = True
    apply_result(b, "DD", [], [unit(st, "t2")], fire=False)
    assert not unit(st, "t2").on_map


def _fixed_die(monkeypatch: pytest.MonkeyPatch, face: int) -> None:
    monkeypatch.setattr(resolve, "D6", Die("d6", (face,)))


def test_combat_K_contact_an_undecided_melee_binds_until_demoralization(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _fixed_die(monkeypatch, 3)
    t = H(4, 8)
    st = state([("g1", "green", "axe", H(3, 8), 1), ("t1", "tan", "spear", t, 4)])
    b = st.board
    resolve.resolve_melee(b, [unit(st, "g1")], t)  # 4 against 4: 1-1, row 3: NE
    assert b.events[-2].data["result"] == "NE"
    assert b.in_contact(unit(st, "g1")) and b.in_contact(unit(st, "t1"))
    demoralize(b, unit(st, "t1"))
    assert not b.in_contact(unit(st, "g1"))


def test_cavalry_contact_cavalry_is_not_held_by_infantry_but_by_cavalry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _fixed_die(monkeypatch, 3)
    t = H(4, 8)
    st = state(
        [("g1", "green", "mc", H(3, 8), 1), ("t1", "tan", "mc-foot", t, 4), ("t2", "tan", "mc", H(4, 10), 4)]
    )
    b = st.board
    unit(st, "g1").run = 2
    resolve.resolve_melee(b, [unit(st, "g1")], t)
    assert b.events[-2].data["result"] == "NE" and not b.in_contact(unit(st, "g1"))
    assert b.events[-1].rule == "spi-dark-ages:cavalry.contact"
    b.place(unit(st, "g1"), H(3, 10))
    resolve.resolve_melee(b, [unit(st, "g1")], H(4, 10))
    assert b.in_contact(unit(st, "g1"))


def test_crt_result_the_reach_previews_each_attack_exactly_as_play_resolves_it() -> None:
    from shieldwall.rulesets.spi_dark_ages.combat import outcomes
    from shieldwall.rulesets.spi_dark_ages.reach import reach

    t = H(4, 8)
    st = _alloc(
        [
            ("g1", "green", "axe", H(3, 8), 1),
            ("gl", "green", "leader", H(3, 8), 1),
            ("t1", "tan", "spear", t, 4),
        ]
    )
    r = reach(st, "g1")
    melee = next(o for o in r["odds"] if o["table"] == "melee")
    assert melee["order"] == f"melee g1 {ccrr(t)}" and melee["units"] == ["g1"]
    want = outcomes(st.board.charts, melee_situation(st.board, [unit(st, "g1")], t))
    assert {k: F(v["probability"]) for k, v in melee["results"].items()} == want
    assert "not SPI" in melee["label"]


def test_combat_D_over_units_the_reach_draws_each_line_of_fire_and_its_blocking_hex() -> None:
    from shieldwall.rulesets.spi_dark_ages.reach import reach

    st = state(
        [
            ("ta", "tan", "archer", H(3, 8), 1),
            ("tx", "tan", "spear", H(4, 8), 1),
            ("gt", "green", "spear", H(5, 8), 4),
            ("gu", "green", "spear", H(3, 6), 4),
        ]
    )
    lines = {f["target"]: f for f in reach(st, "ta")["fire_lines"]}
    blocked = lines[ccrr(H(5, 8))]
    assert not blocked["clear"] and blocked["blocked_at"] == ccrr(H(4, 8))
    assert blocked["rule"] == "spi-dark-ages:combat.D.over-units"
    assert lines[ccrr(H(3, 6))]["clear"]
