"""Dismounting in battle: a mounted element the order of battle lets dismount becomes its foot
element in place, as a single element's PIP-paid action (ruling R39).

Clauses: dbm-3.2:group.limits (dismounting is never part of a group move: it is offered to single
elements only), dbm-3.2:exchange.optional-mount (infantry an army list shows as compulsorily mounted
are optionally mounted: such elements may dismount like any other). Which elements dismount and as
what, and the PIP cost, are base rules: user data (``dismount`` in the order of battle, ``cost.dismount``
in ``pips.toml``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shieldwall.core.geometry import Footprint
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.elements import Element, make, troop_class
from shieldwall.rulesets.dbm.geom import overlapping
from shieldwall.rulesets.dbm.riderless import leave_mounts

if TYPE_CHECKING:
    from shieldwall.rulesets.dbm.state import DbmState

Event = dict[str, Any]


def dismounted_fp(st: DbmState, e: Element) -> Footprint | None:
    """Where ``e`` would stand dismounted (front edge kept), or None if it cannot dismount: not a
    mounted element with a ``dismount`` entry, or its foot base would overlap another element."""
    spec = st.dismount_of.get(e.id)
    if spec is None or troop_class(st.tables, e) != "mounted":
        return None
    depth = st.tables.depth(spec[0])
    fx, fy = e.fp.forward
    back = (e.fp.depth - depth) / 2.0
    fp = Footprint(e.fp.x + fx * back, e.fp.y + fy * back, e.fp.heading, e.fp.frontage, depth)
    if not st.board.on_table(fp):
        return None
    if any(overlapping(fp, o.fp) for o in st.board.near(fp.corners(), 0.0, exclude=(e.id,))):
        return None
    return fp


def dismount(st: DbmState, eid: str) -> list[Event]:
    e = st.board.el[eid]
    fp = dismounted_fp(st, e)
    assert fp is not None  # offered only when possible
    code, grade = st.dismount_of[eid]
    foot = make(
        st.tables,
        eid,
        e.side,
        code,
        grade,
        fp.x,
        fp.y,
        fp.heading,
        command=e.command,
        regular=e.regular,
        general=e.general,
    )
    st.board.remove(eid)
    st.board.put(foot.at(fp))
    st._elements_meta[eid] = (code, grade, e.regular)  # its losses count as the foot element's
    st.listed_type.setdefault(eid, e.code)  # the result's losses by type: its order-of-battle type
    ev: list[Event] = [
        {
            "kind": "dismount",
            "id": eid,
            "from": f"{e.code}({e.grade})",
            "to": f"{code}({grade})",
            "rule": rule("group.limits"),
        }
    ]
    if eid in st.leaves_mounts:  # riderless mounts left behind (dbm-3.2:exchange.riderless, R42)
        ev += leave_mounts(st, e, fp)
    return ev
