"""Orders for one-hour-dark-ages: small frozen values with a text form and a dict form.

Text forms (one order per line in save files and the CLI)::

    end                              end the current phase (or the personality transfers)
    activate r1                      pick unit r1 to move (its movement dice are rolled)
    activate r1 charge b2            ... with Declared Movement: intent to charge b2
    activate r1 toward 24,30         ... with Declared Movement: intent to move toward a point
    hold r1                          the activated unit does not move
    move r1 turn 30@front go 10,12 turn -45@centre
                                     turns (degrees clockwise, pivot centre|front) and moves of the
                                     unit's centre to points; heading is kept while moving
    charge r1 b2 left [turn 20@centre]
                                     charge b2's left facing (front|left|right|rear), optionally
                                     after a start-of-move turn
    shot r1 b2                       Moving Shot at b2 (javelins, before or after moving)
    skip r1                          no Moving Shot after the move
    shoot r1 b2                      shoot at b2 in the Shooting phase
    fight r1 b2                      attack b2 (when several enemies touch r1's front)
    face r1 b2                       turn to face b2, an enemy in contact off r1's front
    fallback r1                      Fall Back! out of melee (optional rule)
    transfer p1 r2                   move personality p1 to unit r2
    deploy r1 at 14,4 facing 0       hand deployment (ruling R50): place r1's centre at (14, 4),
                                     facing 0 degrees (north); without "facing" it keeps its heading
    fight-as r1 warriors             after deployment: Viking Veterans r1 fight as Warriors (or
                                     infantry) for the whole battle
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.ordertext import (
    BareOrder,
    OrderBase,
    UnitOrder,
    UnitTargetOrder,
    read_order,
    split_order,
)
from shieldwall.core.ordertext import num as _num

RS = "one-hour-dark-ages"
FACING_NAMES = ("front", "left", "right", "rear")


@dataclass(frozen=True, slots=True)
class Turn:
    angle: float
    pivot: str = "centre"

    def text(self) -> str:
        return f"turn {_num(self.angle)}@{self.pivot}"


@dataclass(frozen=True, slots=True)
class Go:
    x: float
    y: float

    def text(self) -> str:
        return f"go {_num(self.x)},{_num(self.y)}"


Step = Turn | Go


class _Order(OrderBase):
    def dict_value(self, name: str, value: Any) -> Any:
        if name == "steps":
            return [
                {"turn": s.angle, "pivot": s.pivot} if isinstance(s, Turn) else {"go": [s.x, s.y]}
                for s in value
            ]
        if name == "turn" and value is not None:
            return {"turn": value.angle, "pivot": value.pivot}
        if name == "toward" and value is not None:
            return list(value)
        return value


@dataclass(frozen=True, slots=True)
class End(BareOrder):
    kind: ClassVar[str] = "end"


@dataclass(frozen=True, slots=True)
class Activate(_Order):
    unit: str
    charge: str | None = None
    toward: tuple[float, float] | None = None
    kind: ClassVar[str] = "activate"

    def __str__(self) -> str:
        s = f"activate {self.unit}"
        if self.charge:
            s += f" charge {self.charge}"
        if self.toward:
            s += f" toward {_num(self.toward[0])},{_num(self.toward[1])}"
        return s


@dataclass(frozen=True, slots=True)
class Hold(UnitOrder):
    kind: ClassVar[str] = "hold"


@dataclass(frozen=True, slots=True)
class Move(_Order):
    unit: str
    steps: tuple[Step, ...]
    label: str = ""
    kind: ClassVar[str] = "move"

    def __str__(self) -> str:
        return " ".join([f"move {self.unit}", *(s.text() for s in self.steps)])

    def __eq__(self, other: object) -> bool:  # the label is a note, not part of the order
        return isinstance(other, Move) and (self.unit, self.steps) == (other.unit, other.steps)

    def __hash__(self) -> int:
        return hash(("move", self.unit, self.steps))


@dataclass(frozen=True, slots=True)
class Charge(_Order):
    unit: str
    target: str
    facing: str
    turn: Turn | None = None
    kind: ClassVar[str] = "charge"

    def __str__(self) -> str:
        s = f"charge {self.unit} {self.target} {self.facing}"
        return s + (" " + self.turn.text() if self.turn else "")


@dataclass(frozen=True, slots=True)
class MovingShot(UnitTargetOrder):
    kind: ClassVar[str] = "shot"


@dataclass(frozen=True, slots=True)
class Shoot(UnitTargetOrder):
    kind: ClassVar[str] = "shoot"


@dataclass(frozen=True, slots=True)
class Fight(UnitTargetOrder):
    kind: ClassVar[str] = "fight"


@dataclass(frozen=True, slots=True)
class Face(UnitTargetOrder):
    kind: ClassVar[str] = "face"


@dataclass(frozen=True, slots=True)
class Transfer(_Order):
    personality: str
    unit: str
    kind: ClassVar[str] = "transfer"

    def __str__(self) -> str:
        return f"transfer {self.personality} {self.unit}"


@dataclass(frozen=True, slots=True)
class Skip(UnitOrder):
    kind: ClassVar[str] = "skip"


@dataclass(frozen=True, slots=True)
class FallBack(UnitOrder):
    kind: ClassVar[str] = "fallback"


@dataclass(frozen=True, slots=True)
class FightAs(_Order):
    """The owner's choice, after deployment, of what a unit fights as (Viking Veterans)."""

    unit: str
    choice: str
    kind: ClassVar[str] = "fight-as"

    def __str__(self) -> str:
        return f"fight-as {self.unit} {self.choice}"


@dataclass(frozen=True, slots=True)
class Deploy(_Order):
    """Hand deployment (ruling R50): place a unit's centre at ``x, y`` facing ``heading`` (None:
    the heading it has)."""

    unit: str
    x: float
    y: float
    heading: float | None = None
    kind: ClassVar[str] = "deploy"

    def __str__(self) -> str:
        s = f"deploy {self.unit} at {_num(self.x)},{_num(self.y)}"
        return s if self.heading is None else f"{s} facing {_num(self.heading)}"


Order = (
    End
    | Activate
    | Hold
    | Move
    | Charge
    | MovingShot
    | Shoot
    | Fight
    | Face
    | Transfer
    | Skip
    | FallBack
    | FightAs
    | Deploy
)

_PAIRS: dict[str, Any] = {
    "shot": MovingShot,
    "shoot": Shoot,
    "fight": Fight,
    "face": Face,
    "transfer": Transfer,
}
_SINGLES: dict[str, Any] = {"hold": Hold, "skip": Skip, "fallback": FallBack}


def _bad(reason: str) -> IllegalOrder:
    return IllegalOrder(f"{RS}:orders", reason)


def _point(text: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise _bad(f"expected a point 'x,y', got {text!r}") from None
    return (x, y)


def _degrees(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise _bad(f"expected a heading in degrees, got {text!r}") from None


def _turn(text: str) -> Turn:
    angle, _, pivot = text.partition("@")
    try:
        a = float(angle)
    except ValueError:
        raise _bad(f"expected a turn 'DEGREES[@centre|front]', got {text!r}") from None
    pivot = pivot or "centre"
    if pivot not in ("centre", "front"):
        raise _bad(f"a turn pivots on 'centre' or 'front', not {pivot!r}")
    return Turn(a, pivot)


def parse_text(text: str) -> Order:
    k, args = split_order(text, _bad)
    if k == "end" and not args:
        return End()
    if k in _SINGLES and len(args) == 1:
        return _SINGLES[k](args[0])  # type: ignore[no-any-return]
    if k in _PAIRS and len(args) == 2:
        return _PAIRS[k](args[0], args[1])  # type: ignore[no-any-return]
    if k == "fight-as" and len(args) == 2:
        return FightAs(args[0], args[1].lower())
    if k == "deploy" and len(args) in (3, 5) and args[1] == "at":
        x, y = _point(args[2])
        if len(args) == 3:
            return Deploy(args[0], x, y)
        if args[3] != "facing":
            raise _bad("expected 'facing DEGREES' after the point")
        return Deploy(args[0], x, y, _degrees(args[4]))
    if k == "activate" and args:
        if len(args) == 1:
            return Activate(args[0])
        if len(args) == 3 and args[1] == "charge":
            return Activate(args[0], charge=args[2])
        if len(args) == 3 and args[1] == "toward":
            return Activate(args[0], toward=_point(args[2]))
    if k == "charge" and len(args) in (3, 5):
        if args[2] not in FACING_NAMES:
            raise _bad(f"facing must be one of {', '.join(FACING_NAMES)}, not {args[2]!r}")
        turn = None
        if len(args) == 5:
            if args[3] != "turn":
                raise _bad("expected 'turn DEGREES@pivot' after the facing")
            turn = _turn(args[4])
        return Charge(args[0], args[1], args[2], turn)
    if k == "move" and args:
        steps: list[Step] = []
        i = 1
        while i < len(args):
            if i + 1 >= len(args):
                raise _bad(f"'{args[i]}' needs a value")
            if args[i] == "turn":
                steps.append(_turn(args[i + 1]))
            elif args[i] == "go":
                p = _point(args[i + 1])
                steps.append(Go(p[0], p[1]))
            else:
                raise _bad(f"a move is made of 'turn A@pivot' and 'go X,Y' steps, not {args[i]!r}")
            i += 2
        return Move(args[0], tuple(steps))
    raise _bad(f"cannot read order {text!r}; see 'shieldwall battle --help' for the order forms")


def _dict_turn(t: Mapping[str, Any]) -> Turn:
    pivot = str(t.get("pivot", "centre"))
    if pivot not in ("centre", "front"):
        raise _bad(f"a turn pivots on 'centre' or 'front', not {pivot!r}")
    return Turn(float(t["turn"]), pivot)


#: the fields of each kind of order given as an object (``parse_dict``): any other is refused, as
#: the other rule systems refuse it (a misspelt ``headng`` was ignored, the order then meaning
#: something else than the player wrote)
_FIELDS: dict[str, frozenset[str]] = {
    "end": frozenset({"kind"}),
    **{k: frozenset({"kind", "unit"}) for k in _SINGLES},
    **{k: frozenset({"kind", "unit", "target"}) for k in _PAIRS if k != "transfer"},
    "transfer": frozenset({"kind", "personality", "unit"}),
    "fight-as": frozenset({"kind", "unit", "choice"}),
    "deploy": frozenset({"kind", "unit", "x", "y", "heading"}),
    "activate": frozenset({"kind", "unit", "toward", "charge"}),
    "charge": frozenset({"kind", "unit", "target", "facing", "turn"}),
    "move": frozenset({"kind", "unit", "steps", "label"}),
}
#: the fields of a step of a move or the turn of a charge
_STEP_FIELDS = (frozenset({"turn", "pivot"}), frozenset({"go"}))


def _unknown_fields(d: Mapping[str, Any]) -> None:
    kind = d.get("kind")
    known = _FIELDS.get(kind) if isinstance(kind, str) else None
    if known is not None and not known.issuperset(d):
        extra = sorted(str(k) for k in d if k not in known)
        raise _bad(
            f"unknown order field(s) {', '.join(extra)}; an order of kind {d['kind']!r} has the "
            f"fields {', '.join(sorted(known))}"
        )
    parts = list(d.get("steps") or []) if d.get("kind") == "move" and isinstance(d.get("steps"), list) else []
    if d.get("kind") == "charge" and isinstance(d.get("turn"), Mapping):
        parts.append(d["turn"])
    for part in parts:
        if isinstance(part, Mapping) and not any(f.issuperset(part) for f in _STEP_FIELDS):
            raise _bad(f"unknown step field(s) in {dict(part)!r}: a step is {{turn, pivot}} or {{go}}")


def parse_dict(d: Mapping[str, Any]) -> Order:
    if not isinstance(d, Mapping):
        raise _bad(f"an order is a text or an object, not {d!r}")
    _unknown_fields(d)
    try:
        k = d["kind"]
        if k == "end":
            return End()
        if k in _SINGLES:
            return _SINGLES[k](str(d["unit"]))  # type: ignore[no-any-return]
        if k == "transfer":
            return Transfer(str(d["personality"]), str(d["unit"]))
        if k == "fight-as":
            return FightAs(str(d["unit"]), str(d["choice"]))
        if k == "deploy":
            h = d.get("heading")
            return Deploy(str(d["unit"]), float(d["x"]), float(d["y"]), None if h is None else float(h))
        if k in _PAIRS:
            return _PAIRS[k](str(d["unit"]), str(d["target"]))  # type: ignore[no-any-return]
        if k == "activate":
            tw = d.get("toward")
            charge = d.get("charge")
            if charge is not None and not isinstance(charge, str):
                raise ValueError(f"charge names a unit, not {charge!r}")
            return Activate(str(d["unit"]), charge, (float(tw[0]), float(tw[1])) if tw else None)
        if k == "charge":
            t = d.get("turn")
            return Charge(
                str(d["unit"]),
                str(d["target"]),
                str(d["facing"]),
                _dict_turn(t) if t else None,
            )
        if k == "move":
            steps: list[Step] = []
            for s in d["steps"]:
                if "turn" in s:
                    steps.append(_dict_turn(s))
                else:
                    steps.append(Go(float(s["go"][0]), float(s["go"][1])))
            return Move(str(d["unit"]), tuple(steps), str(d.get("label", "")))
    except KeyError as exc:
        raise _bad(f"malformed order {dict(d)!r}: it needs the field {exc.args[0]!r}") from None
    except (TypeError, ValueError, IndexError) as exc:
        raise _bad(f"malformed order {dict(d)!r}: {exc}") from None
    raise _bad(f"unknown order kind {d.get('kind')!r}")


def parse(spec: str | Mapping[str, Any]) -> Order:
    return read_order(spec, parse_text, parse_dict)
