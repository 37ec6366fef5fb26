"""Deployment by hand in dbm-3.2 (the parameter ``hand_deployment``; ruling R45).

Each side places its on-table commands one at a time, in the text's order (dbm-3.2:deploy.first:
the largest command first; then the seeded procedure's order, larger before smaller, by name on a
tie), red's army before blue's as in the seeded procedure. Each placement is one decision about one
command: its formation (``line``, or ``deep`` as the seeded procedure's deep layout) and where the
middle of its rectangle's front edge stands: ``place red1:line@1200.0,420.0``. The command's
rectangle (dbm-3.2:deploy.rectangle, ruling R10) must lie wholly within its side's deployment zone
(the whole width of the table, from behind the baggage's row to 420 paces from the side's rear
edge: where the seeded procedure's front stands) and may not intersect or lie inside another
friendly command's rectangle; touching is allowed. Flank marchers stay off the table
(dbm-3.2:flank.who); baggage is assigned after both sides have deployed (dbm-3.2:deploy.baggage).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import Footprint
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.deploy import boxes_conflict, check_rectangles, command_rectangle
from shieldwall.rulesets.dbm.flank import both_flanks
from shieldwall.rulesets.dbm.orders import Order
from shieldwall.rulesets.dbm.setup import FRONT_P, off_table, plan_command, put_command
from shieldwall.rulesets.dbm.spatial import Box

if TYPE_CHECKING:
    from shieldwall.rulesets.dbm.state import DbmState

Event = dict[str, Any]
#: where the baggage's row stands (its centre, paces from the side's rear edge: setup.place_baggage)
BAGGAGE_Y = 80.0
#: the formations a command may take (the seeded procedure's two layouts)
LAYOUTS = ("line", "deep")
#: the spacing of the menu's places (paces)
GRID = 40.0
#: the most places the menu offers for each formation beside the suggested one
MENU_PER = 6
#: how far a corner may stand outside the zone and still be in it (rounding of an order's text)
ZONE_TOL = 1e-6


def on(st: DbmState) -> bool:
    return bool(st.game.params.get("hand_deployment", False))


def _names(st: DbmState, side: str) -> list[tuple[str, Any]]:
    oob = st.game.scenario.armies[side]
    return [(f"{side}{i + 1}", c) for i, c in enumerate(oob.commands)]


def text_order(st: DbmState, side: str) -> list[str]:
    """The side's on-table commands in the order they deploy (deploy.first; ruling R45)."""
    sizes = {n: len(c.elements) for n, c in _names(st, side) if not c.flank_march}
    return sorted(sizes, key=lambda n: (-sizes[n], n))


def waiting(st: DbmState, side: str) -> list[str]:
    """The side's on-table commands not yet placed, in the order they deploy."""
    return [n for n in text_order(st, side) if n not in st.commands]


def zone(st: DbmState, side: str) -> Box:
    """The side's deployment zone (ruling R45): the table's width, from behind the baggage's row
    to ``FRONT_P`` paces from the side's rear edge."""
    back = BAGGAGE_Y + st.tables.depth("Bge") / 2
    w, d = st.board.width, st.board.depth
    return (0.0, back, w, FRONT_P) if side == "red" else (0.0, d - FRONT_P, w, d - back)


def command_of(st: DbmState, name: str) -> Any:
    side = "red" if name.startswith("red") else "blue"
    return dict(_names(st, side))[name]


def spots(
    st: DbmState, side: str, name: str, layout: str, x: float, y: float
) -> list[tuple[Any, float, float]]:
    """Where ``name``'s elements stand in ``layout`` with the middle of its front edge at (x, y):
    (element, centre x, centre y) each."""
    tb = st.tables
    slots, width = plan_command(command_of(st, name), layout)
    sign = 1.0 if side == "red" else -1.0
    x0 = x - width * tb.bw / 2
    return [
        (el, x0 + (col + 0.5) * tb.bw, y - sign * (tb.depth(el.code) / 2 + rank * 40.0))
        for el, col, rank in slots
    ]


def _footprints(st: DbmState, side: str, placed: list[tuple[Any, float, float]]) -> list[Footprint]:
    tb = st.tables
    heading = 0.0 if side == "red" else 180.0
    return [Footprint(cx, cy, heading, tb.bw, tb.depth(el.code)) for el, cx, cy in placed]


def suggested(st: DbmState, side: str, layout: str) -> dict[str, tuple[float, float]]:
    """Where the seeded procedure would put each command in ``layout`` (the middle of its front
    edge): the commands side by side in the text's order, centred on the table's middle."""
    tb = st.tables
    order = text_order(st, side)
    widths = {n: plan_command(command_of(st, n), layout)[1] for n in order}
    x = st.board.width / 2 - sum(widths.values()) * tb.bw / 2
    front = FRONT_P if side == "red" else st.board.depth - FRONT_P
    out: dict[str, tuple[float, float]] = {}
    for n in order:
        out[n] = (round(x + widths[n] * tb.bw / 2, 1), front)
        x += widths[n] * tb.bw
    return out


def placed_boxes(st: DbmState, side: str) -> dict[str, Box]:
    """The rectangles of the side's commands already on the table."""
    fps: dict[str, list[Footprint]] = {}
    for e in st.board.el.values():
        if e.side == side and e.id not in st.baggage_of:
            fps.setdefault(e.command, []).append(e.fp)
    return {k: command_rectangle(v) for k, v in sorted(fps.items())}


def _fmt(box: Box) -> str:
    return f"x {box[0]:g}-{box[2]:g}, y {box[1]:g}-{box[3]:g}"


def _rel(st: DbmState, side: str, name: str, layout: str) -> Box:
    """``name``'s rectangle in ``layout`` relative to the middle of its front edge."""
    return command_rectangle(_footprints(st, side, spots(st, side, name, layout, 0.0, 0.0)))


def _at(rel: Box, x: float, y: float) -> Box:
    return (rel[0] + x, rel[1] + y, rel[2] + x, rel[3] + y)


def _inside(box: Box, z: Box) -> bool:
    return (
        z[0] - ZONE_TOL <= box[0]
        and z[1] - ZONE_TOL <= box[1]
        and box[2] <= z[2] + ZONE_TOL
        and box[3] <= z[3] + ZONE_TOL
    )


def _grid(z: Box) -> list[tuple[float, float]]:
    nx, ny = int((z[2] - z[0]) / GRID + 1e-9), int((z[3] - z[1]) / GRID + 1e-9)
    return [(z[0] + i * GRID, z[1] + j * GRID) for j in range(ny + 1) for i in range(nx + 1)]


def _touching(rel: Box, z: Box, boxes: list[Box]) -> list[tuple[float, float]]:
    """Places (the middle of the front edge) where a rectangle ``rel`` touches the zone's edges or
    the rectangles ``boxes`` on one side and one end: if a place exists, one of these is one (slide
    the rectangle left, then back, until it touches something)."""
    xs = {z[0] - rel[0], z[2] - rel[2], *(b[2] - rel[0] for b in boxes), *(b[0] - rel[2] for b in boxes)}
    ys = {z[1] - rel[1], z[3] - rel[3], *(b[3] - rel[1] for b in boxes), *(b[1] - rel[3] for b in boxes)}
    return sorted((round(x, 1), round(y, 1)) for x in xs for y in ys)


def no_room(st: DbmState, side: str, boxes: list[Box], names: list[str]) -> str | None:
    """The first of ``names`` (to place in this order) left with no place, or None: each in line
    takes the first place that lies within the zone and intersects no rectangle before it, of
    those touching the zone's edges or those rectangles (ruling R45: a placement never leaves the
    deployment stuck)."""
    z = zone(st, side)
    boxes = list(boxes)
    for n in names:
        rel = _rel(st, side, n, "line")
        for x, y in _touching(rel, z, boxes):
            b = _at(rel, x, y)
            if _inside(b, z) and not any(boxes_conflict(b, o) for o in boxes):
                boxes.append(b)
                break
        else:
            return n
    return None


def problem(st: DbmState, side: str, name: str, layout: str, x: float, y: float) -> tuple[str, str] | None:
    """Why ``name`` may not be placed in ``layout`` at (x, y): (clause, reason), or None."""
    left = waiting(st, side)
    if not left or name != left[0]:
        if name in left:
            return ("deploy.first", f"{side} places {left[0]} now (its commands deploy largest first)")
        return ("deploy.first", f"{name} is not one of {side}'s commands waiting to deploy")
    if layout not in LAYOUTS:
        return ("deploy.rectangle", f"the formation is line or deep, not {layout!r}")
    box = _at(_rel(st, side, name, layout), x, y)
    z = zone(st, side)
    if not _inside(box, z):
        return (
            "deploy.rectangle",
            f"{name}'s rectangle ({_fmt(box)}) would not lie wholly within {side}'s deployment zone "
            f"({_fmt(z)}; ruling R45)",
        )
    placed = placed_boxes(st, side)
    for other, b in placed.items():
        if boxes_conflict(box, b):
            return (
                "deploy.rectangle",
                f"{name}'s rectangle ({_fmt(box)}) would intersect {other}'s ({_fmt(b)})",
            )
    stuck = no_room(st, side, [*placed.values(), box], left[1:])
    if stuck is not None:
        return (
            "deploy.rectangle",
            f"{name} there would leave no room in {side}'s deployment zone for {stuck} (ruling R45)",
        )
    return None


def order_for(name: str, layout: str, x: float, y: float) -> Order:
    return Order("place", f"{name}:{layout}@{round(x, 1):.1f},{round(y, 1):.1f}")


def parse_place(arg: str) -> tuple[str, str, float, float]:
    """``<command>:<line|deep>@<x>,<y>`` -> (command, layout, x, y)."""
    head, _, at = arg.partition("@")
    name, _, layout = head.partition(":")
    xs, _, ys = at.partition(",")
    try:
        x, y = float(xs), float(ys)
    except ValueError:
        x = y = math.nan
    if not name or not layout or not (math.isfinite(x) and math.isfinite(y)):
        raise IllegalOrder(
            rule("deploy.rectangle"),
            f"cannot read the placement {arg!r}: write <command>:<line|deep>@<x>,<y> (paces)",
        )
    return name, layout, round(x, 1), round(y, 1)


def menu(st: DbmState) -> list[Order]:
    """Places for the command to place, in each formation: the seeded procedure's place (when
    legal), then up to ``MENU_PER`` legal places on a 40-pace grid over the zone or touching its
    edges or a placed rectangle, nearest it first."""
    side = st.side
    left = waiting(st, side)
    if not left:
        return []
    name = left[0]
    z = zone(st, side)
    out: list[Order] = []
    for layout in LAYOUTS:
        sx, sy = suggested(st, side, layout)[name]
        pts = [(sx, sy)]
        boxes = list(placed_boxes(st, side).values())
        grid = _grid(z) + _touching(_rel(st, side, name, layout), z, boxes)
        grid.sort(key=lambda p: (math.hypot(p[0] - sx, p[1] - sy), p))
        found = 0
        for x, y in pts + grid:
            o = order_for(name, layout, x, y)
            if o in out or problem(st, side, name, layout, x, y) is not None:
                continue
            out.append(o)
            found += 1
            if found > MENU_PER:
                break
    return out


def place(st: DbmState, arg: str) -> list[Event]:
    """Apply ``place <command>:<layout>@<x>,<y>``: refused with its clause when illegal."""
    side = st.side
    name, layout, x, y = parse_place(arg)
    why = problem(st, side, name, layout, x, y)
    if why is not None:
        raise IllegalOrder(rule(why[0]), f"place {name}: {why[1]}")
    ev: list[Event] = []
    if not any(c.side == side for c in st.commands.values()):  # the side's first placement
        ev.append(
            {
                "kind": "deploy-order",
                "side": side,
                "order": text_order(st, side),
                "by": "hand",
                "rule": rule("deploy.first"),
            }
        )
        for n, cmd in _names(st, side):
            if cmd.flank_march:
                ev.append(off_table(st, side, n, cmd))
    at = spots(st, side, name, layout, x, y)
    fps = put_command(st, side, name, command_of(st, name), at)
    ev.append(
        {
            "kind": "deployed",
            "command": name,
            "elements": [el.id for el, _, _ in at],
            "layout": layout,
            "at": [x, y],
            "rectangle": [round(v, 3) for v in command_rectangle(fps)],
            "zone": list(zone(st, side)),
            "rule": rule("deploy.rectangle"),
        }
    )
    if not waiting(st, side):  # the side's last command: the flank marches are known now
        mine = {k for k, c in st.commands.items() if c.side == side and not c.off_table}
        by_command: dict[str, list[Footprint]] = {k: [] for k in mine}
        for e in st.board.el.values():
            if e.command in by_command:
                by_command[e.command].append(e.fp)
        check_rectangles(by_command)
        ev += both_flanks(st, side)
    return ev


def deployment_view(st: DbmState) -> dict[str, Any]:
    """For the table: each side's zone, the command to place, its formations' places (offsets of
    each element from the middle of the front edge) and the rectangles already placed."""
    if not on(st) or st.phase != "deploy":
        return {}
    side = st.side
    left = waiting(st, side)
    nxt: dict[str, Any] | None = None
    if left:
        name = left[0]
        layouts: dict[str, Any] = {}
        for layout in LAYOUTS:
            sx, sy = suggested(st, side, layout)[name]
            layouts[layout] = {
                "suggested": [sx, sy],
                "elements": [
                    {"id": el.id, "dx": round(cx - sx, 3), "dy": round(cy - sy, 3)}
                    for el, cx, cy in spots(st, side, name, layout, sx, sy)
                ],
            }
        nxt = {"command": name, "side": side, "layouts": layouts, "rule": rule("deploy.rectangle")}
    return {
        "deployment": {
            "zones": {s: list(zone(st, s)) for s in ("red", "blue")},
            "waiting": left,
            "next": nxt,
            "placed": {k: list(b) for k, b in placed_boxes(st, side).items()},
        }
    }
