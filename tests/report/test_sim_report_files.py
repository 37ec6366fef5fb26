"""``shieldwall report`` on Parquet files not quite as ``simulate --out`` writes them: copied by
another tool (DuckDB's COPY keeps the columns but drops shieldwall's metadata), then edited.
Empty (null) values, a column of the wrong type, ``overrides`` that are not JSON objects and
malformed metadata are refused up front with one line naming the column, never a traceback (a
ValueError, TypeError, JSONDecodeError, DuckDB binder error or malformed SQL before); a file of
draws only, or without ``overrides``, is summarised. Found by an exploratory test of the command
line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from shieldwall.cli import run

#: two variants of four battles each, paired on the same battles and seeds
N = 4
ROWS: dict[str, Any] = {
    "variant": ["baseline"] * N + ["dice=d6"] * N,
    "overrides": ["{}"] * N + ['{"dice": "d6"}'] * N,
    "battle": list(range(N)) * 2,
    "seed": [100 + i for i in range(N)] * 2,
    "winner": ["red", "blue", "draw", "red", "blue", "blue", "red", "draw"],
    "reason": ["rout"] * (2 * N),
    "turns": pa.array([3, 4, 5, 4, 6, 2, 3, 5], pa.int32()),
    "lost_red": pa.array([1, 2, 0, 1, 3, 2, 1, 0], pa.int32()),
    "lost_blue": pa.array([2, 1, 1, 3, 0, 1, 2, 1], pa.int32()),
    "lost_red_infantry": pa.array([1, 1, 0, 1, 2, 1, 1, 0], pa.int32()),
}


def _write(path: Path, metadata: dict[str, str] | None = None, **columns: Any) -> Path:
    """``ROWS`` with ``columns`` replaced (None: left out), written with no shieldwall metadata
    unless ``metadata`` is given."""
    data = {k: v for k, v in {**ROWS, **columns}.items() if v is not None}
    table = pa.table(data)
    if metadata is not None:
        table = table.replace_schema_metadata(metadata)
    pq.write_table(table, path)
    return path


def _report(capsys: pytest.CaptureFixture[str], path: Path, plots: Path, *extra: str) -> tuple[int, str, str]:
    code = run(["report", str(path), "--plots", str(plots), *extra])
    got = capsys.readouterr()
    return code, got.out, got.err


NULL8 = [None] * (2 * N)


@pytest.mark.parametrize(
    ("columns", "metadata", "field", "words"),
    [
        ({"turns": pa.array(NULL8, pa.int32())}, None, "turns", "8 of 8 rows are empty (null)"),
        (
            {"turns": pa.array([3, None, 5, 4, 6, 2, 3, 5], pa.int32())},
            None,
            "turns",
            "1 of 8 rows are empty (null)",
        ),
        ({"variant": pa.array(NULL8, pa.string())}, None, "variant", "empty (null)"),
        ({"winner": pa.array(NULL8, pa.string())}, None, "winner", "empty (null)"),
        ({"battle": pa.array([0, 1, 2, None] * 2, pa.int64())}, None, "battle", "empty (null)"),
        ({"seed": pa.array([1, 2, 3, None] * 2, pa.int64())}, None, "seed", "empty (null)"),
        ({"lost_red": pa.array(NULL8, pa.int32())}, None, "lost_red", "empty (null)"),
        ({"lost_red_infantry": pa.array(NULL8, pa.int32())}, None, "lost_red_infantry", "empty (null)"),
        ({"overrides": ["notjson"] * (2 * N)}, None, "overrides", "'notjson' is not a JSON object"),
        ({"overrides": ["{}"] * N + ["[1, 2]"] * N}, None, "overrides", "'[1, 2]' is not a JSON object"),
        (
            {"turns": [str(t) for t in ROWS["turns"].to_pylist()]},
            None,
            "turns",
            "must hold whole numbers (an integer column); this file's holds text",
        ),
        ({"turns": pa.array([3.5] * (2 * N), pa.float64())}, None, "turns", "must hold whole numbers"),
        ({"battle": [float(b) for b in ROWS["battle"]]}, None, "battle", "must hold whole numbers"),
        ({"winner": pa.array([1] * (2 * N), pa.int32())}, None, "winner", "must hold text"),
        ({"variant": pa.array([True] * (2 * N))}, None, "variant", "must hold text"),
        ({"overrides": pa.array([1] * (2 * N), pa.int64())}, None, "overrides", "must hold text"),
        ({"lost_blue": ["x"] * (2 * N)}, None, "lost_blue", "must hold numbers"),
        ({}, {"shieldwall.sides": "red,blue"}, "shieldwall.sides (metadata)", "not JSON"),
        ({}, {"shieldwall.sides": '"red"'}, "shieldwall.sides (metadata)", "a list of side names"),
        ({}, {"shieldwall.variants": "[1]"}, "shieldwall.variants (metadata)", "a list of variant names"),
        (
            {},
            {"shieldwall.loss_columns": '[["lost_red_cavalry", "red", "cavalry"]]'},
            "lost_red_cavalry",
            "missing column",
        ),
        ({}, {"shieldwall.loss_columns": '["x"]'}, "shieldwall.loss_columns (metadata)", "must be"),
        ({}, {"shieldwall.seed": "abc"}, "shieldwall.seed (metadata)", "must be a whole number"),
    ],
)
def test_a_bad_column_or_entry_is_one_line_naming_it(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    columns: dict[str, Any],
    metadata: dict[str, str] | None,
    field: str,
    words: str,
) -> None:
    path = _write(tmp_path / "copied.parquet", metadata, **columns)
    plots = tmp_path / "plots"
    code, out, err = _report(capsys, path, plots)
    assert code == 2, err
    assert err.startswith(f"error: {path}: {field}: ") and words in err, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert not plots.exists()  # refused before any figure or plot


def test_a_copied_file_without_metadata_is_summarised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path / "copied.parquet")
    code, out, err = _report(capsys, path, tmp_path / "plots", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["sides"] == ["blue", "red"]  # from the winners, without the metadata's order
    base, d6 = data["variants"]
    assert base["wins"] == {"blue": 1, "red": 2} and base["draws"] == 1
    assert d6["overrides"] == {"dice": "d6"}
    assert base["mean_losses"][""]["lost_red_infantry"] == pytest.approx(0.75)


def test_a_file_of_draws_only_is_summarised(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No side ever won: without the metadata there is no side to count wins for (the SQL had an
    empty list of wins before)."""
    path = _write(tmp_path / "draws.parquet", winner=["draw"] * (2 * N))
    code, out, err = _report(capsys, path, tmp_path / "plots", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["sides"] == [] and [v["draws"] for v in data["variants"]] == [N, N]
    code, out, err = _report(capsys, path, tmp_path / "plots")  # the tables too
    assert code == 0 and "Traceback" not in err, err


def test_overrides_may_be_missing_or_empty(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "no-overrides.parquet", overrides=None)
    code, out, err = _report(capsys, path, tmp_path / "plots", "--json")
    assert code == 0, err
    assert [v["overrides"] for v in json.loads(out)["variants"]] == [{}, {}]
    path = _write(tmp_path / "null-overrides.parquet", overrides=pa.array(NULL8, pa.string()))
    code, out, err = _report(capsys, path, tmp_path / "plots", "--json")
    assert code == 0, err
    assert [v["overrides"] for v in json.loads(out)["variants"]] == [{}, {}]


def test_plots_show_names_with_dollar_signs_as_they_are(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A scenario or variant named with ``$`` (mathtext to matplotlib) is drawn as it is: a name
    such as ``$\\frac{$`` stopped the plot with a ParseSyntaxException before."""
    name = "Price $\\frac{$ Glas"
    variant = ["baseline"] * N + ["$\\frac{$"] * N
    path = _write(tmp_path / "dollars.parquet", {"shieldwall.scenario_name": name}, variant=variant)
    code, out, err = _report(capsys, path, tmp_path / "plots", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["scenario"] == name
    for p in data["plots"]:
        assert Path(p).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
