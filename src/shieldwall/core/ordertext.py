"""Order-text codecs shared by the rule systems: an order is a small frozen dataclass with a ``kind``,
a text form (``str(order)``, one line of a save file or the CLI) and a dict form (``to_dict()``).

Here are the pieces whose logic does not depend on a rule system: how a number is written in an
order's text, the dict form of an order's fields, the orders that name only their kind, one unit, or
a unit and a target, the splitting of an order's text into its kind and arguments, and the reading
of an order given either as text or as a mapping. Each rule system keeps its own order classes,
step forms, error clause and messages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypeVar

from .errors import IllegalOrder

T = TypeVar("T")


def num(v: float) -> str:
    """A number as an order's text writes it: rounded to 3 decimals, a whole number without a point."""
    r = round(v, 3)
    return str(int(r)) if r == int(r) else f"{r:g}"


class OrderBase:
    """The base of an order dataclass: its dict form is ``{"kind": kind, field: value, ...}``, each
    value as ``dict_value`` gives it (a rule system converts its step and point fields there)."""

    kind: ClassVar[str]

    def dict_value(self, name: str, value: Any) -> Any:
        """The dict form of the field ``name`` holding ``value`` (by default the value itself)."""
        return value

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):  # type: ignore[arg-type]
            d[f.name] = self.dict_value(f.name, getattr(self, f.name))
        return d


@dataclass(frozen=True, slots=True)
class BareOrder(OrderBase):
    """An order that is only its kind: ``<kind>``."""

    def __str__(self) -> str:
        return self.kind


@dataclass(frozen=True, slots=True)
class UnitOrder(OrderBase):
    """An order naming one of the player's units: ``<kind> UNIT``."""

    unit: str

    def __str__(self) -> str:
        return f"{self.kind} {self.unit}"


@dataclass(frozen=True, slots=True)
class UnitTargetOrder(OrderBase):
    """An order naming one of the player's units and an enemy unit: ``<kind> UNIT TARGET``."""

    unit: str
    target: str

    def __str__(self) -> str:
        return f"{self.kind} {self.unit} {self.target}"


def split_order(text: str, bad: Callable[[str], IllegalOrder]) -> tuple[str, list[str]]:
    """An order's text as its kind (lower case) and its arguments; ``bad("empty order")`` is raised
    for a blank line."""
    words = text.split()
    if not words:
        raise bad("empty order")
    return words[0].lower(), words[1:]


def read_order(
    spec: str | Mapping[str, Any],
    from_text: Callable[[str], T],
    from_dict: Callable[[Mapping[str, Any]], T],
) -> T:
    """An order given as its text or as its dict form."""
    if isinstance(spec, str):
        return from_text(spec)
    return from_dict(spec)
