"""Wilson intervals and paired differences against hand-computed values."""

from __future__ import annotations

import math

import pytest

from shieldwall.sim.stats import Comparison, PairedDiff, Summary, wilson


def test_wilson_matches_hand_values() -> None:
    # 5 of 10: centre (0.5 + 1.92073/10) / 1.38415 = 0.5; half-width 1.95996/1.38415 *
    # sqrt(0.025 + 3.84146/400) = 0.26341 -> [0.23659, 0.76341]
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.236593, abs=1e-6)
    assert hi == pytest.approx(0.763407, abs=1e-6)
    # 0 of 10: [0, z^2/(n + z^2)] = [0, 3.84146/13.84146]
    lo, hi = wilson(0, 10)
    assert lo == 0.0
    assert hi == pytest.approx(3.841459 / 13.841459, abs=1e-6)
    # 10 of 10 mirrors it
    assert wilson(10, 10)[0] == pytest.approx(1 - hi, abs=1e-12)
    # 81 of 263 (a textbook example): [0.2553, 0.3662]
    lo, hi = wilson(81, 263)
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_paired_difference_of_win_indicators() -> None:
    d = PairedDiff()
    # 10 seeds: variant wins 3 seeds the baseline lost, loses 1 the baseline won, 6 agree
    pairs = [(0, 1)] * 3 + [(1, 0)] + [(1, 1)] * 2 + [(0, 0)] * 4
    for b, v in pairs:
        d.add(b, v)
    assert d.n == 10 and d.up == 3 and d.down == 1
    assert d.mean == pytest.approx(0.2)
    # sample variance of [1,1,1,-1,0*6]: (4 - 10*0.04) / 9 = 0.4
    assert d.sd == pytest.approx(math.sqrt(0.4))
    lo, hi = d.ci95()
    half = 1.959963984540054 * math.sqrt(0.4) / math.sqrt(10)
    assert lo == pytest.approx(0.2 - half) and hi == pytest.approx(0.2 + half)
    assert d.ci95(bound=0.5)[1] == 0.5


def test_summary_and_comparison_from_rows() -> None:
    cols = (("lost_red_infantry", "red", "infantry"),)
    s = Summary("baseline", {}, ("red", "blue"), cols)
    c = Comparison(["baseline", "dice=d6"], ("red", "blue"))
    rows = [
        {
            "variant": "baseline",
            "battle": 0,
            "winner": "red",
            "turns": 15,
            "lost_red": 1,
            "lost_red_infantry": 1,
        },
        {"variant": "baseline", "battle": 1, "winner": "draw", "turns": 12, "lost_red": 0},
        {"variant": "dice=d6", "battle": 0, "winner": "blue", "turns": 14, "lost_red": 2},
        {"variant": "dice=d6", "battle": 1, "winner": "draw", "turns": 12, "lost_red": 0},
    ]
    for r in rows:
        if r["variant"] == "baseline":
            s.add(r)
        c.add(r)
    d = s.to_dict()
    assert d["battles"] == 2 and d["wins"] == {"red": 1, "blue": 0} and d["draws"] == 1
    assert d["mean_turns"] == 13.5 and d["turns_histogram"] == {"12": 1, "15": 1}
    assert d["mean_losses"]["red"]["infantry"] == 0.5 and d["mean_units_lost"]["red"] == 0.5
    assert d["ci95"]["red"] == list(wilson(1, 2))
    assert c.pending == 0
    (diff,) = c.to_list()
    assert diff["win_rate"]["red"]["diff"] == -0.5 and diff["win_rate"]["blue"]["diff"] == 0.5
    assert diff["mean_turns"]["diff"] == -0.5
