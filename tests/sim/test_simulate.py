"""The simulator: results independent of workers, common random numbers across variants, variant
errors, the --json shape, Parquet rows and the DuckDB report."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from shieldwall.cli import run as cli_run
from shieldwall.core.errors import UnknownName
from shieldwall.io.scenarios import load_game
from shieldwall.match import play
from shieldwall.sim.runner import Batch
from shieldwall.sim.seeds import spawned_seeds
from shieldwall.sim.simulate import SimConfig, VariantError, parse_variant, prepare, run


def _rows(path: Path) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = pq.read_table(path).to_pylist()
    return rows


def test_parse_variant_syntax() -> None:
    assert parse_variant("dice=d6") == {"dice": "d6"}
    assert parse_variant(" dice = d6 , hit_limit=12 ") == {"dice": "d6", "hit_limit": "12"}
    for bad in ("dice", "=d6", "dice=", "", "dice=d6,dice=d5"):
        with pytest.raises(VariantError):
            parse_variant(bad)


def test_unknown_variant_key_lists_the_declared_parameters(short_scenario: str) -> None:
    with pytest.raises(UnknownName) as e:
        prepare(SimConfig(short_scenario, battles=1, variants=["dice=d6", "warrior_bonus=2"]))
    msg = str(e.value)
    assert "'warrior_bonus'" in msg
    for key in ("warriors_bonus", "dice", "hit_limit", "fall_back"):
        assert key in msg
    with pytest.raises(UnknownName) as e2:
        prepare(SimConfig(short_scenario, battles=1, variants=["dice=d7"]))
    assert "d5" in str(e2.value) and "d6" in str(e2.value)
    with pytest.raises(VariantError):
        prepare(SimConfig(short_scenario, battles=1, variants=["hit_limit=many"]))


def test_unknown_variant_key_on_the_command_line(
    short_scenario: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli_run(["simulate", short_scenario, "-n", "1", "--variant", "bogus=1", "--json"])
    assert code == 2
    err = capsys.readouterr().err
    assert "bogus" in err and "warriors_bonus" in err and "Traceback" not in err


def test_results_are_identical_for_one_and_two_local_workers(short_scenario: str, tmp_path: Path) -> None:
    outs = []
    for workers, batch in ((1, None), (2, 1), (2, 3)):
        out = tmp_path / f"w{workers}-b{batch}.parquet"
        res = run(
            SimConfig(
                short_scenario,
                battles=5,
                seed=42,
                workers=workers,
                red="random",
                blue="random",
                variants=["dice=d6"],
                out=out,
                batch_size=batch,
            )
        )
        assert res.workers == workers
        outs.append((_rows(out), res.to_dict()))
    (rows1, d1), (rows2, d2), (rows3, d3) = outs
    assert rows1 == rows2 == rows3
    for key in ("wins", "draws", "win_rate", "ci95", "mean_turns", "variants", "differences"):
        assert d1[key] == d2[key] == d3[key]


def test_each_battle_replays_alone_from_its_row(short_scenario: str) -> None:
    res = run(SimConfig(short_scenario, battles=3, seed=9, workers=1, red="random", blue="scripted"))
    game = load_game(short_scenario)
    wins = {"red": 0, "blue": 0}
    for seed in spawned_seeds(9, 3):
        r = play(game, seed, "random", "scripted").state.result()
        assert r is not None
        if r.winner:
            wins[r.winner] += 1
    assert res.to_dict()["wins"] == wins


def test_variants_share_seeds_common_random_numbers(short_scenario: str, tmp_path: Path) -> None:
    out = tmp_path / "crn.parquet"
    run(
        SimConfig(
            short_scenario,
            battles=4,
            seed=5,
            workers=1,
            red="random",
            blue="random",
            variants=["dice=d6", "hit_limit=12,warriors_bonus=2"],
            out=out,
            batch_size=3,
        )
    )
    rows = _rows(out)
    assert len(rows) == 12
    by_variant: dict[str, list[tuple[object, object]]] = {}
    for r in rows:
        by_variant.setdefault(str(r["variant"]), []).append((r["battle"], r["seed"]))
    assert list(by_variant) == ["baseline", "dice=d6", "hit_limit=12,warriors_bonus=2"]
    want = [(i, s) for i, s in enumerate(spawned_seeds(5, 4))]
    for pairs in by_variant.values():
        assert sorted(pairs, key=str) == sorted(want, key=str)
    overrides = {str(r["variant"]): json.loads(str(r["overrides"])) for r in rows}
    assert overrides["hit_limit=12,warriors_bonus=2"] == {"hit_limit": 12, "warriors_bonus": 2}
    assert overrides["baseline"] == {}


def test_json_shape(short_scenario: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli_run(
        ["simulate", short_scenario, "--battles", "3", "--seed", "1", "--workers", "1"]
        + ["--red", "random", "--blue", "random", "--variant", "dice=d6", "--json"]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    for key in ("battles", "wins", "draws", "win_rate", "ci95", "mean_turns", "battles_per_second"):
        assert key in data
    assert data["battles"] == 3 and data["total_battles"] == 6
    assert set(data["wins"]) == {"red", "blue"} == set(data["win_rate"]) == set(data["ci95"])
    assert sum(data["wins"].values()) + data["draws"] == 3
    for side in ("red", "blue"):
        lo, hi = data["ci95"][side]
        assert 0.0 <= lo <= data["win_rate"][side] <= hi <= 1.0
    assert data["battles_per_second"] > 0
    assert [v["variant"] for v in data["variants"]] == ["baseline", "dice=d6"]
    assert data["variants"][0]["wins"] == data["wins"]
    (diff,) = data["differences"]
    assert diff["variant"] == "dice=d6" and diff["win_rate"]["red"]["pairs"] == 3


def test_table_output(short_scenario: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli_run(
        ["simulate", short_scenario, "-n", "2", "--workers", "1", "--red", "random", "--blue", "random"]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "red wins" in out and "battles per second" in out and "Mean units lost" in out


def test_parquet_and_report(short_scenario: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "runs" / "sim.parquet"
    code = cli_run(
        ["simulate", short_scenario, "-n", "6", "--seed", "3", "--workers", "1", "--red", "random"]
        + ["--blue", "random", "--variant", "dice=d6", "--out", str(out), "--json"]
    )
    assert code == 0
    sim = json.loads(capsys.readouterr().out)
    rows = _rows(out)
    assert len(rows) == 12
    cols = set(rows[0])
    assert {
        "seed",
        "winner",
        "turns",
        "variant",
        "lost_red",
        "lost_blue",
        "lost_blue_cavalry_javelins",
    } <= cols
    # the rows agree with the run's own summary
    base = [r for r in rows if r["variant"] == "baseline"]
    assert sum(r["winner"] == "red" for r in base) == sim["wins"]["red"]
    assert sum(r["winner"] == "draw" for r in base) == sim["draws"]

    plots = tmp_path / "plots"
    code = cli_run(["report", str(out), "--plots", str(plots), "--json"])
    assert code == 0
    rep = json.loads(capsys.readouterr().out)
    for p in rep["plots"]:
        assert Path(p).exists() and Path(p).stat().st_size > 1000
        assert Path(p).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert {Path(p).name for p in rep["plots"]} == {"sim-winrate.png", "sim-turns.png"}
    # DuckDB's summary equals the rows
    assert rep["rows"] == 12
    for v in rep["variants"]:
        mine = [r for r in rows if r["variant"] == v["variant"]]
        assert v["battles"] == len(mine)
        for side in ("red", "blue"):
            assert v["wins"][side] == sum(r["winner"] == side for r in mine)
        assert v["draws"] == sum(r["winner"] == "draw" for r in mine)
        assert v["mean_turns"] == pytest.approx(sum(int(str(r["turns"])) for r in mine) / len(mine))
        assert v["mean_losses"]["red"]["infantry"] == pytest.approx(
            sum(int(str(r["lost_red_infantry"])) for r in mine) / len(mine)
        )
    # ... and the simulator's own figures
    assert [v["wins"] for v in rep["variants"]] == [v["wins"] for v in sim["variants"]]
    assert [v["ci95"] for v in rep["variants"]] == [v["ci95"] for v in sim["variants"]]
    (d,) = rep["differences"]
    (sd,) = sim["differences"]
    for side in ("red", "blue"):
        assert d["win_rate"][side]["diff"] == pytest.approx(sd["win_rate"][side]["diff"])
        assert d["win_rate"][side]["ci95"] == pytest.approx(sd["win_rate"][side]["ci95"])
    assert d["mean_turns"]["diff"] == pytest.approx(sd["mean_turns"]["diff"])

    # the table form prints and the default plot directory is next to the file
    assert cli_run(["report", str(out)]) == 0
    assert (out.parent / "sim-winrate.png").exists()
    assert "red wins" in capsys.readouterr().out


def test_report_on_a_file_that_is_not_a_simulation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "x.parquet"
    bad.write_text("not parquet")
    assert cli_run(["report", str(bad)]) == 2
    assert "Parquet" in capsys.readouterr().err
    assert cli_run(["report", str(tmp_path / "missing.parquet")]) == 2


def test_backends_keep_a_bounded_window_of_batches(short_scenario: str) -> None:
    """Memory flat in N, structurally: batches are drawn lazily and only ``WINDOW_PER_WORKER`` per
    worker are in flight, however many the run has (the peak RSS is in benchmarks/bench_sim.py)."""
    from shieldwall.sim import backends
    from shieldwall.sim.simulate import plan

    _, setups = prepare(SimConfig(short_scenario, battles=1, red="random", blue="random"))
    for workers in (1, 2):
        drawn = 0

        def lazy() -> Iterator[Batch]:
            nonlocal drawn
            for b in plan(setups, 3, 12, 1):
                drawn += 1
                yield b

        got = 0
        most_ahead = 0
        for rows in backends.run_local(lazy(), workers):
            got += 1
            most_ahead = max(most_ahead, drawn - got)
            assert len(rows) == 1
        assert got == drawn == 12
        assert most_ahead <= max(1, workers * backends.WINDOW_PER_WORKER)


def test_simulate_help_lists_every_rule_systems_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli_run(["simulate", "--help"])
    out = " ".join(capsys.readouterr().out.split())  # rich wraps the help to the terminal
    assert code == 0
    assert "Parameters of one-hour-dark-ages" in out and "Parameters of into-the-dark" in out
    assert "command_and_control" in out


def test_the_cli_starts_without_importing_the_game_engines() -> None:
    """The simulate epilog is built lazily: starting the CLI (e.g. for `odds attack`) does not pay
    for importing the rule engines it does not use."""
    import subprocess
    import sys

    code = (
        "import sys, shieldwall.cli; "
        "bad = [m for m in ('shieldwall.rulesets.into_the_dark.game', 'shieldwall.rulesets.one_hour.game') "
        "if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
