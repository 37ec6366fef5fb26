"""into-the-dark: the representative troop types, the matchup matrix, and the fast duel solver
against the original one (exact equality)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
import typer
from reference_rounds import reference_simultaneous_duel
from typer.testing import CliRunner

from shieldwall import cli_odds, odds
from shieldwall.core.errors import ShieldwallError
from shieldwall.odds.simultaneous import simultaneous_duel
from shieldwall.rulesets.into_the_dark import odds as itd

RS = "into-the-dark"


# --- the troop types file ---------------------------------------------------------------------


def test_every_representative_type_is_a_valid_unit() -> None:
    types = itd.load_troop_types()
    assert len(types) >= 8 and sum(t.core for t in types) == 8
    assert len({t.name for t in types}) == len(types) and len({t.short for t in types}) == len(types)
    for t in types:
        side = itd.PLUGIN.side(t.spec)  # army.check_unit
        assert side.figures == 12 and side.front == 6, t
        assert t.source


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('[[types]]\nname="a"\nshort="A"\nspec="12 CAF average"\ncore=true\n', "field 'source'"),
        (
            '[[types]]\nname="a"\nshort="A"\nspec="12 CAF average"\ncore=1\nsource="x"\n',
            "'core' must be a bool",
        ),
        (
            '[[types]]\nname="a"\nshort="ABCDEF"\nspec="12 CAF average"\ncore=true\nsource="x"\n',
            "1-5 characters",
        ),
        ('[[types]]\nname="a"\nshort="A"\nspec="12 LAF average shieldwall"\ncore=true\nsource="x"\n', "(a):"),
        ('[[types]]\nname="a"\nshort="A"\nspec="12 CAF average"\ncore=true\nsource="x"\ncost=3\n', "cost"),
        (
            '[[types]]\nname="a"\nshort="A"\nspec="12 CAF average"\ncore=true\nsource="x"\n'
            '[[types]]\nname="A"\nshort="B"\nspec="12 CAF average"\ncore=true\nsource="x"\n',
            "appears twice",
        ),
        ("title = 'no types'\n", "expected [[types]]"),
        ("[[types]\n", "cannot read"),
    ],
)
def test_bad_troop_type_files_are_one_line_errors(tmp_path: Path, text: str, needle: str) -> None:
    p = tmp_path / "types.toml"
    p.write_text(text)
    with pytest.raises(ShieldwallError) as exc:
        itd.load_troop_types(p)
    assert needle in str(exc.value) and "\n" not in str(exc.value)


# --- the matrix -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def core() -> odds.MatrixOdds:
    return odds.matrix(RS, {"types": "core"}, exact=True)


def test_matrix_cells_are_the_attack_and_duel_queries(core: odds.MatrixOdds) -> None:
    specs = dict(zip(core.types, core.descriptions, strict=True))
    assert core.facings == ("front", "flank", "rear") and core.duel_facings == ("front",)
    assert set(core.draws) == {"front"} and core.unit == "casualties"
    for f in core.facings:
        for i, a in enumerate(core.types):
            for j, b in enumerate(core.types):
                want = odds.attack(RS, specs[a], specs[b], {"facing": f, "charging": "yes"}).mean
                assert core.mean_hits[f][i][j] == want, (f, a, b)
    for a, b in [("huscarls", "berserkers"), ("knights", "select fyrd"), ("archers", "peasants")]:
        i, j = core.types.index(a), core.types.index(b)
        d = odds.duel(RS, specs[a], specs[b], {"charging": "yes"}, exact=True)
        assert core.first_wins["front"][i][j] == d.first_wins
        assert core.draws["front"][i][j] == d.draw


def test_matrix_impetuous_charges_only_for_those_allowed() -> None:
    m = odds.matrix(RS, {"types": "core", "charge": "impetuous"}, exact=True)
    specs = dict(zip(m.types, m.descriptions, strict=True))
    k, b, h = m.types.index("knights"), m.types.index("berserkers"), m.types.index("huscarls")
    imp = {"charging": "yes", "impetuous": "yes"}
    assert (
        m.first_wins["front"][k][h]
        == odds.duel(RS, specs["knights"], specs["huscarls"], imp, exact=True).first_wins
    )
    assert (
        m.first_wins["front"][b][h]
        == odds.duel(RS, specs["berserkers"], specs["huscarls"], imp, exact=True).first_wins
    )
    plain = odds.duel(RS, specs["huscarls"], specs["knights"], {"charging": "yes"}, exact=True).first_wins
    assert m.first_wins["front"][h][k] == plain  # foot without a Warband charge normally
    assert (
        m.mean_hits["flank"][k][h]
        == odds.attack(RS, specs["knights"], specs["huscarls"], {"facing": "flank", **imp}).mean
    )


def test_matrix_findings(core: odds.MatrixOdds) -> None:
    """The headline findings of docs/odds.md."""
    i = core.types.index
    w, dr = core.first_wins["front"], core.draws["front"]
    # in frontal melee a shieldwall is worth one armour class and one quality level: select fyrd
    # (CPF average shieldwall) and knights (LAM elite) are interchangeable, row and column
    assert w[i("select fyrd")] == w[i("knights")]
    assert [r[i("select fyrd")] for r in w] == [r[i("knights")] for r in w]
    # charging huscarls beat every other core type at least 9 times in 10
    assert all(
        p is not None and p > Fraction(9, 10)
        for n, p in zip(core.types, w[i("huscarls")], strict=True)
        if n != "huscarls"
    )
    # the mirror match: striking with a charge is worth 46% v 31% (23% drawn)
    h = i("huscarls")
    p = w[h][h]
    assert p is not None and round(float(p), 2) == 0.46
    assert dr[h][h] is not None and round(float(dr[h][h]), 2) == 0.23


def test_matrix_json_png_and_table(tmp_path: Path) -> None:
    a = typer.Typer()

    @a.callback()
    def _root() -> None:
        """test root"""

    cli_odds.register(a)
    png = tmp_path / "m.png"
    r = CliRunner().invoke(
        a, ["odds", "matrix", RS, "--set", "types=core", "--json", "--png", str(png), "--exact"]
    )
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert obj["types"][0] == "huscarls" and len(obj["short"]) == 8 and len(obj["descriptions"]) == 8
    assert set(obj["p_first_wins"]) == {"front"} and set(obj["p_draw"]) == {"front"}
    assert set(obj["mean_hits"]) == {"front", "flank", "rear"}
    for row_p, row_x in zip(obj["p_first_wins"]["front"], obj["first_wins"]["front"], strict=True):
        for pf, px in zip(row_p, row_x, strict=True):
            assert abs(float(Fraction(px)) - pf) < 1e-12
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = CliRunner().invoke(a, ["odds", "matrix", RS, "--set", "types=core"])
    assert r.exit_code == 0 and "huscarls" in r.stdout and "HUSC" in r.stdout and "…" not in r.stdout
    r = CliRunner().invoke(a, ["odds", "matrix", RS, "--set", "charge=wild"])
    assert r.exit_code == 2 and "valid choices: none, charge, impetuous" in r.stderr


# --- the fast simultaneous-rounds solver against the original -----------------------------------


@pytest.mark.parametrize(
    ("first", "second", "flags"),
    [
        ("12 CAF average", "12 CPF average", (False, False, False, False)),
        ("6 LAM elite", "8 CUF levy", (False, False, False, False)),
        ("12 LAM elite", "16 CPF levy", (True, True, False, False)),
        ("12 CUF fanatic warband", "12 CAF average", (True, True, False, False)),
        ("10 CAF average shieldwall", "10 CAF average", (False, False, True, True)),
        ("12 OUF average bow skirmisher", "9 LUF levy sling", (True, False, False, False)),
        ("7 CPF peasant", "5 CEF elite", (False, False, False, False)),
        ("3 CAF average", "3 CAF elite", (False, False, False, False)),  # no dice: morale only
        ("12 LPM average", "12 CUF levy", (True, True, False, False)),  # wide first round
        ("12 LPM average", "12 CUF levy pike", (True, True, True, True)),
    ],
)
def test_fast_duel_solver_equals_the_original(first: str, second: str, flags: tuple[bool, ...]) -> None:
    a, b = itd.side(itd.parse_spec(first)), itd.side(itd.parse_spec(second))
    fast = simultaneous_duel(itd.DuelModel(a, b, *flags))
    ref = reference_simultaneous_duel(itd.DuelModel(a, b, *flags))
    assert fast == ref
    quick = simultaneous_duel(itd.DuelModel(a, b, *flags), max_turns=1)  # as the matrix asks
    assert (quick.first_wins, quick.second_wins, quick.draw) == (ref.first_wins, ref.second_wins, ref.draw)


def test_fast_duel_solver_equals_the_original_across_the_troop_types() -> None:
    """Every representative type as the first unit against three others (rotating), at 6-9
    figures, with impetuous charges where allowed, uphill and obstacles, and the impetuous types
    at full size: exact equality."""
    types = itd.load_troop_types()
    n = len(types)
    for i, ta in enumerate(types):
        for k in (1, 5, 9):
            tb = types[(i + k) % n]
            fa, fb = 6 + (i + k) % 4, 6 + (i * k) % 4
            a = itd.side(itd.parse_spec(ta.spec.replace("12 ", f"{fa} ", 1)))
            b = itd.side(itd.parse_spec(tb.spec.replace("12 ", f"{fb} ", 1)))
            imp = a.unit.mounted or a.unit.has("warband")
            flags = (True, imp, k == 5, k == 9)
            fast = simultaneous_duel(itd.DuelModel(a, b, *flags))
            ref = reference_simultaneous_duel(itd.DuelModel(a, b, *flags))
            assert fast == ref, (ta.name, tb.name, flags)
        a = itd.side(itd.parse_spec(ta.spec))
        if a.unit.mounted or a.unit.has("warband"):  # full size: the widest first rounds
            b = itd.side(itd.parse_spec(types[(i + 3) % n].spec))
            fast = simultaneous_duel(itd.DuelModel(a, b, True, True, False, False))
            assert fast == reference_simultaneous_duel(itd.DuelModel(a, b, True, True, False, False))
