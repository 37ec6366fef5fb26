"""The data tables against the text: every value and its clause."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from shieldwall.core.dice import D6, pool
from shieldwall.core.errors import DataError
from shieldwall.rulesets.into_the_dark import profiles
from shieldwall.rulesets.into_the_dark.clauses import CLAUSES


def test_data_all_files_load() -> None:
    profiles.load_all()


def _clauses(node: object) -> list[str]:
    out: list[str] = []
    if isinstance(node, dict):
        if "clause" in node:
            out.append(node["clause"])
        for v in node.values():
            out += _clauses(v)
    return out


def test_data_every_row_cites_a_known_clause() -> None:
    for path in sorted(profiles.DATA.glob("*.toml")):
        if path.name == "into-the-dark-types.toml":  # the odds matchup table's types, not rules
            continue
        found = _clauses(tomllib.loads(path.read_text()))
        assert found, path.name
        assert set(found) <= set(CLAUSES), (path.name, set(found) - set(CLAUSES))


def test_troop_quality_levels() -> None:
    """troops.troop-quality, morale.morale-levels, special-troops.peasants."""
    q = profiles.qualities()
    assert {k: v.level for k, v in q.items()} == {
        "peasant": 1,
        "levy": 2,
        "average": 3,
        "elite": 4,
        "fanatic": 5,
    }
    assert q["peasant"].clause == "special-troops.peasants"


def test_armour_to_hit_and_cost() -> None:
    """combat.armour and troops.armour."""
    a = profiles.armour_classes()
    assert {k: (v.hit_on, v.cost) for k, v in a.items()} == {
        "U": (3, 0),
        "P": (4, 1),
        "A": (5, 2),
        "M": (6, 3),
        "E": (7, 4),
    }


def test_troop_types_density_category_role() -> None:
    """Clause into-the-dark:troops.density."""
    tt = profiles.troop_types()
    assert set(tt.density) == {"C", "L", "O"}
    assert {k: v.cost_multiplier for k, v in tt.category.items()} == {"F": 1, "M": 2}
    assert {k: v.cost_multiplier for k, v in tt.role.items()} == {
        "melee": 1,
        "missile": 1,
        "cross-trained": 2,
    }


@pytest.mark.parametrize(
    ("d", "c", "move", "dice"),
    [
        ("C", "F", 6, 3),
        ("L", "F", 8, 3),
        ("O", "F", 8, 3),
        ("C", "M", 8, 4),
        ("L", "M", 12, 4),
        ("O", "M", 16, 5),
    ],
)
def test_movement_distances(d: str, c: str, move: int, dice: int) -> None:
    row = profiles.movement_for(d, c, "A")  # type: ignore[arg-type]
    assert (row.move, row.rout_dice) == (move, dice)
    assert row.clause == "movement.distances"


@pytest.mark.parametrize(
    ("d", "c", "move", "dice"),
    [("C", "F", 4, 2), ("O", "F", 4, 2), ("L", "M", 8, 3), ("O", "M", 8, 3), ("C", "M", 8, 3)],
)
def test_movement_encased_limit(d: str, c: str, move: int, dice: int) -> None:
    row = profiles.movement_for(d, c, "E")  # type: ignore[arg-type]
    assert (row.move, row.rout_dice) == (move, dice)
    assert row.clause == "movement.encased"


def test_movement_shieldwall_four_inches() -> None:
    assert profiles.movement_table().shieldwall.move == 4


def test_movement_rout_distance_dist_is_sum_of_d6() -> None:
    assert profiles.rout_distance_dist("O", "M", "U") == pool(D6, 5)
    assert profiles.rout_distance_dist("C", "F", "E") == pool(D6, 2)


def test_basing_wrg_and_gw() -> None:
    """Clause into-the-dark:troops.basing."""
    b = profiles.basing()
    assert b.wrg.base_widths_mm == [60, 75]
    assert b.wrg.figures_per_base == {"C": 4, "L": 3, "O": 2}
    assert b.gw.width_per_figure_mm == {"C": 20, "L": 25, "O": 40}


def test_missile_weapons_ranges() -> None:
    """combat.missile-ranges, swat.longbow, swat.crossbow."""
    # also exercises into-the-dark:swat.longbow.close
    w = profiles.missile_weapons()
    assert {k: (v.close, v.long) for k, v in w.items()} == {
        "foot-bow": (6, 18),
        "mounted-bow": (6, 12),
        "sling": (6, 12),
        "javelin": (6, None),
        "longbow": (8, 24),
        "heavy-crossbow": (6, 24),
    }
    assert {k for k, v in w.items() if v.close_bonus} == {"longbow", "heavy-crossbow"}
    assert [k for k, v in w.items() if not v.move_and_fire] == ["heavy-crossbow"]


def test_missile_weapons_shields_rules() -> None:
    w = profiles.missile_weapons()
    assert {k for k, v in w.items() if v.shields == "always"} == {"sling", "javelin"}


def test_costs_table() -> None:
    c = profiles.costs()
    assert (c.longbow.value, c.pike.value, c.shieldwall.value) == (1.5, 1.5, 1)
    assert (c.command.value, c.champion.value, c.general.value) == (10, 10, 25)


def test_command_ratings() -> None:
    assert {k: v.rating for k, v in profiles.command().ratings.items()} == {
        "poor": 1,
        "average": 2,
        "good": 3,
    }


def test_champion_rules() -> None:
    ch = profiles.special().champion
    assert (ch.density, ch.figures, ch.hits_foot, ch.hits_mounted, ch.dice, ch.dice_wounded) == (
        "O",
        1,
        2,
        3,
        2,
        1,
    )


def test_combat_tables() -> None:
    c = profiles.combat_tables()
    assert (
        c.dice.figures_per_die,
        c.dice.long_range_figures_per_die,
        c.dice.doubled_figures_per_die,
        c.dice.both_doubled_figures_per_die,
    ) == (4, 8, 2, 1)
    assert (c.ranks.ranks, c.ranks.pike_ranks, c.ranks.disordered_melee_ranks) == (2, 4, 1)
    assert (c.natural.always_miss, c.natural.always_hit) == (1, 6)


def test_parse_code() -> None:
    assert profiles.parse_code("LMM") == ("L", "M", "M")
    with pytest.raises(ValueError, match="density C/L/O"):
        profiles.parse_code("LMX")


def test_data_bad_file_names_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "armour.toml").write_text(
        '[U]\nname = "x"\nhit_on = 3\ncost = 0\nclause = "nope"\ncost_clause = "troops.armour"\ntext = ""\n'
    )
    monkeypatch.setattr(profiles, "DATA", tmp_path)
    profiles.armour_classes.cache_clear()
    try:
        with pytest.raises(DataError, match="armour.toml"):
            profiles.armour_classes()
    finally:
        monkeypatch.undo()
        profiles.armour_classes.cache_clear()
