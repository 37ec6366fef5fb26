"""Knight Hack rules of slice 1, each test named after its clause: percentile casualties (one d100),
the melee target number, morale level and the automatic pass, points and the exact odds."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from shieldwall.core.errors import DataError, ShieldwallError, UnknownName
from shieldwall.rulesets.knight_hack.army import army_cost, check_limit, load_army
from shieldwall.rulesets.knight_hack.casualties import CasualtySituation, rolled_casualties
from shieldwall.rulesets.knight_hack.cli import register
from shieldwall.rulesets.knight_hack.factors import Fighter, MeleeConditions, melee_target
from shieldwall.rulesets.knight_hack.morale import MoraleState, MoraleTest, basic_morale_level, morale_level
from shieldwall.rulesets.knight_hack.odds import PLUGIN
from shieldwall.rulesets.knight_hack.tables import sample_folder, sample_tables

ARMIES = Path(str(sample_folder())) / "armies"


class SpyRng:
    """A generator that answers scripted d100 faces and counts the draws."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.draws = 0

    def integers(self, n: int) -> int:
        assert n == 100
        self.draws += 1
        return self.faces.pop(0) - 1


# --- casualties ------------------------------------------------------------------------------


def test_casualties_target_roll_or_less_inflicts_one() -> None:
    assert [rolled_casualties(r, 60) for r in (61, 60, 31)] == [0, 1, 1]
    assert rolled_casualties(100, 99) == 0 and rolled_casualties(100, 100) == 1  # 00 = 100 (R2)


def test_casualties_multiple_half_and_quarter_from_one_roll() -> None:
    assert [rolled_casualties(r, 60) for r in (30, 16, 15, 1)] == [2, 2, 3, 3]


def test_casualties_multiple_odd_target_is_not_rounded() -> None:
    # ruling R3: 2r <= T and 4r <= T exactly
    assert [rolled_casualties(r, 45) for r in (23, 22, 12, 11)] == [1, 2, 2, 3]
    assert all(rolled_casualties(r, 0) == 0 for r in range(1, 101))
    assert all(rolled_casualties(r, -20) == 0 for r in range(1, 101))


def test_casualties_whole_figures_capped_at_figures_left() -> None:
    assert CasualtySituation(60, figures=2).outcome(1) == 2
    assert CasualtySituation(400, figures=1).dist() == CasualtySituation(1, figures=1).dist().map(lambda _: 1)
    assert CasualtySituation(60, figures=0).outcome(1) == 0


def test_casualties_automatic_is_a_floor() -> None:
    floor = CasualtySituation(60, automatic=1)
    assert [floor.outcome(r) for r in (100, 60, 30, 15)] == [1, 1, 2, 3]
    add = CasualtySituation(60, automatic=1, auto="add")
    assert [add.outcome(r) for r in (100, 60, 30, 15)] == [1, 2, 3, 3]
    with pytest.raises(ValueError, match="0, 1 or 2"):
        CasualtySituation(60, automatic=3)


def test_casualties_multiple_exactly_one_draw_per_roll() -> None:
    rng = SpyRng(15, 61)
    sit = CasualtySituation(60)
    assert sit.roll(rng) == (15, 3)  # type: ignore[arg-type]
    assert rng.draws == 1
    assert sit.roll(rng) == (61, 0)  # type: ignore[arg-type]
    assert rng.draws == 2


def test_casualties_roll_samples_the_distribution() -> None:
    rng = np.random.default_rng(5)
    sit = CasualtySituation(60)
    got = [sit.roll(rng)[1] for _ in range(4000)]
    assert abs(got.count(0) / 4000 - 0.40) < 0.03


def _brute(t: int, automatic: int = 0, figures: int = 3) -> dict[int, Fraction]:
    """An independent count over the 100 faces (no shared code with the rules)."""
    counts: dict[int, int] = {}
    for r in range(1, 101):
        n = 0
        if r <= t:
            n = 1
            if r <= t / 2:
                n = 2
                if r <= t / 4:
                    n = 3
        n = min(max(n, automatic), 3, figures)
        counts[n] = counts.get(n, 0) + 1
    return {k: Fraction(v, 100) for k, v in sorted(counts.items())}


@pytest.mark.parametrize("t", [-10, 0, 1, 3, 45, 59, 60, 61, 99, 100, 150, 199, 200, 399, 400, 1000])
@pytest.mark.parametrize("figures", [1, 2, 3, 12])
def test_casualties_target_distribution_matches_brute_force(t: int, figures: int) -> None:
    assert CasualtySituation(t, 0, figures).dist().probabilities() == _brute(t, 0, figures)
    assert CasualtySituation(t, 1, figures).dist().probabilities() == _brute(t, 1, figures)


def test_casualties_multiple_agrees_with_icepool() -> None:
    icepool = pytest.importorskip("icepool")
    for t in (45, 60, 150):
        d = icepool.d100.map(lambda r, t=t: 3 if 4 * r <= t else 2 if 2 * r <= t else 1 if r <= t else 0)
        ip = {int(k): Fraction(int(d.quantity(k)), int(d.denominator())) for k in d.outcomes()}
        assert CasualtySituation(t).dist().probabilities() == {k: v for k, v in ip.items() if v}


def test_casualties_target_chart_plus_modifiers() -> None:
    t = sample_tables()
    att, dfd = Fighter("heavy-cavalry", "B", 6, ("lance",)), Fighter("archers", "C", 8)
    plain = melee_target(t, att, dfd, MeleeConditions())
    assert plain.value == 75 + 10 + 5 and plain.automatic == 1  # chart, lance vs open, one class better
    assert [x.source for x in plain.terms] == ["chart", "weapon:lance", "modifier:class"]
    full = melee_target(t, att, dfd, MeleeConditions(rear=True, charging_first_round=True, extra_ranks=2))
    assert full.value == plain.value + 30 + 10 + 2 * 5
    worse = melee_target(t, Fighter("archers", "E", 8), Fighter("heavy-infantry", "B", 12), MeleeConditions())
    assert worse.value == (30 - 15) - 3 * 5  # chart 15, three classes worse


# --- morale ------------------------------------------------------------------------------------


def test_morale_level_the_errata_example_is_76() -> None:
    assert basic_morale_level(sample_tables(), "heavy-infantry", "C", 12) == 76


def test_morale_level_page_15_modifiers() -> None:
    t = sample_tables()
    level, terms = morale_level(t, "heavy-infantry", "C", MoraleState(12, lost=6, disordered=True))
    assert level == 76 - 2 * 10 - 10 and [x.source for x in terms] == [
        "basic",
        "modifier:losses",
        "modifier:disordered",
    ]
    cur, _ = morale_level(t, "heavy-infantry", "C", MoraleState(12, lost=6), "current")
    assert cur == 6 * 3 + 40 - 20  # variant bml_figures=current (R6)


def test_morale_auto_pass_draws_no_die() -> None:
    for level in (101, 100):
        rng = SpyRng()
        assert MoraleTest(level).roll(rng) == (True, None)  # type: ignore[arg-type]
        assert rng.draws == 0 and MoraleTest(level).automatic
    rng = SpyRng(100)
    assert MoraleTest(99).roll(rng) == (False, 100)  # type: ignore[arg-type]
    assert rng.draws == 1
    assert MoraleTest(76).dist().probability(1) == Fraction(76, 100)


# --- points ------------------------------------------------------------------------------------


def test_morale_level_in_the_army_cost() -> None:
    c = army_cost(load_army(ARMIES / "royal-household-1124.toml"))
    rows = {r.id: r for r in c.rows}
    assert rows["dismounted-knights"].morale_level == 76 and rows["dismounted-knights"].points == 36
    assert c.total == 36 + 16 + 36 and c.status == "within" and c.label is not None


def _army(tmp_path: Path, limit: int, extra: str = "") -> Path:
    p = tmp_path / "a.toml"
    p.write_text(
        f'name = "x"\nprovenance = "user"\nsource = "test"\npoints_limit = {limit}\n\n'
        '[[unit]]\nid = "hi"\ntype = "heavy-infantry"\nclass = "C"\nfigures = 12\nfrontage = 6\n' + extra,
        encoding="utf-8",
    )
    return p


@pytest.mark.parametrize(("limit", "status"), [(35, "over"), (36, "within"), (37, "within")])
def test_points_limit_at_its_boundaries(tmp_path: Path, limit: int, status: str) -> None:
    army = load_army(_army(tmp_path, limit))
    c = army_cost(army)
    assert c.total == 36 and c.status == status
    if status == "over":
        with pytest.raises(DataError, match="36 points, over its limit of 35") as e:
            check_limit(army, c)
        assert e.value.field == "points_limit"
    else:
        check_limit(army, c)


def test_army_file_errors_name_the_field(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="unknown weapon 'pike'") as e:
        load_army(_army(tmp_path, 100, 'weapons = ["pike"]\n'))
    assert e.value.field == "unit[0].weapons[0]"
    p = _army(tmp_path, 100)
    p.write_text(p.read_text(encoding="utf-8").replace("frontage = 6", "frontage = 13"), encoding="utf-8")
    with pytest.raises(DataError, match="frontage 13 is more than the unit's 12 figures") as e:
        load_army(p)
    assert e.value.field == "unit[0]"
    p.write_text('ruleset = "into-the-dark"\n' + p.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(DataError) as e:
        load_army(p)
    assert e.value.field == "ruleset"


def _cli() -> typer.Typer:
    app = typer.Typer()
    register(app)

    @app.command()
    def version() -> None:  # a second command, so the group is not collapsed
        typer.echo("v")

    return app


def test_kh_army_cost_command(tmp_path: Path) -> None:
    r = CliRunner().invoke(_cli(), ["kh-army", "cost", "--json", str(ARMIES / "rebels-1124.toml")])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["total"] == 92 and out["limit"] == "within" and "not the published" in out["tables"]
    r = CliRunner().invoke(_cli(), ["kh-army", "cost", str(ARMIES / "royal-household-1124.toml")])
    assert r.exit_code == 0 and "not the published Knight Hack charts" in r.output
    r = CliRunner().invoke(_cli(), ["kh-army", "cost", str(_army(tmp_path, 35))])
    assert r.exit_code == 2 and "over its limit of 35" in r.output


def test_kh_army_cost_table_fits_80_columns_without_cutting_a_word() -> None:
    r = CliRunner(env={"COLUMNS": "80"}).invoke(
        _cli(), ["kh-army", "cost", str(ARMIES / "royal-household-1124.toml")]
    )
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert max(len(x) for x in lines) <= 80
    words = {w for x in lines for w in x.split()}
    # every unit's words and every troop type whole, none folded or cut with an ellipsis
    assert {"Dismounted", "household", "knights", "heavy-infantry", "heavy-cavalry", "archers"} <= words
    assert "…" not in r.output


# --- odds ----------------------------------------------------------------------------------------


def test_casualties_multiple_odds_t60() -> None:
    a = PLUGIN.attack("60", "any")
    assert a.probabilities == {
        0: Fraction(40, 100),
        1: Fraction(30, 100),
        2: Fraction(15, 100),
        3: Fraction(15, 100),
    }
    assert a.mean == Fraction(105, 100)
    assert any("not the published" in d for d in a.details)
    b = PLUGIN.attack("150", "any")
    assert b.probabilities == {1: Fraction(25, 100), 2: Fraction(38, 100), 3: Fraction(37, 100)}
    assert b.mean == Fraction(212, 100)
    assert PLUGIN.attack("400", "any").probabilities == {3: Fraction(1)}


def test_odds_attack_uses_the_situation_the_game_samples() -> None:
    a = PLUGIN.attack("heavy-cavalry:B", "archers:C:2", {"charging": "yes", "weapon": "lance"})
    t = melee_target(
        sample_tables(),
        Fighter("heavy-cavalry", "B", 6, ("lance",)),
        Fighter("archers", "C", 2),
        MeleeConditions(charging_first_round=True),
    )
    assert a.situation == t.situation(2) and a.dist == t.situation(2).dist()
    assert any(d.startswith("T = 100") for d in a.details)


def test_odds_errors_name_the_choices() -> None:
    with pytest.raises(UnknownName, match="heavy-cavalry"):
        PLUGIN.attack("knights", "any")
    with pytest.raises(ShieldwallError, match="needs a troop type"):
        PLUGIN.attack("60", "any", {"flank": "yes"})
    with pytest.raises(ShieldwallError, match="does not apply"):
        PLUGIN.matrix()


def test_morale_auto_pass_odds() -> None:
    m = PLUGIN.morale("heavy-infantry:C:12")
    assert m.outcomes == {"passed": Fraction(76, 100), "rout": Fraction(24, 100)}
    auto = PLUGIN.morale("heavy-cavalry:A:10", {"test": "stop-rout"})
    assert auto.outcomes["passed"] == 1 and any("automatic pass" in d for d in auto.details)
    assert PLUGIN.morale("heavy-infantry:C:12", {"lost": 3, "test": "receive-charge"}).outcomes == {
        "passed": Fraction(66, 100),
        "disorder": Fraction(34, 100),
    }


@pytest.mark.python_sources  # doctest finds no examples in a compiled module (casualties)
@pytest.mark.parametrize("module", ["casualties", "odds", "odds_melee"])
def test_doctests(module: str) -> None:
    import doctest
    import importlib

    mod = importlib.import_module(f"shieldwall.rulesets.knight_hack.{module}")
    failed, tried = doctest.testmod(mod)
    assert tried and not failed
