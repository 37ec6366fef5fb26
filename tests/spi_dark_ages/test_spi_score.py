"""spi-dark-ages's ``score`` hook: the search bot's estimate of each side's standing (victory.vp)."""

from __future__ import annotations

from shieldwall import registry
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.spi_dark_ages.score import score


def test_the_plugin_names_the_score_hook() -> None:
    assert registry.get("spi-dark-ages").load("score") is score


def test_victory_points_lost_rank_a_side_lower() -> None:
    st = load_game("spi-dark-ages/tours").new_state(1)
    assert score(st) == {"green": 0.0, "tan": 0.0}
    worse = st.copy()
    worse.board.losses["tan"] += 10  # tan lost a command unit's VP: green ahead on victory.vp
    s = score(worse)
    assert s["green"] > 0.3 and s["tan"] == -s["green"]
    assert all(-1.0 <= v <= 1.0 for v in s.values())


def test_a_demoralized_unit_counts_as_part_lost() -> None:
    st = load_game("spi-dark-ages/tours").new_state(1)
    shaken = st.copy()
    unit = next(u for u in shaken.board.units.values() if u.side == "green" and u.gone is None)
    unit.demoralized = (2, 0, "movement")  # as morale.demoralize sets it
    assert score(shaken)["green"] < 0
    lost = st.copy()
    lost.board.losses["green"] += shaken.board.vp_lost(unit)
    assert score(lost)["green"] < score(shaken)["green"]  # eliminated is worse than demoralized
