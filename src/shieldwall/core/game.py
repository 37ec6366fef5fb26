"""The API every rule system implements: ``Game`` (rules + scenario + parameters) and ``State``.

A ``State`` always stands at one decision point owned by one side. ``legal_orders()`` is a finite,
meaningful menu for that decision; ``apply(order)`` accepts any order the rules allow (including
exact orders the menu only samples) and raises ``IllegalOrder`` otherwise, leaving the state
unchanged. Chance is resolved by the engine with the state's own seeded generator and recorded
as events.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from shieldwall.core.dice import seeded_rng
from shieldwall.core.errors import DataError, ShieldwallError, UnknownName
from shieldwall.core.events import Event
from shieldwall.core.terrain import TerrainMap


@runtime_checkable
class Order(Protocol):
    """An order: a small frozen value with a text form (``str``) and a dict form."""

    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Decision:
    """What the state is waiting for: who decides, what kind of choice, about which unit."""

    side: str
    kind: str
    prompt: str
    unit: str | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Result:
    """How a battle ended. ``winner`` is a side or ``None`` for a draw; ``losses[side][unit type]``
    counts the units each side lost, by the unit type its views name (``view()["units"][i]["type"]``):
    the simulator tabulates it for every rule system alike. A rule system's own tallies (figures,
    points) belong in its result event."""

    winner: str | None
    reason: str
    turns: int
    losses: dict[str, dict[str, int]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason, "turns": self.turns, "losses": self.losses}


@dataclass(frozen=True, slots=True)
class Parameter:
    """A rule parameter a designer may vary (``--variant KEY=VALUE``), with its documentation."""

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] = ()
    rule: str = ""
    #: the least and greatest values a number may take (None: no bound)
    low: float | None = None
    high: float | None = None

    def problem(self, value: Any) -> str | None:
        """Why ``value`` is not a value of this parameter (its default's type, within its bounds),
        or None. A value from a save or the web is data of any JSON type: null, a list, 2.5 for a
        whole number, ``true`` for a number are refused here, never passed to the rules."""
        d = self.default
        if isinstance(d, bool):
            ok = isinstance(value, bool)
            kind = "yes or no (true or false)"
        elif isinstance(d, int):
            ok = isinstance(value, int) and not isinstance(value, bool)
            kind = "a whole number"
        elif isinstance(d, float):
            ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
            kind = "a finite number"
        elif isinstance(d, str):
            ok = isinstance(value, str)
            kind = "text"
        else:
            return None
        if not ok:
            return f"must be {kind}, not {value!r}"
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            lo = "" if self.low is None else f"{self.low:g}"
            hi = "" if self.high is None else f"{self.high:g}"
            span = f"from {lo} to {hi}" if lo and hi else f"at least {lo}" if lo else f"at most {hi}"
            return f"must be {span}, not {value!r}"
        return None

    def parse(self, text: str) -> Any:
        """Convert a command-line value to this parameter's type, checking choices."""
        d = self.default
        value: Any
        try:
            if isinstance(d, bool):
                low = text.strip().lower()
                if low not in ("yes", "no", "true", "false", "on", "off", "1", "0"):
                    raise ValueError
                value = low in ("yes", "true", "on", "1")
            elif isinstance(d, int):
                value = int(text)
            elif isinstance(d, float):
                value = float(text)
            else:
                value = text
        except ValueError:
            kind = {"bool": "yes or no", "int": "a whole number", "float": "a number"}.get(
                type(d).__name__, "text"
            )
            raise ValueError(f"parameter {self.name!r} expects {kind}, got {text!r}") from None
        if self.choices and value not in self.choices:
            raise UnknownName(f"value for {self.name}", str(value), [str(c) for c in self.choices])
        return value


@dataclass(frozen=True, slots=True)
class RulesetInfo:
    id: str
    title: str
    board: str  # "tabletop" or "hex"
    sides: tuple[str, ...]
    source: str
    summary: str
    complete: bool = True


class State(ABC):
    """One moment of one battle."""

    #: set by ``seal``: see there
    sealed: bool = False

    def seal(self) -> None:
        """The driver's promise that, until ``unseal``, nothing changes this state but ``apply``
        (no hand edits: a battle loop, a search's playout). A rule system may then undo an order
        that fails part way by replaying the orders since a checkpoint, instead of copying the
        whole state before every order (Into the Dark's ``apply``); unsealed, every order keeps a
        full backup. The same orders give the same battle either way. A copy may start unsealed
        (Into the Dark's do): whoever plays it on seals it, as the search seals its playouts."""
        self.sealed = True

    def unseal(self) -> None:
        """The promise ends (``seal``): the state may be edited by hand again."""
        self.sealed = False

    @property
    @abstractmethod
    def game(self) -> Game: ...

    @property
    @abstractmethod
    def events(self) -> list[Event]: ...

    @abstractmethod
    def decision(self) -> Decision | None:
        """The pending decision, or ``None`` when the battle is over."""

    @abstractmethod
    def legal_orders(self) -> list[Any]: ...

    @abstractmethod
    def apply(self, order: Any) -> list[Event]:
        """Apply an order; return the events it produced. Raises ``IllegalOrder``."""

    @abstractmethod
    def parse_order(self, spec: str | Mapping[str, Any]) -> Any:
        """Turn an order's text or dict form into an order value (raises ``IllegalOrder``)."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def result(self) -> Result | None: ...

    @abstractmethod
    def copy(self) -> State: ...

    @abstractmethod
    def view(self) -> dict[str, Any]:
        """A JSON-ready picture of the state for renderers, bots and the web page."""

    def current_side(self) -> str | None:
        d = self.decision()
        return d.side if d else None


class Game(ABC):
    """A rule system bound to a scenario and parameter values."""

    info: ClassVar[RulesetInfo]
    parameters: ClassVar[Mapping[str, Parameter]]

    @abstractmethod
    def new_state(self, seed: int | None = None) -> State: ...

    @property
    @abstractmethod
    def params(self) -> Mapping[str, Any]: ...

    @property
    @abstractmethod
    def scenario_name(self) -> str: ...

    #: the file the scenario was loaded from, as ``io.scenarios.game_from_data`` was told it (set
    #: with ``source_data``; None for a game made in code): what ``portable_source`` resolves the
    #: files and folders a scenario names against
    source_file: str | None = None

    @property
    def source_data(self) -> dict[str, Any]:
        """The scenario data a save records (``portable_source`` of the data the game was loaded
        from, set by ``io.scenarios.game_from_data``); an ``AttributeError`` until set (a game
        made in code has none)."""
        try:
            got: dict[str, Any] = self._source_data
        except AttributeError:
            raise AttributeError("source_data") from None
        return got

    @source_data.setter
    def source_data(self, data: Mapping[str, Any]) -> None:
        self._source_data = self.portable_source(data)

    def portable_source(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """``data`` as a save records it, so that the save replays anywhere: by default a copy. A
        rule system whose scenarios may name files or depend on data folders says so here (army
        files inline; the digests of the tables used)."""
        return dict(data)

    def unit_types(self) -> dict[str, tuple[str, ...]]:
        """Every unit type each side may have in a battle of this game, side by side in the order
        first seen: ``Result.losses`` books losses by these, and ``simulate`` makes a loss column
        of each. By default the types of a new state's view. A rule system whose units may take a
        type its armies do not list at the start (SPI's dismounted cavalry and riderless mounts)
        adds those types here, or ``simulate`` would stop at such a loss."""
        out: dict[str, list[str]] = {}
        for u in self.new_state(0).view().get("units", []):
            if "side" in u and "type" in u:
                types = out.setdefault(str(u["side"]), [])
                if str(u["type"]) not in types:
                    types.append(str(u["type"]))
        return {side: tuple(types) for side, types in out.items()}

    @classmethod
    def check_params(cls, overrides: Mapping[str, Any]) -> dict[str, Any]:
        """Validate parameter overrides (strings are parsed); unknown keys list the valid ones."""
        out: dict[str, Any] = {}
        for k, v in overrides.items():
            if k not in cls.parameters:
                raise UnknownName("parameter", k, sorted(cls.parameters))
            p = cls.parameters[k]
            if isinstance(v, str) and not isinstance(p.default, str):
                try:
                    v = p.parse(v)
                except ValueError as exc:  # (a bad word for a number or yes/no: named, not raised bare)
                    raise DataError("rule parameters", k, str(exc)) from None
            if p.choices and v not in p.choices:
                raise UnknownName(f"value for {k}", str(v), [str(c) for c in p.choices])
            why = p.problem(v)
            if why is not None:
                raise DataError("rule parameters", k, why)
            out[k] = v
        return out


class ScenarioLike(Protocol):
    """What ``ScenarioGame`` reads of a rule system's validated scenario."""

    @property
    def name(self) -> str: ...

    @property
    def turns(self) -> int: ...

    @property
    def options(self) -> Mapping[str, Any]: ...


S = TypeVar("S", bound=ScenarioLike)


class ScenarioGame(Game, Generic[S]):
    """A ``Game`` bound to a validated scenario ``spec``, played on ``terrain``. Its parameter values
    (``bind``) are the rule system's defaults, then the scenario's turn limit and ``[options]``, then
    the overrides, each set checked by ``check_params``."""

    spec: S
    terrain: TerrainMap
    _params: dict[str, Any]

    @classmethod
    def check_params(cls, overrides: Mapping[str, Any]) -> dict[str, Any]:
        """The core's check (names, types, choices); a value that does not parse is a ``DataError``
        naming the parameters (``rule parameters: ...``), never a bare ``ValueError``."""
        try:
            return super().check_params(overrides)
        except ShieldwallError:
            raise
        except ValueError as exc:
            raise DataError("rule parameters", "", str(exc)) from None

    def bind(self, spec: S, defaults: Mapping[str, Any], overrides: Mapping[str, Any] | None) -> None:
        """Keep ``spec`` and set the parameter values from ``defaults``, the scenario and ``overrides``."""
        self.spec = spec
        params = dict(defaults)
        params["turns"] = spec.turns
        params.update(self.check_params(spec.options))
        params.update(self.check_params(dict(overrides or {})))
        self._params = params

    @property
    def params(self) -> Mapping[str, Any]:
        return self._params

    @property
    def scenario_name(self) -> str:
        return self.spec.name


B = TypeVar("B", bound="BuiltGame")


class BuiltGame(Game):
    """A ``Game`` holding a rule system's built scenario (``scenario``: the validated spec with its
    tables, charts or map) and its parameter values: the rule system's defaults, the scenario's turn
    limit, then the overrides. A subclass names its scenario builder, ``build(data, file)``."""

    scenario: Any

    def __init__(self, scenario: Any, params: Mapping[str, Any]) -> None:
        self.scenario = scenario
        self._params = dict(params)

    @staticmethod
    @abstractmethod
    def build(data: dict[str, Any], file: str) -> Any: ...

    @classmethod
    def from_data(
        cls: type[B], data: Mapping[str, Any], file: str, overrides: Mapping[str, Any] | None = None
    ) -> B:
        sc = cls.build(dict(data), file)
        params = {k: p.default for k, p in cls.parameters.items()} | {"turns": sc.spec.turns}
        params |= cls.check_params(dict(overrides or {}))
        return cls(sc, params)

    def portable_source(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """``data`` as a save records it: a ``data`` folder of tables or charts named relative to
        the scenario file made absolute, as the builder found it (``Path(file).parent``), so the
        save replays from any folder (it was looked for beside the save)."""
        d = dict(data)
        folder = d.get("data")
        if isinstance(folder, str) and folder != "sample" and self.source_file is not None:
            f = Path(self.source_file)
            base = f.parent if f.is_file() else Path(".")
            d["data"] = str((base / folder).resolve())
        return d

    @property
    def params(self) -> Mapping[str, Any]:
        return self._params

    @property
    def scenario_name(self) -> str:
        name: str = self.scenario.spec.name
        return name


G = TypeVar("G", bound=ScenarioGame[Any])


class BattleState(State, Generic[G]):
    """A ``State`` of a ``ScenarioGame``'s battle: the game, its parameter values and terrain, the
    seed and the battle's one generator (``begin``), the events so far and the result once the
    battle is over (``_events`` and ``_result``, which the rule system sets)."""

    _game: G
    params: Mapping[str, Any]
    _events: list[Event]
    _result: Result | None

    def begin(self, game: G, seed: int | None) -> None:
        """Set the game, its parameter values and terrain, the seed and the generator from it."""
        self._game = game
        self.params = game.params
        self.seed = seed
        self.rng = seeded_rng(seed)
        self.terrain = game.terrain

    @property
    def game(self) -> G:
        return self._game

    @property
    def events(self) -> list[Event]:
        return self._events

    def is_terminal(self) -> bool:
        return self._result is not None

    def result(self) -> Result | None:
        return self._result
