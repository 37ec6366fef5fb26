"""The DBM 3.2 game: a scenario bound to its data set and the rule parameters."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shieldwall.core.game import Game, Parameter
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.plugin import INFO
from shieldwall.rulesets.dbm.scenario import Scenario, build_scenario
from shieldwall.rulesets.dbm.state import DbmState

PARAMETERS: dict[str, Parameter] = {
    "bounds": Parameter(
        "bounds",
        12,
        "bounds each side plays before the battle ends (game.toml)",
        rule=rule("victory.quarter"),
        low=1,
        high=200,  # (as a scenario's ``bounds``)
    ),
    "hand_deployment": Parameter(
        "hand_deployment",
        False,
        "The sides place their commands by hand, largest first, each command's rectangle wholly "
        "within its side's deployment zone (ruling R45); off: the seeded procedure deploys them.",
        rule=rule("deploy.rectangle"),
    ),
}


class DbmGame(Game):
    info = INFO
    parameters = PARAMETERS

    def __init__(self, scenario: Scenario, params: Mapping[str, Any]) -> None:
        self.scenario = scenario
        self._params = dict(params)

    @classmethod
    def from_data(
        cls, data: Mapping[str, Any], file: str, overrides: Mapping[str, Any] | None = None
    ) -> DbmGame:
        sc = build_scenario(data, file)
        params = {"bounds": sc.spec.bounds} | cls.check_params(dict(overrides or {}))
        return cls(sc, params)

    @property
    def params(self) -> Mapping[str, Any]:
        return self._params

    @property
    def scenario_name(self) -> str:
        return self.scenario.name

    def new_state(self, seed: int | None = None) -> DbmState:
        return DbmState(self, seed)
