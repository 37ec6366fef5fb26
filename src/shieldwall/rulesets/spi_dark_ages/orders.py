"""Dark Ages orders: small frozen values with a text form (``str``) and a dict form.

step U D          move U one hex in direction D (0-5: NE, E, SE, SW, W, NW), a front hex
turn U left|right change U's facing one hexside
done U            U has moved to the full extent desired (movement.C)
dismount U | remount U
embark U F        U boards the friendly fleet F next to it
disembark U CCRR  U lands from its moored fleet on the hex CCRR
end               end this phase (movement or attack allocation)
melee U CCRR      allocate U to a melee attack on the hex CCRR
fire U CCRR       allocate U to fire at the hex CCRR
dfire M U         defensive fire by M at the allocated attacker U
pass M            M holds its defensive fire
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.spi_dark_ages.clauses import rule

#: order kind -> the decision kind it answers
ANSWERS = {
    "step": "move",
    "turn": "move",
    "done": "move",
    "dismount": "move",
    "remount": "move",
    "embark": "move",
    "disembark": "move",
    "end": "any",
    "melee": "allocate",
    "fire": "allocate",
    "dfire": "defensive-fire",
    "pass": "defensive-fire",
}
_TWO = {"step", "turn", "melee", "fire", "dfire", "embark", "disembark"}
_ONE = {"done", "dismount", "remount", "pass"}


@dataclass(frozen=True)
class Order:
    kind: str
    unit: str | None = None
    target: str | None = None

    def __str__(self) -> str:
        return " ".join(p for p in (self.kind, self.unit, self.target) if p is not None)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.unit is not None:
            out["unit"] = self.unit
        if self.target is not None:
            out["target"] = self.target
        return out


def _bad(text: str, why: str) -> IllegalOrder:
    return IllegalOrder(rule("sequence"), f"cannot read the order {text!r}: {why}")


def _checked(o: Order, text: str) -> Order:
    if o.kind not in ANSWERS:
        raise _bad(text, f"unknown order {o.kind!r} (orders: {', '.join(ANSWERS)})")
    if o.kind in _TWO and (o.unit is None or o.target is None):
        raise _bad(text, f"{o.kind} names a unit and a target")
    if o.kind in _ONE and (o.unit is None or o.target is not None):
        raise _bad(text, f"{o.kind} names one unit")
    if o.kind == "end" and (o.unit is not None or o.target is not None):
        raise _bad(text, "end takes nothing")
    if o.kind == "step" and o.target not in tuple("012345"):
        raise _bad(text, "a step's direction is 0 to 5")
    if o.kind == "turn" and o.target not in ("left", "right"):
        raise _bad(text, "turn left or right")
    return o


def parse_order(spec: str | Mapping[str, Any]) -> Order:
    """The text or dict form of an order (``IllegalOrder`` naming what is wrong)."""
    if isinstance(spec, Mapping):
        d = dict(spec)
        text = repr(spec)
        kind = d.pop("kind", None)
        unit, target = d.pop("unit", None), d.pop("target", None)
        if d:
            raise _bad(text, f"unexpected keys {', '.join(sorted(map(str, d)))}")
        if not isinstance(kind, str):
            raise _bad(text, "no kind")
        return _checked(
            Order(kind, None if unit is None else str(unit), None if target is None else str(target)), text
        )
    text = str(spec).strip()
    words = text.split()
    if not words:
        raise _bad(text, "it is empty")
    if len(words) > 3:
        raise _bad(text, "too many words")
    return _checked(Order(words[0], *words[1:]), text)
