"""one-hour-dark-ages's ``score`` hook: the search bot's estimate of each side's standing."""

from __future__ import annotations

from shieldwall import registry
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.one_hour.score import score


def test_the_plugin_names_the_score_hook() -> None:
    assert registry.get("one-hour-dark-ages").load("score") is score


def test_an_even_start_scores_zero_and_units_lost_rank_a_side_lower() -> None:
    st = load_game("one-hour-dark-ages/bryn-glas").new_state(1)
    assert score(st) == {"red": 0.0, "blue": 0.0}
    worse = st.copy()
    worse.lost["blue"] = 2  # blue has lost two Units: force morale and the turn limit favour red
    s = score(worse)
    assert s["red"] > 0.5 and s["blue"] == -s["red"]
    assert score(st)["red"] < s["red"]


def test_losses_count_more_than_wear_but_wear_breaks_ties() -> None:
    st = load_game("one-hour-dark-ages/bryn-glas").new_state(1)
    worn = st.copy()
    unit = worn.live("red")[0]
    unit.hits = unit.max_hits - 1  # red's Unit nearly destroyed, none lost
    assert score(worn)["red"] < 0
    lost = st.copy()
    lost.lost["red"] = 1
    assert score(lost)["red"] < score(worn)["red"]  # a Unit destroyed is worse than a worn one
    assert all(-1.0 <= v <= 1.0 for v in score(lost).values())
