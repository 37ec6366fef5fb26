"""knight-hack's own bot (the plugin's ``bots``): ``scripted``, a simple general.

It charges where the odds are best (its target number against the object's in the first round,
the charge bonus counted and the charger's disorder on contact too), springs an ambush on the
same reckoning (never one its own friend or a router blocks, ruling R53), evades a charge it would
lose badly when it can (not into a corner at the table's edge, R52), lets the enemy move first (the
errata's own advice, ``knight-hack:info.advice``), advances its mounted and close foot towards the
nearest enemy, keeps its archers where they stand, and takes every rout test. Behind on ruling
R37's count in the last two turns (:func:`reckoning.behind_at_the_end`) it seeks battle: it weighs
each charge in points instead (the casualties and the rout of the round's loser, with the flank or
rear bonus, disorder and ranks the melee counts: :func:`reckoning.charge_value`) and makes the best
there is. Ahead on that count in the last five turns (:func:`reckoning.ahead_at_the_end`) it keeps
its lead: it declares no charge, springs no ambush and makes no advance. Its archers shoot where
the shot takes most points off the enemy. With hand deployment (ruling R51) it places
each unit where the scenario put it when the rules allow it, else on the legal place nearest it
(the first of the menu). It reads only the public State API: the menu, the view (without what its
side may not see), the event log and the game's tables.
"""

from __future__ import annotations

import math
from typing import Any

from shieldwall.ai.base import Bot
from shieldwall.core.errors import UnknownName
from shieldwall.core.game import State

from ..orders import Order
from ..plugin import RS
from ..tables import Tables
from .reckoning import (
    ahead_at_the_end,
    behind_at_the_end,
    charge_edge,
    charge_line_blocked,
    charge_value,
    evade_cornered,
    shot_value,
)

__all__ = ["ScriptedBot"]

Units = dict[str, dict[str, Any]]

_charge_edge = charge_edge  # the name the tests and last session's notes use


def _charges(state: State) -> dict[str, str]:
    """This turn's charges as revealed in the log: charger -> object."""
    out: dict[str, str] = {}
    for e in reversed(state.events):
        if e.kind in ("redirects", "countercharge"):
            out.setdefault(e.data["unit"], e.data["target"])
        elif e.kind == "charges-declared":
            for pairs in e.data["charges"].values():
                for c, t in pairs:
                    out.setdefault(c, t)
            break
    return out


def _after(u: dict[str, Any], enemies: list[dict[str, Any]], o: Order) -> float:
    """How near ``u`` would stand to the nearest of ``enemies`` after the move ``o``."""
    h = o.arg("turn")
    heading = u["heading"] if h is None else h
    go = o.arg("go") or 0.0
    r = math.radians(heading)
    x, y = u["x"] + math.sin(r) * go, u["y"] + math.cos(r) * go
    return min(math.dist((x, y), (e["x"], e["y"])) for e in enemies)


class ScriptedBot(Bot):
    """``scripted``: the simple general above; deterministic (its generator breaks no ties)."""

    name = "scripted"

    def choose(self, state: State) -> Any:
        rid = state.game.info.id
        if rid != RS:
            raise UnknownName(f"rule system for the {RS} scripted bot", rid, [RS])
        game: Any = state.game  # a KnightHackGame: its scenario's tables
        tables: Tables = game.scenario.tables
        menu: list[Order] = state.legal_orders()
        d = state.decision()
        me = d.side if d is not None else None
        view = state.view()
        # what its side may see: not the enemy's hidden ambushers (shieldwall.visibility)
        units: Units = {u["id"]: u for u in view["units"] if me not in u.get("hidden_from", ())}
        kind = menu[0].kind
        turns = game.params["turns"]
        if kind in ("hide", "hold", "move") and ahead_at_the_end(view, me, turns):
            return menu[0]  # keep the lead: no charge, no ambush sprung, no advance (R37)
        if kind in ("hide", "ambush", "hold", "charge"):
            pressed = behind_at_the_end(view, me, turns)
            return self._declare(tables, units, menu, pressed, game.params["auto_casualties"])
        if kind in ("stand", "keep", "evade", "redirect"):
            return self._respond(tables, units, menu, _charges(state), view["table"])
        if kind in ("shoot", "move-order"):
            want = kind == "shoot"  # shoot first; move second
            return next(o for o in menu if o.first is want)
        if kind in ("hold-fire", "fire"):
            return self._fire(tables, units, menu, game.params["auto_casualties"])
        if kind in ("rout-on", "rally", "move"):
            return self._unit(tables, units, menu)
        return menu[0]

    def _declare(self, tables: Tables, units: Units, menu: list[Order], pressed: bool, auto: Any) -> Order:
        """The charge (or ambush) with the best edge, if any is better than even; else hold (hide).
        Behind with the turn limit near (``pressed``): the one worth the most points, whatever it
        is worth."""
        if menu[0].kind == "charge":  # a forced charge (knight-hack:charge.no-contact)
            return menu[0]
        best, score = menu[0], -math.inf
        for o in menu[1:]:
            u, t = units[str(o.unit)], units[str(o.target)]
            if o.kind == "charge" and charge_line_blocked(units, u, t):
                continue  # it would halt short of a friend or a router and make no contact (R38)
            s = charge_value(tables, u, t, auto) if pressed else charge_edge(tables, u, t)
            if s > score:
                best, score = o, s
        return best if pressed or score > 0 else menu[0]

    def _respond(
        self,
        tables: Tables,
        units: Units,
        menu: list[Order],
        charges: dict[str, str],
        table: dict[str, float],
    ) -> Order:
        """Evade a charge it would lose badly, unless the table's edge would corner it (R52)."""
        u = units[str(menu[0].unit)]
        chargers = [units[c] for c, t in charges.items() if t == u["id"]]
        worst = min((-charge_edge(tables, c, u) for c in chargers), default=0)
        evade = next((o for o in menu if o.kind == "evade"), None)
        if evade is not None and worst < -20 and not evade_cornered(tables, u, chargers, table):
            return evade
        return next((o for o in menu if o.kind == "keep"), menu[0])

    def _fire(self, tables: Tables, units: Units, menu: list[Order], auto: Any) -> Order:
        """Shoot where the shot takes most points off the enemy on average (ruling R37), a charger or
        not; the nearest of equals. (It shot at a charger first, hoping for the two hits that make a
        charger test, R8: at 5 on the sample tables against knights, seldom worth the points.)"""
        pool = [o for o in menu if o.kind == "fire"]
        u = units[str(menu[0].unit)]

        def key(o: Order) -> tuple[float, float, str]:
            t = units[str(o.target)]
            near = math.dist((u["x"], u["y"]), (t["x"], t["y"]))
            return -round(shot_value(tables, u, t, auto), 6), near, str(o.target)

        return min(pool, key=key)

    def _unit(self, tables: Tables, units: Units, menu: list[Order]) -> Order:
        u = units[str(menu[0].unit)]
        if menu[0].kind == "rout-on":
            return menu[-1]
        if menu[0].kind == "rally":
            return menu[0]
        shooter = any(tables.weapons[w].range for w in u["weapons"])
        enemies = [
            e for e in units.values() if e["side"] != u["side"] and e["status"] not in ("routed", "removed")
        ]
        if shooter or not enemies:
            return menu[0]

        # the first of the nearest (``min`` over the keys); no nested function: compiled, one that
        # another closure calls is kept in the frame's variables, which it holds in turn (a cycle)
        keys = [(round(_after(u, enemies, o), 6), str(o)) for o in menu]
        return menu[min(range(len(menu)), key=keys.__getitem__)]
