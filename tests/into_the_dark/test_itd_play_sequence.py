"""Clause tests: the turn sequence and initiative (turn-sequence.*), the end of the battle."""

from __future__ import annotations

import pytest

from shieldwall.core.errors import IllegalOrder

from .playkit import RS, end_until, events, game, kind, last, play_out, script, start, u


def two() -> object:
    return game([u("r1", "CPF", 10, 5)], [u("b1", "CPF", 30, 30, 180)])


def test_turn_sequence_sequence_of_play_phases_in_order() -> None:
    # Rallys, initiative, movement (initiative side then the other), missile fire, melee, morale
    st = start(two(), "blue")
    end_until(st, "initiative")
    phases = [e.data.get("phase_name") for e in events(st, "phase")]
    assert phases[:5] == ["movement", "movement", "missile fire", "melee", "morale tests"]
    movers = [e.side for e in events(st, "phase") if e.data.get("phase_name") == "movement"][:2]
    assert movers == ["blue", "red"]
    assert all(e.rule.startswith(f"{RS}:turn-sequence.") for e in events(st, "phase"))
    assert st.turn == 2 and kind(st) == "initiative"


def test_turn_sequence_initiative_consecutive_penalty() -> None:
    # "The winner of last turn's initiative roll receives a -1 to his roll for each consecutive turn"
    st = start(two(), "red")
    won = last(st, "initiative-roll").data["winner"]
    end_until(st, "initiative")  # turn 2 roll done: look at its modifiers
    rolls = events(st, "initiative-roll")
    assert rolls[-1].data["modifiers"][won] == -1
    assert rolls[-1].rule == f"{RS}:turn-sequence.initiative"
    # make the same side win again, then check -2 next turn
    w2 = rolls[-1].data["winner"]
    st.apply("keep")
    script(st, [6, 1] if w2 == "red" else [1, 6])
    end_until(st, "initiative")
    r3 = events(st, "initiative-roll")[-1]
    holder = w2
    assert r3.data["winner"] == holder
    assert r3.data["modifiers"][holder] == (-2 if holder == won else -1)


def test_turn_sequence_initiative_keep_or_pass_and_ties_rolled_again() -> None:
    st = start(two(), "red")
    end_until(st, "initiative")
    st.apply("pass")
    assert st.first != last(st, "initiative").side
    end_until(st, "initiative")
    st.apply("keep")
    st.streak = (None, 0)  # no consecutive-win penalty this time
    script(st, [3, 3, 5, 2])
    end_until(st, "initiative")
    rolls = events(st, "initiative-roll")[-2:]
    assert rolls[0].data["winner"] is None and rolls[1].data["winner"] is not None


def test_turn_sequence_orders_outside_their_decision_are_refused() -> None:
    st = start(two(), "red")
    assert kind(st) == "movement"
    with pytest.raises(IllegalOrder) as e:
        st.apply("keep")
    assert e.value.rule == f"{RS}:turn-sequence.movement"
    with pytest.raises(IllegalOrder):
        st.apply("shoot r1 b1")


def test_turn_sequence_movement_initiative_side_moves_first() -> None:
    st = start(two(), "blue")
    d = st.decision()
    assert d is not None and d.kind == "movement" and d.side == "blue"
    st.apply("move b1 fwd 2")
    assert last(st, "move").side == "blue"
    st.apply("end")
    d = st.decision()
    assert d is not None and d.kind == "movement" and d.side == "red"


def test_turn_sequence_end_of_battle_turn_limit_by_share_of_points_lost() -> None:
    g = game([u("r1", "CPF", 10, 5)], [u("b1", "CPF", 30, 30, 180)], turns=1)
    st = start(g, "red")
    st.units["b1"].morale = "routed"  # counts as lost
    play_out(st)
    r = st.result()
    assert r is not None and r.winner == "red"
    assert last(st, "result").rule == f"{RS}:turn-sequence.end-of-battle"


def test_turn_sequence_end_of_battle_equal_losses_broken_by_casualties() -> None:
    g = game([u("r1", "CPF", 10, 5)], [u("b1", "CPF", 30, 30, 180)], turns=1)
    st = start(g, "red")
    st.units["b1"].figures = 6  # 2 of 8 lost, no unit lost on either side
    play_out(st)
    r = st.result()
    assert r is not None and r.winner == "red"
    assert "equal losses" in r.reason and "casualties" in r.reason
    assert last(st, "result").rule == f"{RS}:turn-sequence.end-of-battle"
    # no unit lost and no casualties on either side: a draw
    st2 = start(game([u("r1", "CPF", 10, 5)], [u("b1", "CPF", 30, 30, 180)], turns=1), "red")
    play_out(st2)
    r2 = st2.result()
    assert r2 is not None and r2.winner is None and "equal casualties" in r2.reason


def test_turn_sequence_end_of_battle_no_formed_units() -> None:
    g = game([u("r1", "CPF", 10, 5)], [u("b1", "CPF", 30, 30, 180)], spare=False)
    st = start(g, "red")
    st.units["b1"].morale = "routed"
    st.units["b1"].gone = True
    play_out(st)
    r = st.result()
    assert r is not None and r.winner == "red" and "no formed unit" in r.reason


def test_turn_sequence_end_of_battle_turn_limit_result_says_it_is_the_engines_own_rule() -> None:
    """The text gives no victory conditions: every turn-limit result says the count is the engine's
    (the reason the CLI prints, the narration and the web's result event show; ruling 39)."""
    from shieldwall.rulesets.into_the_dark.narrate import describe

    g = game([u("r1", "CPF", 10, 5)], [u("b1", "CPF", 30, 30, 180)], turns=1)
    st = start(g, "red")
    st.units["b1"].morale = "routed"
    play_out(st)
    r = st.result()
    assert r is not None and "engine's own count, not by the rules" in r.reason
    ev = last(st, "result")
    assert "engine's own count" in ev.data["reason"]
    assert "engine's own count" in (describe(ev) or "")
