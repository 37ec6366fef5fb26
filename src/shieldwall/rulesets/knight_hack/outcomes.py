"""Morale tests in play and what a failed one does (``morale.toml`` ``[on_fail]``)."""

from __future__ import annotations

from shieldwall.core.geometry import heading_vector
from shieldwall.rulesets.knight_hack.board import Board, Unit
from shieldwall.rulesets.knight_hack.geom import away_heading, clip_to_table
from shieldwall.rulesets.knight_hack.morale import MoraleTest


def take_test(b: Board, u: Unit, trigger: str, clause: str) -> bool:
    """Roll ``u``'s morale test (no die at a level of 100 or more, knight-hack:morale.auto-pass)."""
    level, terms = b.morale(u)
    test = MoraleTest(level)
    passed, r = test.roll(b.rng)
    b.log(
        "morale-test",
        "morale.auto-pass" if test.automatic else clause,
        u.side,
        unit=u.id,
        test=trigger,
        level=level,
        terms=terms,
        faces=[] if r is None else [r],
        target=level,
        automatic=test.automatic,
        passed=passed,
    )
    return passed


def rout(b: Board, u: Unit, clause: str) -> None:
    """The unit routs: out of contact, turned towards its home edge (it runs in its movement)."""
    b.break_contact(u.id)
    u.status, u.heading, u.good_from = "routed", away_heading(b, u.side), None
    b.log("routed", clause, u.side, unit=u.id)


def apply_fail(b: Board, u: Unit, trigger: str, clause: str) -> str:
    """Apply ``on_fail[trigger]`` to ``u``; returns the outcome."""
    outcome = b.tables.morale.on_fail[trigger]
    if outcome == "disorder":
        u.status = "disordered"
        b.log("disordered", clause, u.side, unit=u.id, reason=trigger)
    elif outcome == "rout":
        rout(b, u, clause)
    elif outcome == "remove":
        b.remove(u, trigger, clause)
    elif outcome == "fall-back":
        b.break_contact(u.id)
        back = (u.heading + 180.0) % 360.0
        d = clip_to_table(b, u, back, b.tables.types[u.type].normal_move)
        vx, vy = heading_vector(back)
        u.x, u.y = u.x + vx * d, u.y + vy * d
        u.status, u.good_from = "rallying", (b.turn + 2, "movement")
        b.log("falls-back", clause, u.side, unit=u.id, distance=round(d, 3))
    else:  # halt
        b.log("halts", clause, u.side, unit=u.id, reason=trigger)
    return outcome
