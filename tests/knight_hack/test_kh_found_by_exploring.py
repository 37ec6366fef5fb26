"""Knight Hack faults found by an exploratory test, each named after the clause it covers where
there is one: ``Result.losses`` counts units, not figures (R37, R55); the odds refuse a flank and
rear attack at once (R56) and a negative target number T (R57); a count in an army, scenario or
table file is a whole number, never ``true`` or ``12.0``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.knight_hack.test_kh_data import _edit, tables_dir  # noqa: F401 (a fixture)
from tests.knight_hack.test_kh_game import bourg, game, play_random, unit

from shieldwall.cli import run
from shieldwall.core.errors import DataError, ShieldwallError
from shieldwall.rulesets.knight_hack.army import load_army
from shieldwall.rulesets.knight_hack.bots import ScriptedBot
from shieldwall.rulesets.knight_hack.game import KnightHackGame
from shieldwall.rulesets.knight_hack.odds import PLUGIN
from shieldwall.rulesets.knight_hack.phase_melee import _check_end
from shieldwall.rulesets.knight_hack.state import KnightHackState
from shieldwall.rulesets.knight_hack.tables import load_tables

# --- Result.losses: units lost by type (R37, R55) -------------------------------------------------


def _lost_units(s: KnightHackState) -> dict[str, dict[str, int]]:
    """The units each side lost, by type, as R37 counts a lost unit: removed or routed (its whole
    cost), never one held back (R51)."""
    out: dict[str, dict[str, int]] = {side: {} for side in s.board.sides}
    for u in s.board.units.values():
        if u.status in ("removed", "routed") and not u.held_back:
            out[u.side][u.type] = out[u.side].get(u.type, 0) + 1
    return out


def test_turn_sequence_r37_result_losses_count_units_lost_not_figures() -> None:
    g = game(
        [
            (unit("r1"), 10, 4, 0),
            (unit("r2", "heavy-infantry", 12, 6, weapons=["spear"]), 20, 4, 0),
            (unit("r3", "heavy-infantry", 12, 6, weapons=["spear"]), 30, 4, 0),
            (unit("r4", "heavy-infantry", 12, 6, weapons=["spear"]), 40, 4, 0),
        ],
        [(unit("b1"), 10, 30, 180), (unit("b2"), 30, 30, 180)],
        turns=1,
    )
    s = g.new_state(1)
    b = s.board
    u = b.units
    u["r1"].figures, u["r1"].status = 0, "removed"  # destroyed
    u["r2"].figures, u["r2"].status = 9, "routed"  # still routing at the end: lost (R37)
    u["r3"].figures = 4  # eight figures down, still fighting: not a lost unit
    u["r4"].status, u["r4"].held_back = "removed", True  # held back (R51): not lost
    u["b1"].figures = 5  # one figure down
    b.turn, b.result = 1, None
    _check_end(b)
    assert b.result is not None
    assert b.result.losses == {"red": {"heavy-cavalry": 1, "heavy-infantry": 1}, "blue": {}}
    # the points R37 judges by are unchanged: whole units for r1, r2, figures for r3 and b1
    (ev,) = [e for e in b.events if e.kind == "result"]
    cav, inf = (b.tables.types[t].cost_per_figure["B"] for t in ("heavy-cavalry", "heavy-infantry"))
    assert ev.data["points_lost"] == {"red": 6 * cav + 12 * inf + 8 * inf, "blue": 1 * cav}


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_turn_sequence_r37_result_losses_are_never_more_units_than_the_army_has(seed: int) -> None:
    s = KnightHackGame.from_data(_scenario("bourgtheroulde-1124-ambush"), "ambush", {}).new_state(seed)
    play_random(s, seed)
    res = s.result()
    assert res is not None and res.losses == _lost_units(s)
    for side, by_type in res.losses.items():
        have: dict[str, int] = {}
        for u in s.board.units.values():
            if u.side == side:
                have[u.type] = have.get(u.type, 0) + 1
        assert all(n <= have[t] for t, n in by_type.items()), (side, by_type, have)


def _scenario(name: str) -> dict[str, Any]:
    import tomllib
    from importlib import resources

    folder = resources.files("shieldwall.rulesets.knight_hack") / "scenarios"
    return tomllib.loads((folder / f"{name}.toml").read_text("utf-8"))


def test_turn_sequence_r37_the_battle_command_reports_one_unit_lost_not_its_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the exploratory test's battle: red lost one unit of dismounted knights (12 figures)
    assert run(["battle", "knight-hack/bourgtheroulde-1124", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seed"] == 1
    s = bourg().new_state(1)
    bots = {side: ScriptedBot() for side in ("red", "blue")}
    while not s.is_terminal():
        s.apply(bots[s.decision().side].choose(s))
    assert out["result"]["losses"] == _lost_units(s)
    assert out["result"]["losses"]["red"] == {"heavy-infantry": 1}


# --- odds: a flank or a rear attack, not both (R56) ---------------------------------------------


def test_casualties_target_odds_refuse_a_flank_and_a_rear_attack_at_once() -> None:
    both = {"flank": "yes", "rear": "yes"}
    with pytest.raises(ShieldwallError, match="flank or the rear, not both") as e:
        PLUGIN.attack("heavy-cavalry:B", "heavy-infantry:C:12", both)
    assert "--set flank" in str(e.value) and "knight-hack:casualties.target" in str(e.value)
    with pytest.raises(ShieldwallError, match="flank or the rear, not both"):
        PLUGIN.duel("heavy-cavalry:B:6", "archers:C:8", both)
    # each alone is still a query, with its own modifier
    flank = PLUGIN.attack("heavy-cavalry:B", "heavy-infantry:C:12", {"flank": "yes"})
    rear = PLUGIN.attack("heavy-cavalry:B", "heavy-infantry:C:12", {"rear": "yes"})
    assert any(d.startswith("T = 80") for d in flank.details)
    assert any(d.startswith("T = 90") for d in rear.details)


def test_casualties_target_odds_cli_refuses_flank_and_rear(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["odds", "attack", "knight-hack", "--attacker", "heavy-cavalry:B", "--target"]
    code = run([*argv, "heavy-infantry:C:12", "--set", "flank=yes", "--set", "rear=yes"])
    out, err = capsys.readouterr()
    assert code == 2 and "T = 110" not in out
    assert err.startswith("error: ") and "not both" in err and "Traceback" not in err


# --- odds: a target number T is not negative (R57) ----------------------------------------------


def test_casualties_target_odds_refuse_a_negative_target_number() -> None:
    with pytest.raises(ShieldwallError, match="ATTACKER") as e:
        PLUGIN.attack("-5", "any")
    assert "-5" in str(e.value) and "knight-hack:casualties.target" in str(e.value)
    with pytest.raises(ShieldwallError, match="FIRST"):
        PLUGIN.duel("-1", "45")
    with pytest.raises(ShieldwallError, match="SECOND"):
        PLUGIN.duel("45", "-1")
    # T = 0 is a target number: it inflicts nothing (R3)
    assert PLUGIN.attack("0", "any").probabilities == {0: 1}


def test_casualties_target_odds_cli_refuses_a_negative_attacker(capsys: pytest.CaptureFixture[str]) -> None:
    code = run(["odds", "attack", "knight-hack", "--attacker", "-5", "--target", "any"])
    out, err = capsys.readouterr()
    assert code == 2 and "r <=" not in out
    assert err.startswith("error: ") and "ATTACKER" in err and "Traceback" not in err


# --- files: a count is a whole number ------------------------------------------------------------

ARMY = (
    'name = "x"\nprovenance = "user"\nsource = "test"\npoints_limit = 100\n\n'
    '[[unit]]\nid = "knights"\ntype = "heavy-infantry"\nclass = "C"\nfigures = 12\nfrontage = 6\n'
    'weapons = ["spear"]\n'
)


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("figures = 12", "figures = true", "unit[0].figures"),
        ("figures = 12", "figures = 12.0", "unit[0].figures"),
        ("figures = 12", 'figures = "12"', "unit[0].figures"),
        ("frontage = 6", "frontage = true", "unit[0].frontage"),
        ("points_limit = 100", "points_limit = true", "points_limit"),
        ('weapons = ["spear"]', 'weapons = ["spear"]\nleader = 1', "unit[0].leader"),
    ],
)
def test_army_file_a_count_is_a_whole_number_not_true(tmp_path: Path, old: str, new: str, field: str) -> None:
    p = tmp_path / "army.toml"
    p.write_text(ARMY.replace(old, new), encoding="utf-8")
    with pytest.raises(DataError) as e:
        load_army(p)
    assert e.value.field == field
    kind = "boolean" if field.endswith("leader") else "integer"
    assert f"valid {kind}" in str(e.value) and "more than the unit's" not in str(e.value)


def test_army_file_a_count_is_refused_by_the_army_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "army.toml"
    p.write_text(ARMY.replace("figures = 12", "figures = true"), encoding="utf-8")
    assert run(["kh-army", "cost", str(p)]) == 2
    err = capsys.readouterr().err
    assert "unit[0].figures" in err and "valid integer" in err and "frontage" not in err


def test_scenario_file_counts_are_whole_numbers() -> None:
    data = _scenario("bourgtheroulde-1124")
    data["turns"] = True
    with pytest.raises(DataError) as e:
        KnightHackGame.from_data(data, "bourg.toml", {})
    assert e.value.field == "turns" and "valid integer" in str(e.value)
    data = _scenario("bourgtheroulde-1124")
    data["red"]["units"] = [unit("r1", figures=True, frontage=1)]  # type: ignore[arg-type]
    data["red"]["army"] = None
    data["red"]["place"] = [{"unit": "r1", "x": 10, "y": 4}]
    with pytest.raises(DataError) as e:
        KnightHackGame.from_data(data, "bourg.toml", {})
    assert e.value.field == "red.units[0].figures" and "valid integer" in str(e.value)
    for patch, field in (
        (lambda d: d["red"]["place"][0].__setitem__("x", True), "red.place[0].x"),
        (lambda d: d["table"].__setitem__("width", "48"), "table.width"),
        (lambda d: d["red"]["place"][0].__setitem__("ambush", 1), "red.place[0].ambush"),
    ):
        data = _scenario("bourgtheroulde-1124")
        patch(data)
        with pytest.raises(DataError) as e:
            KnightHackGame.from_data(data, "bourg.toml", {})
        assert e.value.field == field and "Input should be a valid" in str(e.value), field


@pytest.mark.parametrize(
    ("name", "old", "new", "field"),
    [
        ("classes.toml", "evolutions = 3", "evolutions = true", "class.A.evolutions"),
        ("troop_types.toml", "base_cost = 40", "base_cost = 40.0", "type.heavy-infantry.base_cost"),
        ("weapons.toml", "ranks_fighting = ", "ranks_fighting = true #", "ranks_fighting"),
        ("troop_types.toml", "normal_move = ", "normal_move = true #", "normal_move"),
    ],
)
def test_table_file_counts_are_whole_numbers(
    tables_dir: Path,  # noqa: F811 (the fixture)
    name: str,
    old: str,
    new: str,
    field: str,
) -> None:
    _edit(tables_dir, name, old, new)
    with pytest.raises(DataError) as e:
        load_tables(tables_dir)
    kind = "number" if field == "normal_move" else "integer"
    assert e.value.field.endswith(field) and f"valid {kind}" in str(e.value)
