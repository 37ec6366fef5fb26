"""After the close combats of a bound: the winners' pursuit and the bound player's press forward.

Clauses: dbm-3.2:pursue.ranks (a frontal winner whose opponent recoiled, fled or was destroyed
pursues its type's ``pursue`` distance, user data, with the contiguous 2nd-4th ranks lined up
behind it: ruling R35), dbm-3.2:press.forward (a foot group whose frontal opponents all fled in its
own bound, without pursuing, may press forward after all combats: ruling R36),
dbm-3.2:flee.skirm-press (enemy skirmishers obstructing the press forward flee once, perpendicularly
away from its front; skirmishers still contacted are destroyed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.dbm.advance import apply_plan, obstacle_distance, plan_advance
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.elements import Element, is_skirmisher, troop_class
from shieldwall.rulesets.dbm.fortgeom import Fort, crosses_fort
from shieldwall.rulesets.dbm.forts import storm
from shieldwall.rulesets.dbm.melee import front_engaged, ranks_behind
from shieldwall.rulesets.dbm.outmoves import flee, pursue
from shieldwall.rulesets.dbm.special import PressGroup, check_press_forward, press_forward_distance

if TYPE_CHECKING:
    from shieldwall.rulesets.dbm.board import Board
    from shieldwall.rulesets.dbm.state import DbmState

Event = dict[str, Any]
MIN_PRESS: Final = 0.5


@dataclass
class Aftermath:
    """What the bound's frontal combats left: who pursued, whose opponents fled."""

    pursued: set[str] = field(default_factory=set)
    fled_from: dict[str, list[str]] = field(default_factory=dict)  # winner -> opponents that fled
    fought: dict[str, list[str]] = field(default_factory=dict)  # element -> its frontal opponents


def after_combat(
    board: Board, cc: Event, frontal: bool, am: Aftermath, forts: dict[str, Fort | None] | None = None
) -> list[Event]:
    """Record a close combat's frontal result and pursue with the winner (dbm-3.2:pursue.ranks); an
    assaulter beating a defender of fortifications storms instead (dbm-3.2:storm.pursue, R40)."""
    a, b = str(cc["a"]), str(cc["b"])
    if frontal:
        am.fought.setdefault(a, []).append(b)
        am.fought.setdefault(b, []).append(a)
    res = cc.get("result")
    if res is None or not frontal or res["result"] not in ("destroyed", "recoil", "flee"):
        return []
    winner, loser = (b, a) if res["loser"] == "a" else (a, b)
    if res["result"] == "flee":
        am.fled_from.setdefault(winner, []).append(loser)
    e = board.el.get(winner)
    fort = (forts or {}).get(loser)
    if e is not None and fort is not None and not (forts or {}).get(winner):
        if front_engaged(board, e) is not None:
            return []
        ev = storm(board, winner, fort)
        if ev:
            am.pursued.add(winner)
        return ev
    if e is None or board.tables.movement.type[e.code].pursue <= 0 or front_engaged(board, e) is not None:
        return []
    ev = pursue(board, winner)
    if ev:
        am.pursued.add(winner)
    return ev


def press_groups(st: DbmState, side: str, am: Aftermath, shifted: set[str]) -> dict[str, list[str]]:
    """The groups of ``side`` that may press forward (dbm-3.2:press.forward): a column, its front
    element the winner of its only frontal combat (ruling R36), by the front element's id."""
    out: dict[str, list[str]] = {}
    tb = st.tables
    for wid in sorted(am.fled_from):
        e = st.board.el.get(wid)
        if e is None or e.side != side or front_engaged(st.board, e) is not None:
            continue
        group = [e, *ranks_behind(st.board, e)]
        mounted = [g for g in group if troop_class(tb, g) != "foot"]
        cmd = st.commands.get(e.command)
        g = PressGroup(
            all_foot=not mounted,
            mounted_general_only=bool(mounted) and all(m.general or m.double_with for m in mounted),
            demoralised=bool(cmd and cmd.demoralised),
            opponents_all_fled=sorted(am.fought.get(wid, [])) == sorted(am.fled_from[wid]),
            pursued=wid in am.pursued,
            earlier_move_straight=not any(g.id in shifted for g in group),
            skirmishers_in_front_rank=is_skirmisher(tb, e),
            all_ranks=True,  # the whole column presses (ruling R36)
            across_fortifications=crosses_fort(st.forts, e.fp, press_forward_distance(st.board, group)),
        )
        try:
            check_press_forward(g)
        except IllegalOrder:
            continue
        ids = [x.id for x in group]
        if plan_advance(st.board, ids, press_forward_distance(st.board, group)).dist > MIN_PRESS:
            out[wid] = ids
    return out


def press_forward(board: Board, ids: list[str]) -> list[Event]:
    """The press forward move: straight ahead up to the slowest element's full tactical move; enemy
    skirmishers in the way flee once (dbm-3.2:flee.skirm-press), and are destroyed if contacted
    after fleeing; the move ends on contact with fresh non-skirmishers (combat next bound)."""
    lead = board.el[ids[0]]
    reach = press_forward_distance(board, [board.el[i] for i in ids])
    ev: list[Event] = []
    fled: set[str] = set()
    for _ in range(8):
        plan = plan_advance(board, ids, reach)
        skirm = [t for _, t, _ in plan.contacts if is_skirmisher(board.tables, board.el[t])]
        if plan.contacts and not skirm:
            break
        who = _next_in_way(board, ids, reach + 1.0)  # met at exactly the full move too
        if who is None or who.side == lead.side or not is_skirmisher(board.tables, who):
            break
        if who.id in fled:
            board.remove(who.id)
            ev.append(
                {
                    "kind": "destroyed",
                    "id": who.id,
                    "why": f"skirmishers contacted by {lead.id} pressing forward",
                    "cc": False,
                    "rule": rule("press.forward"),
                }
            )
        else:
            fled.add(who.id)
            ev += flee(board, who.id, away_from=lead, press_forward=True)
    plan = plan_advance(board, ids, reach)
    moved = apply_plan(board, plan)
    ev.append(
        {"kind": "press-forward", "ids": ids, "paces": round(plan.dist, 3), "rule": rule("press.forward")}
    )
    return ev + [m for m in moved if m["kind"] not in ("advance",)]


def _next_in_way(board: Board, ids: list[str], reach: float) -> Element | None:
    """The element a straight-ahead move of the group ``ids`` meets first within ``reach``."""
    best, who = reach, None
    for i in ids:
        m = board.el[i]
        d, o = obstacle_distance(board, m, m.fp, reach, set(ids))
        if o is not None and d <= best:
            best, who = d, o
    return who
