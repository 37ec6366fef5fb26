"""The data files: schemas, the errata's locked values (a contradicting file names the clause),
the illustrative sample and its label."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from shieldwall.core.datafiles import read_toml
from shieldwall.core.errors import DataError
from shieldwall.rulesets.spi_dark_ages.tables import load_charts, sample_charts, sample_folder

TOURS = Path(__file__).resolve().parents[2] / "src/shieldwall/rulesets/spi_dark_ages/scenarios/tours.toml"


def _copy(tmp_path: Path) -> Path:
    dst = tmp_path / "data"
    dst.mkdir()
    for f in sample_folder().iterdir():
        if f.name.endswith(".toml"):
            (dst / f.name).write_bytes(f.read_bytes())
    return dst


def _edit(folder: Path, name: str, old: str, new: str) -> None:
    p = folder / name
    text = p.read_text(encoding="utf-8")
    assert old in text, old
    p.write_text(text.replace(old, new, 1), encoding="utf-8")


def _refused(tmp_path: Path, name: str, old: str, new: str) -> DataError:
    d = _copy(tmp_path)
    _edit(d, name, old, new)
    with pytest.raises(DataError) as e:
        load_charts(d)
    return e.value


def test_inventory_the_sample_is_labelled_illustrative_everywhere() -> None:
    c = sample_charts()
    assert c.label is not None and "not SPI" in c.label
    assert set(c.provenance.values()) == {"illustrative"}
    for f in sample_folder().iterdir():
        if f.name.endswith(".toml"):
            assert "NOT SPI" in f.read_text(encoding="utf-8"), f.name


def test_victory_vp_a_command_unit_worth_other_than_ten_is_refused(tmp_path: Path) -> None:
    e = _refused(tmp_path, "units.toml", "vp = 10\ncommand_bonus", "vp = 9\ncommand_bonus")
    assert "spi-dark-ages:victory.vp" in str(e) and e.field == "type.leader.vp"


def test_stacking_C_and_stacking_C_capacity_fleet_values_are_locked(tmp_path: Path) -> None:
    e = _refused(tmp_path, "units.toml", "capacity = 3", "capacity = 4")
    assert "spi-dark-ages:stacking.C.capacity" in str(e)
    (tmp_path / "b").mkdir()
    e = _refused(tmp_path / "b", "units.toml", "stacking_points = 0", "stacking_points = 1")
    assert "spi-dark-ages:stacking.C" in str(e)


def test_cavalry_mc_charge_cavalry_cataphract_and_cavalry_floors_are_locked(tmp_path: Path) -> None:
    for i, (old, new, clause) in enumerate(
        [
            (
                "charge = { min_hexes = 2, shortfall = 1, floor = 1 }\ndismounts_to",
                "charge = { min_hexes = 3, shortfall = 1, floor = 1 }\ndismounts_to",
                "cavalry.mc-charge",
            ),
            (
                "charge = { min_hexes = 3, shortfall = 2, floor = 2 }\n\n[type.ha]",
                "charge = { min_hexes = 3, shortfall = 2, floor = 1 }\n\n[type.ha]",
                "cavalry.floors",
            ),
            (
                "charge = { min_hexes = 3, shortfall = 2, floor = 2 }\n\n[type.leader]",
                "charge = { min_hexes = 2, shortfall = 2, floor = 2 }\n\n[type.leader]",
                "cavalry.cataphract",
            ),
        ]
    ):
        d = tmp_path / str(i)
        d.mkdir()
        e = _refused(d, "units.toml", old, new)
        assert f"spi-dark-ages:{clause}" in str(e)


MOUNT = 'name = "Riderless mounts (sample)"\nclass = "III"\nmas = 0\nmds_front = 1\nmds_flank = 1\nma = 8\n'
MOUNT += "stacking_points = 1\n"


def test_dismount_vp_the_mount_is_worth_the_cavalry_minus_the_dismounted(tmp_path: Path) -> None:
    e = _refused(
        tmp_path,
        "units.toml",
        MOUNT + "vp = 2",
        MOUNT + "vp = 3",
    )
    assert "spi-dark-ages:dismount.vp" in str(e)


@pytest.mark.parametrize(
    ("old", "new", "clause"),
    [
        ("[terrain.stream]\nmp = 2.0", "[terrain.stream]\nmp = 3.0", "tec.stream"),
        ('[terrain.river]\nmp = "P"', "[terrain.river]\nmp = 2.0", "tec.river"),
        ("[terrain.woods]\nmp = 4.0", "[terrain.woods]\nmp = 3.0", "tec.mixed-mp"),
        ("[terrain.woods]\nmp = 4.0\nfps = 3", "[terrain.woods]\nmp = 4.0\nfps = 5", "tec.fps-cap"),
        (
            'I = "1", II = "1", III = "1/2", IV = "1/2", V = "P"',
            'I = "1", II = "1", III = "1/2", IV = "1/2", V = "1"',
            "tec.classV",
        ),
    ],
)
def test_tec_values_the_errata_states_are_locked(tmp_path: Path, old: str, new: str, clause: str) -> None:
    e = _refused(tmp_path, "tec.toml", old, new)
    assert f"spi-dark-ages:{clause}" in str(e)
    assert e.file.endswith("tec.toml")


def test_tec_notes_there_is_no_L_class(tmp_path: Path) -> None:
    e = _refused(tmp_path, "tec.toml", 'road_only = ["I"]', 'road_only = ["L"]')
    assert "not a class" in str(e)


def test_crt_loss_and_demoralization_DD_the_crt_defines_DD_1E_2E(tmp_path: Path) -> None:
    e = _refused(tmp_path, "crt.toml", "[results.DD]", "[results.XD]")
    assert "spi-dark-ages:demoralization.DD" in str(e)


def test_crt_result_columns_increase_and_rows_are_complete(tmp_path: Path) -> None:
    e = _refused(
        tmp_path, "crt.toml", '"7" = ["AE", "AE", "AE", "AD", "AD", "NE", "NE"]', '"7" = ["AE", "AE"]'
    )
    assert e.field == "melee.rows.7"


def test_cuc_every_type_and_class_is_covered(tmp_path: Path) -> None:
    e = _refused(tmp_path, "cuc.toml", "[defender.hc]", "[defender.hcx]")
    assert "no row for unit type 'hc'" in str(e)


def test_a_missing_file_and_a_bad_field_are_named(tmp_path: Path) -> None:
    d = _copy(tmp_path)
    (d / "rules.toml").unlink()
    with pytest.raises(DataError) as e:
        load_charts(d)
    assert e.value.file.endswith("rules.toml") and "file not found" in str(e.value)
    shutil.rmtree(d)
    e2 = _refused(
        tmp_path, "units.toml", "ma = 4\nstacking_points = 2\nvp = 3", "ma = -1\nstacking_points = 2\nvp = 3"
    )
    assert e2.field == "type.spear.ma"


def test_tec_ford_a_ford_or_bridge_must_stand_on_water(tmp_path: Path) -> None:
    from shieldwall.rulesets.spi_dark_ages.hexmap import build_map

    d = _copy(tmp_path)
    _edit(d, "map.toml", "ford = true", 'ford = true\n\n[[hex]]\nat = "0101"\nbridge = true')
    c = load_charts(d)
    with pytest.raises(DataError) as e:
        build_map(c.map, c.tec, "map.toml")
    assert "spi-dark-ages:tec.ford" in str(e.value)


def test_inventory_the_label_reaches_the_cli_outputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``battle`` (narrated and --json), ``replay``, ``simulate`` and ``odds`` all carry the banner."""
    from shieldwall.cli import run

    save = tmp_path / "t.json"
    assert run(["battle", "spi-dark-ages/tours", "--save", str(save)]) == 0
    assert "not SPI" in capsys.readouterr().out.splitlines()[0]
    assert run(["battle", "spi-dark-ages/tours", "--json"]) == 0
    assert "not SPI" in json.loads(capsys.readouterr().out)["scenario"]
    assert run(["replay", str(save)]) == 0
    assert "not SPI" in capsys.readouterr().out
    assert run(["simulate", "spi-dark-ages/tours", "-n", "1", "--workers", "1"]) == 0
    assert "not SPI" in capsys.readouterr().out
    assert run(["odds", "attack", "spi-dark-ages", "--attacker", "4", "--target", "1/2"]) == 0
    assert "not SPI" in capsys.readouterr().out


def test_inventory_user_charts_carry_no_label(tmp_path: Path) -> None:
    from shieldwall.rulesets.spi_dark_ages.game import DarkAgesGame

    d = _copy(tmp_path)
    for f in d.iterdir():
        _edit(d, f.name, 'provenance = "illustrative"', 'provenance = "user"')
    scen = read_toml(TOURS)
    scen["data"] = str(d)
    g = DarkAgesGame.from_data(scen, str(tmp_path / "tours.toml"))
    assert g.label is None and g.scenario_name == "Tours"
    sample = DarkAgesGame.from_data(read_toml(TOURS), str(TOURS))
    assert sample.scenario_name.startswith("Tours — ILLUSTRATIVE")


def test_scenario_pv_pl_the_documented_scenario_example_is_complete_and_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The scenario file of docs/spi-dark-ages-data.md, as a user would copy it, plays a battle."""
    from shieldwall.cli import run

    doc = (Path(__file__).resolve().parents[2] / "docs/spi-dark-ages-data.md").read_text(encoding="utf-8")
    section = doc.split("## Scenario files", 1)[1]
    block = section.split("```toml\n", 1)[1].split("```", 1)[0]
    f = tmp_path / "my-tours.toml"
    f.write_text(block, encoding="utf-8")
    assert run(["battle", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scenario"].startswith("Tours (my copy)")
    assert any(e["kind"] == "enters" for e in out["events"])  # the reinforcement came on
    f.write_text(block.replace("pv = 80", "pv = 90"), encoding="utf-8")
    assert run(["battle", str(f)]) != 0
    assert "spi-dark-ages:scenario.pv-pl" in capsys.readouterr().err
