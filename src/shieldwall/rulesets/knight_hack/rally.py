"""Rally and rout (Clarification 4, errata page 13, and the rout test of Clarification 1).

Who rallies and when (``knight-hack:rally.who``, ``knight-hack:rally.evaders``,
``knight-hack:rally.no-contact``, ``knight-hack:rally.pursuers``; ruling R18), how a rallying unit may
move (``knight-hack:rally.move``, ``knight-hack:rally.fanatic-forward``), and the one test that stops
a rout (``knight-hack:rout.stop``, R14).

The text's example, reproduced by :func:`good_order_from`: "in turn two … The unit which destroyed
the open infantry must begin rallying in turn two … During turn three the unit continues to rally
and is able to proceed in good order during the movement phase of turn four."
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from shieldwall.core.crossings import in_front_arc
from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import Footprint
from shieldwall.core.polygons import footprint_distance
from shieldwall.rulesets.knight_hack.clauses import rule

#: why a unit rallies (page 13's list)
RallyCause = Literal["evaded", "charged-no-contact", "pursued", "broke-off", "ceased-pursuit", "recovered"]
#: causes after which a unit is in good order at the end of this turn (R18, rally.no-contact)
SAME_TURN: frozenset[str] = frozenset({"evaded", "charged-no-contact"})


def good_order_from(cause: RallyCause, turn: int) -> tuple[int, str]:
    """(turn, phase) from which a unit that began rallying in ``turn`` is in good order.

    Evaders and chargers that made no contact "are considered rallied at the end of the turn"; the
    others need "an entire turn after they were out of contact": rallying in this turn and the next,
    in good order from the movement phase of the turn after.
    """
    if cause in SAME_TURN:
        return turn, "end"
    return turn + 2, "movement"


def fanatic_victor_must_charge(fanatic: bool, enemies_in_reach: int) -> bool:
    """A fanatic victor "charges any one within charge reach" instead of rallying
    (``knight-hack:rally.fanatic-victor``); with none in reach it rallies forward."""
    return fanatic and enemies_in_reach > 0


def check_rally_move(formation: str, fanatic: bool, forward: float, back: float, normal_move: float) -> None:
    """A rally move: close formation rallies in place; others in place or fall back up to a full
    normal move; fanatics rally forward, 0 to a full normal move (R25)."""
    if forward < 0 or back < 0:
        raise ValueError("distances are not negative")
    if fanatic:
        if back:
            raise IllegalOrder(rule("rally.fanatic-forward"), "all fanatics rally forward")
        if forward > normal_move + 1e-9:
            raise IllegalOrder(
                rule("rally.fanatic-forward"), f"a fanatic rallies forward up to {normal_move:g} in."
            )
        return
    if forward:
        raise IllegalOrder(rule("rally.move"), "a rallying unit rallies in place or falls back")
    if formation == "close" and back:
        raise IllegalOrder(rule("rally.move"), "close formation troops rally in place")
    if back > normal_move + 1e-9:
        raise IllegalOrder(
            rule("rally.move"), f"a unit falls back up to a full normal move ({normal_move:g} in.)"
        )


def check_faces_threat(unit: Footprint, threats: list[Footprint]) -> None:
    """A rallying unit "must face enemy who can charge them next charge phase" (R20): ``threats``
    are the enemies whose normal move reaches it; the nearest must be in its front arc."""
    if not threats:
        return
    nearest = min(threats, key=lambda t: footprint_distance(unit, t))
    if not in_front_arc(unit, nearest.corners()):
        raise IllegalOrder(
            rule("rally.face-threat"),
            "a rallying unit must face the enemy who can charge it next charge phase",
        )


@dataclass
class RoutRecord:
    """The routed units of one side and their one test each (R14)."""

    tested: set[str] = field(default_factory=set)

    def check_test(self, unit: str, owner_moving: bool) -> None:
        if not owner_moving:
            raise IllegalOrder(rule("rout.stop"), "routers are tested only in their owner's movement phase")
        if unit in self.tested:
            raise IllegalOrder(rule("rout.stop"), f"{unit} has had its one test to stop its rout")

    def record(self, unit: str, passed: bool) -> Literal["rallying", "removed"]:
        """Record the test: a pass stops the rout (the unit rallies, cause ``recovered``); a fail
        removes the unit ("those units not stopping rout are removed")."""
        self.tested.add(unit)
        return "rallying" if passed else "removed"


def left_table(x: float, y: float, width: float, depth: float) -> bool:
    """A router whose centre leaves the table is lost (it may be saved only while on the table)."""
    return not (0 <= x <= width and 0 <= y <= depth)
