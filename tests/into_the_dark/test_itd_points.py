"""Point Cost of Troops (troops.troop-cost, troops.weapon-cost, troops.unit-cost, troops.cost-examples),
champions, SWAT costs and generals."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from shieldwall.rulesets.into_the_dark.army import load_army
from shieldwall.rulesets.into_the_dark.points import army_cost, general_cost, troop_cost, unit_cost

from .helpers import army, unit, unit_dict

ARMIES = Path(__file__).resolve().parents[2] / "scenarios" / "into-the-dark" / "armies"


# --- the three worked examples of "Point Cost of Troops" ------------------------------------------


def test_points_worked_example_town_militia_44() -> None:
    """Clause into-the-dark:troops.cost-examples."""
    u = unit(name="Town Militia", code="CUF", quality="levy", figures=12, frontage=6)
    assert troop_cost(u) == 2
    row = unit_cost(u)
    assert row.command == 20
    assert row.points == 44


def test_points_worked_example_knight_242() -> None:
    """Clause into-the-dark:troops.cost-examples."""
    u = unit(name="Knight", code="LMM", quality="fanatic", figures=12, frontage=6)
    assert troop_cost(u) == 16
    assert unit_cost(u).points == 242


def test_points_worked_example_combat_archer_160() -> None:
    """Clause into-the-dark:troops.cost-examples."""
    u = unit(
        name="Combat Archer",
        code="LPF",
        quality="elite",
        type="cross-trained",
        weapon="bow",
        figures=12,
        frontage=6,
    )
    assert troop_cost(u) == 10
    assert unit_cost(u).points == 160


def test_points_champion_elite_chainmail_60() -> None:
    """special-troops.champions: "an elite champion (quality 4) in chainmail (armour 2) would cost 60"."""
    u = unit(name="Champion", code="OAF", quality="elite", figures=1, frontage=None, options=["champion"])
    row = unit_cost(u)
    assert row.points == 60
    assert row.command == 0
    assert row.kind == "champion"


# --- each clause ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("quality", "armour", "cost"),
    [("peasant", "U", 1), ("levy", "P", 3), ("average", "A", 5), ("elite", "M", 7), ("fanatic", "E", 9)],
)
def test_points_troop_cost_quality_plus_armour(quality: str, armour: str, cost: int) -> None:
    """Clause into-the-dark:troops.troop-cost."""
    assert troop_cost(unit(code=f"C{armour}F", quality=quality)) == cost


def test_points_troop_cost_mounted_doubles() -> None:
    """Clause into-the-dark:troops.troop-cost."""
    assert troop_cost(unit(code="LAM", quality="average")) == 10


def test_points_weapon_cost_cross_trained_doubles() -> None:
    """Clause into-the-dark:troops.weapon-cost."""
    assert troop_cost(unit(code="LPF", type="cross-trained", weapon="javelin")) == 8
    assert troop_cost(unit(code="LPM", type="cross-trained", weapon="bow")) == 16


def test_points_weapon_cost_first_weapon_free() -> None:
    """Clause into-the-dark:troops.weapon-cost."""
    assert troop_cost(unit(code="LPF", type="missile", weapon="sling")) == 4
    assert troop_cost(unit(code="LPF", type="missile", weapon="bow", options=["crossbow"])) == 4
    assert troop_cost(unit(code="LPF", type="missile", weapon="bow", options=["heavy-crossbow"])) == 4
    assert troop_cost(unit(code="CPF", options=["polearm"])) == 4


def test_points_swat_longbow_one_and_a_half() -> None:
    assert troop_cost(unit(code="LPF", type="missile", weapon="bow", options=["longbow"])) == 6
    assert troop_cost(unit(code="LUF", type="missile", weapon="bow", options=["longbow"])) == Fraction(9, 2)


def test_points_swat_pike_one_and_a_half() -> None:
    assert troop_cost(unit(code="CPF", options=["pike"], figures=16, frontage=4)) == 6
    assert troop_cost(unit(code="CUF", quality="levy", options=["pike"])) == 3


def test_points_swat_shieldwall_one_per_figure() -> None:
    u = unit(code="CAF", quality="elite", options=["shieldwall"])
    assert troop_cost(u) == 7
    assert unit_cost(u).points == 12 * 7 + 40


def test_points_ruling_shieldwall_added_after_multipliers() -> None:
    u = unit(code="CPF", type="cross-trained", weapon="javelin", options=["shieldwall"])
    assert troop_cost(u) == (3 + 1) * 2 + 1


def test_points_ruling_half_point_rounds_up_on_unit_total() -> None:
    u = unit(code="LUF", type="missile", weapon="bow", options=["longbow"], figures=11, frontage=6)
    row = unit_cost(u)
    assert row.troop_cost == Fraction(9, 2)
    assert row.points == 80  # 49.5 + 30 -> 80
    assert row.steps[-1].name == "round the half point up"
    even = unit_cost(unit(code="LUF", type="missile", weapon="bow", options=["longbow"], figures=12))
    assert even.points == 54 + 30


def test_points_unit_cost_command_is_quality_times_ten() -> None:
    for q, level in (("peasant", 1), ("levy", 2), ("average", 3), ("elite", 4), ("fanatic", 5)):
        row = unit_cost(unit(code="CUF", quality=q, figures=4, frontage=4))
        assert row.command == 10 * level
        assert row.points == 4 * level + 10 * level


def test_points_champion_mounted_and_no_command() -> None:
    u = unit(code="OMM", quality="fanatic", figures=1, frontage=None, options=["champion"])
    assert unit_cost(u).points == (5 + 3) * 2 * 10


def test_points_general_25_per_rating_level() -> None:
    # into-the-dark:command.generals.points
    a = army(
        generals=[
            {"name": "P", "rating": "poor", "division": "Main", "commanding": True},
            {"name": "A", "rating": "average", "division": "Other"},
            {"name": "G", "rating": "good", "division": "Third"},
        ]
    )
    assert [general_cost(g).points for g in a.generals] == [25, 50, 75]


def test_points_champion_general_adds_rating_points() -> None:
    a = army(
        unit_dict(name="Hero", code="OAF", quality="elite", figures=1, frontage=None, options=["champion"]),
        generals=[{"name": "Hero", "rating": "good", "division": "Main", "champion": "Hero"}],
    )
    costed = army_cost(a)
    assert [(r.name, r.kind, r.points) for r in costed.rows] == [("Hero", "champion-general", 60 + 75)]
    assert costed.total == 135


def test_points_army_total_is_sum_of_rows() -> None:
    """Clause into-the-dark:troops.point-costs."""
    a = army(unit_dict(name="A"), unit_dict(name="B", code="LAM", quality="elite"))
    c = army_cost(a)
    assert c.total == 50 + (4 * 12 + 30) + (12 * 12 + 40)
    d = c.to_dict()
    assert set(d) == {"units", "total"}
    assert d["total"] == sum(u["points"] for u in d["units"])


def test_points_breakdown_steps_cite_clauses() -> None:
    row = unit_cost(unit(code="LMM", quality="fanatic"))
    rules = [s["rule"] for s in row.to_dict()["breakdown"]]
    assert rules == [
        "into-the-dark:troops.troop-quality",
        "into-the-dark:troops.armour",
        "into-the-dark:troops.category",
        "into-the-dark:troops.unit-cost",
        "into-the-dark:troops.unit-cost",
    ]


@pytest.mark.parametrize(
    ("name", "total"),
    [("saxon-1066.toml", 859), ("norman-1066.toml", 949), ("welsh-1282.toml", 769), ("viking-865.toml", 610)],
)
def test_points_example_armies(name: str, total: int) -> None:
    assert army_cost(load_army(ARMIES / name)).total == total


def test_points_unit_cost_kept_per_entry_is_the_unit_cost_of_every_built_in_unit() -> None:
    """Clause into-the-dark:troops.unit-cost: ``unit_points`` (kept per army entry, for the
    end-of-battle count the search asks at every playout's end) is ``unit_cost(...).points`` for
    every unit of the built-in scenarios, and for two entries equal by value but built apart."""
    from shieldwall.io.scenarios import load_game
    from shieldwall.rulesets.into_the_dark.points import unit_points

    seen = 0
    for scen in ("into-the-dark/senlac", "into-the-dark/wye-fords"):
        for u in load_game(scen).new_state(0).units.values():
            assert unit_points(u.spec) == unit_cost(u.spec).points
            seen += 1
    assert seen > 10
    a = unit(name="Knight", code="LMM", quality="fanatic", figures=12, frontage=6)
    b = unit(name="Knight", code="LMM", quality="fanatic", figures=10, frontage=5)
    assert (unit_points(a), unit_points(b)) == (unit_cost(a).points, unit_cost(b).points) == (242, 210)
