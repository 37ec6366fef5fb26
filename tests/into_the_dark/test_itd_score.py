"""into-the-dark's ``score`` hook: the search bot's estimate of each side's standing by the
engine's end-of-battle rule (turn-sequence.end-of-battle, rulings 39 and 74)."""

from __future__ import annotations

from shieldwall import registry
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.into_the_dark.score import score
from shieldwall.rulesets.into_the_dark.state import IntoTheDarkState

SCEN = "into-the-dark/senlac"


def _state() -> IntoTheDarkState:
    st = load_game(SCEN).new_state(1)
    assert isinstance(st, IntoTheDarkState)
    return st


def _units(st: IntoTheDarkState, side: str) -> list[str]:
    return sorted(u.id for u in st.units.values() if u.side == side and not u.general)


def test_the_plugin_names_the_score_hook() -> None:
    assert registry.get("into-the-dark").load("score") is score


def test_turn_sequence_end_of_battle_an_even_start_scores_zero() -> None:
    assert score(_state()) == {"red": 0.0, "blue": 0.0}


def test_turn_sequence_end_of_battle_a_side_all_but_driven_from_the_field_scores_low() -> None:
    """Every blue unit but one routing: one more rout and blue has no formed unit on the table."""
    st = _state()
    for uid in _units(st, "blue")[1:]:
        st.units[uid].morale = "routed"
    s = score(st)
    assert s["red"] > 0.9 and s["blue"] == -s["red"]
    assert all(-1.0 <= v <= 1.0 for v in s.values())


def test_turn_sequence_end_of_battle_the_share_of_points_counts_not_the_number_of_units() -> None:
    """Blue's dearest unit routing outweighs red's cheapest two: the turn limit counts points."""
    st = _state()
    blue = max(_units(st, "blue"), key=lambda u: _cost(st, u))
    st.units[blue].morale = "routed"
    for uid in sorted(_units(st, "red"), key=lambda u: _cost(st, u))[:2]:
        st.units[uid].morale = "routed"
    assert score(st)["red"] > 0


def _cost(st: IntoTheDarkState, uid: str) -> int:
    from shieldwall.rulesets.into_the_dark.points import unit_cost

    return unit_cost(st.units[uid].spec).points


def test_turn_sequence_end_of_battle_casualties_break_ties_but_count_less_than_a_rout() -> None:
    st = _state()
    uid = _units(st, "red")[0]
    st.units[uid].figures = st.units[uid].original // 2  # worn, still in the field
    worn = score(st)["red"]
    assert worn < 0
    routed = _state()
    routed.units[uid].morale = "routed"
    assert score(routed)["red"] < worn
