"""The plugin boundary, proven by a toy: ``tests/toy/toy_duel`` is a rule system of two units, one
die and one rule that lives outside ``src/`` and registers through the entry-point group
``shieldwall.rulesets`` (its ``toy_duel-0.1.dist-info`` makes ``tests/toy`` an installed
distribution when that folder is on the path). With no change to any host file it is listed,
plays ``battle``, ``replay`` and ``simulate``, answers an ``odds`` query and passes the
conformance suite every rule system passes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from shieldwall import registry
from shieldwall.core.errors import IllegalOrder, UnknownName
from shieldwall.plugin import PluginError, RuleSystem

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "toy"


def toy_env() -> dict[str, str]:
    """The environment of a ``shieldwall`` process that has the toy installed."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(TOY), env.get("PYTHONPATH", "")) if p)
    return env


def shieldwall(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "shieldwall.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env=toy_env(),
    )


@pytest.fixture
def toy() -> Iterator[RuleSystem]:
    """The toy installed in this process for the duration of one test."""
    sys.path.insert(0, str(TOY))
    registry.refresh()
    try:
        yield registry.get("toy-duel")
    finally:
        sys.path.remove(str(TOY))
        for name in [m for m in sys.modules if m == "toy_duel" or m.startswith("toy_duel.")]:
            del sys.modules[name]
        registry.refresh()


def test_the_toy_is_not_registered_unless_installed() -> None:
    assert "toy-duel" not in registry.ids()


def test_the_toy_registers_through_the_entry_point_group(toy: RuleSystem) -> None:
    assert toy.id in registry.ids()
    assert registry.ids()[-1] == "toy-duel"  # order 900: after the built-in systems
    assert toy.board == "tabletop" and toy.sides == ("red", "blue")
    from shieldwall.io.scenarios import builtin_scenarios

    assert "toy-duel/skirmish" in builtin_scenarios()


def test_shieldwall_rulesets_and_scenarios_list_the_toy() -> None:
    p = shieldwall("rulesets")
    assert p.returncode == 0, p.stderr
    assert "toy-duel" in p.stdout and "Toy duel" in p.stdout
    p = shieldwall("scenarios")
    assert p.returncode == 0, p.stderr
    assert "toy-duel/skirmish" in p.stdout


def test_battle_then_replay_of_the_toy(tmp_path: Path) -> None:
    save = tmp_path / "toy.json"
    p = shieldwall(
        "battle",
        "skirmish",
        "--seed",
        "4",
        "--red",
        "random",
        "--blue",
        "random",
        "--json",
        "--save",
        str(save),
    )
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["result"]["winner"] in ("red", "blue", None)
    assert any(e["rule"] == "toy-duel:strike" for e in out["events"])
    saved = json.loads(save.read_text(encoding="utf-8"))
    assert saved["ruleset"] == "toy-duel" and saved["orders"]
    p = shieldwall("replay", str(save))
    assert p.returncode == 0, p.stderr
    # the same seed gives the same battle
    again = shieldwall("battle", "skirmish", "--seed", "4", "--red", "random", "--blue", "random", "--json")
    assert json.loads(again.stdout)["events"] == out["events"]


def test_battle_with_a_bot_the_toy_does_not_have_is_a_clear_error() -> None:
    p = shieldwall("battle", "toy-duel/skirmish", "--red", "scripted", "--blue", "random")
    assert p.returncode != 0
    assert "Traceback" not in p.stderr
    assert "scripted" in p.stderr and "random" in p.stderr


def test_simulate_the_toy(tmp_path: Path) -> None:
    p = shieldwall(
        "simulate",
        "toy-duel/skirmish",
        "-n",
        "12",
        "--workers",
        "1",
        "--red",
        "random",
        "--blue",
        "random",
        "--json",
        "--variant",
        "hit_on=6",
    )
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert "Traceback" not in p.stderr
    text = json.dumps(data)
    assert "hit_on=6" in text or "hit_on" in text


def test_odds_query_of_the_toy() -> None:
    p = shieldwall(
        "odds",
        "attack",
        "toy-duel",
        "--attacker",
        "champion",
        "--target",
        "champion",
        "--set",
        "hit_on=5",
        "--json",
    )
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    probs = {d["value"]: Fraction(d["probability"]) for d in data["distribution"]}
    assert probs == {0: Fraction(2, 3), 1: Fraction(1, 3)}
    p = shieldwall("odds", "morale", "toy-duel", "--unit", "champion")
    assert p.returncode != 0 and "Traceback" not in p.stderr and "attack" in p.stderr


def test_the_toy_passes_the_conformance_suite(toy: RuleSystem) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "conformance", ROOT / "tests/conformance/test_conformance.py"
    )
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    scenario = "toy-duel/skirmish"
    mod.test_legal_orders_are_accepted_and_round_trip(scenario)
    for bad in ("fight", {"kind": "teleport"}, "charge r1 b1 sideways"):
        mod.test_illegal_orders_are_refused_and_change_nothing(scenario, bad)
    mod.test_same_seed_same_log_and_copy_is_independent(scenario)
    mod.test_random_game_terminates_with_a_result(scenario)


def test_the_toy_is_drawn_and_narrated_by_the_generic_host(toy: RuleSystem) -> None:
    from shieldwall.io.scenarios import load_game
    from shieldwall.match import play
    from shieldwall.render.narrate import describe
    from shieldwall.render.svg import render_svg

    st = play(load_game("toy-duel/skirmish"), 2, "random", "random").state
    svg = render_svg(st.view())
    assert svg.startswith("<svg") and 'data-unit="red"' in svg and 'data-unit="blue"' in svg
    lines = [describe(e) for e in st.events]
    assert all(line is None or isinstance(line, str) for line in lines)
    assert any(line for line in lines)


def test_broken_plugins_are_named_not_tracebacks(toy: RuleSystem, tmp_path: Path) -> None:
    with pytest.raises(PluginError, match="no_such_module"):
        RuleSystem(
            info=toy.info, package="toy_duel", game="no_such_module:Game", parameters="x:y"
        ).game_class()
    with pytest.raises(PluginError, match="module:attribute"):
        RuleSystem(info=toy.info, package="toy_duel", game="not a reference", parameters="x:y")
    with pytest.raises(UnknownName, match="toy-duel"):
        registry.get("no-such-system")
    st = registry.game_class("toy-duel").from_data({"ruleset": "toy-duel"}, "t", {}).new_state(1)
    with pytest.raises(IllegalOrder, match="toy-duel:strike"):
        st.apply("dance")


def _broken_dist(tmp_path: Path, value: str) -> dict[str, Any]:
    d = tmp_path / "broken-0.1.dist-info"
    d.mkdir()
    (d / "METADATA").write_text("Metadata-Version: 2.1\nName: broken\nVersion: 0.1\n", encoding="utf-8")
    (d / "entry_points.txt").write_text(f"[shieldwall.rulesets]\nbroken = {value}\n", encoding="utf-8")
    env = toy_env()
    env["PYTHONPATH"] = os.pathsep.join((str(tmp_path), env["PYTHONPATH"]))
    return env


@pytest.mark.parametrize("value", ["no_such_package.plugin:PLUGIN", "json:dumps"])
def test_a_broken_installed_plugin_is_one_line_error(tmp_path: Path, value: str) -> None:
    p = subprocess.run(
        [sys.executable, "-m", "shieldwall.cli", "rulesets"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=_broken_dist(tmp_path, value),
    )
    assert p.returncode != 0
    assert "Traceback" not in p.stderr
    assert "broken" in p.stderr
