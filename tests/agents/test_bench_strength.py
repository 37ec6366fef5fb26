"""benchmarks/bench_strength.py: its records, intervals and Elo-style fit (on cheap bots)."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest
from tests.file_module import load


def _bench() -> ModuleType:
    return load("benchmarks/bench_strength.py")


def test_wilson_and_elo() -> None:
    b = _bench()
    lo, hi = b.wilson(20, 20)
    assert round(lo, 3) == 0.839 and hi == 1.0
    assert b.wilson(0, 0) == (0.0, 1.0)
    recs = [{"red": "a", "blue": "b", "winner": "a"}] * 3 + [{"red": "b", "blue": "a", "winner": None}]
    r = b.elo(recs, ["a", "b"], "b")
    assert r["b"] == 0.0 and r["a"] > 100.0
    even = b.elo(
        [{"red": "a", "blue": "b", "winner": "a"}, {"red": "b", "blue": "a", "winner": "b"}], ["a", "b"], "a"
    )
    assert even["b"] == pytest.approx(0.0, abs=1e-9)


def test_a_small_run_plays_both_sides_and_saves_as_it_goes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    b = _bench()
    out = tmp_path / "run.json"
    clocks: dict[str, list[float]] = {"scripted": [], "random": [], "mcts:2": []}
    names = b.scenarios(["knight-hack/bourgtheroulde-1124"])
    recs = b.run(["random", "mcts:2"], names, 1, 0, clocks, str(out))
    assert [(r["red"], r["blue"]) for r in recs] == [("random", "mcts:2"), ("mcts:2", "random")]
    assert json.loads(out.read_text())["records"] == recs
    assert clocks["mcts:2"] and not clocks["random"]  # only searched decisions are timed
    b.report(recs, clocks)
    text = capsys.readouterr().out
    assert "| `mcts:2` | `random` | all | 2 |" in text and "Elo-style rating" in text
    dbm = b.scenarios(["dbm-3.2"])  # a rule-system id names its built-in scenarios
    assert "dbm-3.2/ford-of-ash" in dbm and all(n.startswith("dbm-3.2/") for n in dbm)


def test_mirror_pairs_each_battle_with_the_base_bot_in_the_bot_s_place(
    capsys: pytest.CaptureFixture[str],
) -> None:
    b = _bench()
    kh = "knight-hack/bourgtheroulde-1124"
    rec = {"scenario": kh, "ruleset": "knight-hack", "seed": 0, "red": "copy", "blue": "scripted"}
    game = b.load_game(kh)
    made = [b.make_bot("scripted", b.bot_seed(0, i), "knight-hack") for i in (0, 1)]
    winner = b.play(game, 0, made[0], made[1]).state.result().winner  # the mirror's: red or blue
    as_mirror = "copy" if winner == "red" else ("scripted" if winner == "blue" else None)
    other = "scripted" if as_mirror == "copy" else "copy"
    b.mirror([rec | {"winner": as_mirror}, rec | {"winner": other}], "scripted")
    text = capsys.readouterr().out
    better, worse = (0, 1) if as_mirror == "copy" else (1, 0)
    assert f"| `copy` | all | red | 2 | {better} | 1 | {worse} |" in text
    assert f"| `copy` | knight-hack | red | 2 | {better} | 1 | {worse} |" in text


def test_cost_times_the_bot_s_decisions(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    b = _bench()
    argv = [
        "bench_strength.py",
        "--cost",
        "mcts:2",
        "--decisions",
        "2",
        "--scenarios",
        "knight-hack/bourgtheroulde-1124",
    ]
    monkeypatch.setattr("sys.argv", argv)
    b.main()
    row = capsys.readouterr().out.splitlines()[-1]
    assert row.startswith("| knight-hack/bourgtheroulde-1124 | `mcts:2` | 2 | ")


def test_battles_lost_to_random_are_listed_with_the_command_that_replays_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The report's last table: every battle a bot lost to ``random``, and the ``shieldwall battle``
    command that plays it again (Bourgtheroulde seed 1: the scripted bot loses it as red)."""
    from shieldwall.cli import run as cli

    b = _bench()
    clocks: dict[str, list[float]] = {"random": [], "scripted": []}
    recs = b.run(["random", "scripted"], b.scenarios(["knight-hack/bourgtheroulde-1124"]), 1, 1, clocks, None)
    lost = [r for r in recs if r["winner"] == "random"]
    assert lost and all("scripted" in (r["red"], r["blue"]) for r in lost)
    capsys.readouterr()
    b.lost_to(recs)
    text = capsys.readouterr().out
    assert f"Battles lost to `random`: {len(lost)}" in text
    for r in lost:
        side = "red" if r["red"] == "random" else "blue"  # the side random played, which won
        cmd = f"shieldwall battle {r['scenario']} --seed {r['seed']} --red {r['red']} --blue {r['blue']}"
        assert f"`{cmd}`" in text
        assert cli(cmd.split()[1:]) == 0
        assert f"{side} wins" in capsys.readouterr().out  # the command plays the same battle
    b.lost_to([r for r in recs if r["winner"] != "random"])
    assert "Battles lost to `random`: none" in capsys.readouterr().out
    b.lost_to([{**r, "red": "scripted", "blue": "scripted"} for r in recs])
    assert capsys.readouterr().out == ""  # no battle against random: no table
