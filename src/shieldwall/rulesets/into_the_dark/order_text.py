"""Reading orders: the text and dict forms of every into-the-dark order (listed in ``orders``), the
basic ones of ``orders`` and the deployment, command and maneuver orders of ``extra_orders``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shieldwall.core.ordertext import read_order, split_order

from .extra_orders import parse_dict as maneuver_from_dict
from .extra_orders import parse_text as maneuver_from_text
from .orders import (
    FACE_HOW,
    FACE_SIDES,
    Activate,
    Allow,
    Charge,
    Continue,
    CounterCharge,
    Decline,
    End,
    Evade,
    Face,
    Fire,
    Frontage,
    Halt,
    Hold,
    Keep,
    Move,
    Order,
    Pass,
    Pursue,
    Rally,
    Reform,
    Refuse,
    Resist,
    Shieldwall,
    Shoot,
    Stand,
    _bad,
    _dict_steps,
    _steps,
)

_NONE: dict[str, Any] = {"end": End, "keep": Keep, "pass": Pass}
_UNIT: dict[str, Any] = {
    c.kind: c
    for c in (
        Rally,
        Activate,
        Hold,
        Reform,
        Stand,
        Evade,
        Decline,
        Pursue,
        Resist,
        Halt,
        Continue,
        Allow,
        Refuse,
    )
}
_PAIR: dict[str, Any] = {"fire": Fire, "shoot": Shoot}


def parse_text(text: str) -> Order:
    k, args = split_order(text, _bad)
    if k in _NONE and not args:
        return _NONE[k]()  # type: ignore[no-any-return]
    if k in _UNIT and len(args) == 1:
        return _UNIT[k](args[0])  # type: ignore[no-any-return]
    if k in _PAIR and len(args) == 2:
        return _PAIR[k](args[0], args[1])  # type: ignore[no-any-return]
    if k == "countercharge" and len(args) in (1, 2):
        if len(args) == 2 and args[1] != "impetuous":
            raise _bad("countercharge U [impetuous]")
        return CounterCharge(args[0], len(args) == 2)
    if k == "move" and len(args) >= 2:
        steps, rest = _steps(args[1:])
        if rest or not steps:
            raise _bad(f"a move is made of 'fwd D', 'wheel A' and 'about' steps, not {' '.join(rest)!r}")
        return Move(args[0], steps)
    if k == "charge" and len(args) >= 2:
        steps, rest = _steps(args[2:])
        imp = rest == ["impetuous"]
        if rest and not imp:
            raise _bad(f"charge U T [fwd D | wheel A | about ...] [impetuous], not {' '.join(rest)!r}")
        return Charge(args[0], args[1], steps, imp)
    if k == "frontage" and len(args) == 2:
        try:
            n = int(args[1])
        except ValueError:
            raise _bad(f"frontage needs a whole number of figures, not {args[1]!r}") from None
        return Frontage(args[0], n)
    if k == "shieldwall" and len(args) == 2 and args[1] in ("on", "off"):
        return Shieldwall(args[0], args[1] == "on")
    if k in (
        "turn",
        "fallback",
        "careful",
        "breakoff",
        "deploy",
        "command",
        "orders",
        "declare",
        "join",
        "leave",
    ):
        return maneuver_from_text([k, *args])  # type: ignore[return-value]
    if k == "face" and len(args) == 3:
        if args[1] not in FACE_SIDES or args[2] not in FACE_HOW:
            raise _bad(f"face U {'|'.join(FACE_SIDES)} {'|'.join(FACE_HOW)}")
        return Face(args[0], args[1], args[2])
    raise _bad(f"cannot read order {text!r}; see the order forms in 'shieldwall battle --help'")


def parse_dict(d: Mapping[str, Any]) -> Order:
    if not isinstance(d, Mapping):
        raise _bad(f"an order is a text or an object, not {d!r}")
    try:
        k = d["kind"]
        if k in _NONE:
            return _NONE[k]()  # type: ignore[no-any-return]
        if k in _UNIT:
            return _UNIT[k](str(d["unit"]))  # type: ignore[no-any-return]
        if k in _PAIR:
            return _PAIR[k](str(d["unit"]), str(d["target"]))  # type: ignore[no-any-return]
        if k == "countercharge":
            return CounterCharge(str(d["unit"]), bool(d.get("impetuous", False)))
        if k == "move":
            steps = _dict_steps(d["steps"])
            if not steps:
                raise ValueError("a move needs steps")
            return Move(str(d["unit"]), steps)
        if k == "charge":
            return Charge(
                str(d["unit"]),
                str(d["target"]),
                _dict_steps(d.get("steps", ())),
                bool(d.get("impetuous", False)),
            )
        if k == "frontage":
            return Frontage(str(d["unit"]), int(d["figures"]))
        if k == "shieldwall":
            return Shieldwall(str(d["unit"]), bool(d.get("on", True)))
        if k in (
            "turn",
            "fallback",
            "careful",
            "breakoff",
            "deploy",
            "command",
            "orders",
            "declare",
            "join",
            "leave",
        ):
            return maneuver_from_dict(d)  # type: ignore[return-value]
        if k == "face":
            side, how = str(d["side"]), str(d.get("how", "column"))
            if side not in FACE_SIDES or how not in FACE_HOW:
                raise ValueError("bad side or how")
            return Face(str(d["unit"]), side, how)
    except KeyError as exc:
        raise _bad(f"malformed order {dict(d)!r}: it needs the field {exc.args[0]!r}") from None
    except (TypeError, ValueError, IndexError) as exc:
        raise _bad(f"malformed order {dict(d)!r}: {exc}") from None
    raise _bad(f"unknown order kind {d.get('kind')!r}")


def parse(spec: str | Mapping[str, Any]) -> Order:
    return read_order(spec, parse_text, parse_dict)
