"""Riderless mounts (ruling R42): markers a dismounting element may leave behind, removed when an
enemy element contacts them.

Clause: dbm-3.2:exchange.riderless ("Enemy contacting riderless mounts do not have to make one of
the permitted contacts listed on P.18, and can continue their move after the mounts are removed").
The mounts are not elements: they are not on the board, so no move stops at them and no contact
with them has to be a permitted one; an enemy element whose move passes over or ends touching them
removes them and its move goes on. Whether a dismounting element leaves mounts is a base rule: user
data (``dismount = { code, grade, mounts = true }`` in the order of battle).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from shieldwall.core.crossings import swept_rectangle
from shieldwall.core.geometry import Footprint
from shieldwall.core.polygons import convex_penetration
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.elements import Element
from shieldwall.rulesets.dbm.fortgeom import front_of
from shieldwall.rulesets.dbm.geom import TOL, overlapping

if TYPE_CHECKING:
    from shieldwall.rulesets.dbm.state import DbmState

Event = dict[str, Any]


def leave_mounts(st: DbmState, mounted: Element, foot: Footprint) -> list[Event]:
    """Place the mounts of ``mounted`` (now standing at ``foot``): the rear of its mounted base behind
    the foot base or, if the foot base is as deep, a mounted-depth base directly behind it; not
    placed (no event) if that place is taken or off the table (ruling R42)."""
    depth = mounted.fp.depth - foot.depth
    if depth < TOL:
        depth = mounted.fp.depth
    fx, fy = foot.forward
    back = foot.depth / 2.0 + depth / 2.0
    fp = Footprint(foot.x - fx * back, foot.y - fy * back, foot.heading, foot.frontage, depth)
    if not st.board.on_table(fp):
        return []
    if any(overlapping(fp, o.fp) for o in st.board.near(fp.corners(), 0.0, exclude=(mounted.id,))):
        return []
    if any(overlapping(fp, m) for _, m in st.mounts.values()):
        return []
    mid = f"{mounted.id}-mounts"
    st.mounts[mid] = (mounted.side, fp)
    return [{"kind": "riderless-mounts", "id": mid, "of": mounted.id, "rule": rule("exchange.riderless")}]


def positions(st: DbmState) -> dict[str, Footprint]:
    """Where every element stands, when there are mounts on the table (else nothing to compare)."""
    return {i: e.fp for i, e in st.board.el.items()} if st.mounts else {}


def mounts_contacted(st: DbmState, before: Mapping[str, Footprint]) -> list[Event]:
    """dbm-3.2:exchange.riderless: mounts an enemy element passed over or touches now are removed."""
    if not st.mounts or not before:
        return []
    ev: list[Event] = []
    for mid in sorted(st.mounts):
        side, fp = st.mounts[mid]
        for eid in sorted(st.board.el):
            e = st.board.el[eid]
            if e.side == side:
                continue
            start = before.get(eid, e.fp)
            path = swept_rectangle(start.centre, e.fp.centre, e.fp.frontage, e.fp.depth / 2.0)
            if convex_penetration(path, fp.corners()) >= -TOL:
                del st.mounts[mid]
                ev.append(
                    {"kind": "mounts-removed", "id": mid, "by": eid, "rule": rule("exchange.riderless")}
                )
                break
    return ev


def drawn_features(
    forts: list[dict[str, Any]], mounts: Mapping[str, tuple[str, Footprint]]
) -> list[dict[str, Any]]:
    """Fortification sections and riderless mounts as features the picture draws with the terrain
    (the plugin's drawing turns them into the renderer's kinds)."""
    out: list[dict[str, Any]] = [
        {"id": f"fort-{i}", "kind": "fortification", **f, "front": front_of(f)} for i, f in enumerate(forts)
    ]
    for mid, (side, fp) in sorted(mounts.items()):
        out.append(
            {
                "id": mid,
                "kind": "riderless-mounts",
                "side": side,
                "points": [[round(x, 3), round(y, 3)] for x, y in fp.corners()],
            }
        )
    return out
