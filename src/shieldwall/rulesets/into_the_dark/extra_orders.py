"""Orders of the deployment (setup.deployment) and of the optional Difficult Maneuvers (maneuvers.*),
in the text and dict forms of ``orders``::

    deploy r1 30 6 0                  place r1 (or a dummy card) with its front edge centre at (30, 6),
                                      heading 0 (alternate deployment only)
turn r1 left|right                turn to face left or right, forming a column (a whole turn)
fallback r1 3                     back up 3" facing the enemy (half speed)
careful r1 fwd 3 wheel 10 ...     a move at half speed through disordering terrain
breakoff r1                       leave a melee fought last turn by the evade dice
declare r1 blue-g1 2              before the melee dice, r1 aims 2 of its dice at the general leading
                                  the unit it fights (command.general-leading; Command & Control),
                                  or at a champion in its front rank (declare r1 b9 2)
join c1 r2                        champion c1 joins r2, mixed in with its front rank
                                  (special-troops.champions)
leave c1                          champion c1 leaves the unit he joined, standing in front of it
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from shieldwall.core.ordertext import num

from . import orders as O


@dataclass(frozen=True, slots=True)
class Turn(O._Order):
    unit: str
    side: str
    kind: ClassVar[str] = "turn"

    def __str__(self) -> str:
        return f"turn {self.unit} {self.side}"


@dataclass(frozen=True, slots=True)
class FallBack(O._Order):
    unit: str
    distance: float
    kind: ClassVar[str] = "fallback"

    def __str__(self) -> str:
        return f"fallback {self.unit} {num(self.distance)}"


@dataclass(frozen=True, slots=True)
class Careful(O._Order):
    unit: str
    steps: tuple[O.Step, ...]
    kind: ClassVar[str] = "careful"

    def __str__(self) -> str:
        return " ".join([f"careful {self.unit}", *(s.text() for s in self.steps)])


@dataclass(frozen=True, slots=True)
class BreakOff(O._Order):
    unit: str
    kind: ClassVar[str] = "breakoff"

    def __str__(self) -> str:
        return f"breakoff {self.unit}"


@dataclass(frozen=True, slots=True)
class Deploy(O._Order):
    unit: str
    x: float
    y: float
    heading: float
    kind: ClassVar[str] = "deploy"

    def __str__(self) -> str:
        return f"deploy {self.unit} {num(self.x)} {num(self.y)} {num(self.heading)}"


@dataclass(frozen=True, slots=True)
class Command(O._Order):
    """``command G U``: general G spends a command action so that U may act counter to its
    combat preferences and orders this turn (command.command-actions)."""

    general: str
    unit: str
    kind: ClassVar[str] = "command"

    def __str__(self) -> str:
        return f"command {self.general} {self.unit}"


@dataclass(frozen=True, slots=True)
class NewOrders(O._Order):
    """``orders G attack|hold|fall-back``: new orders for general G (command.new-orders)."""

    general: str
    orders: str
    kind: ClassVar[str] = "orders"

    def __str__(self) -> str:
        return f"orders {self.general} {self.orders}"


@dataclass(frozen=True, slots=True)
class Declare(O._Order):
    """``declare U X N``: U declares N of its melee dice (1 or 2) at X, a general leading a unit U
    fights (command.general-leading) or a champion who has joined it (special-troops.champions),
    in that unit's front rank: "identified before rolling"."""

    # into-the-dark:special-troops.champions.targeted

    unit: str
    at: str
    dice: int
    kind: ClassVar[str] = "declare"

    def __str__(self) -> str:
        return f"declare {self.unit} {self.at} {self.dice}"


@dataclass(frozen=True, slots=True)
class Join(O._Order):
    """``join C U``: champion C joins friendly unit U, "treated as if mixed in with the front rank"
    (special-troops.champions)."""

    unit: str
    host: str
    kind: ClassVar[str] = "join"

    def __str__(self) -> str:
        return f"join {self.unit} {self.host}"


@dataclass(frozen=True, slots=True)
class Leave(O._Order):
    """``leave C``: champion C, who joined a unit, stands out in front of it on his own (ruling 73,
    special-troops.champions)."""

    unit: str
    kind: ClassVar[str] = "leave"

    def __str__(self) -> str:
        return f"leave {self.unit}"


Maneuver = Turn | FallBack | Careful | BreakOff | Deploy | Command | NewOrders | Declare | Join | Leave
KINDS = ("turn", "fallback", "careful", "breakoff", "deploy", "command", "orders", "declare", "join", "leave")


def parse_text(words: list[str]) -> Maneuver:
    k, args = words[0].lower(), words[1:]
    if k == "turn" and len(args) == 2 and args[1] in ("left", "right"):
        return Turn(args[0], args[1])
    if k == "fallback" and len(args) == 2:
        return FallBack(args[0], O._float(args[1], "distance"))
    if k == "breakoff" and len(args) == 1:
        return BreakOff(args[0])
    if k == "command" and len(args) == 2:
        return Command(args[0], args[1])
    if k == "declare" and len(args) == 3 and args[2].isdigit():
        return Declare(args[0], args[1], int(args[2]))
    if k == "join" and len(args) == 2:
        return Join(args[0], args[1])
    if k == "leave" and len(args) == 1:
        return Leave(args[0])
    if k == "orders" and len(args) == 2 and args[1] in ("attack", "hold", "fall-back"):
        return NewOrders(args[0], args[1])
    if k == "deploy" and len(args) == 4:
        x, y, h = (O._float(a, "deploy x y heading") for a in args[1:])
        return Deploy(args[0], x, y, h)
    if k == "careful" and len(args) >= 2:
        steps, rest = O._steps(args[1:])
        if not rest and steps and not any(isinstance(s, O.Back) for s in steps):
            return Careful(args[0], steps)
    raise O._bad(
        "deploy U X Y H, command G U, orders G attack|hold|fall-back, turn U left|right, fallback U D, "
        "careful U fwd D [wheel A ...], breakoff U, declare U G N, join C U, leave C"
    )


def parse_dict(d: Mapping[str, Any]) -> Maneuver:
    k = d["kind"]
    if k == "turn":
        side = str(d["side"])
        if side not in ("left", "right"):
            raise ValueError("side must be left or right")
        return Turn(str(d["unit"]), side)
    if k == "fallback":
        return FallBack(str(d["unit"]), float(d["distance"]))
    if k == "breakoff":
        return BreakOff(str(d["unit"]))
    if k == "command":
        return Command(str(d["general"]), str(d["unit"]))
    if k == "declare":
        return Declare(str(d["unit"]), str(d["at"]), int(d["dice"]))
    if k == "join":
        return Join(str(d["unit"]), str(d["host"]))
    if k == "leave":
        return Leave(str(d["unit"]))
    if k == "orders":
        if d["orders"] not in ("attack", "hold", "fall-back"):
            raise ValueError("orders are attack, hold or fall-back")
        return NewOrders(str(d["general"]), str(d["orders"]))
    if k == "deploy":
        return Deploy(str(d["unit"]), float(d["x"]), float(d["y"]), float(d["heading"]))
    steps = O._dict_steps(d["steps"])
    if not steps:
        raise ValueError("a careful move needs steps")
    return Careful(str(d["unit"]), steps)
