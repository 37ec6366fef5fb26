"""The army file format and every restriction of the text (errors name file, unit and rule)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from shieldwall.core.errors import DataError
from shieldwall.rulesets.into_the_dark.army import load_army, parse_army

from .helpers import army, army_dict, unit, unit_dict

ROOT = Path(__file__).resolve().parents[2]
ARMIES = ROOT / "scenarios" / "into-the-dark" / "armies"
BROKEN = ROOT / "tests" / "data" / "into_the_dark"


def refused(rule: str, *units: dict[str, Any], **top: Any) -> DataError:
    with pytest.raises(DataError) as info:
        parse_army(army_dict(*units, **top), "test.toml")
    err = info.value
    assert err.file == "test.toml"
    assert f"[rule into-the-dark:{rule}]" in err.reason, str(err)
    return err


# --- the example armies --------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(ARMIES.glob("*.toml")), ids=lambda p: p.name)
def test_army_examples_validate(path: Path) -> None:
    """Clause into-the-dark:troops.the-troops."""
    a = load_army(path)
    assert a.units and a.generals
    assert len(list(ARMIES.glob("*.toml"))) >= 3


def test_army_examples_cover_the_brief() -> None:
    saxon = load_army(ARMIES / "saxon-1066.toml")
    assert any(u.has("shieldwall") for u in saxon.units)
    norman = load_army(ARMIES / "norman-1066.toml")
    assert any(u.mounted for u in norman.units)
    assert {u.missile_weapon for u in norman.units} >= {"foot-bow", "heavy-crossbow"}
    welsh = load_army(ARMIES / "welsh-1282.toml")
    assert any(u.missile_weapon == "longbow" for u in welsh.units)
    assert any(u.has("skirmisher") for u in welsh.units)


# --- broken files: the error names file, unit and rule ---------------------------------------------


@pytest.mark.parametrize(
    ("name", "where", "rule"),
    [
        ("cross-trained-longbow.toml", 'units[1] "Yeomen"', "swat.longbow"),
        ("cross-trained-pike.toml", 'units[1] "Schiltron"', "swat.pike"),
        ("peasant-swat.toml", 'units[1] "Churls with bills"', "swat.swat"),
        ("loose-shieldwall.toml", 'units[1] "Loose warriors"', "swat.shieldwall"),
        ("mounted-warband.toml", 'units[1] "Riders"', "special-troops.warbands"),
        ("close-skirmisher.toml", 'units[1] "Slingers"', "special-troops.skirmishers"),
        ("bad-code.toml", 'units[1] "Tin men".code', "troops.troop-types"),
        ("unknown-division.toml", 'units[1] "Lost men"', "command.divisions"),
        ("no-general.toml", "generals", "command.generals"),
        ("over-limit.toml", "points_limit", "troops.choosing-your-army"),
    ],
)
def test_army_broken_files(name: str, where: str, rule: str) -> None:
    path = BROKEN / name
    with pytest.raises(DataError) as info:
        load_army(path)
    err = info.value
    assert err.file == str(path)
    assert err.field == where
    assert f"[rule into-the-dark:{rule}]" in err.reason
    assert "\n" not in str(err)


def test_army_not_toml() -> None:
    with pytest.raises(DataError, match="not valid TOML"):
        load_army(BROKEN / "not-toml.toml")


def test_army_missing_file() -> None:
    with pytest.raises(DataError, match="file not found"):
        load_army(BROKEN / "no-such-army.toml")


# --- the derived characteristics -----------------------------------------------------------------


def test_army_unit_code_letters() -> None:
    u = unit(code="LMM", quality="fanatic")
    assert (u.density, u.armour, u.category, u.mounted, u.quality_level) == ("L", "M", "M", True, 5)


def test_army_unit_ranks_from_frontage() -> None:
    u = unit(figures=13, frontage=6)
    assert (u.front, u.depth) == (6, 3)
    assert unit(figures=12, frontage=None, ranks=2).front == 6


def test_army_missile_weapon_resolution() -> None:
    """combat.missile-weapons: a mounted bow is a Mounted Bow; light crossbows are Foot Bows."""
    assert unit(code="LUM", type="missile", weapon="bow").missile_weapon == "mounted-bow"
    assert unit(code="LUF", type="missile", weapon="bow").missile_weapon == "foot-bow"
    assert unit(code="LUF", type="missile", options=["crossbow"]).missile_weapon == "foot-bow"
    assert unit(code="LUM", type="missile", options=["crossbow"]).missile_weapon == "mounted-bow"
    assert unit(code="LUF", type="missile", options=["longbow"]).missile_weapon == "longbow"
    assert unit(code="LUF", type="missile", options=["heavy-crossbow"]).missile_weapon == "heavy-crossbow"
    assert unit(code="LUM", type="missile", weapon="javelin").missile_weapon == "javelin"


def test_army_shields() -> None:
    """combat.shields / combat.missile-weapons: all troops carry shields unless otherwise stated; bow
    troops have none unless cross trained."""
    assert unit().has_shields
    assert not unit(options=["no-shield"]).has_shields
    assert not unit(code="LUF", type="missile", weapon="bow").has_shields
    assert unit(code="LUF", type="cross-trained", weapon="bow").has_shields
    assert unit(code="LUF", type="missile", weapon="sling").has_shields
    assert not unit(code="LUF", type="missile", options=["longbow"]).has_shields


def test_army_champion_is_open_order() -> None:
    u = unit(code="CAF", figures=1, frontage=None, options=["champion"])
    assert (u.code_density, u.density) == ("C", "O")


# --- one test per restriction ------------------------------------------------------------------------


def test_army_troop_types_melee_has_no_missile_weapon() -> None:
    refused("troops.troop-types", unit_dict(weapon="bow"))


def test_army_troop_types_missile_needs_weapon() -> None:
    refused("troops.troop-types", unit_dict(type="missile"))
    refused("troops.troop-types", unit_dict(type="cross-trained"))


def test_army_troop_quality_unknown() -> None:
    err = refused("troops.troop-quality", unit_dict(quality="heroic"))
    assert err.field == 'units[0] "Test unit".quality'


def test_army_formations_frontage_and_ranks_agree() -> None:
    refused("setup.formations", unit_dict(figures=12, frontage=6, ranks=3))
    refused("setup.formations", unit_dict(figures=4, frontage=6))


def test_army_unit_organisation_unique_names() -> None:
    refused("troops.unit-organisation", unit_dict(), unit_dict())


def test_army_missile_weapons_sling_is_foot_only() -> None:
    refused("combat.missile-weapons", unit_dict(code="LUM", type="missile", weapon="sling"))


def test_army_swat_longbow_not_cross_trained() -> None:
    refused("swat.longbow", unit_dict(code="LUF", type="cross-trained", weapon="bow", options=["longbow"]))


def test_army_swat_longbow_foot_only() -> None:
    refused("swat.longbow", unit_dict(code="LUM", type="missile", weapon="bow", options=["longbow"]))


def test_army_swat_longbow_needs_bow() -> None:
    refused("swat.longbow", unit_dict(code="LUF", type="missile", weapon="sling", options=["longbow"]))


def test_army_swat_one_bow_option() -> None:
    refused("swat.swat", unit_dict(code="LUF", type="missile", weapon="bow", options=["longbow", "crossbow"]))


def test_army_swat_pike_not_cross_trained_nor_missile() -> None:
    refused("swat.pike", unit_dict(type="cross-trained", weapon="javelin", options=["pike"]))
    refused("swat.pike", unit_dict(type="missile", weapon="javelin", options=["pike"]))


def test_army_swat_polearm_needs_melee_weapons() -> None:
    refused("swat.polearm", unit_dict(code="LUF", type="missile", weapon="bow", options=["polearm"]))
    refused("swat.polearm", unit_dict(options=["polearm", "pike"]))
    assert unit(type="cross-trained", weapon="javelin", options=["polearm"]).has("polearm")


def test_army_swat_crossbow_arms_missile_troops() -> None:
    refused("troops.troop-types", unit_dict(options=["crossbow"]))
    refused("swat.crossbow", unit_dict(code="LUM", type="missile", weapon="bow", options=["heavy-crossbow"]))


@pytest.mark.parametrize("option", ["longbow", "polearm", "crossbow", "heavy-crossbow", "pike", "shieldwall"])
def test_army_swat_peasants_may_not_use_swat(option: str) -> None:
    missile = option in ("longbow", "crossbow", "heavy-crossbow")
    refused(
        "swat.swat",
        unit_dict(
            code="CUF",
            quality="peasant",
            type="missile" if missile else "melee",
            weapon="bow" if missile else None,
            options=[option],
        ),
    )


def test_army_swat_shieldwall_close_order_foot_only() -> None:
    refused("swat.shieldwall", unit_dict(code="LPF", options=["shieldwall"]))
    refused("swat.shieldwall", unit_dict(code="CPM", options=["shieldwall"]))
    refused(
        "swat.shieldwall", unit_dict(code="CAF", figures=1, frontage=None, options=["champion", "shieldwall"])
    )
    assert unit(code="CPF", options=["shieldwall"]).has("shieldwall")


def test_army_swat_shieldwall_needs_shields() -> None:
    refused("swat.shieldwall", unit_dict(options=["shieldwall", "no-shield"]))
    refused("swat.shieldwall", unit_dict(type="missile", weapon="bow", options=["shieldwall"]))


def test_army_special_troops_warband_foot_only() -> None:
    refused("special-troops.warbands", unit_dict(code="LUM", options=["warband"]))
    assert unit(code="LUF", options=["warband"]).has("warband")


def test_army_special_troops_skirmishers_open_order_missile_only() -> None:
    refused(
        "special-troops.skirmishers",
        unit_dict(code="LUF", type="missile", weapon="bow", options=["skirmisher"]),
    )
    refused("special-troops.skirmishers", unit_dict(code="OUF", options=["skirmisher"]))
    refused(
        "special-troops.skirmishers",
        unit_dict(code="OUF", type="cross-trained", weapon="bow", options=["skirmisher"]),
    )
    assert unit(code="OUM", type="missile", weapon="bow", options=["skirmisher"]).has("skirmisher")


def test_army_special_troops_peasant_option_needs_peasant_quality() -> None:
    refused("special-troops.peasants", unit_dict(options=["peasant"]))
    assert unit(quality="peasant", options=["peasant"]).peasant


def test_army_special_troops_champion_single_figure() -> None:
    refused("special-troops.champions", unit_dict(figures=2, frontage=2, options=["champion"]))


def test_army_special_troops_option_listed_twice() -> None:
    refused("special-troops.special-troops", unit_dict(options=["polearm", "polearm"]))


def test_army_special_troops_unknown_option() -> None:
    refused("special-troops.special-troops", unit_dict(options=["wedge"]))


def test_army_command_generals_at_least_one() -> None:
    refused("command.generals", generals=[])


def test_army_command_generals_one_commanding() -> None:
    gens = [
        {"name": "A", "rating": "good", "division": "Main"},
        {"name": "B", "rating": "poor", "division": "X"},
    ]
    refused("command.generals", generals=gens)
    gens[0]["commanding"] = True
    a = army(generals=gens)
    assert a.commanding_general.name == "A"


def test_army_command_generals_rating() -> None:
    refused("command.generals", generals=[{"name": "A", "rating": "great", "division": "Main"}])


def test_army_command_divisions_one_general_each() -> None:
    gens = [
        {"name": "A", "rating": "good", "division": "Main", "commanding": True},
        {"name": "B", "rating": "poor", "division": "Main"},
    ]
    refused("command.divisions", generals=gens)


def test_army_command_divisions_every_unit_has_a_general() -> None:
    refused("command.divisions", unit_dict(division="Elsewhere"))


def test_army_command_champion_general_must_be_a_champion() -> None:
    refused(
        "command.champion-generals",
        generals=[{"name": "A", "rating": "good", "division": "Main", "champion": "Test unit"}],
    )
    refused(
        "command.champion-generals",
        generals=[{"name": "A", "rating": "good", "division": "Main", "champion": "Nobody"}],
    )


def test_army_command_champion_general_has_no_mounted_flag() -> None:
    refused(
        "command.champion-generals",
        unit_dict(name="Hero", code="OAF", figures=1, frontage=None, options=["champion"]),
        generals=[
            {"name": "Hero", "rating": "good", "division": "Main", "champion": "Hero", "mounted": True}
        ],
    )


def test_army_command_general_code_lmm_or_lmf() -> None:
    a = army(generals=[{"name": "A", "rating": "good", "division": "Main", "mounted": False}])
    assert a.generals[0].code == "LMF"
    assert army().generals[0].code == "LMM"


def test_army_choosing_your_army_points_limit() -> None:
    refused("troops.choosing-your-army", points_limit=50)
    assert army(points_limit=128).points_limit == 128


def test_army_unknown_field_names_the_unit() -> None:
    with pytest.raises(DataError) as info:
        parse_army(army_dict(unit_dict(armour="A")), "x.toml")
    assert info.value.field == 'units[0] "Test unit".armour'


def test_army_divisions_grouping() -> None:
    a = army(unit_dict(name="A"), unit_dict(name="B"))
    assert [u.name for u in a.divisions()["Main"]] == ["A", "B"]
