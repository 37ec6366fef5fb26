"""Assaults on fortification sections beyond beating a defender (ruling R41): an assaulter stopped
on an undefended section fights the section; the corner rules.

Clauses: dbm-3.2:cc.fort-corner (an attacker unable to conform fights the undefended section; an
unengaged defender on the other side of a corner moves to defend the assaulted section at the end of
the movement phase; two assaulters either side of a corner: with one section defended the one the
defender does not face fights as a flank contact and the defender is not destroyed if it recoils,
with neither defended the assaulting player chooses the main attacker and the flanker; the flanker
does not pursue over the fortifications if its side wins and recoils if its side loses),
dbm-3.2:storm.pursue (an assaulter scoring higher than an undefended fortification pursues 1 base
depth beyond its inner edge).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from shieldwall.core.dice import D6
from shieldwall.core.geometry import Footprint
from shieldwall.core.polygons import convex_penetration
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.elements import Element
from shieldwall.rulesets.dbm.fortgeom import corners, fort_poly, on_section
from shieldwall.rulesets.dbm.forts import storm
from shieldwall.rulesets.dbm.geom import TOL, corner, overlapping
from shieldwall.rulesets.dbm.outmoves import recoil

if TYPE_CHECKING:
    from shieldwall.rulesets.dbm.aftermath import Aftermath
    from shieldwall.rulesets.dbm.state import DbmState

Event = dict[str, Any]


def assault_section(st: DbmState, e: Element) -> int | None:
    """The enemy section ``e`` is in full front edge contact with: both front corners on it, its
    body outside it (ruling R41)."""
    fl, fr = corner(e.fp, "fl"), corner(e.fp, "fr")
    for i, f in enumerate(st.forts):
        if f["side"] == e.side or not (on_section(f, *fl) and on_section(f, *fr)):
            continue
        if convex_penetration(e.fp.corners(), fort_poly(f), TOL) <= TOL:
            return i
    return None


def defended_section(st: DbmState, e: Element) -> int | None:
    """The section of its own side ``e`` defends (its front edge centre on it), by index."""
    x, y = e.fp.front_centre
    return next((i for i, f in enumerate(st.forts) if f["side"] == e.side and on_section(f, x, y)), None)


def _unengaged(st: DbmState, e: Element) -> bool:
    return not any(o.side != e.side for o in st.board.touching(e))


def corner_defence(st: DbmState, moved: set[str]) -> list[Event]:
    """dbm-3.2:cc.fort-corner, at the end of the movement phase: an assaulter that moved into full
    front edge contact with an undefended section on one side of a corner draws an unengaged
    defender of the section on the other side, which moves to face it across the assaulted section
    (if its new place is free and on the table)."""
    cs = corners(st.forts)
    if not cs:
        return []
    ev: list[Event] = []
    b = st.board
    for aid in sorted(moved):
        a = b.el.get(aid)
        if a is None or not _unengaged(st, a):
            continue
        i = assault_section(st, a)
        if i is None:
            continue
        others = [q if p == i else p for p, q in cs if i in (p, q)]
        for d in sorted(b.el.values(), key=lambda x: x.id):
            if d.side == a.side or defended_section(st, d) not in others or not _unengaged(st, d):
                continue
            fx, fy = a.fp.forward
            cx, cy = a.fp.front_centre
            half = d.fp.depth / 2.0
            fp = Footprint(
                cx + fx * half, cy + fy * half, (a.fp.heading + 180.0) % 360.0, d.fp.frontage, d.fp.depth
            )
            if not b.on_table(fp) or any(
                overlapping(fp, o.fp) for o in b.near(fp.corners(), 0.0, exclude=(d.id,))
            ):
                continue
            b.move(d.id, fp)
            ev.append(
                {
                    "kind": "fort-corner-defend",
                    "id": d.id,
                    "assaulter": aid,
                    "section": i,
                    "rule": rule("cc.fort-corner"),
                }
            )
            break
    return ev


@dataclass
class FortPlan:
    """The fortification fights of a bound besides the element pairs."""

    #: a defender -> the assaulter that fights it as a flank contact from the other corner side
    flanked: dict[str, str] = field(default_factory=dict)
    #: (main assaulter, section, corner flanker or None) fighting an undefended section
    sections: list[tuple[str, int, str | None]] = field(default_factory=list)


def _main_first(st: DbmState, x: str, y: str) -> tuple[str, str]:
    """Neither section defended: the assaulting player chooses the main attacker. The engine picks
    the higher base factor v foot, then the lower id (ruling R41)."""
    tb = st.tables
    vx, vy = tb.base(st.board.el[x].code).v_foot, tb.base(st.board.el[y].code).v_foot
    return (x, y) if (vx, y) >= (vy, x) else (y, x)


def plan_fort_fights(st: DbmState, pairs: list[tuple[str, str]], seen: set[str]) -> FortPlan:
    """Who fights which section, and the corner roles (dbm-3.2:cc.fort-corner)."""
    plan = FortPlan()
    if not st.forts:
        return plan
    cont: dict[str, int] = {}
    for eid in sorted(st.board.el):
        if eid not in seen and (i := assault_section(st, st.board.el[eid])) is not None:
            cont[eid] = i
    if not cont:
        return plan
    defended_by: dict[int, str] = {}
    for a, b in pairs:
        for d, att in ((a, b), (b, a)):
            i = defended_section(st, st.board.el[d])
            if i is not None and st.board.el[att].side != st.forts[i]["side"]:
                defended_by.setdefault(i, d)
    for p, q in corners(st.forts):
        for i, j in ((p, q), (q, p)):
            at_i = sorted(x for x, s in cont.items() if s == i)
            if at_i and j in defended_by and defended_by[j] not in plan.flanked:
                plan.flanked[defended_by[j]] = at_i[0]
                del cont[at_i[0]]
        at_p = sorted(x for x, s in cont.items() if s == p)
        at_q = sorted(x for x, s in cont.items() if s == q)
        if at_p and at_q:
            main, flank = _main_first(st, at_p[0], at_q[0])
            plan.sections.append((main, cont[main], flank))
            del cont[main], cont[flank]
    plan.sections += [(eid, i, None) for eid, i in sorted(cont.items())]
    return plan


def fight_section(st: DbmState, main: str, i: int, flanker: str | None, am: Aftermath) -> list[Event]:
    """An assaulter fights an undefended section (dbm-3.2:cc.fort-corner): its base factor v foot
    and its die against ``undefended_fort`` (game.toml) and a die, the section taking the user's
    flank-contact factor when a corner flanker assaults it too. Scoring higher storms
    (dbm-3.2:storm.pursue); otherwise nothing moves, except a corner flanker, which recoils if its
    side lost (ruling R41)."""
    tb = st.tables
    e = st.board.el[main]
    fort = st.forts[i]
    da, db = D6.roll(st.rng), D6.roll(st.rng)
    ta = tb.base(e.code).v_foot + da
    tf = int(tb.game.undefended_fort or 0) + db
    if flanker is not None:
        tf += sum(m.delta for m in tb.factors.tactical if m.when == "flank-contact")
    result = "higher" if ta > tf else "lower" if ta < tf else "equal"
    ev: list[Event] = [
        {
            "kind": "fort-assault",
            "id": main,
            "section": i,
            "flanker": flanker,
            "dice": [da, db],
            "totals": {main: ta, "fort": tf},
            "result": result,
            "rule": rule("cc.fort-corner"),
        }
    ]
    if result == "higher":
        got = storm(st.board, main, fort)
        if got:
            am.pursued.add(main)
        ev += got
    elif result == "lower" and flanker is not None and flanker in st.board.el:
        ev += flanker_recoils(st, flanker)
    return ev


def flanker_recoils(st: DbmState, flanker: str) -> list[Event]:
    """dbm-3.2:cc.fort-corner: the corner flanker recoils if the combat is lost by its side."""
    got = recoil(st.board, flanker)
    return [{**g, "rule": rule("cc.fort-corner")} if g["kind"] == "recoil" else g for g in got]
