"""The terrain procedure as a phase of orders (terrain_procedure = "dbm"): the invader's option, the
defender's compulsory then optional features, the invader's area features (rulings R46, R47).

Clauses: dbm-3.2:terrain.invader, .inv-ww, .inv-river, .inv-road, .def-total, .def-phases,
.def-ww, .def-river, .def-bua, .def-roads, .inv-area, .position, .ww-extent (the checks in
:mod:`.terrain`, the places on the table in :mod:`.terrain_place`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.grades import NAVAL
from shieldwall.rulesets.dbm.terrain import (
    FIRST_KINDS,
    TerrainLog,
    check_roads,
    defender_river,
    defender_ww,
    invader_option,
)
from shieldwall.rulesets.dbm.terrain_place import (
    bua_room,
    end_at_ww,
    place_area,
    place_bua,
    place_road,
    place_ww,
    ww_room,
)

if TYPE_CHECKING:
    from shieldwall.rulesets.dbm.state import DbmState

Event = dict[str, Any]


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
    refused: list[str] = field(default_factory=list)  # the invader's water options the dice refused
    ww_tried: bool = False  # the defender diced for a WW (terrain.def-ww)
    bua: bool = False  # the defender placed his BUA (terrain.def-bua)
    roads: int = 0  # the defender's external roads (terrain.def-roads)
    hills: int = 0  # the invader's steep hills, never satisfying compulsory terrain (terrain.inv-road)


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


def _with_bua(st: DbmState) -> bool:
    """dbm-3.2:terrain.def-ww: his WW comes with a BUA touching it when his list allows a BUA (a
    compulsory BUA counting as allowed)."""
    lst = _defender_list(st)
    permitted = set(lst.permitted_terrain) | set(lst.compulsory_terrain)
    return bool(lst.bua_allowed and "BUA" in permitted) or "BUA" in lst.compulsory_terrain


def _naval(st: DbmState) -> int:
    sc = st.game.scenario
    return sum(1 for c in sc.armies[_sides(st)[0]].commands for e in c.elements if e.code in NAVAL)


def _road_fe(st: DbmState, n: int) -> float:
    """dbm-3.2:terrain.def-roads: the FE of the defender's road number ``n`` (the first compulsory
    road counts 0)."""
    compulsory = "road" in _defender_list(st).compulsory_terrain
    return check_roads([{"links": True}] * (n + 1), compulsory) - check_roads(
        [{"links": True}] * n, compulsory
    )


def invader_options(st: DbmState, ts: TerrainSteps) -> list[str]:
    """dbm-3.2:terrain.invader: one only of a WW (2 naval elements), a river, a road (with 0 or 2-3
    FE of steep hills), or nothing; after the dice refuse a water feature, a non-water one."""
    water = [] if ts.refused else ["river"] + (["WW"] if _naval(st) >= 2 and ww_room(st) else [])
    opts = ["none", "road"] + water[:1] + ["road-hills-2", "road-hills-3"] + water[1:]
    return opts


def defender_extras(st: DbmState, ts: TerrainSteps) -> list[str]:
    """The defender's WW (terrain.def-ww, with a BUA touching it if his list allows one), BUA
    (terrain.def-bua) and roads (terrain.def-roads), when his list permits them and they fit in
    3 FE; WW and BUA only before his other optional features (terrain.def-phases)."""
    lst = _defender_list(st)
    permitted = set(lst.permitted_terrain) | set(lst.compulsory_terrain)
    _, defender = _sides(st)
    first_open = all(k in FIRST_KINDS for k in ts.placed[ts.compulsory :])
    room = 3 - ts.defender_fe
    with_bua = _with_bua(st)
    out = []
    ww_present = any(t["kind"] == "WW" for t in st.terrain)
    ww_fe = _fe(st, "WW") + (_fe(st, "BUA") if with_bua else 0.0) if "WW" in permitted else 9.0
    bua_for = defender if with_bua else None
    if not ww_present and not ts.ww_tried and first_open and ww_fe <= room and ww_room(st, bua_for):
        out.append("WW")
    if with_bua and not ts.bua and first_open and _fe(st, "BUA") <= room and bua_room(st, defender):
        out.append("BUA")
    roads_ok = ts.bua or any(t["kind"] == "road" for t in st.terrain) or "road" in lst.compulsory_terrain
    if "road" in permitted and ts.roads < 2 and roads_ok and _road_fe(st, ts.roads) <= room:
        out.append("road")
    return out


def terrain_options(st: DbmState, ts: TerrainSteps) -> list[str]:
    """What the player whose turn it is in the terrain phase may order (``terrain <arg>``)."""
    if ts.step == "invader":
        return invader_options(st, ts)
    if ts.step == "defender":  # 2-3 FE in all (terrain.def-total): "done" from 2 FE or when nothing fits
        kinds = [k for k in _area_kinds(st) if ts.defender_fe + _fe(st, k) <= 3]
        # his river first in the optional phase (terrain.def-phases), diced for once (terrain.def-river)
        river = (
            ["river"]
            if not ts.river_tried
            and all(k in FIRST_KINDS for k in ts.placed[ts.compulsory :])
            and "river" in _defender_list(st).permitted_terrain
            and ts.defender_fe + _fe(st, "river") <= 3
            else []
        )
        extras = defender_extras(st, ts)
        more = kinds + river + extras
        return more + (["done"] if ts.defender_fe >= 2 or not more else [])
    fe = st.game.scenario.tables.terrain.feature
    return [k for k in _area_kinds(st) if ts.invader_fe + fe[k].fe <= 1.5] + ["done"]


def _present(st: DbmState, ts: TerrainSteps, kind: str) -> bool:
    """dbm-3.2:terrain.def-total: a feature of ``kind`` is on the table already (the scenario's or
    the invader's), the invader's steep hills not counting (terrain.inv-road)."""
    n = sum(1 for t in st.terrain if t["kind"] == kind)
    return n - (ts.hills if kind == "hill-steep" else 0) > 0


def _compulsory_order(st: DbmState) -> list[str]:
    """dbm-3.2:terrain.def-phases: the defender's compulsory kinds not yet present, WW, river and
    BUA/fields first (in that order), then his other area kinds (the list's order), then a road."""
    comp = list(_defender_list(st).compulsory_terrain)
    areas = [k for k in _area_kinds(st) if k in comp]
    first = [k for k in ("WW", "river") if k in comp] + (["BUA"] if "BUA" in comp else [])
    first += [k for k in areas if k in FIRST_KINDS]
    rest = [k for k in areas if k not in FIRST_KINDS] + (["road"] if "road" in comp else [])
    return first + rest


def compulsory_features(st: DbmState, ts: TerrainSteps) -> list[Event]:
    """The defender's compulsory phase (terrain.def-phases): one feature of each compulsory terrain
    type of his list, placed for him (ruling R46), each counting half (terrain.def-total): a WW with
    its BUA touching it if his list allows one (terrain.def-ww, no die), a river (no 6 needed, the
    zone die still decides its band: terrain.def-river), a BUA (terrain.def-bua), his area kinds
    (terrain.position) and a road (the first compulsory road counting 0 FE: terrain.def-roads).
    A type already present (the scenario's or the invader's) is skipped; a WW or BUA that no place
    fits, or an area kind that would pass 3 FE, is not placed and the log says so
    (``terrain-refused`` with ``compulsory``)."""
    ev: list[Event] = []
    _, defender = _sides(st)
    with_bua = _with_bua(st)
    for kind in _compulsory_order(st):
        if kind == "WW":
            if _present(st, ts, "WW"):
                continue
            if not ww_room(st, defender if with_bua else None):
                ev.append(_not_placed("WW", "no place on the table fits it", "terrain.def-ww"))
                continue
            ev += _defender_water(st, ts, "WW", defender)
        elif kind == "river":
            if not _present(st, ts, "river"):
                ev += _defender_river(st, ts, defender)
        elif kind == "BUA":
            if _present(st, ts, "BUA"):
                continue
            if not bua_room(st, defender):
                ev.append(_not_placed("BUA", "no place on the table fits it", "terrain.def-bua"))
                continue
            ev += _defender_water(st, ts, "BUA", defender)
        elif kind == "road":
            if not _present(st, ts, "road"):
                ev += _defender_road(st, ts)
        elif not _present(st, ts, kind):
            if ts.defender_fe + _fe(st, kind) > 3:
                ev.append(
                    _not_placed(
                        kind, "it would take his terrain past 3 feature equivalents", "terrain.def-total"
                    )
                )
                continue
            ev += place_area(st, kind, "defender", "terrain.position")
            ts.defender_fe += _fe(st, kind)
            ts.placed.append(kind)
    ts.compulsory = len(ts.placed)
    return ev


def _not_placed(kind: str, why: str, clause: str) -> Event:
    """The log's line for a compulsory feature the defender's phase (i) could not place (ruling R46)."""
    return {"kind": "terrain-refused", "what": kind, "compulsory": True, "why": why, "rule": rule(clause)}


def _invader_step(st: DbmState, ts: TerrainSteps, choice: str) -> list[Event]:
    log = TerrainLog()
    hills = float(choice.rsplit("-", 1)[1]) if choice.startswith("road-hills-") else 0.0
    got = invader_option(
        st.rng,
        log,
        "road" if hills else choice,
        _naval(st),
        _defender_list(st).compulsory_terrain,
        fallback=None,
        hills_fe=hills,
    )
    w, d = st.board.width, st.board.depth
    if got == "refused":  # "a different non-water-feature option can be chosen"
        ts.refused.append(choice)
        return log.events
    if got == "river":
        lo, _hi = log.features[-1].params["band_p"]
        st.terrain.append({"kind": "river", "x0": float(lo), "y0": 0.0, "x1": float(lo) + 40.0, "y1": d})
    elif got == "WW":
        placed = log.events.pop()
        rect = place_ww(st, log)
        log.events.append({**placed, **rect, "kind": "terrain-placed"})
    elif got == "road":
        st.terrain.append({"kind": "road", "x0": w / 2 - 20, "y0": 0.0, "x1": w / 2 + 20, "y1": d})
    ev = log.events
    for _ in range(int(hills)):  # entirely steep hills, H(S), placed by the invader (terrain.inv-road)
        ev += place_area(st, "hill-steep", "invader", "terrain.inv-road")
    ts.invader, ts.step, ts.hills = got, "defender", int(hills)
    return ev


def _defender_water(st: DbmState, ts: TerrainSteps, choice: str, defender: str) -> list[Event]:
    lst = _defender_list(st)
    log = TerrainLog()
    if choice == "WW":
        ts.ww_tried = True
        with_bua = _with_bua(st)
        if not defender_ww(st.rng, log, "WW" in lst.compulsory_terrain, False, with_bua, with_bua):
            log.events.append({"kind": "terrain-refused", "what": "WW", "rule": rule("terrain.def-ww")})
            return log.events
        placed = log.events.pop()
        rect = place_ww(st, log, defender if with_bua else None)
        log.events.append({**placed, **rect, "kind": "terrain-placed"})
        ts.defender_fe += _fe(st, "WW")
        ts.placed.append("WW")
        if not with_bua:
            return log.events
    ts.bua = True
    ts.defender_fe += _fe(st, "BUA")
    ts.placed.append("BUA")
    return place_bua(st, defender, log)


def _defender_road(st: DbmState, ts: TerrainSteps) -> list[Event]:
    """dbm-3.2:terrain.def-roads: one of his external roads (the first compulsory one 0 FE)."""
    ts.defender_fe += _road_fe(st, ts.roads)
    rect = place_road(st, ts.roads)
    ts.roads += 1
    ts.placed.append("road")
    ev = {**rect, "kind": "terrain-placed", "what": "road", "by": "defender", "road": ts.roads}
    return [{**ev, "rule": rule("terrain.def-roads")}]


def _defender_river(st: DbmState, ts: TerrainSteps, defender: str) -> list[Event]:
    """dbm-3.2:terrain.def-river: a 6 to include it unless compulsory, then the zone die puts it,
    40 p wide, from short edge to short edge (or to a WW) in its quarter of the depth."""
    ts.river_tried = True
    log = TerrainLog()
    band = defender_river(st.rng, log, "river" in _defender_list(st).compulsory_terrain, st.board.depth)
    if band is None:  # "a different option can be chosen if dicing is unsuccessful"
        log.events.append({"kind": "terrain-refused", "what": "river", "rule": rule("terrain.def-river")})
        return log.events
    d = st.board.depth
    lo, hi = (d - band[1], d - band[0]) if defender == "blue" else band  # from his own edge
    mid = round((lo + hi) / 2, 1)
    st.terrain.append({"kind": "river", "x0": 0.0, "y0": mid - 20.0, "x1": st.board.width, "y1": mid + 20.0})
    end_at_ww(st)  # "or to a WW" (ruling R48)
    ts.defender_fe += _fe(st, "river")
    ts.placed.append("river")
    return log.events


def terrain_step(st: DbmState, ts: TerrainSteps, choice: str) -> tuple[list[Event], bool]:
    """Play one terrain order: the events, and whether the terrain phase is over."""
    invader, defender = _sides(st)
    if ts.step == "invader":
        return _invader_step(st, ts, choice), False
    if ts.step == "defender" and choice in ("WW", "BUA"):
        return _defender_water(st, ts, choice, defender), False
    if ts.step == "defender" and choice == "road":
        return _defender_road(st, ts), False
    if ts.step == "defender" and choice == "river":
        return _defender_river(st, ts, defender), False
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
