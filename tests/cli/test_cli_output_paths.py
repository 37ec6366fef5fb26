"""Files the command line writes and scenarios it reads, told clearly before any work: the heat
map's extension (matplotlib's "Format 'txt' is not supported" traceback, after the whole matrix;
a name without one got ``.png`` added behind the message's back), a folder for --out or --plots
that is a file ("File exists" with no option named), and a scenario argument that is a JSON file
or a folder ("unknown scenario"). Found by an exploratory test of the command line."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from shieldwall import cli_odds
from shieldwall.cli import _register, run


def _no_matrix(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any attempt to work out the matrix fails the test: a bad --png is refused before."""
    _register()  # the help texts ask every plug-in for its keys once, when the commands are added

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the matrix was worked out before --png was checked")

    monkeypatch.setattr(cli_odds, "get_plugin", refuse)


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("heat.txt", "cannot write a .txt file; end it in .png, .svg or .pdf"),
        ("heat.jpeg", "cannot write a .jpeg file; end it in .png, .svg or .pdf"),
        ("heat", "the file name has no extension; end it in .png, .svg or .pdf"),
        ("heat.", "the file name has no extension"),
        ("missing/heat.png", "there is no folder"),
        (".", "is a folder"),
    ],
)
def test_a_heat_map_file_that_cannot_be_written_is_refused_first(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    words: str,
) -> None:
    _no_matrix(monkeypatch)
    path = tmp_path / name if name != "." else tmp_path
    code = run(["odds", "matrix", "one-hour-dark-ages", "--png", str(path)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith(f"error: --png {path}: ") and words in err, err
    assert err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def _matrix() -> Any:
    from shieldwall.odds.results import MatrixOdds

    grid = [[Fraction(1), Fraction(2)], [Fraction(3), None]]
    return MatrixOdds(
        ruleset="rs",
        settings={"terrain": "$\\frac{$"},
        types=("cavalry $\\frac{$", "foot"),
        facings=("front",),
        mean_hits={"front": grid},
        first_wins={"front": [[Fraction(1, 2), Fraction(1, 3)], [Fraction(2, 3), None]]},
    )


def test_image_format_is_the_extension_or_a_value_error() -> None:
    from shieldwall.odds.render import image_format

    assert [image_format(f"m.{e}") for e in ("png", "SVG", "Pdf")] == ["png", "svg", "pdf"]
    for bad in ("m.txt", "m", "m.", "m.png.bak"):
        with pytest.raises(ValueError, match=r"\.png, \.svg or \.pdf"):
            image_format(bad)


@pytest.mark.parametrize(("ext", "magic"), [("png", b"\x89PNG"), ("SVG", b"<?xml"), ("pdf", b"%PDF")])
def test_matrix_png_writes_the_format_of_its_extension(tmp_path: Path, ext: str, magic: bytes) -> None:
    """... and draws a type or setting named with ``$`` as it is (mathtext to matplotlib: the
    name ``$\\frac{$`` stopped it with a ParseSyntaxException)."""
    from shieldwall.odds.render import matrix_png

    out = matrix_png(_matrix(), tmp_path / f"m.{ext}")
    assert out == tmp_path / f"m.{ext}" and out.read_bytes().startswith(magic)
    assert list(tmp_path.iterdir()) == [out]


def test_matrix_png_refuses_a_bad_extension_before_drawing(tmp_path: Path) -> None:
    from shieldwall.odds.render import matrix_png

    with pytest.raises(ValueError, match="cannot write a .txt file"):
        matrix_png(_matrix(), tmp_path / "m.txt")
    assert list(tmp_path.iterdir()) == []


def _sim_file(path: Path) -> Path:
    """A small file of battle rows, as ``simulate --out`` writes them (without the metadata)."""
    rows = {
        "variant": ["baseline"] * 2,
        "overrides": ["{}"] * 2,
        "battle": [0, 1],
        "seed": [1, 2],
        "winner": ["red", "blue"],
        "turns": pa.array([3, 4], pa.int32()),
    }
    pq.write_table(pa.table(rows), path)
    return path


def test_simulate_out_under_a_file_names_the_option_and_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    for out in (afile / "x.parquet", afile / "sub" / "x.parquet"):
        code = run(["simulate", "-n", "2", "--no-progress", "--out", str(out)])
        err = capsys.readouterr().err
        assert code == 2 and err == f"error: --out {out}: {afile} is a file, not a folder\n", err
    code = run(["simulate", "-n", "2", "--no-progress", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and err == f"error: --out {tmp_path}: is a folder; give a file name\n", err
    assert sorted(tmp_path.iterdir()) == [afile]


def test_report_plots_in_a_file_names_the_option_and_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sim = _sim_file(tmp_path / "sim.parquet")
    afile = tmp_path / "afile"
    afile.write_text("x")
    code = run(["report", str(sim), "--plots", str(afile)])
    err = capsys.readouterr().err
    assert code == 2 and err == f"error: --plots {afile}: is a file, not a folder\n", err
    plots = afile / "plots"
    code = run(["report", str(sim), "--plots", str(plots)])
    err = capsys.readouterr().err
    assert code == 2 and err == f"error: --plots {plots}: {afile} is a file, not a folder\n", err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "sim.parquet"]
    # a folder to be made is made
    code = run(["report", str(sim), "--plots", str(tmp_path / "new" / "plots")])
    assert code == 0, capsys.readouterr().err
    assert (tmp_path / "new" / "plots" / "sim-winrate.png").exists()


@pytest.mark.parametrize("command", ["battle", "simulate"])
def test_a_scenario_argument_that_is_not_a_scenario_file_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    save = tmp_path / "oh.json"
    save.write_text("{}")
    extra = ["-n", "2", "--no-progress"] if command == "simulate" else []
    code = run([command, str(save), *extra])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(f"error: {save}: not a scenario file: "), err
    assert "TOML" in err and "unknown scenario" not in err and err.count("\n") == 1, err
    code = run([command, str(tmp_path), *extra])
    err = capsys.readouterr().err
    assert code == 2 and err == f"error: {tmp_path}: is a folder, not a scenario file (TOML)\n", err
    # a name that is no file is still an unknown scenario, with the choices
    code = run([command, str(tmp_path / "nothing"), *extra])
    err = capsys.readouterr().err
    assert code == 2 and "unknown scenario" in err and "one-hour-dark-ages/bryn-glas" in err, err


def test_a_built_in_name_wins_over_a_folder_of_that_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bryn-glas").mkdir()
    assert run(["simulate", "bryn-glas", "-n", "1", "--workers", "1", "--no-progress", "--json"]) == 0
    assert '"scenario": "Bryn Glas"' in capsys.readouterr().out


def test_an_error_with_the_progress_bar_on_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Off a terminal the bar is not started: it drew nothing there but a blank line before the
    error."""
    save = tmp_path / "oh.json"
    save.write_text("{}")
    assert run(["simulate", str(save), "-n", "2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1, repr(err)
