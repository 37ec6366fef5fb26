"""``shieldwall simulate`` with the search bot: against another bot and against itself (self-play)."""

from __future__ import annotations

import json

import pytest

from shieldwall.ai.mcts import BadBudget
from shieldwall.cli import run as cli_run
from shieldwall.core.errors import UnknownName
from shieldwall.sim.simulate import SimConfig, prepare


def test_simulate_takes_the_search_bot_with_a_budget(short_scenario: str) -> None:
    prepare(SimConfig(short_scenario, battles=1, red="mcts:3", blue="mcts"))
    with pytest.raises(BadBudget):
        prepare(SimConfig(short_scenario, battles=1, red="mcts:lots"))
    with pytest.raises(UnknownName):
        prepare(SimConfig(short_scenario, battles=1, blue="deep-blue"))


def test_self_play_with_a_variant_replays(short_scenario: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", short_scenario, "-n", "2", "--seed", "4", "--workers", "1", "--red", "mcts:3"]
    args += ["--blue", "mcts:3", "--variant", "dice=d6", "--json", "--no-progress"]
    outs = []
    for _ in range(2):
        assert cli_run(args) == 0
        data = json.loads(capsys.readouterr().out)
        outs.append([(v["variant"], v["wins"], v["draws"], v["mean_turns"]) for v in data["variants"]])
    assert outs[0] == outs[1]  # a playout budget replays: the same figures twice
    assert [v[0] for v in outs[0]] == ["baseline", "dice=d6"]
    assert all(sum(v[1].values()) + v[2] == 2 for v in outs[0])
