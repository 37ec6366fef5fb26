"""Events, errors and the parameter handling of the Game/State API."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

from shieldwall.core.errors import DataError, IllegalOrder, ReplayMismatch, ShieldwallError, UnknownName
from shieldwall.core.events import Event
from shieldwall.core.game import (
    BattleState,
    Decision,
    Game,
    Parameter,
    Result,
    RulesetInfo,
    ScenarioGame,
    State,
)
from shieldwall.core.terrain import TerrainMap


def test_event_round_trip() -> None:
    e = Event(3, "melee", "saxons", "roll", "one-hour-dark-ages:melee.terrain", {"faces": [4, 6]})
    d = e.to_dict()
    assert d == {
        "turn": 3,
        "phase": "melee",
        "side": "saxons",
        "kind": "roll",
        "rule": "one-hour-dark-ages:melee.terrain",
        "data": {"faces": [4, 6]},
    }
    assert Event.from_dict(d) == e
    bare = Event.from_dict({"turn": 1, "phase": "setup", "side": None, "kind": "start", "rule": "x:y"})
    assert bare.data == {}
    assert bare.side is None
    # from_dict copies the data dict
    payload = {"a": 1}
    src: dict[str, Any] = {"turn": 1, "phase": "p", "side": None, "kind": "k", "rule": "r", "data": payload}
    ev = Event.from_dict(src)
    payload["a"] = 2
    assert ev.data == {"a": 1}


def test_error_messages() -> None:
    e = IllegalOrder("one-hour-dark-ages:move.distance", "too far")
    assert str(e) == "illegal order (one-hour-dark-ages:move.distance): too far"
    assert (e.rule, e.reason) == ("one-hour-dark-ages:move.distance", "too far")
    assert isinstance(e, ShieldwallError) and isinstance(e, ValueError)
    assert str(DataError("a.toml", "units[0].size", "bad")) == "a.toml: units[0].size: bad"
    assert str(DataError("a.toml", "", "bad")) == "a.toml: bad"
    u = UnknownName("bot", "rnd", ("random", "greedy"))
    assert str(u) == "unknown bot 'rnd'; valid choices: random, greedy"
    assert u.choices == ["random", "greedy"]
    r = ReplayMismatch(4, "a", "b")
    assert r.index == 4 and "event 4 differs" in str(r)


@pytest.mark.parametrize(
    ("default", "text", "value"),
    [
        (True, "yes", True),
        (True, "OFF", False),
        (False, " 1 ", True),
        (3, "7", 7),
        (1.5, "2.25", 2.25),
        ("a", "b", "b"),
    ],
)
def test_parameter_parse(default: Any, text: str, value: Any) -> None:
    got = Parameter("p", default, "doc").parse(text)
    assert got == value
    assert type(got) is type(value)


@pytest.mark.parametrize(("default", "text"), [(True, "maybe"), (3, "3.5"), (1.5, "x")])
def test_parameter_parse_type_errors(default: Any, text: str) -> None:
    with pytest.raises(ValueError, match="parameter 'p' expects (yes or no|a whole number|a number), got"):
        Parameter("p", default, "doc").parse(text)


def test_parameter_choices() -> None:
    p = Parameter("dice", "d6", "which die", choices=("d6", "d5"))
    assert p.parse("d5") == "d5"
    with pytest.raises(UnknownName, match="valid choices: d6, d5"):
        p.parse("d8")


class _Game(Game):
    info: ClassVar[RulesetInfo] = RulesetInfo("t", "Test", "hex", ("a", "b"), "none", "test")
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "turns": Parameter("turns", 8, "game length", choices=(6, 8, 10)),
        "rout": Parameter("rout", True, "rout tests"),
        "mode": Parameter("mode", "open", "deployment", choices=("open", "hidden")),
    }

    def new_state(self, seed: int | None = None) -> State:
        raise NotImplementedError

    @property
    def params(self) -> Mapping[str, Any]:
        return {}

    @property
    def scenario_name(self) -> str:
        return "test"


def test_check_params() -> None:
    assert _Game.check_params({"turns": "10", "rout": "no", "mode": "hidden"}) == {
        "turns": 10,
        "rout": False,
        "mode": "hidden",
    }
    assert _Game.check_params({"turns": 6}) == {"turns": 6}
    with pytest.raises(UnknownName, match="valid choices: mode, rout, turns"):
        _Game.check_params({"turnz": "6"})
    with pytest.raises(UnknownName):
        _Game.check_params({"turns": 7})  # a non-string value is still checked against choices
    with pytest.raises(UnknownName):
        _Game.check_params({"mode": "closed"})
    with pytest.raises(ValueError, match="expects a whole number"):
        _Game.check_params({"turns": "many"})


@dataclass
class _Spec:
    name: str = "Field of Tests"
    turns: int = 10
    options: dict[str, Any] = field(default_factory=dict)


class _ScenarioGame(ScenarioGame[_Spec]):
    info: ClassVar[RulesetInfo] = _Game.info
    parameters: ClassVar[Mapping[str, Parameter]] = _Game.parameters

    def __init__(self, spec: _Spec, overrides: Mapping[str, Any] | None = None) -> None:
        self.bind(spec, {"turns": 8, "rout": True, "mode": "open"}, overrides)
        self.terrain = TerrainMap(48.0, 36.0)

    def new_state(self, seed: int | None = None) -> State:
        raise NotImplementedError


def test_scenario_game_binds_defaults_then_the_scenario_then_the_overrides() -> None:
    g = _ScenarioGame(_Spec(options={"mode": "hidden", "rout": False}), {"rout": "yes"})
    assert g.params == {"turns": 10, "rout": True, "mode": "hidden"}
    assert g.scenario_name == "Field of Tests"
    assert _ScenarioGame(_Spec(options={"turns": 6})).params["turns"] == 6


def test_scenario_game_reports_a_value_that_does_not_parse_as_a_data_error() -> None:
    with pytest.raises(DataError, match="^rule parameters: .*expects a whole number"):
        _ScenarioGame(_Spec(), {"turns": "many"})
    with pytest.raises(UnknownName):  # already a clear error: not wrapped
        _ScenarioGame(_Spec(), {"turnz": "6"})


class _BattleState(BattleState[_ScenarioGame]):
    def __init__(self, game: _ScenarioGame, seed: int | None) -> None:
        self.begin(game, seed)
        self._events = []
        self._result = None

    def decision(self) -> Decision | None:
        return None

    def legal_orders(self) -> list[Any]:
        return []

    def apply(self, order: Any) -> list[Event]:
        self._result = Result("red", "test", 1)
        return []

    def parse_order(self, spec: str | Mapping[str, Any]) -> Any:
        return spec

    def copy(self) -> _BattleState:
        return self

    def view(self) -> dict[str, Any]:
        return {}


def test_battle_state_begins_from_its_game_and_seed() -> None:
    g = _ScenarioGame(_Spec())
    s = _BattleState(g, 7)
    assert s.game is g and s.params is g.params and s.terrain is g.terrain and s.seed == 7
    assert s.rng.integers(0, 1000, 3).tolist() == _BattleState(g, 7).rng.integers(0, 1000, 3).tolist()
    assert s.events == [] and not s.is_terminal() and s.result() is None
    s.apply("end")
    assert s.is_terminal() and s.result() == Result("red", "test", 1)
