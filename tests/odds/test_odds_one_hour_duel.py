"""The one-hour duel to the finish: the Markov chain against icepool's own absorbing-chain solution,
a plain recursive enumeration, and a seeded Monte Carlo simulation written here."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import icepool
import icepool_oracle as oracle
import numpy as np
import pytest

from shieldwall import odds
from shieldwall.core.dice import Dist
from shieldwall.odds.markov import absorption_probabilities, alternating_duel
from shieldwall.rulesets.one_hour import odds as one_hour

RS = "one-hour-dark-ages"


def _icedie(d: Dist) -> icepool.Die:
    return icepool.Die({k: v for k, v in d.items()})


PAIRS = [
    ("warriors", "infantry", {}),
    ("infantry", "warriors", {}),
    ("cavalry", "cavalry", {}),
    ("raiders", "skirmishers-bows", {"terrain": "woods"}),
    ("scots-nobles", "roman-militia+reluctant", {"dice": "d6"}),
    ("skirmishers-bows", "mounted-servants", {"dice": "d6"}),  # both can do 0 hits: a geometric tail
    ("warriors", "infantry+elite", {"facing": "flank"}),
    ("cavalry-javelins+hero", "infantry", {"facing": "rear", "first-terrain": "uphill"}),
]


@pytest.mark.parametrize(("first", "second", "sets"), PAIRS)
def test_duel_matches_icepool_exactly(first: str, second: str, sets: dict[str, str]) -> None:
    d = odds.duel(RS, first, second, sets, exact=True)
    s = one_hour.PLUGIN.parse_sets(sets, "duel")
    a = one_hour.PLUGIN._fighter(first, s)
    b = one_hour.PLUGIN._fighter(second, s)
    x = odds.attack(RS, first, second, {"terrain": s["terrain"], "dice": s["dice"]}).dist
    xo = odds.attack(
        RS, first, second, {"terrain": s["terrain"], "dice": s["dice"], "facing": s["facing"]}
    ).dist
    y = odds.attack(RS, second, first, {"terrain": s["first-terrain"], "dice": s["dice"]}).dist
    res = oracle.duel_die(_icedie(x), _icedie(y), a.hits, b.hits, _icedie(xo)).marginals[2]
    den = res.denominator()
    assert d.first_wins == Fraction(res.quantity(1), den)
    assert d.second_wins == Fraction(res.quantity(2), den)
    assert d.undecided == 0
    assert d.first_wins + d.second_wins == 1


@pytest.mark.parametrize(("first", "second", "sets"), [p for p in PAIRS if "facing" not in p[2]])
def test_turn_distribution_matches_icepool(first: str, second: str, sets: dict[str, str]) -> None:
    d = odds.duel(RS, first, second, sets, exact=True)
    s = one_hour.PLUGIN.parse_sets(sets, "duel")
    a = one_hour.PLUGIN._fighter(first, s)
    b = one_hour.PLUGIN._fighter(second, s)
    x = odds.attack(RS, first, second, {"terrain": s["terrain"], "dice": s["dice"]}).dist
    y = odds.attack(RS, second, first, {"terrain": s["first-terrain"], "dice": s["dice"]}).dist
    want = oracle.duel_turns(_icedie(x), _icedie(y), a.hits, b.hits, max_turns=d.horizon)
    assert dict(d.turns) == want
    assert sum(d.turns.values()) + d.turns_beyond == 1


def _enumerate(x: Dist, y: Dist, opening: Dist, l1: int, l2: int) -> tuple[Fraction, Fraction]:
    """Plain recursion over the full-turn chain with the self-loop solved by hand:
    v = (sum over moves) / (1 - P(stay))."""
    px, py, po = x.probabilities(), y.probabilities(), opening.probabilities()
    stay = px.get(0, Fraction(0)) * py.get(0, Fraction(0))

    @cache
    def v(h1: int, h2: int) -> tuple[Fraction, Fraction]:
        w1 = w2 = Fraction(0)
        for a, pa in px.items():
            if h2 + a >= l2:
                w1 += pa
                continue
            for b, pb in py.items():
                if h1 + b >= l1:
                    w2 += pa * pb
                elif a or b:
                    r1, r2 = v(h1 + b, h2 + a)
                    w1 += pa * pb * r1
                    w2 += pa * pb * r2
        return (w1 / (1 - stay), w2 / (1 - stay)) if stay != 1 else (Fraction(0), Fraction(0))

    w1 = w2 = Fraction(0)
    for a, pa in po.items():
        if a >= l2:
            w1 += pa
            continue
        for b, pb in py.items():
            if b >= l1:
                w2 += pa * pb
            else:
                r1, r2 = v(b, a)
                w1 += pa * pb * r1
                w2 += pa * pb * r2
    return w1, w2


@pytest.mark.parametrize(
    ("x", "y", "l1", "l2"),
    [
        (Dist({2: 1, 3: 1}), Dist({2: 1, 3: 2, 4: 2, 5: 1}), 15, 15),
        (Dist({0: 1, 1: 2, 2: 2, 3: 1}), Dist({0: 2, 1: 1, 4: 3}), 9, 7),
        (Dist({0: 5, 7: 1}), Dist({0: 1, 1: 1}), 3, 12),
        (Dist({1: 1}), Dist({1: 1}), 4, 4),
    ],
)
def test_factorised_chain_and_absorption_solve_agree_with_recursion(
    x: Dist, y: Dist, l1: int, l2: int
) -> None:
    opening = x.map(lambda h: 2 * h)
    p1, p2 = _enumerate(x, y, opening, l1, l2)
    sol = alternating_duel(x, y, l1, l2, opening)
    assert (sol.first_wins, sol.second_wins) == (p1, p2)
    assert absorption_probabilities(opening, x, y, l1, l2) == (p1, p2)
    assert sum(sol.turns.values()) + sol.beyond == 1


def test_never_ending_mass_is_reported() -> None:
    zero = Dist({0: 1})
    sol = alternating_duel(zero, zero, 15, 15)
    assert (sol.first_wins, sol.second_wins, sol.undecided) == (0, 0, 1)
    assert sol.beyond == 1 and sol.turns == {}
    # only one side can hurt the other: it wins for sure, but the number of turns has a tail
    sol = alternating_duel(Dist({0: 1, 1: 1}), zero, 1, 1)
    assert (sol.first_wins, sol.second_wins, sol.undecided) == (1, 0, 0)
    assert 0 < sol.beyond < Fraction(1, 10**15)
    assert sol.turns[1] == Fraction(1, 2) and sol.turns[3] == Fraction(1, 8)


def test_geometric_tail_with_game_units() -> None:
    """Bows (d6-2) against Mounted Servants (d6-2): both can roll 0 hits, so the chain can stay put;
    the win probabilities are still exact and the unfinished mass beyond the horizon is tiny."""
    d = odds.duel(RS, "skirmishers-bows", "mounted-servants", {"dice": "d6"}, exact=True)
    assert d.first_wins + d.second_wins == 1 and d.undecided == 0
    assert 0 < d.turns_beyond < Fraction(1, 10**15)
    assert d.mean_turns is None and d.mean_turns_within_horizon > 0
    js = d.to_json()
    assert js["turns_beyond"]["p"] < 1e-15 and js["horizon"] == d.horizon


# --- seeded Monte Carlo of alternating melee, written independently --------------------------------


def _simulate(
    first: str, second: str, sets: dict[str, str], n: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised alternating one-sided melee: the first unit's player-turn, removal check, then the
    second's, for ``n`` duels at once. Hits per die face come from the engine's
    ``AttackSituation.hits_for_face``; faces from a seeded numpy Generator."""
    s = one_hour.PLUGIN.parse_sets(sets, "duel")
    a = one_hour.PLUGIN._fighter(first, s)
    b = one_hour.PLUGIN._fighter(second, s)
    sit_x = one_hour.situation(a, b, "melee", "front", str(s["terrain"]), str(s["dice"]))
    sit_o = one_hour.situation(a, b, "melee", str(s["facing"]), str(s["terrain"]), str(s["dice"]))
    sit_y = one_hour.situation(b, a, "melee", "front", str(s["first-terrain"]), str(s["dice"]))
    faces = sit_x.die.faces
    table_x, table_o, table_y = (
        np.array([sit.hits_for_face(f) for f in faces]) for sit in (sit_x, sit_o, sit_y)
    )
    rng = np.random.default_rng(seed)
    turns = 40
    ix = rng.integers(len(faces), size=(n, turns))
    iy = rng.integers(len(faces), size=(n, turns))
    hx = table_x[ix]
    hx[:, 0] = table_o[ix[:, 0]]
    hy = table_y[iy]
    on_second = np.cumsum(hx, axis=1)
    on_first = np.cumsum(hy, axis=1)
    big = turns + 1
    k1 = np.where(
        (on_second >= b.hits).any(axis=1), (on_second >= b.hits).argmax(axis=1), big
    )  # first's win turn-1
    k2 = np.where((on_first >= a.hits).any(axis=1), (on_first >= a.hits).argmax(axis=1), big)
    first_wins = k1 <= k2  # the first strikes first within a turn
    turn = np.minimum(k1, k2) + 1
    assert (turn <= turns).all()
    return first_wins, turn


@pytest.mark.parametrize(("first", "second", "sets"), PAIRS[:5] + PAIRS[6:])
def test_markov_chain_agrees_with_seeded_monte_carlo(first: str, second: str, sets: dict[str, str]) -> None:
    """200,000 simulated duels: P(first wins), each P(turn = T) and the mean turns within 4 SE."""
    d = odds.duel(RS, first, second, sets, exact=True)
    n = 200_000
    wins, turn = _simulate(first, second, sets, n, seed=7 + len(first) * 31 + len(second))
    p = float(d.first_wins)
    assert abs(wins.mean() - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-9
    for t, pt in d.turns.items():
        q = float(pt)
        assert abs(float(np.mean(turn == t)) - q) <= 4 * math.sqrt(q * (1 - q) / n) + 1e-9, t
    mean = d.mean_turns
    assert mean is not None
    var = float(sum(pt * (t - mean) ** 2 for t, pt in d.turns.items()))
    assert abs(turn.mean() - float(mean)) <= 4 * math.sqrt(var / n) + 1e-9


# --- pinned values -----------------------------------------------------------------------------


def test_pinned_duels() -> None:
    """Warriors (2 or 3 hits a turn on Infantry) against Infantry (the plain d5 on Warriors)."""
    d = odds.duel(RS, "warriors", "infantry", exact=True)
    assert d.first_wins == Fraction(2497867, 35831808)
    assert d.second_wins == Fraction(33333941, 35831808)
    # the Infantry need at least three turns: 5+5+5 = 15 with probability (1/6)^3
    assert min(d.turns) == 3 and d.turns[3] == Fraction(1, 216)
    # the Warriors need at least 5 attacks of 3: 3^5 = 15, all five with probability 1/32,
    # and the Infantry must not have done 15 in four attacks first
    assert d.first_wins_by_turn[5] > 0 and 4 not in d.first_wins_by_turn
    # a mirror match: striking first is worth a lot
    c = odds.duel(RS, "cavalry", "cavalry", exact=True)
    assert c.first_wins == Fraction(56135379415, 78364164096)


def test_hit_limits_from_upgrades() -> None:
    s = one_hour.PLUGIN.parse_sets({}, "duel")
    assert one_hour.PLUGIN._fighter("infantry+elite", s).hits == 18
    assert one_hour.PLUGIN._fighter("infantry+determined", s).hits == 18
    assert one_hour.PLUGIN._fighter("infantry+reluctant", s).hits == 12
    assert one_hour.PLUGIN._fighter("scots-nobles", s).hits == 18
    s = one_hour.PLUGIN.parse_sets({"hit-limit": 20}, "duel")
    assert one_hour.PLUGIN._fighter("infantry+reluctant", s).hits == 17
    more = odds.duel(RS, "warriors", "infantry+elite", exact=True)
    assert more.first_wins < odds.duel(RS, "warriors", "infantry", exact=True).first_wins
