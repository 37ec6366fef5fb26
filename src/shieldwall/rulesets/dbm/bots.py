"""dbm-3.2's own bot, ``scripted``: spends PIPs sensibly through the public State API.

Pre-battle: no invader terrain (nor area features after it), the defender's features each kind
of his list once until 2 feature equivalents (his area kinds first; his river, WW, BUA and roads
only when no area kind is left to take: ruling R46), a deep deployment (rear ranks give support), baggage
to the C-in-C's command. In a bound: march commands while the enemy is far (march moves go no closer than
200 p), advance commands whose close combats against the nearest enemies favour them ("attack where
factors favour it": the game's own scoring over the 36 dice pairs, outcomes and quick kills
included, not the base factors alone; the group move lines up with the one shift), dismount an
element near enemy foot if its foot form fights foot better (ruling R39),
move single elements that can reach a legal contact, and protect the general: the generals' own
elements make no single moves, and a command does not advance if that would put the C-in-C's
element into a front contact in which it is destroyed more often than its opponent (ruling R44);
commands holding a fortification stay in it (R40).
Then end the bound; after the combats, press forward with every group that may
(dbm-3.2:press.forward).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Protocol

from shieldwall.ai.base import Bot
from shieldwall.core.game import State
from shieldwall.rulesets.dbm.combat import score_pair
from shieldwall.rulesets.dbm.menu import candidates
from shieldwall.rulesets.dbm.nearest import Favoured, Sight, UnitViews, d2
from shieldwall.rulesets.dbm.orders import Order
from shieldwall.rulesets.dbm.state import DbmState
from shieldwall.rulesets.dbm.support import Fighter


class FavourTest(Protocol):
    """What answers the bot's "favoured" question for a command: ``nearest.Favoured`` (the memo),
    or a plan's own (``plans.AttackBot``: always). A protocol, not a base class: ``Favoured`` is
    compiled, and an interpreted class cannot inherit from a compiled one."""

    def of(
        self,
        state: DbmState,
        side: str,
        cmd: str | None,
        sight: Sight,
        work: Callable[[str | None], tuple[bool, list[tuple[Any, float]] | None]],
    ) -> bool: ...


class ScriptedBot(Bot):
    name = "scripted"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        #: the view's unit entries, kept while their elements stay (``nearest.UnitViews``)
        self.views = UnitViews()
        #: each command's "favoured" answer, kept while nothing it read changes (``nearest.Favoured``)
        self.favoured: FavourTest = Favoured()

    def choose(self, state: State) -> Any:
        d = state.decision()
        assert d is not None
        if d.kind == "bound" and isinstance(state, DbmState) and state.bound is not None:
            return self._bound(state, d.side)
        orders = state.legal_orders()
        assert orders
        texts = {str(o): o for o in orders}
        if d.kind == "terrain" and isinstance(state, DbmState):
            ts = state.terrain_steps
            if ts.step == "defender" and ts.defender_fe < 2:
                # the defender: each kind of his list once, in its order, until 2 FE; else repeat one
                fresh = [o for o in orders if o.arg != "done" and o.arg not in ts.placed]
                return fresh[0] if fresh else orders[0]
            return texts.get("terrain none", texts.get("terrain done", orders[0]))
        if d.kind == "deploy":  # by hand (ruling R45): the seeded procedure's deep place, if legal
            deep = [o for o in orders if o.kind == "place" and ":deep@" in (o.arg or "")]
            return texts.get("deploy deep", deep[0] if deep else orders[0])
        if d.kind in ("baggage", "press"):
            return orders[0]  # press forward whenever a group may: it keeps the enemy off balance
        view = state.view()
        units = {u["id"]: u for u in view["units"]}
        side = d.side
        held = self._holding(view, side)  # elements defending fortifications stay there (R40)
        orders = [
            o
            for o in orders
            if not (o.kind == "move" and o.arg in held)
            and not (o.kind in ("advance", "march") and any(units[h]["command"] == o.arg for h in held))
        ]
        texts = {str(o): o for o in orders}
        for o in orders:
            if o.kind == "march":
                return o
        tables = getattr(getattr(state.game, "scenario", None), "tables", None)
        sight = Sight(units)
        for o in orders:
            if (
                o.kind == "dismount"
                and tables is not None
                and self._dismount_pays(state, tables, units, o.arg, sight)
            ):
                return o
        for o in orders:
            if o.kind == "advance" and (tables is None or self._favoured(tables, units, side, o.arg, sight)):
                return o
        for o in orders:
            if (
                o.kind == "move"
                and not units[o.arg]["name"].endswith("general")
                and self._near_enemy(units, o.arg, side, sight)
            ):
                return o
        return texts["end"]

    def _bound(self, state: DbmState, side: str) -> Order:
        """The choice in a bound: the first march of the menu, else the first dismount that pays,
        else the first favoured advance, else the first move near enemy, else ``end``, asking the
        bound about those orders only (the full menu would make every order's plan; the choice is
        the same: tests/dbm/test_dbm_menu.py)."""
        b = state.bound
        assert b is not None
        view = self.views.of(state)
        units = {u["id"]: u for u in view["units"]}
        held = self._holding(view, side)
        held_cmds = {units[h]["command"] for h in held}
        texts = [
            t
            for t in candidates(b, state)
            if not (t.startswith("move ") and t[5:] in held)
            and not (t.split(" ", 1)[0] in ("advance", "march") and t.split(" ", 1)[1] in held_cmds)
        ]

        def on_menu(t: str) -> bool:
            return b.option(state, t) is not None

        for t in texts:
            if t.startswith("march ") and on_menu(t):
                return Order("march", t[6:])
        tables = state.tables
        sight = Sight(units)
        for t in texts:
            if (
                t.startswith("dismount ")
                and self._dismount_pays(state, tables, units, t[9:], sight)
                and on_menu(t)
            ):
                return Order("dismount", t[9:])
        cinc = self._c_in_c(state, side)
        for t in texts:
            if (
                t.startswith("advance ")
                and self.favoured.of(
                    state, side, t[8:], sight, lambda c: favour(tables, units, side, c, sight)
                )
                and on_menu(t)
                and not self._general_in_bad_combat(state, cinc, t)
            ):
                return Order("advance", t[8:])
        for t in texts:
            if (
                t.startswith("move ")
                and not units[t[5:]]["name"].endswith("general")
                and self._near_enemy(units, t[5:], side, sight)
                and on_menu(t)
            ):
                return Order("move", t[5:])
        return Order("end")

    @staticmethod
    def _c_in_c(state: DbmState, side: str) -> str | None:
        """The C-in-C's own element (the general's element of the C-in-C's command), if on table."""
        for c in state.game.scenario.armies[side].commands:
            if c.c_in_c:
                for el in c.elements:
                    if el.general and el.id in state.board.el:
                        return el.id
        return None

    @staticmethod
    def _general_in_bad_combat(state: DbmState, cinc: str | None, text: str) -> bool:
        """Protect the general: the group move ``text`` would put the C-in-C's element into a front
        contact (not on an enemy's flank or rear) in which, over the 36 dice pairs of one close
        combat (the game's own scoring, no overlaps or ranks counted), it is destroyed more often
        than its opponent (ruling R44)."""
        b = state.bound
        got = b.option(state, text) if b is not None and cinc is not None else None
        if got is None:
            return False
        for mid, tid, pos in got[2].contacts:
            if mid != cinc or pos in ("front-on-flank", "front-to-rear") or tid not in state.board.el:
                continue
            g, o = state.board.el[mid], state.board.el[tid]
            fg = Fighter(g.code, g.grade, g.regular, general=True, moved_into_contact_this_bound=True)
            fo = Fighter(o.code, o.grade, o.regular, general=o.general)
            lost = won = 0
            for da in range(1, 7):
                for db in range(1, 7):
                    res = score_pair(state.tables, fg, fo, "cc", da, db)["result"]
                    if res is not None and res["result"] == "destroyed":
                        lost += res["loser"] == "a"
                        won += res["loser"] == "b"
            if lost > won:
                return True
        return False

    @staticmethod
    def _holding(view: dict[str, Any], side: str) -> set[str]:
        """Own elements whose front edge centre is on a fortification their side holds."""
        out: set[str] = set()
        forts = [f for f in view.get("fortifications", ()) if f["side"] == side]
        if not forts:  # (no section of its own: nothing to hold, no element looked at)
            return out
        for u in view["units"]:
            if u["side"] != side:
                continue
            h = math.radians(u["heading"])
            x = u["x"] + math.sin(h) * u["depth"] / 2
            y = u["y"] + math.cos(h) * u["depth"] / 2
            for f in forts:
                if f["x0"] - 0.01 <= x <= f["x1"] + 0.01 and f["y0"] - 0.01 <= y <= f["y1"] + 0.01:
                    out.add(u["id"])
        return out

    @staticmethod
    def _dismount_pays(
        state: State,
        tables: Any,
        units: dict[str, dict[str, Any]],
        eid: str | None,
        sight: Sight | None = None,
    ) -> bool:
        """Dismount when the nearest enemy is foot within 300 p and the element's foot form has the
        better base factor against foot (ruling R39). ``sight``: the decision's grids of ``units``
        (``nearest``), built here when not given."""
        u = units[str(eid)]
        foot = getattr(state, "dismount_of", {}).get(eid)
        if foot is None:
            return False
        t = (sight or Sight(units)).enemies(u["side"]).nearest(u)
        if t is None:
            return False
        near = (t["x"] - u["x"]) ** 2 + (t["y"] - u["y"]) ** 2 < 300.0**2
        is_foot = tables.troops.type[t["type"]].troop_class == "foot"
        return bool(near and is_foot and tables.base(foot[0]).v_foot > tables.base(u["type"]).v_foot)

    @staticmethod
    def _near_enemy(
        units: dict[str, dict[str, Any]], eid: str, side: str, sight: Sight | None = None
    ) -> bool:
        """An enemy element (baggage too) whose centre is within 160 p across and 400 p along."""
        return (sight or Sight(units)).enemies(side, baggage=True).any_in_box(units[eid], 160, 400)

    @staticmethod
    def _favoured(
        tables: Any,
        units: dict[str, dict[str, Any]],
        side: str,
        cmd: str | None,
        sight: Sight | None = None,
    ) -> bool:
        """Attack where the combat favours it: each element of the command against its nearest
        enemy, over the 36 dice pairs of one close combat it moves into (the game's own scoring,
        ``score_pair``: base factors, tactical factors, grading and the outcome table, quick kills
        included; no overlaps or ranks counted), scores 2 for each pair in which the enemy is
        destroyed, -2 for each in which it is, 1 for each in which the enemy is otherwise beaten,
        -1 for each in which it is. The command advances when the sum is at least 0. (Base factors
        alone hid the outcomes: blades beaten by knights are destroyed.) ``sight``: the decision's
        grids of ``units`` (``nearest``), built here when not given."""
        return favour(tables, units, side, cmd, sight)[0]


def favour(
    tables: Any,
    units: dict[str, dict[str, Any]],
    side: str,
    cmd: str | None,
    sight: Sight | None = None,
) -> tuple[bool, list[tuple[dict[str, Any], float]] | None]:
    """``ScriptedBot._favoured``'s answer and what it read: each element of the command weighed
    with the squared distance of its nearest enemy (None when it weighed none: no element, or no
    enemy)."""
    sight = sight or Sight(units)
    mine = [u for u in sight.command(cmd) if u["type"] != "Bge"]
    enemy = sight.enemies(side)
    if not mine or not enemy.units:
        return True, None
    score = 0
    read = []
    for u in mine:
        t = enemy.nearest(u)
        assert t is not None
        read.append((u, d2(t, u)))
        score += _combat_edge(tables, u["type"], u.get("grade", "O"), t["type"], t.get("grade", "O"))
    return score >= 0, read


#: ``_combat_edge`` by (id of the tables, codes and grades): (the tables, the value)
_EDGES: dict[tuple[int, str, str, str, str], tuple[Any, int]] = {}


def _combat_edge(tables: Any, code: str, grade: str, ecode: str, egrade: str) -> int:
    """An element (``code``, ``grade``) moving into close combat with an enemy's front: over the 36
    dice pairs, 2 for each in which the enemy is destroyed, -2 for each in which the element is, 1
    for each in which the enemy is otherwise beaten, -1 for each in which the element is."""
    key = (id(tables), code, grade, ecode, egrade)
    got = _EDGES.get(key)
    if got is not None and got[0] is tables:
        return got[1]
    me = Fighter(code, grade, moved_into_contact_this_bound=True)
    them = Fighter(ecode, egrade)
    value = 0
    for da in range(1, 7):
        for db in range(1, 7):
            res = score_pair(tables, me, them, "cc", da, db)["result"]
            if res is None:
                continue
            weight = 2 if res["result"] == "destroyed" else 1
            value += weight if res["loser"] == "b" else -weight
    _EDGES[key] = (tables, value)
    return value
