"""The event log: every change to a game state is an event naming the rule clause behind it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened.

    ``rule`` is a clause id ``<ruleset id>:<clause>`` (such as ``my-rules:melee.terrain``); it names a row of
    ``docs/rules/<ruleset>.md``. Dice events carry ``faces``, ``modifiers`` and the ``target`` in
    ``data``.
    """

    turn: int
    phase: str
    side: str | None
    kind: str
    rule: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "phase": self.phase,
            "side": self.side,
            "kind": self.kind,
            "rule": self.rule,
            "data": self.data,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        return cls(d["turn"], d["phase"], d["side"], d["kind"], d["rule"], dict(d.get("data", {})))
