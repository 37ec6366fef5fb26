"""The pre-battle phases: the terrain procedure (when the scenario asks for it), deployment by
command rectangles (largest command first), baggage assigned after both sides have deployed.

Clauses: dbm-3.2:terrain.invader and the terrain.* clauses via :mod:`.terrain`,
dbm-3.2:deploy.first, dbm-3.2:deploy.rectangle, dbm-3.2:deploy.baggage, dbm-3.2:size.assign,
dbm-3.2:baggage.mobile.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
from shieldwall.rulesets.dbm.terrain import TerrainLog, defender_river, invader_option
from shieldwall.rulesets.dbm.terrain_place import place_area

if TYPE_CHECKING:
    from shieldwall.rulesets.dbm.state import DbmState

Event = dict[str, Any]
#: the front edge of each side's deployment (paces from its own rear edge)
FRONT_P = 420.0
DEEP = ("Sp", "Pk", "Bd", "Wb", "Ax", "Hd")


@dataclass
class TerrainSteps:
    """The terrain procedure in progress (terrain_procedure = "dbm"): the invader's option, the
    defender's features (compulsory ones placed for him, then his optional choices one by one),
    then, if the invader placed nothing, the invader's area features (terrain.inv-area)."""

    step: str = "invader"  # invader | defender | invader-area
    invader: str = "none"  # what the invader's option placed
    defender_fe: float = 0.0  # compulsory features counting half (terrain.def-total)
    invader_fe: float = 0.0  # the invader's area features (terrain.inv-area)
    placed: list[str] = field(default_factory=list)  # the defender's kinds, in order
    compulsory: int = 0  # how many of ``placed`` were his compulsory features
    river_tried: bool = False  # the defender diced for a river (terrain.def-river)


def _sides(st: DbmState) -> tuple[str, str]:
    invader = st.game.scenario.spec.invader
    return invader, "blue" if invader == "red" else "red"


def _defender_list(st: DbmState) -> Any:
    sc = st.game.scenario
    return sc.tables.lists[sc.armies[_sides(st)[1]].army_list]


def _area_kinds(st: DbmState) -> list[str]:
    """The defender's list's area features that can be placed in this phase: compulsory kinds first,
    then the permitted ones (not BUA or WW, which have their own rules)."""
    dlist = _defender_list(st)
    kinds = list(dlist.compulsory_terrain) + [
        k for k in dlist.permitted_terrain if k not in dlist.compulsory_terrain
    ]
    out = []
    for kind in kinds:
        f = st.game.scenario.tables.terrain.feature.get(kind)
        if f is not None and f.area and kind not in ("BUA", "WW") and kind not in out:
            out.append(kind)
    return out


def _fe(st: DbmState, kind: str) -> float:
    f = st.game.scenario.tables.terrain.feature[kind]
    return f.fe / 2 if kind in _defender_list(st).compulsory_terrain else f.fe


def terrain_options(st: DbmState, ts: TerrainSteps) -> list[str]:
    """What the player whose turn it is in the terrain phase may order (``terrain <arg>``)."""
    if ts.step == "invader":
        return ["none", "road", "river"]
    if ts.step == "defender":  # 2-3 FE in all (terrain.def-total): "done" from 2 FE or when nothing fits
        kinds = [k for k in _area_kinds(st) if ts.defender_fe + _fe(st, k) <= 3]
        # his river first in the optional phase (terrain.def-phases), diced for once (terrain.def-river)
        river = (
            ["river"]
            if not ts.river_tried
            and len(ts.placed) == ts.compulsory
            and "river" in _defender_list(st).permitted_terrain
            and ts.defender_fe + _fe(st, "river") <= 3
            else []
        )
        return kinds + river + (["done"] if ts.defender_fe >= 2 or not (kinds or river) else [])
    fe = st.game.scenario.tables.terrain.feature
    return [k for k in _area_kinds(st) if ts.invader_fe + fe[k].fe <= 1.5] + ["done"]


def compulsory_features(st: DbmState, ts: TerrainSteps) -> list[Event]:
    """The defender's compulsory phase (terrain.def-phases): one of each compulsory area kind of his
    list not yet present, placed for him (each counting half: terrain.def-total)."""
    ev: list[Event] = []
    for kind in _area_kinds(st):
        if kind in _defender_list(st).compulsory_terrain and ts.defender_fe + _fe(st, kind) <= 3:
            ev += place_area(st, kind, "defender", "terrain.position")
            ts.defender_fe += _fe(st, kind)
            ts.placed.append(kind)
            ts.compulsory += 1
    return ev


def terrain_step(st: DbmState, ts: TerrainSteps, choice: str) -> tuple[list[Event], bool]:
    """Play one terrain order: the events, and whether the terrain phase is over."""
    invader, defender = _sides(st)
    if ts.step == "invader":
        sc = st.game.scenario
        naval = sum(
            1 for c in sc.armies[invader].commands for e in c.elements if e.code in ("Shp", "Gal", "Bts")
        )
        log = TerrainLog()
        got = invader_option(
            st.rng, log, choice, naval, _defender_list(st).compulsory_terrain, fallback="none"
        )
        w, d = st.board.width, st.board.depth
        if got == "river":
            lo, _hi = log.features[-1].params["band_p"]
            st.terrain.append({"kind": "river", "x0": float(lo), "y0": 0.0, "x1": float(lo) + 40.0, "y1": d})
        elif got == "road":
            st.terrain.append({"kind": "road", "x0": w / 2 - 20, "y0": 0.0, "x1": w / 2 + 20, "y1": d})
        ts.invader, ts.step = got, "defender"
        return log.events, False
    if ts.step == "defender" and choice == "river":
        ts.river_tried = True
        log = TerrainLog()
        band = defender_river(st.rng, log, "river" in _defender_list(st).compulsory_terrain, st.board.depth)
        if band is None:  # "a different option can be chosen if dicing is unsuccessful"
            log.events.append({"kind": "terrain-refused", "what": "river", "rule": rule("terrain.def-river")})
            return log.events, False
        d = st.board.depth
        lo, hi = (d - band[1], d - band[0]) if defender == "blue" else band  # from his own edge
        mid = round((lo + hi) / 2, 1)
        st.terrain.append(
            {"kind": "river", "x0": 0.0, "y0": mid - 20.0, "x1": st.board.width, "y1": mid + 20.0}
        )
        ts.defender_fe += _fe(st, "river")
        ts.placed.append("river")
        return log.events, False
    if ts.step == "defender" and choice != "done":
        ts.defender_fe += _fe(st, choice)
        ts.placed.append(choice)
        return place_area(st, choice, "defender", "terrain.position"), False
    if ts.step == "invader-area" and choice != "done":
        ts.invader_fe += st.game.scenario.tables.terrain.feature[choice].fe
        return place_area(st, choice, "invader", "terrain.inv-area"), False
    if ts.step == "defender" and ts.invader == "none":
        ts.step = "invader-area"  # terrain.inv-area: an invader who has placed nothing
        return [], False
    done: Event = {"kind": "terrain-done", "invader": ts.invader, "defender_fe": ts.defender_fe}
    if ts.invader_fe:
        done["invader_area_fe"] = ts.invader_fe
    return [{**done, "rule": rule("terrain.def-total")}], True


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
