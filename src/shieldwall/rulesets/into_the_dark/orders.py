"""Orders for into-the-dark: small frozen values with a text form and a dict form.

Text forms (one order per line in save files and the CLI; read by ``order_text.parse``)::

    keep | pass                       the initiative winner keeps or passes it
    rally r1                          r1 attempts to rally in the Rally phase
    end                               end this side's rallies, movement or fire
    activate r1                       choose r1 to act in the Movement phase
    hold r1                           r1 does not move (or, after a melee: does not pursue)
    move r1 fwd 4 wheel -30 fwd 2     straight moves (inches) and forward wheels (degrees, - = left)
    move r1 about fwd 2               about face (half the move) then forward
    move r1 back 3                    skirmishers back up (half speed, still facing the enemy)
    charge r1 b2 wheel 12.5 impetuous a charge: optional moves and wheels, then straight into contact
    frontage r1 8                     expand or contract the front rank to 8 figures
    shieldwall r1 on|off              form (or leave) shieldwall instead of moving
    face r1 left column|figures       turn to face a flank (or rear) attacker
    reform r1                         turn figures facing a flank back to the front
    stand r1 | countercharge r1 [impetuous] | evade r1 | fire r1 b2
                                      r1's reaction to a charge (fire: at the charger)
    decline r1                        r1 makes no opportunity charge or fire
    shoot r1 b2                       r1 shoots at b2 in the Missile Fire phase
    pursue r1 | resist r1             follow up / pursue, or test to stay in place
    deploy r1 30 6 0                  place r1 at (30, 6) heading 0 (alternate deployment)
    command red-g1 r1 | orders red-g1 hold | declare r1 blue-g1 2
                                      Command & Control (optional): free r1 this turn; new orders;
                                      dice aimed at a general (or a champion) in an enemy front rank
    join c1 r2                        champion c1 joins r2's front rank (special-troops.champions)
    turn r1 left | fallback r1 3 | careful r1 fwd 3 | breakoff r1
                                      Difficult Maneuvers (optional; extra_orders)
    allow r1 | refuse r1              r1 lets a routing or driven back friend through (or refuses)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.ordertext import BareOrder, OrderBase, UnitOrder, UnitTargetOrder
from shieldwall.core.ordertext import num as _num

from .clauses import cite

FACE_SIDES = ("left", "right", "rear")
FACE_HOW = ("column", "figures")


@dataclass(frozen=True, slots=True)
class Fwd:
    distance: float

    def text(self) -> str:
        return f"fwd {_num(self.distance)}"


@dataclass(frozen=True, slots=True)
class Wheel:
    angle: float  # degrees, negative = to the left

    def text(self) -> str:
        return f"wheel {_num(self.angle)}"


@dataclass(frozen=True, slots=True)
class Back:
    """Skirmishers only: "may move backwards at half speed without turning" (special-troops.skirmishers)."""

    # into-the-dark:special-troops.skirmishers.back-up

    distance: float

    def text(self) -> str:
        return f"back {_num(self.distance)}"


@dataclass(frozen=True, slots=True)
class About:
    def text(self) -> str:
        return "about"


Step = Fwd | Wheel | About | Back


def _step_dict(s: Step) -> dict[str, Any]:
    if isinstance(s, Fwd):
        return {"fwd": s.distance}
    if isinstance(s, Wheel):
        return {"wheel": s.angle}
    if isinstance(s, Back):
        return {"back": s.distance}
    return {"about": True}


class _Order(OrderBase):
    def dict_value(self, name: str, value: Any) -> Any:
        return [_step_dict(s) for s in value] if name == "steps" else value


@dataclass(frozen=True, slots=True)
class End(BareOrder):
    kind: ClassVar[str] = "end"


@dataclass(frozen=True, slots=True)
class Keep(BareOrder):
    kind: ClassVar[str] = "keep"


@dataclass(frozen=True, slots=True)
class Pass(BareOrder):
    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Rally(UnitOrder):
    kind: ClassVar[str] = "rally"


@dataclass(frozen=True, slots=True)
class Activate(UnitOrder):
    kind: ClassVar[str] = "activate"


@dataclass(frozen=True, slots=True)
class Hold(UnitOrder):
    kind: ClassVar[str] = "hold"


@dataclass(frozen=True, slots=True)
class Reform(UnitOrder):
    kind: ClassVar[str] = "reform"


@dataclass(frozen=True, slots=True)
class Stand(UnitOrder):
    kind: ClassVar[str] = "stand"


@dataclass(frozen=True, slots=True)
class Evade(UnitOrder):
    kind: ClassVar[str] = "evade"


@dataclass(frozen=True, slots=True)
class Decline(UnitOrder):
    kind: ClassVar[str] = "decline"


@dataclass(frozen=True, slots=True)
class Pursue(UnitOrder):
    kind: ClassVar[str] = "pursue"


@dataclass(frozen=True, slots=True)
class Resist(UnitOrder):
    kind: ClassVar[str] = "resist"


@dataclass(frozen=True, slots=True)
class Halt(UnitOrder):
    """A charger whose target ran away stops at its original position (movement.charging.target-runs)."""

    kind: ClassVar[str] = "stop"


@dataclass(frozen=True, slots=True)
class Continue(UnitOrder):
    """A charger whose target ran away goes on straight ahead (movement.charging.target-runs)."""

    kind: ClassVar[str] = "continue"


@dataclass(frozen=True, slots=True)
class Allow(UnitOrder):
    kind: ClassVar[str] = "allow"


@dataclass(frozen=True, slots=True)
class Refuse(UnitOrder):
    kind: ClassVar[str] = "refuse"


@dataclass(frozen=True, slots=True)
class CounterCharge(_Order):
    unit: str
    impetuous: bool = False
    kind: ClassVar[str] = "countercharge"

    def __str__(self) -> str:
        return f"countercharge {self.unit}" + (" impetuous" if self.impetuous else "")


@dataclass(frozen=True, slots=True)
class Move(_Order):
    unit: str
    steps: tuple[Step, ...]
    kind: ClassVar[str] = "move"

    def __str__(self) -> str:
        return " ".join([f"move {self.unit}", *(s.text() for s in self.steps)])


@dataclass(frozen=True, slots=True)
class Charge(_Order):
    unit: str
    target: str
    steps: tuple[Step, ...] = ()
    impetuous: bool = False
    kind: ClassVar[str] = "charge"

    def __str__(self) -> str:
        parts = [f"charge {self.unit} {self.target}", *(s.text() for s in self.steps)]
        if self.impetuous:
            parts.append("impetuous")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Frontage(_Order):
    unit: str
    figures: int
    kind: ClassVar[str] = "frontage"

    def __str__(self) -> str:
        return f"frontage {self.unit} {self.figures}"


@dataclass(frozen=True, slots=True)
class Shieldwall(_Order):
    unit: str
    on: bool = True
    kind: ClassVar[str] = "shieldwall"

    def __str__(self) -> str:
        return f"shieldwall {self.unit} {'on' if self.on else 'off'}"


@dataclass(frozen=True, slots=True)
class Face(_Order):
    unit: str
    side: str
    how: str = "column"
    kind: ClassVar[str] = "face"

    def __str__(self) -> str:
        return f"face {self.unit} {self.side} {self.how}"


@dataclass(frozen=True, slots=True)
class Fire(UnitTargetOrder):
    kind: ClassVar[str] = "fire"


@dataclass(frozen=True, slots=True)
class Shoot(UnitTargetOrder):
    kind: ClassVar[str] = "shoot"


Order = (
    End
    | Keep
    | Pass
    | Rally
    | Activate
    | Hold
    | Reform
    | Stand
    | Evade
    | Decline
    | Pursue
    | Resist
    | Halt
    | Continue
    | Allow
    | Refuse
    | CounterCharge
    | Move
    | Charge
    | Frontage
    | Shieldwall
    | Face
    | Fire
    | Shoot
)


def _bad(reason: str) -> IllegalOrder:
    return IllegalOrder(cite("turn-sequence.sequence-of-play"), reason)


def _float(text: str, what: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise _bad(f"expected a number for {what}, got {text!r}") from None
    if v != v or v in (float("inf"), float("-inf")):
        raise _bad(f"{what} must be a finite number")
    return v


def _steps(words: list[str]) -> tuple[tuple[Step, ...], list[str]]:
    """Read steps from the front of ``words``; returns the steps and the words left over."""
    steps: list[Step] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w == "about":
            steps.append(About())
            i += 1
        elif w in ("fwd", "wheel", "back"):
            if i + 1 >= len(words):
                raise _bad(f"'{w}' needs a value")
            v = _float(words[i + 1], w)
            steps.append(Fwd(v) if w == "fwd" else Wheel(v) if w == "wheel" else Back(v))
            i += 2
        else:
            break
    return tuple(steps), words[i:]


def _dict_steps(raw: Any) -> tuple[Step, ...]:
    out: list[Step] = []
    for s in raw:
        if "fwd" in s:
            out.append(Fwd(float(s["fwd"])))
        elif "wheel" in s:
            out.append(Wheel(float(s["wheel"])))
        elif "back" in s:
            out.append(Back(float(s["back"])))
        elif "about" in s:
            out.append(About())
        else:
            raise ValueError(f"unknown step {s!r}")
    return tuple(out)
