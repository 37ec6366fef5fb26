"""Knight Hack orders: small frozen values with a text form (``str``) and a dict form.

charge U T | hold U                      (declare; knight-hack:charge.declare)
stand U | evade U | keep U | redirect U T  (respond to a charge)
shoot first | shoot second               (the fire-order roll-off winner; missile.order)
fire U T | hold-fire U                   (missile window)
move first | move second                 (the initiative winner; move.initiative)
move U [turn=H] [frontage=N] go=D [then=H]   (evolutions, normal move, one more evolution)
rally U [back=D] [forward=D]             (a rallying unit's move)
rout-test U | rout-on U                  (a routed unit's one test, or it runs)
fight A B                                (the next melee; melee.order)
ambush U T | hide U                      (a hidden unit springs on T, or keeps hidden; ambush.execute)
deploy U x=X y=Y [heading=H]             (hand deployment, ruling R51: U's centre at X,Y facing H)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.knight_hack.clauses import rule

#: order kind -> the decision kind it answers
ANSWERS = {
    "charge": "declare",
    "hold": "declare",
    "stand": "respond",
    "evade": "respond",
    "keep": "respond",
    "redirect": "respond",
    "shoot": "fire-order",
    "fire": "fire",
    "hold-fire": "fire",
    "move-order": "move-order",
    "move": "unit",
    "rally": "unit",
    "rout-test": "unit",
    "rout-on": "unit",
    "fight": "melee",
    "ambush": "unit",
    "hide": "unit",
    "deploy": "deploy",
}
_MOVE_KEYS = ("turn", "frontage", "go", "then")
_RALLY_KEYS = ("back", "forward")
_DEPLOY_KEYS = ("x", "y", "heading")
#: the kinds with key=value numbers, and their keys in text order
_KEYS = {"move": _MOVE_KEYS, "rally": _RALLY_KEYS, "deploy": _DEPLOY_KEYS}


def _num(text: str) -> str:
    return f"{float(text):g}" if float(text) != int(float(text)) else str(int(float(text)))


@dataclass(frozen=True)
class Order:
    """``kind``; ``unit`` and ``target`` where the kind has them; ``first`` for the roll-off choices;
    ``args`` the numbers of ``move`` and ``rally`` (sorted key, value pairs)."""

    kind: str
    unit: str | None = None
    target: str | None = None
    first: bool | None = None
    args: tuple[tuple[str, float], ...] = ()

    def arg(self, key: str) -> float | None:
        return dict(self.args).get(key)

    def __str__(self) -> str:
        if self.kind in ("shoot", "move-order"):
            return f"{'shoot' if self.kind == 'shoot' else 'move'} {'first' if self.first else 'second'}"
        parts = [self.kind] + [p for p in (self.unit, self.target) if p is not None]
        order = _KEYS.get(self.kind, ())
        d = dict(self.args)
        parts += [f"{k}={_num(str(d[k]))}" for k in order if k in d]
        return " ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.unit is not None:
            out["unit"] = self.unit
        if self.target is not None:
            out["target"] = self.target
        if self.first is not None:
            out["first"] = self.first
        out.update(dict(self.args))
        return out


def _bad(text: str, why: str) -> IllegalOrder:
    return IllegalOrder(rule("turn.sequence"), f"cannot read the order {text!r}: {why}")


def _args(kind: str, items: Mapping[str, Any], text: str) -> tuple[tuple[str, float], ...]:
    keys = _KEYS[kind]
    out = []
    for k, v in items.items():
        if k not in keys:
            raise _bad(text, f"{k!r} is not one of {', '.join(keys)}")
        try:
            f = float(v)
        except (TypeError, ValueError):
            raise _bad(text, f"{k} must be a number") from None
        if f != f or abs(f) == float("inf"):
            raise _bad(text, f"{k} must be a finite number")
        # a place is written with 3 decimals, so the text of an order replays it alike (R51)
        out.append((k, round(f, 3) if kind == "deploy" else f))
    if kind == "deploy" and not {"x", "y"} <= dict(out).keys():
        raise _bad(text, "deploy needs x= and y= (where the unit's centre stands)")
    if kind == "move" and "go" not in dict(out):
        out.append(("go", 0.0))
    return tuple(sorted(out))


def parse_order(spec: str | Mapping[str, Any]) -> Order:
    """The text or dict form of an order (``IllegalOrder`` naming what is wrong)."""
    if isinstance(spec, Mapping):
        d = dict(spec)
        kind = str(d.pop("kind", ""))
        text = repr(spec)
        unit, target, first = d.pop("unit", None), d.pop("target", None), d.pop("first", None)
        if kind in ("shoot", "move-order"):
            if not isinstance(first, bool) or d or unit is not None:
                raise _bad(text, f"{kind} takes only first = true or false")
            return Order(kind, first=first)
        if kind not in ANSWERS:
            raise _bad(text, f"unknown kind {kind!r}")
        args = _args(kind, d, text) if kind in _KEYS else ()
        if d and kind not in _KEYS:
            raise _bad(text, f"unexpected keys {', '.join(sorted(d))}")
        u, t = (None if unit is None else str(unit)), (None if target is None else str(target))
        return _checked(Order(kind, u, t, args=args), text)
    text = str(spec).strip()
    words = text.split()
    if not words:
        raise _bad(text, "it is empty")
    kind = words[0]
    if kind in ("shoot", "move") and len(words) == 2 and words[1] in ("first", "second"):
        return Order("shoot" if kind == "shoot" else "move-order", first=words[1] == "first")
    if kind not in ANSWERS or kind in ("shoot", "move-order"):
        raise _bad(text, f"unknown order {kind!r}")
    plain = [w for w in words[1:] if "=" not in w]
    kv = dict(w.split("=", 1) for w in words[1:] if "=" in w)
    if kind in _KEYS:
        if len(plain) != 1:
            raise _bad(text, f"{kind} names one unit")
        return _checked(Order(kind, plain[0], args=_args(kind, kv, text)), text)
    if kv:
        raise _bad(text, f"{kind} takes no key=value")
    if len(plain) > 2:
        raise _bad(text, "too many words")
    return _checked(Order(kind, plain[0] if plain else None, plain[1] if len(plain) > 1 else None), text)


def _checked(o: Order, text: str) -> Order:
    two = o.kind in ("charge", "redirect", "fire", "fight", "ambush")
    if o.unit is None or (two and o.target is None) or (not two and o.target is not None):
        n = "a unit and a target" if two else "one unit"
        raise _bad(text, f"{o.kind} names {n}")
    return o
