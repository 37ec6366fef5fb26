"""The whole toy rule system: one rule, ``toy-duel:strike``."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from shieldwall.core.dice import D6
from shieldwall.core.errors import DataError, IllegalOrder
from shieldwall.core.events import Event
from shieldwall.core.game import Decision, Game, Parameter, Result, State

from .plugin import INFO

RULE = "toy-duel:strike"
CLAUSES = {"strike": ("Strike", "Roll a d6: at or above hit_on, the enemy loses one strength point.")}
PARAMETERS = {
    "hit_on": Parameter("hit_on", 4, "the d6 score that hits", tuple(range(2, 7)), RULE),
    "turns": Parameter("turns", 20, "turns before a draw", rule=RULE),
}


@dataclass(frozen=True)
class Order:
    kind: str  # "strike" or "wait"

    def __str__(self) -> str:
        return self.kind

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind}


class ToyGame(Game):
    info = INFO
    parameters = PARAMETERS

    def __init__(self, strength: int, params: Mapping[str, Any], name: str) -> None:
        self.strength, self._params, self._name = strength, dict(params), name

    @classmethod
    def from_data(cls, data: Mapping[str, Any], file: str, overrides: Mapping[str, Any] | None) -> ToyGame:
        strength = data.get("strength", 3)
        if not isinstance(strength, int) or isinstance(strength, bool) or not 1 <= strength <= 9:
            raise DataError(file, "strength", "must be a whole number from 1 to 9")
        params = {k: p.default for k, p in PARAMETERS.items()} | cls.check_params(dict(overrides or {}))
        return cls(strength, params, str(data.get("name", "toy")))

    @property
    def params(self) -> Mapping[str, Any]:
        return self._params

    @property
    def scenario_name(self) -> str:
        return self._name

    def new_state(self, seed: int | None = None) -> ToyState:
        return ToyState(self, np.random.default_rng(seed))


class ToyState(State):
    def __init__(self, game: ToyGame, rng: np.random.Generator) -> None:
        self._game, self.rng, self.turn, self.side = game, rng, 1, "red"
        self.strength = {"red": game.strength, "blue": game.strength}
        self._events = [Event(1, "turn", None, "battle", RULE, {"scenario": game.scenario_name})]
        self._result: Result | None = None

    game = property(lambda self: self._game)
    events = property(lambda self: self._events)

    def decision(self) -> Decision | None:
        return None if self._result else Decision(self.side, "turn", f"{self.side}: strike or wait?")

    def legal_orders(self) -> list[Any]:
        return [] if self._result else [Order("strike"), Order("wait")]

    def parse_order(self, spec: str | Mapping[str, Any]) -> Order:
        kind = spec.get("kind") if isinstance(spec, Mapping) else str(spec).strip()
        if kind not in ("strike", "wait"):
            raise IllegalOrder(RULE, f"the orders are 'strike' and 'wait', not {kind!r}")
        return Order(kind)

    def apply(self, order: Any) -> list[Event]:
        o = self.parse_order(order.to_dict() if isinstance(order, Order) else order)
        if self._result:
            raise IllegalOrder(RULE, "the duel is over")
        start, enemy = len(self._events), "blue" if self.side == "red" else "red"
        if o.kind == "strike":
            face = D6.roll(self.rng)
            hit = face >= self._game.params["hit_on"]
            self.strength[enemy] -= hit
            self._log("strike", {"unit": self.side, "faces": [face], "hit": hit})
        if self.strength[enemy] == 0:
            self._end(self.side, f"{enemy} has no strength left")
        elif self.side == "blue" and self.turn >= self._game.params["turns"]:
            self._end(None, "the turn limit")
        else:
            self.turn += self.side == "blue"
            self.side = enemy
        return self._events[start:]

    def _log(self, kind: str, data: dict[str, Any]) -> None:
        self._events.append(Event(self.turn, "turn", self.side, kind, RULE, data))

    def _end(self, winner: str | None, reason: str) -> None:
        self._result = Result(winner, reason, self.turn)
        self._log("result", {"winner": winner, "reason": reason})

    def is_terminal(self) -> bool:
        return self._result is not None

    def result(self) -> Result | None:
        return self._result

    def copy(self) -> ToyState:
        return copy.deepcopy(self)

    def view(self) -> dict[str, Any]:
        units = [
            {
                "id": s,
                "side": s,
                "name": f"{s} champion",
                "type": "champion",
                "x": x,
                "y": 6.0,
                "heading": h,
                "hits": self._game.strength - self.strength[s],
                "max_hits": self._game.strength,
            }
            for s, x, h in (("red", 6.0, 90.0), ("blue", 18.0, 270.0))
        ]
        return {
            "ruleset": INFO.id,
            "turn": self.turn,
            "table": {"width": 24.0, "depth": 12.0},
            "units": units,
        }
