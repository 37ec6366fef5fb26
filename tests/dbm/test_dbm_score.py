"""dbm-3.2's ``score`` hook: the search bot's estimate of each side's standing by army defeat in
element equivalents (loss.ee, loss.baggage, ruling R32), demoralised commands (demor.flee) and the
bound-limit VP transfer (victory.quarter)."""

from __future__ import annotations

from fractions import Fraction

from shieldwall import registry
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.dbm.bots import ScriptedBot
from shieldwall.rulesets.dbm.score import broken, quartered, score
from shieldwall.rulesets.dbm.state import DbmState

SCEN = "dbm-3.2/ford-of-ash"


def _state() -> DbmState:
    """Ford of Ash once both armies are deployed (its commands known): red2 6.5 EE, red1 5, blue2
    5.5, blue1 4; the sample data defeats an army at half its EE, demoralises a command at a third."""
    st = load_game(SCEN).new_state(1)
    assert isinstance(st, DbmState)
    bots = {"red": ScriptedBot(1), "blue": ScriptedBot(2)}
    while st.phase != "bound":
        d = st.decision()
        assert d is not None
        st.apply(bots[d.side].choose(st))
    return st


def test_the_plugin_names_the_score_hook() -> None:
    assert registry.get("dbm-3.2").load("score") is score


def test_loss_ee_an_even_start_scores_zero() -> None:
    assert score(_state()) == {"red": 0.0, "blue": 0.0}


def test_loss_ee_a_side_one_element_from_defeat_scores_clearly_worse() -> None:
    """Blue's army (9.5 EE) is defeated at 4.75 lost: with 4 lost, one more element defeats it."""
    st = _state()
    st.commands["blue2"].lost_ee = Fraction(2)
    st.commands["blue1"].lost_ee = Fraction(1)
    st.baggage_losses["blue"] = 1  # loss.baggage: added to army losses for defeat
    assert broken(st, "blue") > 0.8
    s = score(st)
    assert s["red"] > 0.9 and s["blue"] == -s["red"]
    assert all(-1.0 <= v <= 1.0 for v in s.values())
    no_baggage = _state()
    no_baggage.commands["blue2"].lost_ee = Fraction(2)
    no_baggage.commands["blue1"].lost_ee = Fraction(1)
    assert score(no_baggage)["red"] < s["red"]


def test_loss_ee_defeat_is_a_share_of_the_army_not_a_count() -> None:
    """Two EE lost on each side: blue's smaller army (9.5 EE against 11.5) is nearer defeat."""
    st = _state()
    st.commands["red2"].lost_ee = Fraction(2)
    st.commands["blue2"].lost_ee = Fraction(2)
    assert score(st)["red"] > 0


def test_demor_flee_a_demoralised_command_counts_part_of_what_it_has_left_as_lost() -> None:
    calm, shaken = _state(), _state()
    for st in (calm, shaken):
        st.commands["red1"].lost_ee = Fraction(2)
    shaken.commands["red1"].demoralised = True
    assert score(shaken)["red"] < score(calm)["red"] < 0


def test_victory_quarter_commands_at_a_quarter_lost_tip_the_standing() -> None:
    """The same 1.5 EE lost by red: in one command (red1, 5 EE: a quarter lost) or spread (1 from
    red1, 0.5 from red2: no command at a quarter). The first loses the bound-limit VP transfer."""
    one, spread = _state(), _state()
    one.commands["red1"].lost_ee = Fraction(3, 2)
    spread.commands["red1"].lost_ee = Fraction(1)
    spread.commands["red2"].lost_ee = Fraction(1, 2)
    assert broken(one, "red") == broken(spread, "red")
    assert quartered(one) == {"red": 1, "blue": 0} and quartered(spread) == {"red": 0, "blue": 0}
    assert score(one)["red"] < score(spread)["red"] < 0
    one.commands["blue1"].demoralised = True  # any demoralised command: no transfer
    assert quartered(one) == {"red": 0, "blue": 0}
