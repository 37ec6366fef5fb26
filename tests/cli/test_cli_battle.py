"""The command line: battle (narrated and --json), save files, replay verification, listings, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shieldwall.cli import run
from shieldwall.core.errors import DataError, ReplayMismatch
from shieldwall.io.saves import read_save, replay


def test_battle_narrates_and_gives_a_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["battle", "--seed", "4", "--red", "random", "--blue", "random"]) == 0
    out = capsys.readouterr().out
    assert "Turn 2" in out and "Result:" in out and "rolls" in out


def test_battle_json_is_the_whole_event_log_and_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["battle", "--seed", "4", "--red", "random", "--blue", "random", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ruleset"] == "one-hour-dark-ages" and data["seed"] == 4
    assert data["events"][0]["kind"] == "battle" and data["events"][-1]["kind"] == "result"
    assert data["result"]["winner"] in ("red", "blue", None)
    assert all({"turn", "phase", "side", "kind", "rule", "data"} <= set(e) for e in data["events"])


def test_same_seed_same_json_twice(capsys: pytest.CaptureFixture[str]) -> None:
    run(["battle", "--seed", "8", "--red", "random", "--blue", "scripted", "--json"])
    a = capsys.readouterr().out
    run(["battle", "--seed", "8", "--red", "random", "--blue", "scripted", "--json"])
    assert capsys.readouterr().out == a


def test_save_and_replay_verify_every_event(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "b.json"
    assert run(["battle", "--seed", "3", "--red", "random", "--blue", "random", "--save", str(save)]) == 0
    capsys.readouterr()
    assert run(["replay", str(save), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verified"] is True and out["result"]["winner"] in ("red", "blue", None)
    data = read_save(save)
    assert data["seed"] == 3 and data["orders"] and data["scenario"]["ruleset"] == "one-hour-dark-ages"


def test_replay_detects_a_tampered_event(tmp_path: Path) -> None:
    save = tmp_path / "b.json"
    run(["battle", "--seed", "3", "--red", "random", "--blue", "random", "--save", str(save)])
    data = read_save(save)
    rolls = [i for i, e in enumerate(data["events"]) if e["kind"] == "roll"]
    data["events"][rolls[2]]["data"]["faces"] = [99]
    with pytest.raises(ReplayMismatch) as e:
        replay(data)
    assert e.value.index == rolls[2]


def test_replay_of_a_broken_save_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert run(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "bad.json" in err and "Traceback" not in err
    bad.write_text(
        json.dumps({"format": "shieldwall-save/1", "scenario": {}, "seed": 1, "orders": []}), encoding="utf-8"
    )
    with pytest.raises(DataError) as e:
        replay(read_save(bad), str(bad))
    assert e.value.field == "ruleset"


def test_replay_names_a_missing_seed_bad_overrides_and_an_edited_result(tmp_path: Path) -> None:
    """Found by an exploratory test: a save without its seed was refused at an order it had made
    illegal ("orders[3] ... is not legal on replay"), overrides that are not a table printed a
    traceback, and a save whose result was edited replayed as "all identical"."""
    save = tmp_path / "b.json"
    run(["battle", "--seed", "3", "--red", "random", "--blue", "random", "--save", str(save)])
    data = read_save(save)
    assert replay(data, "b.json").result() is not None
    for key, value, field in (
        ("seed", None, "seed"),
        ("overrides", "x", "overrides"),
        ("overrides", [1], "overrides"),
    ):
        broken = {**data, key: value}
        with pytest.raises(DataError) as e:
            replay(broken, "b.json")
        assert e.value.field == field, (key, value, str(e.value))
    edited = {
        **data,
        "result": {**data["result"], "winner": "blue" if data["result"]["winner"] != "blue" else "red"},
    }
    with pytest.raises(DataError) as e:
        replay(edited, "b.json")
    assert e.value.field == "result"
    (tmp_path / "e.json").write_text(json.dumps(edited), encoding="utf-8")
    assert run(["replay", str(tmp_path / "e.json")]) == 2


def test_replay_with_an_illegal_order_names_it(tmp_path: Path) -> None:
    save = tmp_path / "b.json"
    run(["battle", "--seed", "3", "--red", "random", "--blue", "random", "--save", str(save)])
    data = read_save(save)
    data["orders"][0] = {"kind": "activate", "unit": "nobody"}
    with pytest.raises(DataError) as e:
        replay(data, "b.json")
    assert e.value.field == "orders[0]"


def test_listings(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["rulesets"]) == 0
    assert "one-hour-dark-ages" in capsys.readouterr().out
    assert run(["scenarios"]) == 0
    assert "bryn-glas" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["battle", "--red", "grandmaster"], "unknown bot 'grandmaster'"),
        (["battle", "nowhere"], "unknown scenario 'nowhere'"),
        (["battle", "--variant", "dice=d7"], "valid choices: d5, d6"),
        (["battle", "--variant", "bogus=1"], "unknown parameter 'bogus'"),
    ],
)
def test_bad_arguments_are_one_line_errors(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and needle in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_battle_draws_the_final_table(tmp_path: Path) -> None:
    svg = tmp_path / "end.svg"
    assert run(["battle", "--seed", "2", "--red", "random", "--blue", "random", "--svg", str(svg)]) == 0
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<svg") or text.startswith("<?xml")
    assert 'data-unit="' in text


@pytest.mark.parametrize(
    ("args", "expect"),
    [
        (["battle", "--seed", "-1"], "--seed"),
        (["simulate", "-n", "1", "--seed", "-3"], "--seed"),
        (["battle", "into-the-dark/senlac", "--variant", "turns=abc"], "turns"),
        (["battle", "into-the-dark/senlac", "--variant", "turns=100000"], "from 1 to 100"),
    ],
)
def test_bad_numbers_on_the_command_line_are_named_not_tracebacks(
    args: list[str], expect: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = run(args)
    cap = capsys.readouterr()
    assert code == 2
    assert expect in cap.out + cap.err and "Traceback" not in cap.out + cap.err


def test_a_save_with_a_negative_seed_is_refused_by_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "s.json"
    assert run(["battle", "--seed", "3", "--save", str(save)]) == 0
    data = json.loads(save.read_text())
    data["seed"] = -5
    save.write_text(json.dumps(data))
    with pytest.raises(DataError) as e:
        read_save(save)
    assert e.value.field == "seed" and "0 or more" in e.value.reason
