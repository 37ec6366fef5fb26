"""into-the-dark odds: attacks against plain enumeration and seeded rolls, morale tests against the
text's result table, and the simultaneous-rounds duel against icepool's own absorbing-chain solution
and a seeded Monte Carlo simulation of the rounds written here."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import icepool
import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from shieldwall import odds
from shieldwall.core.errors import ShieldwallError
from shieldwall.rulesets.into_the_dark import odds as itd
from shieldwall.rulesets.into_the_dark.melee_situation import MeleeSituation
from shieldwall.rulesets.into_the_dark.morale import MoraleSituation

RS = "into-the-dark"
HIT_ON = {"U": 3, "P": 4, "A": 5, "M": 6, "E": 7}  # "Armour": the to-hit numbers


# --- one attack -----------------------------------------------------------------------------------


def _binomial_by_enumeration(n: int, need: int) -> dict[int, Fraction]:
    """All 6**n faces; a die hits on ``need``+ (a natural 1 never hits, a 6 always does)."""
    out: dict[int, Fraction] = {}
    for faces in itertools.product(range(1, 7), repeat=n):
        h = sum(1 for f in faces if f != 1 and (f == 6 or f >= need))
        out[h] = out.get(h, Fraction(0)) + Fraction(1, 6**n)
    return dict(sorted(out.items()))


@pytest.mark.parametrize(
    ("attacker", "target", "sets", "dice", "need"),
    [
        ("12 CAF average", "12 CPF average", {}, 3, 4),  # 12 figures: 3 d6 at protected 4+
        ("12 CAF average", "12 CUF average", {"charging": "yes"}, 3, 2),  # 3+ -1 charging: 2+
        ("12 CAF fanatic", "12 CMF average", {}, 3, 5),  # steady fanatics +1: 6 -> 5
        ("12 CAF fanatic", "12 CMF average", {"shaken": "yes"}, 3, 6),  # shaken fanatics lose it
        ("12 CAF average", "12 CAF average", {"facing": "flank"}, 6, 5),  # flank: 1 d6 per 2 figures
        ("12 CAF average", "12 CAF average", {"facing": "rear"}, 6, 4),  # + shields do not count
        ("12 CAF average", "12 CAF average", {"disordered": "yes"}, 1, 5),  # front rank only: 6 // 4
        ("12 LAM average", "12 CAF average", {"impetuous": "yes", "charging": "yes"}, 6, 4),
        ("12 CAF average", "12 CAF average shieldwall", {}, 3, 6),  # shieldwall front -1
        ("12 CAF average", "12 CAF average shieldwall", {"target-disordered": "yes"}, 3, 5),
        ("12 CAF average", "12 CAF average", {"uphill": "yes", "obstacle": "yes"}, 3, 6),  # capped at 6
        ("12 CAF average polearm", "12 CPF average", {}, 3, 3),
        ("12 CAF peasant", "12 CUF average", {}, 3, 4),
        ("16 LUF levy bow", "12 CPF average", {"mode": "shoot"}, 4, 4),
        ("16 LUF levy bow", "12 LPF average", {"mode": "shoot", "range": "long"}, 2, 5),
        ("16 LUF levy bow", "12 CPF average", {"mode": "shoot", "cover": "heavy"}, 4, 6),
        ("16 LUF levy bow", "12 CPF average no-shield", {"mode": "shoot"}, 4, 3),
        ("16 LUF levy longbow", "12 CAF average", {"mode": "shoot"}, 4, 4),  # close range +1
        ("8 LUM average javelin", "12 CPF average", {"mode": "shoot", "facing": "rear"}, 2, 3),
    ],
)
def test_attack_matches_enumeration(
    attacker: str, target: str, sets: dict[str, str], dice: int, need: int
) -> None:
    a = odds.attack(RS, attacker, target, sets)
    assert a.probabilities == _binomial_by_enumeration(dice, need)
    assert a.dist == a.situation.dist()
    assert a.details and "d6" in a.details[0]


@pytest.mark.parametrize(
    ("attacker", "target", "sets"),
    [
        ("12 CAF average", "12 CPF average", {"charging": "yes"}),
        ("24 LUF levy bow", "12 LPF average", {"mode": "shoot"}),
    ],
)
def test_attack_monte_carlo_through_roll(attacker: str, target: str, sets: dict[str, str]) -> None:
    a = odds.attack(RS, attacker, target, sets)
    rng = np.random.default_rng(11)
    n = 20_000
    hits = np.array([a.situation.roll(rng).hits for _ in range(n)])
    for v, p in a.probabilities.items():
        pf = float(p)
        assert abs(float(np.mean(hits == v)) - pf) <= 4 * math.sqrt(pf * (1 - pf) / n) + 1e-12


# --- morale ----------------------------------------------------------------------------------------


def _morale_by_table(level: int) -> dict[str, Fraction]:
    """ "Result": passed if the d6 is equal or less, over by 1 shaken, 2 or 3 driven back, 4+ routed."""
    out = dict.fromkeys(("passed", "shaken", "driven_back", "routed"), Fraction(0))
    for face in range(1, 7):
        over = face - level
        k = "passed" if over <= 0 else "shaken" if over == 1 else "driven_back" if over <= 3 else "routed"
        out[k] += Fraction(1, 6)
    return out


@pytest.mark.parametrize(
    ("unit", "sets", "level"),
    [
        ("12 CAF average", {}, 3),
        ("12 CAF elite", {"shaken": "yes", "disordered": "yes"}, 2),
        ("12 CAF average shieldwall", {"casualties": 6}, 3 + 1 - 2),
        ("12 CAF average shieldwall", {"disordered": "yes"}, 3 - 1),  # no shieldwall while disordered
        ("12 CAF levy", {"flanked": "yes"}, 2 - 3),
        ("12 CAF fanatic", {"outnumber": "yes", "supported": "yes", "uphill": "yes"}, 8),
        ("12 CAF average", {"unsupported": "yes", "friends-routing": 2, "general": "good"}, 3 - 4 + 3),
        (
            "12 CAF average",
            {"deeper-ranks": "yes", "in-cover": "yes", "long-range-only": "yes", "fewer-firers": "yes"},
            5,
        ),
    ],
)
def test_morale_against_the_result_table(unit: str, sets: dict[str, Any], level: int) -> None:
    m = odds.morale(RS, unit, sets)
    assert dict(m.outcomes) == _morale_by_table(level)
    assert sum(m.outcomes.values()) == 1
    js = m.to_json()
    assert list(js["outcomes"]) == ["passed", "shaken", "driven_back", "routed"]


def test_control_test() -> None:
    m = odds.morale(RS, "12 CAF average", {"test": "control", "shaken": "yes"})
    assert dict(m.outcomes) == {"passed": Fraction(1, 3), "failed": Fraction(2, 3)}


# --- the duel -------------------------------------------------------------------------------------

ROUTED, BACK, SHAKEN = 3, 2, 1


def _outcome(fa: int, fb: int, sa: bool, sb: bool, x: int, y: int, oa: int, ob: int) -> tuple[Any, ...]:
    """One round, restated from the text: ``x``/``y`` casualties on the second/first, ``oa``/``ob``
    the results of both units' morale tests (a test not taken is ignored). Returns the next state
    (fa, fb, sa, sb, 0) or a result (.., 1 first wins / 2 second wins / 3 draw)."""
    fa, fb = fa - y, fb - x
    if fa <= 0 or fb <= 0:
        return (0, 0, False, False, 3 if fa <= 0 and fb <= 0 else (1 if fb <= 0 else 2))
    if x == y:  # a tie: both test at once
        if oa == ROUTED or ob == ROUTED:
            return (0, 0, False, False, 3 if oa == ob else (2 if oa == ROUTED else 1))
        if oa == BACK and ob == BACK:
            return (0, 0, False, False, 3)
        if BACK in (oa, ob):
            return (fa, fb, oa == BACK, ob == BACK, 0)
        return (fa, fb, oa == SHAKEN, ob == SHAKEN, 0)
    a_lost = y > x
    lo, wo = (oa, ob) if a_lost else (ob, oa)
    if lo == ROUTED:
        return (0, 0, False, False, 2 if a_lost else 1)
    if lo == BACK:
        l_sh, w_sh = True, False
    elif wo == ROUTED:
        return (0, 0, False, False, 1 if a_lost else 2)
    elif wo == BACK:
        l_sh, w_sh = False, True
    else:
        l_sh, w_sh = lo == SHAKEN, wo == SHAKEN
    return (fa, fb, l_sh, w_sh, 0) if a_lost else (fa, fb, w_sh, l_sh, 0)


class _Rules:
    """The engine's situations for a frontal duel without charges (every round alike)."""

    def __init__(self, first: str, second: str) -> None:
        self.a, self.b = itd.PLUGIN.side(first), itd.PLUGIN.side(second)

    def melee(self, attacker: str, figures: int, shaken: bool) -> MeleeSituation:
        me, them = (self.a, self.b) if attacker == "A" else (self.b, self.a)
        return MeleeSituation(me.troops(shaken=shaken), them.troops(), front=min(figures, me.figures))

    def test(self, who: str, own: int, opp: int, shaken: bool) -> MoraleSituation:
        me, them = (self.a, self.b) if who == "A" else (self.b, self.a)
        return MoraleSituation(
            quality=me.unit.quality_level,
            shaken=shaken,
            casualties=me.figures - own,
            original=me.figures,
            outnumber_double=own >= 2 * opp,
            deeper_ranks=opp // them.front > own // me.front,
            shieldwall=me.shieldwall,
        )


def _ice(d: Any) -> icepool.Die:
    return icepool.Die(dict(d.items()))


def _icepool_duel(first: str, second: str) -> icepool.Die:
    r = _Rules(first, second)

    def step(fa: int, fb: int, sa: bool, sb: bool, res: int) -> Any:
        if res:
            return (fa, fb, sa, sb, res)
        xs, ys = _ice(r.melee("A", fa, sa).dist()), _ice(r.melee("B", fb, sb).dist())

        def after(x: int, y: int) -> Any:
            fa2, fb2 = fa - y, fb - x
            if fa2 <= 0 or fb2 <= 0:
                return _outcome(fa, fb, sa, sb, x, y, 0, 0)
            ma = _ice(r.test("A", fa2, fb2, sa).dist())
            mb = _ice(r.test("B", fb2, fa2, sb).dist())
            return icepool.map(lambda oa, ob: _outcome(fa, fb, sa, sb, x, y, oa, ob), ma, mb)

        return icepool.map(after, xs, ys)

    start = icepool.Die([(r.a.figures, r.b.figures, False, False, 0)])
    return icepool.map(step, start, star=True, repeat="inf")


@pytest.mark.parametrize(
    ("first", "second"), [("8 CAF average", "8 CPF average"), ("6 LAM elite", "8 CUF levy")]
)
def test_duel_matches_icepool_exactly(first: str, second: str) -> None:
    d = odds.duel(RS, first, second, exact=True)
    res = _icepool_duel(first, second).marginals[4]
    den = res.denominator()
    assert d.first_wins == Fraction(res.quantity(1), den)
    assert d.second_wins == Fraction(res.quantity(2), den)
    assert d.draw == Fraction(res.quantity(3), den)
    assert d.undecided == 0
    assert d.first_wins + d.second_wins + d.draw == 1
    assert sum(d.turns.values()) + d.turns_beyond == 1


def _simulate(
    first: str, second: str, sets: dict[str, str], n: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Seeded duels through the engine's samplers (MeleeSituation.roll, MoraleSituation.roll), with
    the opening charge of ``sets`` (charging, impetuous) in the first round."""
    a, b = itd.PLUGIN.side(first), itd.PLUGIN.side(second)
    charging, imp = sets.get("charging") == "yes", sets.get("impetuous") == "yes"
    warband = imp and a.unit.has("warband")
    cache: dict[tuple[Any, ...], Any] = {}

    def melee(att: str, figures: int, shaken: bool, round1: bool) -> Any:
        key = ("m", att, figures, shaken, round1)
        if key not in cache:
            dis = warband and not round1
            if att == "A":
                cache[key] = MeleeSituation(
                    a.troops(shaken=shaken, disordered=dis),
                    b.troops(),
                    front=min(figures, a.front) if dis else figures,
                    charging=charging and round1,
                    impetuous=imp and round1,
                )
            else:
                cache[key] = MeleeSituation(b.troops(shaken=shaken), a.troops(disordered=dis), front=figures)
        return cache[key]

    def test(who: str, own: int, opp: int, shaken: bool, later: bool, initial: bool = False) -> Any:
        key = ("t", who, own, opp, shaken, later, initial)
        if key not in cache:
            me, them = (a, b) if who == "A" else (b, a)
            dis = who == "A" and warband and later
            cache[key] = MoraleSituation(
                quality=me.unit.quality_level,
                shaken=shaken,
                disordered=dis,
                casualties=me.figures - own,
                original=me.figures,
                outnumber_double=not initial and own >= 2 * opp,
                deeper_ranks=not initial and opp // them.front > own // me.front,
                shieldwall=me.shieldwall and not dis,
            )
        return cache[key]

    rng = np.random.default_rng(seed)
    results = np.zeros(n, dtype=int)
    turns = np.zeros(n, dtype=int)
    for i in range(n):
        fa, fb, sa, sb, res, t = a.figures, b.figures, False, False, 0, 0
        if imp:
            o = int(test("B", fb, fa, False, False, initial=True).roll(rng).outcome)
            if o == ROUTED:
                res, t = 1, 1
            sb = o in (SHAKEN, BACK)
        while not res:
            t += 1
            x = melee("A", fa, sa, t == 1).roll(rng).hits
            y = melee("B", fb, sb, t == 1).roll(rng).hits
            fa2, fb2 = fa - y, fb - x
            oa = ob = 0
            if fa2 > 0 and fb2 > 0:
                oa = int(test("A", fa2, fb2, sa, t > 1).roll(rng).outcome)
                ob = int(test("B", fb2, fa2, sb, t > 1).roll(rng).outcome)
            fa, fb, sa, sb, res = _outcome(fa, fb, sa, sb, x, y, oa, ob)
        results[i], turns[i] = res, t
    return results, turns


@pytest.mark.parametrize(
    ("first", "second", "sets"),
    [
        ("12 CAF average", "12 CPF average shieldwall", {}),
        ("12 LAM elite", "16 CPF levy", {"charging": "yes", "impetuous": "yes"}),
        ("12 CUF fanatic warband", "12 CAF average", {"charging": "yes", "impetuous": "yes"}),
    ],
)
def test_duel_agrees_with_seeded_monte_carlo(first: str, second: str, sets: dict[str, str]) -> None:
    """4,000 seeded duels: P(first), P(second), P(draw), each P(round = T) and the mean within 4 SE."""
    d = odds.duel(RS, first, second, sets, exact=True)
    n = 4_000
    res, turns = _simulate(first, second, sets, n, seed=len(first) * 7 + len(second))
    for code, p in ((1, d.first_wins), (2, d.second_wins), (3, d.draw)):
        pf = float(p)
        assert abs(float(np.mean(res == code)) - pf) <= 4 * math.sqrt(pf * (1 - pf) / n) + 1e-9, code
    for t, p in d.turns.items():
        pf = float(p)
        assert abs(float(np.mean(turns == t)) - pf) <= 4 * math.sqrt(pf * (1 - pf) / n) + 1e-9, t
    mean = float(d.mean_turns_within_horizon)
    var = float(sum(p * (t - d.mean_turns_within_horizon) ** 2 for t, p in d.turns.items()))
    assert abs(turns.mean() - mean) <= 4 * math.sqrt(var / n) + 1e-9


def test_mirror_duel_is_symmetric_and_never_ends_only_when_it_cannot() -> None:
    d = odds.duel(RS, "12 CAF average", "12 CAF average", exact=True)
    assert d.first_wins == d.second_wins and d.draw > 0
    assert d.undecided == 0 and 0 < d.turns_beyond < Fraction(1, 10**15)


# --- SPEC, errors, CLI --------------------------------------------------------------------------


def test_spec_grammar() -> None:
    s = itd.parse_spec("8 lmm ELITE, cross-trained javelin")
    assert s == itd.ITDSpec(8, "LMM", "elite", "javelin", True, ())
    assert s.text == "8 LMM elite cross-trained javelin"
    assert itd.PLUGIN.side("16 LUF levy longbow").unit.missile_weapon == "longbow"
    assert itd.PLUGIN.side("16 LUF levy bow").unit.type == "missile"


@pytest.mark.parametrize(
    ("call", "needle"),
    [
        (lambda: odds.attack(RS, "CAF average", "12 CAF average"), "too short"),
        (lambda: odds.attack(RS, "x CAF average", "12 CAF average"), "must start with the number of figures"),
        (lambda: odds.attack(RS, "12 CXF average", "12 CAF average"), "density C/L/O + armour U/P/A/M/E"),
        (
            lambda: odds.attack(RS, "12 CAF heroic", "12 CAF average"),
            "unknown quality 'heroic'; valid choices",
        ),
        (lambda: odds.attack(RS, "12 CAF average axe", "12 CAF average"), "unknown unit option 'axe'"),
        (lambda: odds.attack(RS, "12 CAF average bow sling", "12 CAF average"), "one missile weapon only"),
        (lambda: odds.attack(RS, "12 LAF average shieldwall", "12 CAF average"), "only close order foot"),
        (lambda: odds.attack(RS, "12 CAF average", "12 CAF average", {"mode": "shoot"}), "cannot shoot"),
        (lambda: odds.attack(RS, "12 CAF average", "12 CAF average", {"impetuous": "yes"}), "impetuously"),
        (lambda: odds.attack(RS, "12 CAF average", "12 CAF average", {"range": "long"}), "shooting only"),
        (
            lambda: odds.attack(
                RS, "8 LUM average javelin", "12 CAF average", {"mode": "shoot", "range": "long"}
            ),
            "no long range",
        ),
        (lambda: odds.morale(RS, "12 CAF average", {"casualties": 13}), "more than the unit's 12 figures"),
        (
            lambda: odds.morale(RS, "12 CAF average", {"supported": "yes", "unsupported": "yes"}),
            "both supported and unsupported",
        ),
        (lambda: odds.morale(RS, "12 CAF average", {"charging": "yes"}), "valid choices: uphill, shaken"),
        (lambda: odds.matrix(RS, {"casualties": 3}, exact=True), "valid choices: types, charge"),
    ],
)
def test_errors(call: Any, needle: str) -> None:
    with pytest.raises(ShieldwallError) as exc:
        call()
    assert needle in str(exc.value)


def test_cli_json(app: typer.Typer) -> None:
    import json

    r = CliRunner().invoke(
        app, ["odds", "morale", RS, "--unit", "12 CAF average shieldwall", "--set", "casualties=6", "--json"]
    )
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert set(obj["outcomes"]) == {"passed", "shaken", "driven_back", "routed"}
    for v in obj["outcomes"].values():
        assert set(v) >= {"probability", "p"} and abs(float(Fraction(v["probability"])) - v["p"]) < 1e-12
    r = CliRunner().invoke(
        app,
        ["odds", "duel", RS, "--first", "8 CAF average", "--second", "8 CPF average", "--json", "--exact"],
    )
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert set(obj) >= {"first_wins", "p_first_wins", "second_wins", "p_second_wins", "turns", "draw"}
    total = Fraction(obj["first_wins"]) + Fraction(obj["second_wins"]) + Fraction(obj["draw"])
    assert total == 1
    r = CliRunner().invoke(
        app, ["odds", "attack", RS, "--attacker", "12 CAF average", "--target", "12 CAF average", "--json"]
    )
    assert [d["value"] for d in json.loads(r.stdout)["distribution"]] == [0, 1, 2, 3]
    r = CliRunner().invoke(app, ["odds", "morale", RS, "--unit", "12 CAF average", "--set", "shaken=maybe"])
    assert r.exit_code == 2 and "valid choices: yes, no" in r.stderr
