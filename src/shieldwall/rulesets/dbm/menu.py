"""A bound's menu: what each order would do, computed for the whole menu (a player's page, the
random bot) or for one order only (checking and doing the order given, the scripted bot), with
the same conditions and the same plans either way.

Clauses: dbm-3.2:pip.march-extra (the PIP cost of each order against the command's die),
dbm-3.2:march.rules (how far a march may go), dbm-3.2:move.legal-contact (a move's plan),
dbm-3.2:gap.enter (single elements; ruling R31), dbm-3.2:group.limits (dismounting is a single
element's order, ruling R39), ruling R41 (a march stops at an undefended enemy fortification).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from shieldwall.core.reference import REFERENCE
from shieldwall.rulesets.dbm.advance import plan_advance, single_gap_ok
from shieldwall.rulesets.dbm.command import Mover, pip_cost
from shieldwall.rulesets.dbm.dismount import dismounted_fp
from shieldwall.rulesets.dbm.elements import Element, is_skirmisher
from shieldwall.rulesets.dbm.fortgeom import fort_stop
from shieldwall.rulesets.dbm.march_memo import march_distance
from shieldwall.rulesets.dbm.plan_memo import remembered, unengaged
from shieldwall.rulesets.dbm.terrain import going_of

if TYPE_CHECKING:
    from shieldwall.rulesets.dbm.state import DbmState
    from shieldwall.rulesets.dbm.turn import Bound

MIN_MOVE: Final = 0.5
Option = tuple[str, str, Any]  # (what, command, plan | paces | element id)


def going_at(st: DbmState, e: Element) -> tuple[str, bool]:
    """The element's going (the worst for cavalry of what it stands in) and whether it stands in a
    non-paltry river (tf.rough)."""
    xs = [p[0] for p in e.fp.corners()]
    ys = [p[1] for p in e.fp.corners()]
    goings = ["good"]
    river = False
    for t in st.terrain:
        if min(xs) < t["x1"] and max(xs) > t["x0"] and min(ys) < t["y1"] and max(ys) > t["y0"]:
            f = st.tables.terrain.feature[t["kind"]]
            goings.append(f.going if f.going != "impassable" else "difficult")
            river = river or (f.water and not f.paltry)
    return going_of(st.tables, goings), river


def group_of(b: Bound, st: DbmState, cmd: str) -> list[str]:
    """The command's elements that may still move or march this bound (not baggage, not in frontal
    combat), sorted."""
    if b._groups is None or b._groups[0] != len(st.events):
        b._groups = (len(st.events), {})
    got = None if REFERENCE.on else b._groups[1].get(cmd)
    if got is not None:
        return list(got)
    # (in no frontal combat: remembered while nothing near the command changes, ``plan_memo``)
    free = unengaged(st.board, cmd, st.commands[cmd].elements)
    out = sorted(eid for eid in free if eid not in b.moved and eid not in b.marched)
    b._groups[1][cmd] = out  # until the next event (moves, marches and losses are events)
    return list(out)


def movers(st: DbmState, ids: list[str]) -> list[Mover]:
    tb = st.tables
    return [
        Mover(
            st.board.el[i].code,
            st.board.el[i].grade,
            st.board.el[i].regular,
            st.board.el[i].general,
            skirmisher=is_skirmisher(tb, st.board.el[i]),
        )
        for i in ids
    ]


def reach(st: DbmState, ids: list[str]) -> float:
    mv = st.tables.movement.type
    return float(min(getattr(mv[st.board.el[i].code], going_at(st, st.board.el[i])[0]) for i in ids))


def _advance(st: DbmState, cmd: str, pips: int, fresh: list[str]) -> Option | None:
    if fresh and pip_cost(st.tables, "group_move", movers(st, fresh)) <= pips:
        els = [st.board.el[i] for i in fresh]

        def make(r: float) -> Option | None:
            plan = plan_advance(st.board, fresh, r)
            return ("advance", cmd, plan) if plan.dist > MIN_MOVE else None

        key = ("advance", cmd, tuple(els), len(st.terrain))
        got: Option | None = remembered(st.board, key, els, lambda: reach(st, fresh), make)
        return got
    return None


def _march(b: Bound, st: DbmState, cmd: str, pips: int, ids: list[str]) -> Option | None:
    n = b.march_count.get(cmd, 0) + 1
    if pip_cost(st.tables, "march_move", movers(st, ids), n, single_column=False) <= pips:
        d = march_distance(st.board, [st.board.el[i] for i in ids])  # march_limit, remembered
        if st.board.forts:  # marching stops at an undefended enemy section (ruling R41)
            for i in ids:
                d = fort_stop(st.board, st.board.el[i], st.board.el[i].fp, d)
        if d > MIN_MOVE:
            return ("march", cmd, d)
    return None


def _dismount(st: DbmState, cmd: str, pips: int, i: str) -> Option | None:
    if dismounted_fp(st, st.board.el[i]) is not None and pip_cost(st.tables, "dismount", []) <= pips:
        return ("dismount", cmd, i)  # single elements only (group.limits)
    return None


def _move(st: DbmState, cmd: str, i: str) -> Option | None:
    e = st.board.el[i]
    if not e.mobile and e.code == "Bge":
        return None

    def make(r: float) -> Option | None:
        plan = plan_advance(st.board, [i], r)
        if plan.dist > MIN_MOVE and single_gap_ok(st.board, i, plan):
            return ("move", cmd, plan)
        return None

    got: Option | None = remembered(
        st.board, ("move", cmd, e, len(st.terrain)), [e], lambda: reach(st, [i]), make
    )
    return got


def _commands(b: Bound, st: DbmState) -> list[str]:
    return sorted(k for k, c in st.commands.items() if c.side == b.side and not c.demoralised)


def _listing(b: Bound, st: DbmState) -> tuple[dict[str, None], dict[str, list[str]]]:
    """The side's commands of the menu (``_commands``, as a dict in their order) and, for each
    element, the commands listing it (in that order), kept until the next event (commands are
    demoralised, change sides or lose elements by events): ``one_option`` asks for one order
    without going through every command."""
    if b._listing is not None and b._listing[0] == len(st.events):
        return b._listing[1], b._listing[2]
    cmds = dict.fromkeys(_commands(b, st))
    holders: dict[str, list[str]] = {}
    for cmd in cmds:
        for eid in st.commands[cmd].elements:
            holders.setdefault(eid, []).append(cmd)
    b._listing = (len(st.events), cmds, holders)
    return cmds, holders


def all_options(b: Bound, st: DbmState) -> dict[str, Option]:
    """Every order of the menu and what it would do, in the menu's order: by command, its advance,
    its march, then by element its dismount and its move."""
    out: dict[str, Option] = {}
    for cmd in _commands(b, st):
        pips = b.pips.get(cmd, 0)
        ids = group_of(b, st, cmd)
        if not ids:
            continue
        fresh = [i for i in ids if i not in b.moved]
        if (o := _advance(st, cmd, pips, fresh)) is not None:
            out[f"advance {cmd}"] = o
        if (o := _march(b, st, cmd, pips, ids)) is not None:
            out[f"march {cmd}"] = o
        if pip_cost(st.tables, "tactical_move", []) <= pips:
            for i in fresh:
                if (o := _dismount(st, cmd, pips, i)) is not None:
                    out[f"dismount {i}"] = o
                if (o := _move(st, cmd, i)) is not None:
                    out[f"move {i}"] = o
    return out


def one_option(b: Bound, st: DbmState, text: str) -> Option | None:
    """What the order ``text`` would do, or None if it is not on the menu: the same answer as
    ``all_options(b, st).get(text)``, computing that order only."""
    kind, _, arg = text.partition(" ")
    if kind not in ("advance", "march", "dismount", "move") or not arg:
        return None
    found = None
    cmds, holders = _listing(b, st)
    # the commands the order can be about: the one named, or those listing the element
    for cmd in ([arg] if arg in cmds else []) if kind in ("advance", "march") else holders.get(arg, []):
        pips = b.pips.get(cmd, 0)
        ids = group_of(b, st, cmd)
        if not ids:
            continue
        fresh = [i for i in ids if i not in b.moved]
        if kind == "advance":
            got = _advance(st, cmd, pips, fresh)
        elif kind == "march":
            got = _march(b, st, cmd, pips, ids)
        elif arg not in fresh or pip_cost(st.tables, "tactical_move", []) > pips:
            got = None
        elif kind == "dismount":
            got = _dismount(st, cmd, pips, arg)
        else:
            got = _move(st, cmd, arg)
        if got is not None:
            found = got  # a later command's entry replaces an earlier one, as in the full menu
    return found


def candidates(b: Bound, st: DbmState) -> list[str]:
    """The texts the menu may hold, in its order, before any plan is made (``one_option`` says
    which are on it)."""
    out: list[str] = []
    for cmd in _commands(b, st):
        ids = group_of(b, st, cmd)
        if not ids:
            continue
        out += [f"advance {cmd}", f"march {cmd}"]
        for i in ids:
            if i not in b.moved:
                out += [f"dismount {i}", f"move {i}"]
    return out
