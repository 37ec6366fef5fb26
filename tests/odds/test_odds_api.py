"""The odds API: plug-in registry, settings parsing, SPEC grammar, the doctests, matrix properties."""

from __future__ import annotations

import dataclasses
import doctest
import importlib
from fractions import Fraction
from types import MappingProxyType

import pytest

from shieldwall import odds
from shieldwall.core.dice import Dist
from shieldwall.core.errors import ShieldwallError, UnknownName
from shieldwall.odds import base, results, settings
from shieldwall.rulesets.one_hour import odds as one_hour

RS = "one-hour-dark-ages"


@pytest.mark.parametrize(
    "module",
    [
        "shieldwall.odds",
        "shieldwall.odds.numbers",
        "shieldwall.odds.results",
        "shieldwall.odds.markov",
        "shieldwall.odds.exact_linear",
        "shieldwall.rulesets.one_hour.odds",
        "shieldwall.rulesets.into_the_dark.odds",
        "shieldwall.rulesets.into_the_dark.odds.spec",
        "shieldwall.rulesets.into_the_dark.odds.matrix",
        "shieldwall.rulesets.into_the_dark.odds.queries",
    ],
)
def test_doctests(module: str) -> None:
    """The documented examples (also run by ``pytest --doctest-modules`` on ``src/shieldwall/odds``
    and the rule systems' odds modules)."""
    res = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert res.attempted > 0 and res.failed == 0


def test_registry() -> None:
    assert odds.ruleset_ids()[0] == RS
    p = odds.get_plugin(RS)
    assert p is one_hour.PLUGIN and p.ruleset == RS
    assert set(p.commands) <= set(settings.COMMANDS)
    with pytest.raises(UnknownName, match="valid choices: one-hour-dark-ages"):
        odds.get_plugin("one-hour")


def test_odds_are_found_through_the_rule_system_plugins() -> None:
    """``get_plugin`` asks the registry: every rule system whose plugin names odds, in display order;
    one without odds, or whose reference names no plug-in of its own, is a one-line error."""
    from shieldwall import registry
    from shieldwall.core.game import RulesetInfo
    from shieldwall.plugin import PluginError, RuleSystem

    with_odds = [rid for rid, rs in registry.systems().items() if rs.odds is not None]
    assert odds.ruleset_ids() == with_odds and {RS, "into-the-dark"} <= set(with_odds)
    for rid in with_odds:
        assert odds.get_plugin(rid) is registry.get(rid).load("odds")

    def system(rid: str, odds_ref: str | None) -> RuleSystem:
        info = RulesetInfo(rid, "test rules", "tabletop", ("red", "blue"), "none", "a test")
        return RuleSystem(info=info, package="shieldwall", game="x:y", parameters="x:y", odds=odds_ref)

    plugins = (
        system("no-odds-rules", None),
        system("not-a-plugin", "shieldwall.odds.settings:COMMANDS"),
        system("borrowed-odds", "shieldwall.rulesets.one_hour.odds:PLUGIN"),
    )
    with registry.registered(*plugins):
        assert "no-odds-rules" not in odds.ruleset_ids()
        with pytest.raises(ShieldwallError) as err:
            odds.get_plugin("no-odds-rules")
        assert str(err.value) == (
            "rule system 'no-odds-rules' has no odds; rule systems with odds: "
            + ", ".join([*with_odds, "borrowed-odds", "not-a-plugin"])
        )
        with pytest.raises(
            PluginError, match="'shieldwall.odds.settings:COMMANDS' is a tuple, not an OddsPlugin"
        ):
            odds.get_plugin("not-a-plugin")
        with pytest.raises(PluginError, match="is the plug-in of 'one-hour-dark-ages'"):
            odds.get_plugin("borrowed-odds")
    with pytest.raises(UnknownName, match="unknown ruleset for odds 'no-odds-rules'"):
        odds.get_plugin("no-odds-rules")


def test_spec_grammar() -> None:
    assert one_hour.parse_spec("warriors") == one_hour.UnitSpec("warriors")
    assert one_hour.parse_spec(" Cavalry + Elite + Hero ").text == "cavalry+elite+hero"
    assert one_hour.parse_spec("skirmishers_bows+hero+levy") == one_hour.UnitSpec(
        "skirmishers-bows", "levy", True
    )
    for bad, msg in [
        ("", "empty unit SPEC"),
        ("knights", "unknown unit type 'knights'"),
        ("infantry+hero+hero", "+hero given twice"),
        ("infantry+elite+reluctant", "only get one change"),
        ("infantry+", "unknown unit option '+'"),
    ]:
        with pytest.raises(ShieldwallError, match=msg.replace("+", r"\+")):
            one_hour.parse_spec(bad)


def test_limits_follow_the_scenario_rules() -> None:
    """A change may not take the attack past +2/-2; a Hero is a personality, not a change."""
    with pytest.raises(ShieldwallError, match=r"melee attack would be \+3"):
        odds.attack(RS, "roundtable-knights+household", "infantry")
    with pytest.raises(ShieldwallError, match="melee attack would be -3"):
        odds.attack(RS, "mounted-servants+levy", "infantry")
    with pytest.raises(ShieldwallError, match=r"melee attack would be \+3"):
        odds.attack(RS, "warriors+household", "infantry", {"warriors-bonus": 2})
    assert odds.attack(RS, "roundtable-knights+hero", "cavalry").situation.modifier == 3
    assert odds.attack(RS, "warriors+household+hero", "cavalry").situation.modifier == 3


def test_settings_parsing() -> None:
    p = one_hour.PLUGIN
    s = p.parse_sets(["Facing=FLANK", "warriors_bonus=2"], "attack")
    assert (
        s["facing"] == "flank" and s["warriors-bonus"] == 2 and s["terrain"] == "open" and s["range"] is None
    )
    assert p.parse_sets({"dice": "d6"}, "matrix")["dice"] == "d6"
    assert "mode" not in p.parse_sets(None, "duel")
    with pytest.raises(ShieldwallError, match="given twice"):
        p.parse_sets(["facing=flank", "facing=rear"], "attack")
    with pytest.raises(UnknownName, match="'types'"):
        p.parse_sets(["types=all"], "attack")
    with pytest.raises(ShieldwallError, match="from 1 to 60"):
        p.parse_sets(["hit-limit=0"], "duel")


def test_range_is_checked_against_the_weapon() -> None:
    assert odds.attack(RS, "skirmishers-bows", "cavalry", ["mode=shoot", "range=12"]).mean == Fraction(3, 2)
    with pytest.raises(ShieldwallError, match="bows reach 12 inches"):
        odds.attack(RS, "skirmishers-bows", "cavalry", ["mode=shoot", "range=13"])


def test_matrix_properties() -> None:
    m = odds.matrix(RS, {"types": "all"}, exact=True)
    n = len(one_hour.ALL_TYPES)
    assert m.types == one_hour.ALL_TYPES
    for f in m.facings:
        for i in range(n):
            for j in range(n):
                mh, pw = m.mean_hits[f][i][j], m.first_wins[f][i][j]
                assert mh is not None and pw is not None
                assert mh == odds.attack(RS, m.types[i], m.types[j], {"facing": f}).mean
                assert 0 <= pw <= 1
        # striking first in a mirror match is an advantage
        for i in range(n):
            p = m.first_wins[f][i][i]
            assert p is not None and p > Fraction(1, 2)
    d = odds.duel(RS, "raiders", "cavalry-javelins", {"facing": "rear"}, exact=True)
    i, j = m.types.index("raiders"), m.types.index("cavalry-javelins")
    assert m.first_wins["rear"][i][j] == d.first_wins
    js = m.to_json()
    assert (
        js["first_wins"]["front"][i][j] == f"{m.first_wins['front'][i][j].numerator}/"
        f"{m.first_wins['front'][i][j].denominator}"
    )  # type: ignore[union-attr]


def test_an_opening_flank_charge_helps() -> None:
    front = odds.duel(RS, "warriors", "infantry", exact=True)
    flank = odds.duel(RS, "warriors", "infantry", {"facing": "flank"}, exact=True)
    assert flank.first_wins > front.first_wins
    assert any("opening charge" in d for d in flank.details)


def test_fast_result_constructors_equal_the_dataclasses() -> None:
    """``attack_odds`` / ``morale_odds`` (``results.positional``) build the frozen results themselves."""
    d = Dist({0: 1, 2: 3})
    args = ("r", "a", "t", MappingProxyType({}), d, None, None, "hits")
    a = results.attack_odds(*args)
    assert type(a) is results.AttackOdds and a == results.AttackOdds(*args)
    assert a.mean == Fraction(3, 2) and a.details == ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.unit = "x"  # type: ignore[misc]
    m = results.morale_odds("r", "u", {}, {"passed": Fraction(1)}, None, lambda: ("why",))
    assert type(m) is results.MoraleOdds and m.details == ("why",)
    with pytest.raises(TypeError, match="needs slots"):
        results.positional(base.OddsPlugin)  # type: ignore[type-var]


def test_one_hour_attack_is_memoised() -> None:
    """A repeated one-hour-dark-ages attack is answered from the plug-in's memo (settings given in any
    order or as text name the same question); a new one is computed afresh, equal."""
    p = one_hour.PLUGIN
    p.clear_memo()
    a = odds.attack(RS, "warriors", "infantry", {"facing": "flank", "terrain": "uphill"})
    assert odds.attack(RS, "warriors", "infantry", {"terrain": "uphill", "facing": "flank"}) is a
    assert isinstance(a.settings, MappingProxyType) and a.settings["facing"] == "flank"
    text = odds.attack(RS, "warriors", "infantry", ["facing=flank", "terrain=uphill"])
    assert odds.attack(RS, "warriors", "infantry", ["facing=flank", "terrain=uphill"]) is text
    p.clear_memo()
    again = odds.attack(RS, "warriors", "infantry", {"facing": "flank", "terrain": "uphill"})
    assert again is not a and again.probabilities == a.probabilities == text.probabilities
    assert again.details == a.details
