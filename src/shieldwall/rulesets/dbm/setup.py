"""The pre-battle phases after the terrain procedure (:mod:`.terrain_steps`): deployment by
command rectangles (largest command first), baggage assigned after both sides have deployed.

Clauses: dbm-3.2:deploy.first, dbm-3.2:deploy.rectangle, dbm-3.2:deploy.baggage, dbm-3.2:size.assign,
dbm-3.2:baggage.mobile.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from shieldwall.core.geometry import Footprint
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.command import CommandState, ee
from shieldwall.rulesets.dbm.deploy import (
    assign_baggage,
    check_deploy_first,
    check_flank_marcher,
    check_rectangles,
)
from shieldwall.rulesets.dbm.elements import make
from shieldwall.rulesets.dbm.flank import both_flanks

if TYPE_CHECKING:
    from shieldwall.rulesets.dbm.state import DbmState

Event = dict[str, Any]
#: the front edge of each side's deployment (paces from its own rear edge)
FRONT_P = 420.0
DEEP = ("Sp", "Pk", "Bd", "Wb", "Ax", "Hd")


def deploy_side(st: DbmState, side: str, layout: str) -> list[Event]:
    sc = st.game.scenario
    tb = sc.tables
    oob = sc.armies[side]
    bw = tb.bw
    names = [f"{side}{i + 1}" for i in range(len(oob.commands))]
    flankers = {n for n, c in zip(names, oob.commands, strict=True) if c.flank_march}
    sizes = {n: len(c.elements) for n, c in zip(names, oob.commands, strict=True) if n not in flankers}
    order = sorted(sizes, key=lambda n: (-sizes[n], n))
    check_deploy_first(order[0], sizes)
    ev: list[Event] = [{"kind": "deploy-order", "side": side, "order": order, "rule": rule("deploy.first")}]
    for n in sorted(flankers):
        cmd = oob.commands[names.index(n)]
        ev.append(off_table(st, side, n, cmd))
    sign = 1.0 if side == "red" else -1.0
    front_y = FRONT_P if side == "red" else st.board.depth - FRONT_P
    widths: dict[str, int] = {}
    plans: dict[str, list[tuple[Any, int, int]]] = {}
    for n, cmd in zip(names, oob.commands, strict=True):
        if n in flankers:
            continue
        plans[n], widths[n] = plan_command(cmd, layout)
    total = sum(widths.values())
    x = st.board.width / 2 - total * bw / 2
    fps: dict[str, list[Any]] = {}
    for n in order:
        cmd = oob.commands[names.index(n)]
        spots = [
            (el, x + (col_i + 0.5) * bw, front_y - sign * (tb.depth(el.code) / 2 + rank * 40.0))
            for el, col_i, rank in plans[n]
        ]
        fps[n] = put_command(st, side, n, cmd, spots)
        x += widths[n] * bw
        ev.append(
            {
                "kind": "deployed",
                "command": n,
                "elements": [el.id for el, _, _ in plans[n]],
                "rule": rule("deploy.rectangle"),
            }
        )
    check_rectangles(fps)
    return ev + both_flanks(st, side)


def plan_command(cmd: Any, layout: str) -> tuple[list[tuple[Any, int, int]], int]:
    """A command's slots in ``layout`` (``line``: one rank; ``deep``: deep troops of a kind already
    in the front rank go behind, columns of the deep troops): (element, column, rank) each, and the
    number of columns (the front rank's elements)."""
    front: list[Any] = []
    rear: list[Any] = []
    for el in cmd.elements:
        if (
            layout == "deep"
            and el.code in DEEP
            and not el.general
            and len(front) > len(rear)
            and any(f.code == el.code for f in front)
        ):
            rear.append(el)
        else:
            front.append(el)
    slots = [(el, i, 0) for i, el in enumerate(front)]
    col = [i for i, f in enumerate(front) if f.code in DEEP]
    slots += [(el, col[k % len(col)] if col else k, 1 + k // max(1, len(col))) for k, el in enumerate(rear)]
    return slots, len(front)


def put_command(
    st: DbmState, side: str, n: str, cmd: Any, spots: list[tuple[Any, float, float]]
) -> list[Footprint]:
    """Put command ``n``'s elements on the table at ``spots`` (element, centre x, centre y), facing
    the enemy's edge, and form the command. Returns their footprints."""
    tb = st.game.scenario.tables
    heading = 0.0 if side == "red" else 180.0
    oob = st.game.scenario.armies[side]
    fps: list[Footprint] = []
    for el, cx, cy in spots:
        e = make(
            tb,
            el.id,
            side,
            el.code,
            el.grade,
            cx,
            cy,
            heading,
            command=n,
            regular=el.regular,
            general=el.general,
            bow=el.bow,
        )
        st.board.put(e)
        st.element_command[el.id] = n
        st._elements_meta[el.id] = (el.code, el.grade, el.regular)
        fps.append(e.fp)
    orig = sum((ee(el.code, el.grade, el.regular) for el in cmd.elements), Fraction(0))
    gen = next(el for el in cmd.elements if el.general)
    st.add_command(
        n,
        CommandState(
            n,
            side,
            orig,
            ally=cmd.ally,
            irregular_general=not gen.regular,
            # unreliable allies compare nations (ally.unreliable-b): the army list's, unless stated
            nation=cmd.nation or tb.lists[oob.army_list].nation,
            civil_war=cmd.civil_war,
            elements=[el.id for el in cmd.elements],
        ),
    )
    return fps


def off_table(st: DbmState, side: str, name: str, cmd: Any) -> Event:
    """An off-table flank march (dbm-3.2:flank.who: never the C-in-C nor baggage): its command is
    formed but its elements stay off the table until they arrive (flank.py, ruling R38)."""
    check_flank_marcher(cmd.c_in_c, False)
    gen = next(el for el in cmd.elements if el.general)
    for el in cmd.elements:
        st.element_command[el.id] = name
        st._elements_meta[el.id] = (el.code, el.grade, el.regular)
    orig = sum((ee(el.code, el.grade, el.regular) for el in cmd.elements), Fraction(0))
    st.add_command(
        name,
        CommandState(
            name,
            side,
            orig,
            ally=cmd.ally,
            irregular_general=not gen.regular,
            nation=cmd.nation
            or st.game.scenario.tables.lists[st.game.scenario.armies[side].army_list].nation,
            civil_war=cmd.civil_war,
            elements=[el.id for el in cmd.elements],
            off_table=cmd.flank,
        ),
    )
    return {"kind": "flank-march", "command": name, "flank": cmd.flank, "rule": rule("flank.who")}


def place_baggage(st: DbmState, side: str, command: str) -> list[Event]:
    sc = st.game.scenario
    oob = sc.armies[side]
    generals = sorted(k for k, c in st.commands.items() if c.side == side and not c.off_table)
    ev: list[Event] = [{**assign_baggage(command, generals, all_deployed=True), "side": side}]
    y = 80.0 if side == "red" else st.board.depth - 80.0
    heading = 0.0 if side == "red" else 180.0
    bw = sc.tables.bw
    x0 = st.board.width / 2 - oob.baggage * bw / 2
    for i in range(oob.baggage):
        eid = f"{side[0]}-bge{i + 1}"
        e = make(
            sc.tables,
            eid,
            side,
            "Bge",
            "O",
            x0 + (i + 0.5) * bw,
            y,
            heading,
            command=command,
            mobile=oob.baggage_mobile,
        )
        st.board.put(e)
        st.baggage_of[eid] = side
        st.element_command[eid] = command
        st._elements_meta[eid] = ("Bge", "O", False)
    ev.append(
        {
            "kind": "baggage-placed",
            "count": oob.baggage,
            "mobile": oob.baggage_mobile,
            "rule": rule("baggage.mobile"),
        }
    )
    return ev
