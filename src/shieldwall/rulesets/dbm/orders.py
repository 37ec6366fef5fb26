"""Orders of the DBM game: text and dict forms that round-trip.

``terrain none|road|river`` (the invader's option), ``deploy line|deep`` (each side),
``place <command>:<line|deep>@<x>,<y>`` (deployment by hand, one command at a time: ruling R45),
``baggage <command>`` (each side, after deployment), ``advance <command>`` (a group move straight
ahead), ``march <command>``, ``move <element>`` (a single element's tactical move),
``dismount <element>`` (ruling R39), ``press <element>`` (after the bound's combats, the group led
by that element presses forward: dbm-3.2:press.forward), ``end``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.dbm.clauses import rule

KINDS = ("terrain", "deploy", "place", "baggage", "advance", "march", "move", "dismount", "press", "end")


@dataclass(frozen=True)
class Order:
    kind: str
    arg: str | None = None

    def __str__(self) -> str:
        return self.kind if self.arg is None else f"{self.kind} {self.arg}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind} if self.arg is None else {"kind": self.kind, "arg": self.arg}


def parse(spec: str | Mapping[str, Any] | Order) -> Order:
    if isinstance(spec, Order):
        return spec
    if isinstance(spec, Mapping):
        extra = set(spec) - {"kind", "arg"}
        if extra:
            raise IllegalOrder(rule("halts"), f"unknown order field(s) {', '.join(sorted(extra))}")
        kind, arg = spec.get("kind"), spec.get("arg")
    else:
        parts = str(spec).split()
        if not parts or len(parts) > 2:
            raise IllegalOrder(rule("halts"), f"cannot read the order {spec!r}")
        kind, arg = parts[0], (parts[1] if len(parts) == 2 else None)
    if kind not in KINDS:
        raise IllegalOrder(rule("halts"), f"unknown order {kind!r}; the orders are {', '.join(KINDS)}")
    if (kind == "end") != (arg is None) or (arg is not None and not isinstance(arg, str)):
        raise IllegalOrder(
            rule("halts"), f"the order {kind!r} {'takes no' if kind == 'end' else 'needs one'} argument"
        )
    return Order(str(kind), arg)
