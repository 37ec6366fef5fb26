"""Deployment: the order of commands, the command rectangles, baggage assignment, flank marchers.

Clauses: dbm-3.2:deploy.first, dbm-3.2:deploy.rectangle, dbm-3.2:deploy.baggage,
dbm-3.2:size.assign, dbm-3.2:flank.who.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import Footprint
from shieldwall.core.polygons import bounding_box
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.geom import TOL
from shieldwall.rulesets.dbm.spatial import Box


def command_rectangle(fps: Sequence[Footprint]) -> Box:
    """The table-parallel rectangle of a command's non-baggage elements (ruling R10: the minimal
    axis-aligned box over all their corners)."""
    return bounding_box([p for f in fps for p in f.corners()])


def boxes_conflict(a: Box, b: Box) -> bool:
    """A positive-area intersection (containment included); touching is allowed."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w > TOL and h > TOL


def check_deploy_first(first: str, sizes: Mapping[str, int]) -> None:
    """dbm-3.2:deploy.first: the first command deployed has the most elements (baggage and
    ambushers excluded; any of equal largest commands may go first: ruling R9)."""
    if sizes[first] < max(sizes.values()):
        big = max(sizes, key=lambda k: sizes[k])
        raise IllegalOrder(
            rule("deploy.first"), f"{first} ({sizes[first]}) is smaller than {big} ({sizes[big]})"
        )


def check_rectangles(deployed: Mapping[str, Sequence[Footprint]]) -> dict[str, Box]:
    """dbm-3.2:deploy.rectangle: no command's rectangle intersects or lies inside another's."""
    boxes = {k: command_rectangle(v) for k, v in deployed.items() if v}
    names = sorted(boxes)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if boxes_conflict(boxes[a], boxes[b]):
                raise IllegalOrder(rule("deploy.rectangle"), f"the rectangles of {a} and {b} intersect")
    return boxes


def assign_baggage(command: str, on_table_generals: Sequence[str], all_deployed: bool) -> dict[str, str]:
    """dbm-3.2:deploy.baggage, dbm-3.2:size.assign: after both sides have deployed, all baggage goes
    to one on-table C-in-C's or sub-general's command."""
    if not all_deployed:
        raise IllegalOrder(rule("deploy.baggage"), "baggage is assigned after both sides have deployed")
    if command not in on_table_generals:
        raise IllegalOrder(rule("deploy.baggage"), f"{command} is not an on-table general's command")
    return {"kind": "baggage-assigned", "command": command, "rule": rule("deploy.baggage")}


def check_flank_marcher(is_c_in_c: bool, is_baggage: bool) -> None:
    """dbm-3.2:flank.who: a C-in-C cannot flank march, nor can baggage."""
    if is_c_in_c or is_baggage:
        raise IllegalOrder(rule("flank.who"), "a C-in-C cannot flank march, nor can baggage")
