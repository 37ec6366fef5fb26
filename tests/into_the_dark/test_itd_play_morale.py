"""Clause tests: combat results and morale in play (morale.melee-test-order, morale.test-triggers,
morale.results, combat.driven-back, combat.rout, combat.pursuit, combat.bonus-round,
combat.rallying, morale.modifiers)."""

from __future__ import annotations

import pytest

from shieldwall.core.errors import IllegalOrder

from .playkit import RS, end_until, events, game, kind, last, next_turn, script, start, u

ONES = [1] * 60


def duel(b_y: float = 10.0, blue_extra: list[dict[str, object]] | None = None, **bkw: object) -> object:
    return game(
        [u("r1", "CPF", 10, 10)],
        [u("b1", "CPF", 10, b_y, 180, **bkw), *(blue_extra or [])],  # type: ignore[arg-type]
    )


def morale_tests_of(st: object, uid: str) -> list[object]:
    return [e for e in events(st, "morale-test") if e.data["unit"] == uid]  # type: ignore[arg-type]


def to_morale(st: object, faces: list[int]) -> None:
    script(st, faces)  # type: ignore[arg-type]
    end_until(st, "initiative")  # type: ignore[arg-type]


def test_morale_melee_test_order_losers_first_winners_only_if_still_in_contact() -> None:
    flanks = [u("b2", "CPF", 5, 10, 180), u("b3", "CPF", 15, 10, 180)]
    st = start(duel(blue_extra=flanks), "red")
    to_morale(st, [6, 6, 1, 1, 1, *ONES])  # r1 hits twice, b1 misses; b1 (supported) passes
    order = [e.data["unit"] for e in events(st, "morale-test")]
    assert order[:2] == ["b1", "r1"]
    assert last(st, "melee-results").data["results"] == {"r1": "won", "b1": "lost"}
    assert morale_tests_of(st, "b1")[0].rule == f"{RS}:morale.melee-test-order"  # type: ignore[attr-defined]
    st2 = start(duel(), "red")
    script(st2, [6, 6, 1, 1, 6, 1, 1, 1, *ONES])  # b1 (level -1) routs: the winner does not test
    while kind(st2) != "pursue":
        st2.apply(st2.legal_orders()[0])
    assert morale_tests_of(st2, "r1") == [] and st2.units["b1"].routed


def test_morale_melee_test_order_ties_test_together() -> None:
    st = start(duel(), "red")
    to_morale(st, [1, 1, 1, 1, 1, 1, *ONES])
    assert last(st, "melee-results").data["results"] == {"r1": "tied", "b1": "tied"}
    assert {e.data["unit"] for e in events(st, "morale-test")} == {"r1", "b1"}


def test_combat_driven_back_four_inches_and_follow_up() -> None:
    st = start(duel(), "red")
    script(st, [6, 6, 1, 1, 2, *ONES])  # b1 (level -1) over by 3: driven back
    while kind(st) != "pursue":
        st.apply(st.legal_orders()[0])
    db = last(st, "driven-back")
    assert db.rule == f"{RS}:combat.driven-back" and db.data["distance"] == 4
    assert st.units["b1"].y == pytest.approx(14.0) and st.units["b1"].heading == 180  # still facing
    assert st.decision().data["mode"] == "follow"  # type: ignore[union-attr]
    st.apply("pursue r1")
    assert last(st, "follow").rule == f"{RS}:combat.pursuit"
    assert st.units["r1"].y == pytest.approx(14.0) and not st.units["r1"].disordered


def test_combat_driven_back_that_cannot_move_four_inches_routs() -> None:
    # also exercises into-the-dark:combat.driven-back.blocked
    st = start(game([u("r1", "CPF", 10, 31)], [u("b1", "CPF", 10, 31, 180)]), "red")
    to_morale(st, [6, 6, 1, 1, 2, *ONES])
    assert last(st, "driven-back-blocked").data["unit"] == "b1"
    assert last(st, "rout").data["unit"] == "b1"


def test_combat_driven_back_pushes_friends_close_order_may_refuse() -> None:
    behind = [u("b2", "CPF", 10, 13, 180)]
    st = start(duel(blue_extra=behind), "red")
    script(st, [6, 6, 1, 1, 4, *ONES])  # b1 supported from behind: level 2, over by 2
    while kind(st) != "consent":
        st.apply(st.legal_orders()[0])
    assert st.decision().unit == "b2"  # type: ignore[union-attr]
    s1 = st.copy()
    s1.apply("allow b2")
    assert last(s1, "pushed-back").data["unit"] == "b2" and s1.units["b1"].y == pytest.approx(14)
    s2 = st.copy()
    s2.apply("refuse b2")
    assert s2.units["b1"].routed  # "routing them instead"


def test_combat_rout_moves_away_by_its_dice_with_its_back_to_the_enemy() -> None:
    st = start(duel(), "red")
    script(st, [6, 6, 1, 1, 6, 5, 5, 5, *ONES])  # b1 routs 15"
    while kind(st) != "pursue":
        st.apply(st.legal_orders()[0])
    r = last(st, "rout")
    assert r.rule == f"{RS}:combat.rout" and r.data["faces"] == [5, 5, 5] and r.data["distance"] == 15
    b1 = st.units["b1"]
    assert b1.routed and b1.disordered and b1.heading == pytest.approx(0.0)  # back to the enemy
    assert last(st, "rout-move").data["distance"] == pytest.approx(15)


def test_combat_rout_off_table_gone_for_the_rest_of_the_game() -> None:
    # "If a unit routs off the table, it is considered gone for the rest of the game."
    st2 = start(game([u("r1", "CPF", 10, 29)], [u("b1", "CPF", 10, 29, 180)]), "red")
    to_morale(st2, [6, 6, 1, 1, 6, 5, 5, 5, *ONES])
    assert st2.units["b1"].gone and last(st2, "rout-off-table").rule == f"{RS}:combat.rout"
    assert not st2.units["b1"].on_table and "b1" not in {x.id for x in st2.live()}
    # gone at once: in the next turn's rally phase it makes no attempt to rally
    assert [e.data["reason"] for e in morale_tests_of(st2, "b1")] == ["lost the melee"]  # type: ignore[attr-defined]


def test_combat_pursuit_bonus_round_when_keeping_up() -> None:
    st = start(duel(), "red")
    script(st, [6, 6, 1, 1, 6, 1, 1, 1, *ONES])  # b1 routs only 3"
    while kind(st) != "pursue":
        st.apply(st.legal_orders()[0])
    assert st.decision().data["mode"] == "pursuit"  # type: ignore[union-attr]
    st.apply("pursue r1")
    b = last(st, "bonus-round")
    assert b.rule == f"{RS}:combat.bonus-round" and b.data["figures"] == 8
    assert b.data["groups"][0]["dice"] == 8  # 1 d6 per figure
    assert st.units["r1"].disordered  # "A unit that pursues becomes disordered"


def test_combat_pursuit_resisted_with_a_control_test() -> None:
    st = start(duel(), "red")
    script(st, [6, 6, 1, 1, 6, 1, 1, 1, 1, *ONES])
    while kind(st) != "pursue":
        st.apply(st.legal_orders()[0])
    y = st.units["r1"].y
    st.apply("resist r1")
    assert last(st, "control-test").rule == f"{RS}:combat.pursuit"
    assert last(st, "holds").data["unit"] == "r1" and st.units["r1"].y == y
    assert not st.units["r1"].disordered


def test_morale_test_triggers_friend_routed_within_six_inches() -> None:
    beside = [u("b2", "CPF", 17, 14, 180)]
    st = start(duel(blue_extra=beside), "red")
    to_morale(st, [6, 6, 1, 1, 6, 6, 6, 6, *ONES])
    t = morale_tests_of(st, "b2")
    assert t and 'routed within 6"' in t[0].data["reason"]  # type: ignore[attr-defined]


def test_morale_test_triggers_friend_destroyed_within_twelve_inches() -> None:
    beside = [u("b2", "CPF", 20, 14, 180)]
    g = game(
        [u("r1", "CUF", 10, 10, figures=16, frontage=4, options=["pike"])],
        [u("b1", "CPF", 10, 10, 180, figures=2, frontage=2), *beside],
    )
    st = start(g, "red")
    to_morale(st, [6, 6, 1, *ONES])
    assert st.units["b1"].destroyed
    t = morale_tests_of(st, "b2")
    assert t and 'destroyed within 12"' in t[0].data["reason"]  # type: ignore[attr-defined]


def test_morale_modifiers_casualties_unsupported_and_supported() -> None:
    st = start(duel(), "red")
    to_morale(st, [6, 6, 1, 1, 1, *ONES])
    names = [m["name"] for m in morale_tests_of(st, "b1")[0].data["modifiers"]]  # type: ignore[attr-defined]
    assert "casualties 2/8 (1 x 25%)" in names and "unit unsupported" in names
    flanks = [u("b2", "CPF", 5, 10, 180), u("b3", "CPF", 15, 10, 180)]
    st2 = start(duel(blue_extra=flanks), "red")
    to_morale(st2, [6, 6, 1, 1, 1, *ONES])
    names2 = [m["name"] for m in morale_tests_of(st2, "b1")[0].data["modifiers"]]  # type: ignore[attr-defined]
    assert "unit supported" in names2


def test_morale_test_triggers_interpenetrated_routers_passing_through_friends_make_them_test() -> None:
    # also exercises into-the-dark:combat.rout ("if passed through, the friendly unit must
    # immediately take a morale test")
    behind = [u("b2", "LPF", 10, 16, 180, figures=4, frontage=4)]
    st = start(duel(blue_extra=behind), "red")
    to_morale(st, [6, 6, 1, 1, 6, 6, 6, 6, *ONES])
    mv = last(st, "rout-move")
    assert "b2" in mv.data["passed_through"]
    t = morale_tests_of(st, "b2")
    assert t and "passed through by routing b1" in t[0].data["reason"]  # type: ignore[attr-defined]


def test_combat_rallying_shaken_failure_does_not_disorder() -> None:
    st = start(duel(b_y=30), "red")
    st.units["r1"].morale = "shaken"
    end_until(st, "rally")
    assert {str(o) for o in st.legal_orders()} == {"end", "rally r1"}
    script(st, [6, *ONES])
    st.apply("rally r1")
    assert last(st, "control-test").data["control"] == "failed"
    assert st.units["r1"].morale == "shaken" and not st.units["r1"].disordered
    assert last(st, "still-shaken").rule == f"{RS}:combat.rallying"


def test_combat_rallying_from_disorder_takes_the_whole_turn() -> None:
    st = start(duel(b_y=30), "red")
    st.units["r1"].disordered = True
    end_until(st, "rally")
    st.apply("rally r1")
    script(st, ONES)
    st.apply("keep") if kind(st) == "initiative" else None
    while kind(st) != "movement":
        st.apply(st.legal_orders()[0])
    with pytest.raises(IllegalOrder) as e:
        st.copy().apply("move r1 fwd 1")  # "may take no other actions for the current turn"
    assert e.value.rule == f"{RS}:movement.movement"
    end_until(st, "initiative")
    assert not st.units["r1"].disordered and last(st, "reordered").data["unit"] == "r1"


def test_combat_rallying_routers_test_and_face_back_or_rout_on() -> None:
    st = start(duel(b_y=30), "red")
    st.units["r1"].morale = "routed"
    st.units["r1"].disordered = True
    script(st, [1, *ONES])
    end_until(st, "initiative")
    r = last(st, "rallied")
    assert r.data["unit"] == "r1" and st.units["r1"].morale == "steady" and st.units["r1"].disordered
    assert st.units["r1"].heading == pytest.approx(180)  # turned about
    st2 = start(duel(b_y=30), "red")
    st2.units["r1"].morale = "routed"
    script(st2, [6, 2, 2, 2, *ONES])  # fails: rout on towards its own (south) edge
    end_until(st2, "initiative")
    assert last(st2, "rout").data["towards"] == "own base edge"


def test_combat_rallying_evaders_turn_back_by_themselves() -> None:
    st = start(duel(b_y=30), "red")
    st.units["r1"].evading = True
    script(st, ONES)
    end_until(st, "initiative")
    e = last(st, "evader-rallies")
    assert e.rule == f"{RS}:combat.rallying" and st.units["r1"].heading == pytest.approx(180)


def test_combat_rallying_not_in_melee() -> None:
    st = start(duel(), "red")
    st.units["r1"].morale = "shaken"
    script(st, [1, 1, 1, 1, 1, 1, *ONES])
    next_turn(st, "red") if False else end_until(st, "initiative")
    st.units["r1"].morale = "shaken"
    st.apply("keep")
    assert kind(st) != "rally" or "rally r1" not in {str(o) for o in st.legal_orders()}


def test_morale_test_triggers_fanatic_still_routing_within_twelve_inches_each_turn() -> None:
    """ "friendly fanatic (quality 5) unit routing, within 12"": a fanatic still routing from an
    earlier turn makes friends within 12" of where it is now test, once a turn (ruling 72)."""
    from shieldwall.rulesets.into_the_dark.act_morale import friends_tests

    g = game(
        [u("r1", "CPF", 40, 6)],
        [
            u("b1", "CPF", 10, 20, 180, quality="fanatic"),
            u("b2", "CPF", 20, 20, 180),
            u("b3", "CPF", 40, 30, 180),
        ],
    )
    st = start(g, "red")
    st.units["b1"].morale = "routed"
    st.routed_turn = []  # it routed on an earlier turn
    st.queue = []
    friends_tests(st)
    tested = [t[1] for t in st.queue if t[0] == "test"]
    assert tested == ["b2"]  # b3 is beyond 12"
    assert "fanatic routing" in st.queue[0][2]
    st.queue = []
    friends_tests(st)  # the same turn: no second test
    assert [t for t in st.queue if t[0] == "test"] == []
    st.tested = set()  # the next turn: it is still routing, so b2 tests again
    friends_tests(st)
    assert [t[1] for t in st.queue if t[0] == "test"] == ["b2"]
