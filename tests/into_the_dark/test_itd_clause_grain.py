"""Clause tests for the rules a bundled row of the clause table holds, each named after its sub-clause
(combat.rout.*, combat.melee.simultaneous, combat.melee-modifiers.*, combat.fire-targets.*,
combat.opportunity-fire.*)."""

from __future__ import annotations

import pytest

from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.into_the_dark.act_rally import rout_again
from shieldwall.rulesets.into_the_dark.act_retreat import rout_start
from shieldwall.rulesets.into_the_dark.combat import Troops
from shieldwall.rulesets.into_the_dark.fire_situation import MissileSituation
from shieldwall.rulesets.into_the_dark.melee_situation import MeleeSituation
from shieldwall.rulesets.into_the_dark.morale_rolls import home_heading
from shieldwall.rulesets.into_the_dark.state import IntoTheDarkState

from .helpers import unit
from .playkit import RS, end_until, events, game, kind, last, script, start, u

ONES = [1] * 60


def _foot(**kw: object) -> Troops:
    base: dict[str, object] = {"armour": "P", "quality": 3, "density": "C", "category": "F"}
    base.update(kw)
    return Troops(**base)  # type: ignore[arg-type]


# --- combat.rout.surrender -----------------------------------------------------------------------


def _rout_with_an_enemy_behind(gap: float) -> object:
    """r1 beats b1 (which routs 15", straight back); r2 stands ``gap`` inches behind b1's rear."""
    g = game([u("r1", "CPF", 10, 10), u("r2", "CPF", 10, 12 + gap, 180)], [u("b1", "CPF", 10, 10, 180)])
    st = start(g, "red")
    script(st, [6, 6, 1, 1, 6, 5, 5, 5, *ONES])
    for _ in range(60):
        if kind(st) in ("pursue", "initiative") or events(st, "surrender"):
            break
        st.apply(st.legal_orders()[0])
    return st


def test_combat_rout_surrender_when_surrounded() -> None:
    # "Surrounded units surrender.": b1 routs with r1 in front and r2 half an inch behind it
    st = _rout_with_an_enemy_behind(0.5)
    s = last(st, "surrender")  # type: ignore[arg-type]
    assert s.rule == f"{RS}:combat.rout" and s.data["unit"] == "b1" and s.data["blocked_by"] == "r2"
    b1 = st.units["b1"]  # type: ignore[attr-defined]
    assert b1.destroyed and not events(st, "rout-move")  # type: ignore[arg-type]
    # with room to run (r2 two inches further back) it is not surrounded: it routs, it does not surrender
    st2 = _rout_with_an_enemy_behind(2.5)
    assert not events(st2, "surrender") and not st2.units["b1"].destroyed  # type: ignore[arg-type,attr-defined]
    assert last(st2, "rout-move").data["distance"] > 0  # type: ignore[arg-type]


def _beside() -> IntoTheDarkState:
    """b1 (blue, home edge north) stands 10" east of r1: away from r1 is east, home is north."""
    g = game([u("r1", "CPF", 10, 20, 90)], [u("b1", "CPF", 20, 20, -90)])
    return start(g, "red")  # type: ignore[return-value]


def test_combat_rout_first_move_straight_away_from_the_enemy_that_broke_it() -> None:
    st = _beside()
    rout_start(st, "b1", ("r1",))
    r = last(st, "rout")
    assert r.rule == f"{RS}:combat.rout" and r.data["away_from"] == ["r1"]
    assert st.units["b1"].heading == pytest.approx(90.0)  # east, not its home edge (north, 0)
    assert home_heading(st, st.units["b1"]) == pytest.approx(0.0)


def test_combat_rout_later_moves_toward_own_base_edge() -> None:
    st = _beside()
    st.units["b1"].morale = "routed"
    rout_again(st, "b1")
    r = last(st, "rout")
    assert r.rule == f"{RS}:combat.rout" and r.data["towards"] == "own base edge"
    assert st.units["b1"].heading == pytest.approx(0.0)  # north, not away from r1 (east)


def test_combat_rout_shaken_and_disordered() -> None:
    st = _beside()
    b1 = st.units["b1"]
    assert not b1.shaken and not b1.disordered
    rout_start(st, "b1", ("r1",))
    assert b1.routed and b1.shaken and b1.disordered


# --- combat.rout.friends-* ------------------------------------------------------------------------


def _rout_into_friends(friends: list[dict[str, object]], code: str = "CPF", refuse: bool = False) -> object:
    """r1 beats b1 (``code``), which routs straight back (north) 15" (16" mounted) into ``friends``
    standing behind it; a close order friend asked for consent allows (or refuses) it."""
    st = start(game([u("r1", "CPF", 10, 10)], [u("b1", code, 10, 10, 180), *friends]), "red")
    script(st, [6, 6, 1, 1, 6, 5, 5, 5, *ONES])
    for _ in range(80):
        d = st.decision()
        if d is None or d.kind in ("pursue", "initiative"):
            break
        if d.kind == "consent":
            st.apply(f"{'refuse' if refuse else 'allow'} {d.unit}")
            continue
        st.apply(st.legal_orders()[0])
    return st


def _tests_of(st: object, uid: str) -> list[object]:
    return [e for e in events(st, "morale-test") if e.data["unit"] == uid]  # type: ignore[arg-type]


def _behind(x: float, uid: str, code: str = "LPF", y: float = 16) -> dict[str, object]:
    """A friend of four figures in one rank (4" wide) centred on ``x``, facing south at ``y``."""
    return u(uid, code, x, y, 180, figures=4, frontage=4)


def test_combat_rout_friends_gaps_three_figures_wide_are_passed_without_meeting_the_friends() -> None:
    # "If they meet friendly troops they will attempt to pass through any existing gaps at least 3
    # figures wide": b1 (1" figures, x 8..12) routs through a gap from x 8.5 to 11.5 between b2 and b3
    st = _rout_into_friends([_behind(6.5, "b2"), _behind(13.5, "b3")])
    mv = last(st, "rout-move")  # type: ignore[arg-type]
    assert mv.rule == f"{RS}:combat.rout" and mv.data["passed_through"] == []
    assert mv.data["distance"] == pytest.approx(15) and mv.data["blocked_by"] is None
    assert not _tests_of(st, "b2") and not _tests_of(st, "b3")
    # a gap of 2 figures (x 8.5 to 10.5) is too narrow: it goes through b3
    st2 = _rout_into_friends([_behind(6.5, "b2"), _behind(12.5, "b3")])
    assert last(st2, "rout-move").data["passed_through"] == ["b3"]  # type: ignore[arg-type]


def test_combat_rout_friends_interpenetrate_a_friend_but_never_a_routing_one() -> None:
    # "If there are none, they will attempt to interpenetrate the friendly unit. All rules for
    # interpenetration are in force": through a loose friend straight behind it...
    st = _rout_into_friends([_behind(10, "b2")])
    mv = last(st, "rout-move")  # type: ignore[arg-type]
    assert mv.data["passed_through"] == ["b2"] and mv.data["distance"] == pytest.approx(15)
    # ... but "No unit may ... pass through a friendly one that is ... routing": it stops short of it
    g = game([u("r1", "CPF", 10, 10)], [u("b1", "CPF", 10, 10, 180), _behind(10, "b2")])
    st2 = start(g, "red")
    st2.units["b2"].morale = "routed"
    script(st2, [6, 6, 1, 1, 6, 5, 5, 5, *ONES])
    while kind(st2) not in ("pursue", "initiative"):
        st2.apply(st2.legal_orders()[0])
    mv2 = last(st2, "rout-move")
    assert mv2.data["blocked_by"] == "b2" and mv2.data["passed_through"] == []
    assert mv2.data["distance"] == pytest.approx(4)  # from y 12 to the friend's rear at y 16
    # a mounted router passes a stationary friend as disordering terrain: at half speed
    free = last(_rout_into_friends([], code="LPM"), "rout-move")  # type: ignore[arg-type]
    slow = last(_rout_into_friends([_behind(10, "b2", y=20)], code="LPM"), "rout-move")  # type: ignore[arg-type]
    assert free.data["distance"] == pytest.approx(16) and free.data["passed_through"] == []
    assert slow.data["rolled"] == pytest.approx(16) and slow.data["passed_through"] == ["b2"]
    assert slow.data["blocked_by"] is None and slow.data["distance"] < 16 - 4


def test_combat_rout_friends_test_a_friend_passed_through_tests_at_once() -> None:
    # "if passed through, the friendly unit must immediately take a morale test": b3, passed through,
    # tests in the same Morale phase; b2, beside the router's way, does not
    st = _rout_into_friends([_behind(4.5, "b2"), _behind(10, "b3")])
    assert last(st, "rout-move").data["passed_through"] == ["b3"]  # type: ignore[arg-type]
    t = _tests_of(st, "b3")
    assert len(t) == 1 and t[0].data["reason"] == "passed through by routing b1"  # type: ignore[attr-defined]
    assert t[0].rule == f"{RS}:morale.test-triggers"  # type: ignore[attr-defined]
    assert not _tests_of(st, "b2")


def test_combat_rout_friends_refuse_only_close_order_troops_may() -> None:
    # "Only close order troops may refuse to be passed through": a close order friend is asked...
    g = game([u("r1", "CPF", 10, 10)], [u("b1", "CPF", 10, 10, 180), _behind(10, "b2", code="CPF")])
    st = start(g, "red")
    script(st, [6, 6, 1, 1, 6, 5, 5, 5, *ONES])
    while kind(st) != "consent":
        st.apply(st.legal_orders()[0])
    assert {str(o) for o in st.legal_orders()} == {"allow b2", "refuse b2"}
    st.apply("refuse b2")
    assert last(st, "refuse").rule == f"{RS}:combat.rout"
    while kind(st) not in ("pursue", "initiative"):
        st.apply(st.legal_orders()[0])
    mv = last(st, "rout-move")
    assert mv.data["blocked_by"] == "b2" and mv.data["passed_through"] == []
    assert not _tests_of(st, "b2")
    # ... allowed, it is passed through; a loose order friend is never asked
    allowed = _rout_into_friends([_behind(10, "b2", code="CPF")])
    assert last(allowed, "allow").data["unit"] == "b2"  # type: ignore[arg-type]
    assert last(allowed, "rout-move").data["passed_through"] == ["b2"]  # type: ignore[arg-type]
    loose = _rout_into_friends([_behind(10, "b2")], refuse=True)
    assert not events(loose, "refuse") and not events(loose, "allow")  # type: ignore[arg-type]
    assert last(loose, "rout-move").data["passed_through"] == ["b2"]  # type: ignore[arg-type]


# --- combat.melee.simultaneous --------------------------------------------------------------------


def test_combat_melee_simultaneous_both_strike_with_their_pre_melee_figures() -> None:
    # "All melee combat is considered simultaneous": r1 strikes first and kills 2 of b1's 4 figures,
    # yet b1 still strikes with all 4 (1 d6) and its hit counts
    st = start(game([u("r1", "CPF", 10, 10)], [u("b1", "CPF", 10, 10, 180, figures=4, frontage=4)]), "red")
    script(st, [6, 6, 6, *ONES])
    end_until(st, "initiative")
    blows = {e.data["unit"]: e for e in events(st, "melee")}  # type: ignore[arg-type]
    assert list(blows) == ["r1", "b1"]  # r1's blows are rolled first
    assert blows["b1"].data["figures"]["front"] == 4 and blows["b1"].data["faces"] == [6]
    lost = {e.data["unit"]: e.data["casualties"] for e in events(st, "casualties")}  # type: ignore[arg-type]
    assert lost == {"r1": 1, "b1": 2}


# --- combat.melee-modifiers ----------------------------------------------------------------------


def _mods(sit: MeleeSituation, facing: str = "front") -> list[tuple[int, str]]:
    return [(m.value, m.name) for m in sit.modifiers(facing)]  # type: ignore[arg-type]


def test_combat_melee_modifiers_enemy_shieldless_plus_one() -> None:
    # "Enemy unit is: without shields or unable to use them +1"
    assert [v for v, _ in _mods(MeleeSituation(_foot(), _foot(shields=False), front=4))] == [1]
    assert _mods(MeleeSituation(_foot(), _foot(), front=4)) == []


def test_combat_melee_modifiers_enemy_obstacle_minus_one_on_the_defended_side() -> None:
    # "Enemy unit is: defending an obstacle (fence, ditch) -1": only across the side it defends
    sit = MeleeSituation(_foot(), _foot(), front=4, flank=4, obstacle=("front",))
    assert _mods(sit, "front") == [(-1, "enemy defending an obstacle")]
    assert _mods(sit, "flank") == []


# --- combat.opportunity-fire and combat.fire-targets -----------------------------------------------


def _crossing_archers(y: float, second: bool = False) -> object:
    """b1 (foot bow, close range 6") faces south from y=16; r1 walks across its front at ``y``."""
    red = [u("r1", "LPF", 7, y, 90, figures=4, frontage=2)]
    if second:
        red.append(u("r2", "LPF", 7, y - 3, 90, figures=4, frontage=2))
    blue = [u("b1", "LUF", 14, 16, 180, type_="missile", weapon="bow", figures=8, frontage=4)]
    st = start(game(red, blue), "red")
    st.apply("move r1 fwd 8")
    return st


def test_combat_opportunity_fire_zone_is_close_range_straight_ahead() -> None:
    # "Missile troops also have a ZOC, equal to their close range, and may opportunity fire on any
    # enemy unit moving in it": 4" ahead of b1 it may fire; 10" ahead (beyond close range) it may not
    st = _crossing_archers(12)
    d = st.decision()  # type: ignore[attr-defined]
    assert d is not None and d.kind == "opportunity" and d.unit == "b1"
    assert {str(o) for o in st.legal_orders()} == {"decline b1", "fire b1 r1"}  # type: ignore[attr-defined]
    st.apply("fire b1 r1")  # type: ignore[attr-defined]
    assert last(st, "fire").rule == f"{RS}:combat.opportunity-fire"  # type: ignore[arg-type]
    assert kind(_crossing_archers(6)) == "movement"  # type: ignore[arg-type]


def test_combat_opportunity_fire_once_a_turn_the_units_regular_fire() -> None:
    # "this does not mean missile units can fire twice in one turn. The opportunity fire merely
    # represents their regular fire done out of sequence."
    from shieldwall.rulesets.into_the_dark.shooting import fire_problem

    st = _crossing_archers(12, second=True)
    script(st, [1] * 40)  # type: ignore[arg-type]
    st.apply("fire b1 r1")  # type: ignore[attr-defined]
    b1 = st.units["b1"]  # type: ignore[attr-defined]
    assert b1.fired and fire_problem(st, b1) is not None  # type: ignore[arg-type]
    st.apply("move r2 fwd 8")  # type: ignore[attr-defined]  # r2 walks through the same zone
    assert kind(st) == "movement"  # type: ignore[arg-type]  # no second offer


def test_combat_fire_targets_chargers_first_a_charged_unit_fires_at_its_charger() -> None:
    # "If possible, a unit must shoot first at any enemies charging it": its fire at the charger is
    # taken when the charge is declared (docs/rulings 65), before the Missile Fire phase
    g = game(
        [u("r1", "LAM", 10, 5, figures=8, frontage=4)],
        [u("b1", "LUF", 10, 10, 180, type_="missile", weapon="bow")],
    )
    st = start(g, "red")
    st.apply("charge r1 b1")
    assert "fire b1 r1" in {str(o) for o in st.legal_orders()}
    script(st, [1, *[1] * 40])
    st.apply("fire b1 r1")
    f = last(st, "fire")
    assert f.data["target"] == "r1" and st.units["b1"].fired


# --- combat.missile-weapons --------------------------------------------------------------------------


def test_combat_missile_weapons_bows_no_shields_unless_cross_trained() -> None:
    # "Foot Bow ... These troops do not have shields unless cross trained"; "Mounted Bow ... Shields
    # are restricted the same as for foot"; light crossbows are foot bows
    for code, kw in (
        ("LUF", {"weapon": "bow"}),
        ("LUM", {"weapon": "bow"}),
        ("LUF", {"options": ["crossbow"]}),
    ):
        assert not unit(code=code, type="missile", **kw).has_shields
        assert unit(code=code, type="cross-trained", **kw).has_shields


def test_combat_missile_weapons_sling_and_javelins_keep_shields_even_while_firing() -> None:
    # "Sling ... These troops have shields, and can use them even while firing." (javelins the same)
    assert unit(code="LUF", type="missile", weapon="sling").has_shields
    assert unit(code="LUF", type="missile", weapon="javelin").has_shields
    archers = _foot(armour="U", density="L", role="missile", weapon="foot-bow", shields=False)
    for weapon in ("sling", "javelin"):
        firing = _foot(density="L", role="missile", weapon=weapon, firing=True)
        assert MissileSituation(archers, firing, close=4).target_shieldless() is None
    bow = _foot(density="L", role="cross-trained", weapon="foot-bow", firing=True)
    assert MissileSituation(archers, bow, close=4).target_shieldless() is not None


# --- movement.movement and movement.charging ----------------------------------------------------------


def test_movement_movement_rallied_do_not_move() -> None:
    # "Troops that rallied or moved during the rally phase may not move during the movement phase."
    st = start(game([u("r1", "CPF", 20, 5)], [u("b1", "CPF", 20, 30, 180)]), "red")
    st.units["r1"].morale = "shaken"
    end_until(st, "rally", "red")
    st.apply("rally r1")
    end_until(st, "movement", "red")
    with pytest.raises(IllegalOrder) as e:
        st.apply("move r1 fwd 1")
    assert e.value.rule == f"{RS}:movement.movement"
    assert not any(str(o).startswith(("activate r1", "move r1", "charge r1")) for o in st.legal_orders())


def _target_runs(
    blue: list[dict[str, object]] | None = None,
    terrain: list[dict[str, object]] | None = None,
    bx: float = 10,
) -> IntoTheDarkState:
    """r1 (12" move) charges b1, whose front is 10" away; b1 evades 12" and gets beyond reach: r1 reaches
    b1's original position and its side decides (movement.charging.target-runs)."""
    b1 = u("b1", "OUF", bx, 15, 180, type_="missile", weapon="javelin", figures=2, frontage=2)
    g = game([u("r1", "LAM", 10, 5, figures=8, frontage=4)], [b1, *(blue or [])], terrain=terrain or [])
    st = start(g, "red")
    st.apply("charge r1 b1")
    script(st, [4, 4, 4, *ONES])
    st.apply("evade b1")
    assert kind(st) == "chase" and st.decision().unit == "r1"  # type: ignore[union-attr]
    assert [str(o) for o in st.legal_orders()] == ["stop r1", "continue r1"]
    assert not events(st, "caught") and not events(st, "charge-missed")
    assert st.units["r1"].y == pytest.approx(15.0, abs=0.01)  # at b1's original position already
    return st


def _chosen(st: IntoTheDarkState, choice: str) -> None:
    st.apply(f"{choice} r1")
    ev = last(st, "target-runs")
    assert ev.rule == f"{RS}:movement.charging.target-runs" and ev.side == "red"
    assert ev.data == {"unit": "r1", "target": "b1", "choice": choice}


def test_movement_charging_target_runs_charger_stops_at_its_original_position() -> None:
    # "If the unit being charged, runs away before contact, the chargers may stop upon reaching the
    # target's original position": r1 stops where b1 stood, with 2" of its move unused
    st = _target_runs()
    assert st.decision().data["further"] == pytest.approx(2.0)  # type: ignore[union-attr]
    _chosen(st, "stop")
    missed = last(st, "charge-missed")
    assert missed.rule == f"{RS}:movement.charging" and missed.data["fled"] == "evaded"
    assert missed.data["distance"] == pytest.approx(10.0, abs=0.01)
    assert last(st, "charge").data["allowance"] == pytest.approx(12.0)
    assert st.units["r1"].y == pytest.approx(15.0, abs=0.01)
    assert not events(st, "caught") and not events(st, "contact")


def test_movement_charging_target_runs_continue_to_the_maximum_move() -> None:
    # "... or continue the charge until they've used up their maximum move": straight on, 2" more
    st = _target_runs()
    _chosen(st, "continue")
    missed = last(st, "charge-missed")
    assert missed.data["distance"] == pytest.approx(12.0, abs=0.01)
    r1 = st.units["r1"]
    assert (r1.x, r1.y, r1.heading) == pytest.approx((10.0, 17.0, 0.0), abs=0.01)
    assert r1.used == pytest.approx(12.0, abs=0.01) and not events(st, "contact")


def test_movement_charging_target_runs_continue_blocked_by_terrain() -> None:
    # the continuing charger stops where the movement checks stop any straight move: deep water
    lake = {"id": "lake", "kind": "lake", "points": [[6, 16.2], [10, 16.2], [10, 30], [6, 30]]}
    st = _target_runs(terrain=[lake], bx=12)
    further = st.decision().data["further"]  # type: ignore[union-attr]
    assert 0 < further < 1.2
    _chosen(st, "continue")
    assert st.units["r1"].y == pytest.approx(15.0 + further, abs=0.01) and st.units["r1"].y < 16.2


def test_movement_charging_target_runs_continue_blocked_by_units_stops_short_of_an_enemy() -> None:
    # another enemy ahead: the continuing charger stops short of it, without contact (only a charge at
    # its declared target contacts: docs/rulings 79)
    b2 = u("b2", "CPF", 7, 16.5, 180, figures=4, frontage=4)
    st = _target_runs(blue=[b2], bx=11)
    _chosen(st, "continue")
    r1 = st.units["r1"]
    assert 15.0 < r1.y < 16.5 and not events(st, "contact")
    assert last(st, "charge-missed").data["distance"] < 12.0 - 0.5


def test_movement_charging_target_runs_scripted_bot_continues_or_stops() -> None:
    # the scripted general goes on when that ends closer to the enemy in no worse a place, and stops
    # when going on would end disordered (rough ground just past the target's original position)
    from shieldwall.rulesets.into_the_dark.bots import ScriptedBot

    assert str(ScriptedBot(1).choose(_target_runs())) == "continue r1"
    rough = {"id": "rough", "kind": "rough", "points": [[0, 16.5], [48, 16.5], [48, 36], [0, 36]]}
    st = _target_runs(terrain=[rough])
    assert str(ScriptedBot(1).choose(st)) == "stop r1"
    _chosen(st, "continue")
    assert st.units["r1"].disordered  # what the bot avoided


# --- morale.test-triggers ---------------------------------------------------------------------------------


def test_morale_test_triggers_impetuous_charge_the_target_tests_at_once() -> None:
    # "receiving an impetuous charge unless counter-charging impetuously themselves *"
    def charged(how: str) -> list[object]:
        g = game([u("r1", "LAM", 10, 5, figures=8, frontage=4)], [u("b1", "CPF", 10, 15, 180)])
        st = start(g, "red")
        st.apply(how)
        script(st, [1, *ONES])
        st.apply("stand b1")
        return [e for e in events(st, "morale-test") if e.data["unit"] == "b1"]

    t = charged("charge r1 b1 impetuous")
    assert t and t[0].rule == f"{RS}:movement.impetuous-charges"  # type: ignore[attr-defined]
    assert t[0].data["reason"].startswith("receiving an impetuous charge")  # type: ignore[attr-defined]
    assert not charged("charge r1 b1")  # a charge that is not impetuous: no test before contact


def test_morale_test_triggers_melee_both_sides_test_whether_casualties_or_not() -> None:
    # "being in melee ... whether casualties resulted or not": no die hits, both units still test
    st = start(game([u("r1", "CPF", 10, 10)], [u("b1", "CPF", 10, 10, 180)]), "red")
    script(st, ONES)
    end_until(st, "initiative")
    assert not events(st, "casualties")
    tested = {e.data["unit"] for e in events(st, "morale-test")}
    assert tested == {"r1", "b1"}


# --- morale.modifiers ----------------------------------------------------------------------------------


def _level(**kw: object) -> tuple[int, list[str]]:
    from shieldwall.rulesets.into_the_dark.morale import MoraleSituation

    s = MoraleSituation(3, **kw)  # type: ignore[arg-type]
    return s.level - 3, [m.name for m in s.modifiers()]


def test_morale_modifiers_shaken_minus_one() -> None:
    assert _level(shaken=True) == (-1, ["unit shaken"])


def test_morale_modifiers_disordered_minus_one() -> None:
    assert _level(disordered=True) == (-1, ["unit disordered"])


def test_morale_modifiers_flanked_minus_three() -> None:
    assert _level(flanked=True) == (-3, ["unit flanked"])


def test_morale_modifiers_long_range_only_plus_one() -> None:
    assert _level(long_range_missile_only=True) == (1, ["receiving long range missile fire only"])


def test_morale_modifiers_fewer_firers_plus_one() -> None:
    assert _level(fewer_firers=True) == (1, ["missile fire from less enemy than own numbers"])


def test_morale_modifiers_deeper_ranks_minus_one() -> None:
    assert _level(deeper_ranks=True) == (-1, ["opponent has more complete ranks"])


def test_morale_modifiers_supported_plus_one() -> None:
    assert _level(supported=True) == (1, ["unit supported"])


def test_morale_modifiers_friends_routing_minus_one_each() -> None:
    assert _level(friends_routing=1)[0] == -1 and _level(friends_routing=3)[0] == -3


def test_morale_modifiers_unsupported_minus_two() -> None:
    assert _level(unsupported=True) == (-2, ["unit unsupported"])


def test_morale_modifiers_uphill_plus_one() -> None:
    assert _level(uphill=True) == (1, ["unit is uphill"])


def test_morale_modifiers_in_cover_plus_one() -> None:
    assert _level(in_cover=True) == (1, ["unit in cover"])
