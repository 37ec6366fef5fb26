"""knight-hack's own bot (the plugin's ``bots``): ``scripted``, a simple general.

It charges where the odds are best (its target number against the object's, the charge bonus
counted), shoots at chargers first, evades a charge it would lose badly when it can, lets the enemy
move first (the errata's own advice, ``knight-hack:info.advice``), advances its mounted and close
foot towards the nearest enemy, keeps its archers where they stand, and takes every rout test.
"""

from __future__ import annotations

import math
from typing import Any

from shieldwall.ai.base import Bot
from shieldwall.core.errors import UnknownName
from shieldwall.core.game import State

from ..board import Board, Unit
from ..factors import MeleeConditions, melee_target
from ..orders import Order
from ..plugin import RS

__all__ = ["ScriptedBot"]


def _edge(b: Board, u: Unit, t: Unit, charging: bool) -> int:
    """u's target number against t minus t's against u (the charge bonus when ``charging``)."""
    mine = melee_target(b.tables, u.fighter(), t.fighter(), MeleeConditions(charging_first_round=charging))
    theirs = melee_target(b.tables, t.fighter(), u.fighter(), MeleeConditions())
    return mine.value - theirs.value


class ScriptedBot(Bot):
    """``scripted``: the simple general above; deterministic (its generator breaks no ties)."""

    name = "scripted"

    def choose(self, state: State) -> Any:
        rid = state.game.info.id
        if rid != RS:
            raise UnknownName(f"rule system for the {RS} scripted bot", rid, [RS])
        b: Board = state.board  # type: ignore[attr-defined]
        menu: list[Order] = state.legal_orders()
        kind = menu[0].kind
        if kind in ("hold", "charge"):
            return self._declare(b, menu)
        if kind in ("stand", "keep", "evade", "redirect"):
            return self._respond(b, menu)
        if kind in ("shoot", "move-order"):
            want = kind == "shoot"  # shoot first; move second
            return next(o for o in menu if o.first is want)
        if kind in ("hold-fire", "fire"):
            return self._fire(b, menu)
        if kind in ("rout-on", "rally", "move"):
            return self._unit(b, menu)
        return menu[0]

    def _declare(self, b: Board, menu: list[Order]) -> Order:
        if menu[0].kind == "charge":  # a forced charge (knight-hack:charge.no-contact)
            return menu[0]
        best, score = menu[0], 0
        for o in menu[1:]:
            s = _edge(b, b.units[str(o.unit)], b.units[str(o.target)], True)
            if s > score:
                best, score = o, s
        return best

    def _respond(self, b: Board, menu: list[Order]) -> Order:
        u = b.units[str(menu[0].unit)]
        chargers = [b.units[c] for c, t in b.declared.items() if t == u.id]
        worst = min((_edge(b, u, c, False) - 10 for c in chargers), default=0)
        evade = next((o for o in menu if o.kind == "evade"), None)
        if evade is not None and worst < -20:
            return evade
        return next((o for o in menu if o.kind == "keep"), menu[0])

    def _fire(self, b: Board, menu: list[Order]) -> Order:
        shots = [o for o in menu if o.kind == "fire"]
        chargers = {c for c, t in b.declared.items() if t}
        at_chargers = [o for o in shots if o.target in chargers]
        pool = at_chargers or shots
        u = b.units[str(menu[0].unit)]
        return min(
            pool,
            key=lambda o: (
                math.dist((u.x, u.y), (b.units[str(o.target)].x, b.units[str(o.target)].y)),
                str(o.target),
            ),
        )

    def _unit(self, b: Board, menu: list[Order]) -> Order:
        u = b.units[str(menu[0].unit)]
        if menu[0].kind == "rout-on":
            return menu[-1]
        if menu[0].kind == "rally":
            return menu[0]
        shooter = any(b.tables.weapons[w].range for w in u.weapons)
        enemies = [e for e in b.live(b.other(u.side)) if e.status != "routed"]
        if shooter or not enemies:
            return menu[0]

        def after(o: Order) -> float:
            h = o.arg("turn")
            heading = u.heading if h is None else h
            go = o.arg("go") or 0.0
            r = math.radians(heading)
            x, y = u.x + math.sin(r) * go, u.y + math.cos(r) * go
            return min(math.dist((x, y), (e.x, e.y)) for e in enemies)

        return min(menu, key=lambda o: (round(after(o), 6), str(o)))
