"""The terrain procedure before the battle: seeded, logged, played by a player or the bot.

Clauses: dbm-3.2:terrain.invader, .inv-ww, .inv-river, .inv-road, .def-total, .def-phases, .def-ww,
.def-river, .def-bua, .def-roads, .inv-area, .position, .mixed-going, .hill, .ww-extent, .fe,
dbm-3.2:fort.corner-angle. Distances in paces; the defender's rear edge is y = 0, the invader's
y = table depth. Sector geometry (flank/central sectors) is the base rules': the table width is
split in three equal sectors here (ruling R23).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from shieldwall.core.dice import D6
from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.tables import Tables

Event = dict[str, Any]
INVADER_OPTIONS = ("none", "WW", "river", "road")


@dataclass
class Placed:
    kind: str
    fe: float
    compulsory: bool = False
    phase: str = "optional"
    by: str = "defender"
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class TerrainLog:
    features: list[Placed] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    def roll(self, rng: np.random.Generator, clause: str, why: str) -> int:
        d = D6.roll(rng)
        self.events.append({"kind": "die", "die": "d6", "face": d, "why": why, "rule": rule(clause)})
        return d


# --- the invader ---------------------------------------------------------------------------------


def invader_option(
    rng: np.random.Generator,
    log: TerrainLog,
    choice: str,
    naval_elements: int,
    compulsory_for_defender: Sequence[str],
    fallback: str | None = "none",
    hills_fe: float = 0.0,
) -> str:
    """dbm-3.2:terrain.invader (one only), .inv-ww, .inv-river, .inv-road. Returns what was placed;
    with ``fallback`` None, "refused" when the dice refused a water feature (the invader then
    chooses a non-water option himself)."""
    if choice not in INVADER_OPTIONS:
        raise IllegalOrder(
            rule("terrain.invader"), f"the invader chooses one of {', '.join(INVADER_OPTIONS)}"
        )
    if choice in ("WW", "river"):
        clause = "terrain.inv-ww" if choice == "WW" else "terrain.inv-river"
        if choice == "WW" and naval_elements < 2:
            raise IllegalOrder(rule(clause), "a WW needs at least 2 naval elements")
        if (
            choice not in compulsory_for_defender
            and log.roll(rng, clause, f"invader {choice}: 4-6 to place") < 4
        ):
            log.events.append({"kind": "terrain-refused", "what": choice, "rule": rule(clause)})
            if fallback is None:
                return "refused"
            if fallback in ("WW", "river"):
                raise IllegalOrder(rule(clause), "after unsuccessful dicing only a non-water option remains")
            return invader_option(
                rng, log, fallback, naval_elements, compulsory_for_defender, "none", hills_fe
            )
        params: dict[str, Any] = {}
        if choice == "river":
            d = log.roll(rng, "terrain.inv-river", "river band")
            params = {"band_p": (250 + 50 * d, 600 + 100 * d)}
        log.features.append(Placed(choice, 1.0, by="invader", params=params))
        log.events.append(
            {"kind": "terrain-placed", "what": choice, "by": "invader", **params, "rule": rule(clause)}
        )
        return choice
    if choice == "road":
        if not (hills_fe == 0 or 2 <= hills_fe <= 3):
            raise IllegalOrder(
                rule("terrain.inv-road"), "steep hills with a road: 0 or 2-3 feature equivalents"
            )
        log.features.append(Placed("road", 0.0, by="invader", params={"central": True}))
        if hills_fe:
            # H(S), DGo, never satisfying compulsory terrain
            log.features.append(
                Placed(
                    "hill-steep", hills_fe, by="invader", params={"class": "H(S)", "counts_compulsory": False}
                )
            )
        log.events.append(
            {
                "kind": "terrain-placed",
                "what": "road",
                "hills_fe": hills_fe,
                "by": "invader",
                "rule": rule("terrain.inv-road"),
            }
        )
        return "road"
    log.events.append(
        {"kind": "terrain-placed", "what": "nothing", "by": "invader", "rule": rule("terrain.invader")}
    )
    return "none"


def river_in_band(xs: Sequence[float], band: tuple[float, float]) -> bool:
    """dbm-3.2:terrain.inv-river: every point of the river within the band from the short edge
    the invader nominated (ruling R13)."""
    return all(band[0] <= x <= band[1] for x in xs)


# --- the defender --------------------------------------------------------------------------------


def defender_total(features: Sequence[Placed]) -> float:
    """dbm-3.2:terrain.def-total: 2-3 FE, compulsory features counting half (for this total only)."""
    total = sum(f.fe / 2 if f.compulsory else f.fe for f in features if f.by == "defender")
    if not 2 <= total <= 3:
        raise IllegalOrder(rule("terrain.def-total"), f"the defender's terrain totals {total:g} FE, not 2-3")
    return total


FIRST_KINDS = ("WW", "river", "stream", "BUA", "fields")


def check_phases(sequence: Sequence[Placed]) -> None:
    """dbm-3.2:terrain.def-phases: compulsory then optional; in each, WW, river and BUA/fields first."""
    seen_optional = False
    for phase in ("compulsory", "optional"):
        others = False
        for f in (x for x in sequence if x.phase == phase):
            if f.kind in FIRST_KINDS and others:
                raise IllegalOrder(
                    rule("terrain.def-phases"), f"{f.kind} must be placed before other {phase} features"
                )
            others = others or f.kind not in FIRST_KINDS
    for f in sequence:
        if f.phase == "optional":
            seen_optional = True
        elif seen_optional:
            raise IllegalOrder(
                rule("terrain.def-phases"), "compulsory features are placed before optional ones"
            )


def defender_ww(
    rng: np.random.Generator,
    log: TerrainLog,
    compulsory: bool,
    ww_present: bool,
    bua_allowed: bool,
    with_bua: bool,
) -> bool:
    """dbm-3.2:terrain.def-ww: one WW, none present, with a BUA touching it if the book allows one;
    5-6 to include it unless compulsory."""
    if ww_present:
        raise IllegalOrder(rule("terrain.def-ww"), "a WW is already present")
    if bua_allowed and not with_bua:
        raise IllegalOrder(rule("terrain.def-ww"), "a BUA must be placed in contact with the WW")
    if not compulsory and log.roll(rng, "terrain.def-ww", "defender WW: 5-6") < 5:
        return False
    log.features.append(Placed("WW", 1.0, compulsory=compulsory))
    log.events.append(
        {"kind": "terrain-placed", "what": "WW", "by": "defender", "rule": rule("terrain.def-ww")}
    )
    return True


def river_zone(face: int) -> int:
    """dbm-3.2:terrain.def-river: the quarter of the table depth from the defender's edge."""
    return {1: 0, 2: 1, 3: 1, 4: 2, 5: 2, 6: 3}[face]


def defender_river(
    rng: np.random.Generator, log: TerrainLog, compulsory: bool, depth: float
) -> tuple[float, float] | None:
    if not compulsory and log.roll(rng, "terrain.def-river", "defender river: 6") < 6:
        return None
    q = river_zone(log.roll(rng, "terrain.def-river", "river zone"))
    band = (q * depth / 4, (q + 1) * depth / 4)
    log.features.append(Placed("river", 1.0, compulsory=compulsory, params={"zone": q, "band_p": band}))
    log.events.append(
        {
            "kind": "terrain-placed",
            "what": "river",
            "zone": q + 1,
            "band_p": band,
            "rule": rule("terrain.def-river"),
        }
    )
    return band


def bua_position_ok(
    rng: np.random.Generator,
    log: TerrainLog,
    touches_ww: bool,
    ww_present: bool,
    flank_sector: bool,
    road_link: bool,
    on_rear_edge: bool,
) -> bool:
    """dbm-3.2:terrain.def-bua: touching a WW, else (no WW) in a flank sector or linked to an invader
    road; on the defender's rear edge unless he dices 5-6."""
    if ww_present and not touches_ww:
        return False
    if not ww_present and not (flank_sector or road_link):
        return False
    return on_rear_edge or log.roll(rng, "terrain.def-bua", "BUA off the rear edge: 5-6") >= 5


def check_roads(roads: Sequence[dict[str, Any]], compulsory: bool) -> float:
    """dbm-3.2:terrain.def-roads: up to 2 external roads, each linking a BUA or a previous road
    unless roads are compulsory; the first compulsory road is 0 FE. Returns their FE."""
    if len(roads) > 2:
        raise IllegalOrder(rule("terrain.def-roads"), "up to 2 external roads")
    fe = 0.0
    for i, r in enumerate(roads):
        if not compulsory and not r.get("links"):
            raise IllegalOrder(
                rule("terrain.def-roads"), "a road must link with a BUA or join a previous road"
            )
        fe += 0.0 if (compulsory and i == 0) else float(r.get("fe", 1.0))
    return fe


def invader_area(placed_before: bool, fe: float, kinds: Sequence[str], permitted: Sequence[str]) -> None:
    """dbm-3.2:terrain.inv-area: only an invader who placed nothing; 0-1.5 FE; permitted area
    features of the defender's list; not a BUA."""
    if placed_before:
        raise IllegalOrder(rule("terrain.inv-area"), "the invader has already placed terrain")
    if not 0 <= fe <= 1.5:
        raise IllegalOrder(rule("terrain.inv-area"), f"{fe:g} FE is not 0-1.5")
    for k in kinds:
        if k == "BUA" or k not in permitted:
            raise IllegalOrder(rule("terrain.inv-area"), f"{k} is not a permitted area feature")


def position_ok(face: int, nearest_edge_p: float) -> bool:
    """dbm-3.2:terrain.position: 1-2 touch an edge or waterway; 3-4 nearest part 100-300 p; 5-6 no
    part within 300 p (nearest_edge_p: distance from the nearest table edge or waterway edge)."""
    if face <= 2:
        return nearest_edge_p <= 0.0
    if face <= 4:
        return 100.0 <= nearest_edge_p <= 300.0
    return nearest_edge_p > 300.0


def position_distance(rng: np.random.Generator, log: TerrainLog, kind: str) -> tuple[int, float]:
    """Dice a feature's position band and pick a distance inside it (the bot's placement)."""
    face = log.roll(rng, "terrain.position", f"position of {kind}")
    # the distance in whole tenths of a pace, drawn as an integer (every draw of the rules is an
    # integer draw: the OpenSpiel adapter makes each a chance node with equally likely outcomes)
    if face <= 2:
        d = 0.0
    elif face <= 4:
        d = 100 + int(rng.integers(0, 2001)) / 10  # 100.0 ... 300.0 p
    else:
        d = 301 + int(rng.integers(0, 2000)) / 10  # 301.0 ... 500.9 p
    return face, round(d, 1)


def ww_extent_ok(depths: Sequence[float], face: int) -> bool:
    """dbm-3.2:terrain.ww-extent: every depth in [300, 300 + 100 x die]; no more than half of the
    length deeper than 600 p (depths sampled evenly along the short edge)."""
    if not depths or any(not 300 <= d <= 300 + 100 * face for d in depths):
        return False
    return sum(1 for d in depths if d > 600) * 2 <= len(depths)


def going_of(tables: Tables, goings: Sequence[str]) -> str:
    """dbm-3.2:terrain.mixed-going: the going that slows cavalry more (the user's Cv speeds)."""
    cv = tables.movement.type["Cv"]
    speed = {"good": cv.good, "rough": cv.rough, "difficult": cv.difficult, "impassable": -1.0}
    return min(goings, key=lambda g: (speed[g], g))


def visibility_of(kinds: Sequence[str], tables: Tables) -> str:
    """dbm-3.2:terrain.mixed-going: for visibility, the terrain that reduces it less."""
    vis = [tables.terrain.feature[k].visibility for k in kinds]
    return "clear" if "clear" in vis or not vis else "blocks"


def hill_features(slopes: Sequence[str]) -> int:
    """dbm-3.2:terrain.hill: a hill is a single feature whatever its slopes."""
    return 1 if slopes else 0


def feature_fe(tables: Tables, kind: str) -> float:
    """dbm-3.2:terrain.fe and dbm-3.2:terrain.ww-extent: the user's FE per kind (WW locked to 1)."""
    return tables.terrain.feature[kind].fe


def fort_angles_ok(poly: Sequence[tuple[float, float]]) -> bool:
    """dbm-3.2:fort.corner-angle: every inside angle of a closed fortification between 90 and 270
    degrees (the polygon's vertices in order)."""
    n = len(poly)
    area = sum(poly[i][0] * poly[(i + 1) % n][1] - poly[(i + 1) % n][0] * poly[i][1] for i in range(n))
    for i in range(n):
        a, b, c = poly[i - 1], poly[i], poly[(i + 1) % n]
        v1 = (a[0] - b[0], a[1] - b[1])
        v2 = (c[0] - b[0], c[1] - b[1])
        ang = math.degrees(math.atan2(v1[0] * v2[1] - v1[1] * v2[0], v1[0] * v2[0] + v1[1] * v2[1])) % 360
        inside = ang if area > 0 else 360 - ang
        inside = 360 - inside
        if not 90 - 1e-6 <= inside <= 270 + 1e-6:
            return False
    return True


def run_procedure(
    rng: np.random.Generator,
    tables: Tables,
    defender_list: str,
    invader_naval: int,
    choose: Callable[[str, Sequence[str]], str] | None = None,
) -> TerrainLog:
    """The whole procedure, seeded and logged; ``choose(question, options)`` is the player (the bot
    takes the first option when None)."""
    pick = choose or (lambda q, opts: opts[0])
    lst = tables.lists[defender_list]
    log = TerrainLog()
    comp = list(lst.compulsory_terrain)
    opts = ["none", "road", "river"] + (["WW"] if invader_naval >= 2 else [])
    inv = invader_option(rng, log, pick("invader option", opts), invader_naval, comp, fallback="none")
    total = 0.0
    for kind in comp:
        f = Placed(kind, tables.terrain.feature[kind].fe, compulsory=True, phase="compulsory")
        log.features.append(f)
        face, d = position_distance(rng, log, kind)
        f.params = {"position_die": face, "edge_distance_p": d}
        log.events.append(
            {
                "kind": "terrain-placed",
                "what": kind,
                "by": "defender",
                "phase": "compulsory",
                **f.params,
                "rule": rule("terrain.def-total"),
            }
        )
        total += f.fe / 2
    for kind in lst.permitted_terrain:
        if total >= 2:
            break
        if kind in FIRST_KINDS or kind == "road" or kind in comp:
            continue
        fe = tables.terrain.feature[kind].fe
        if total + fe > 3:
            continue
        f = Placed(kind, fe, phase="optional")
        log.features.append(f)
        face, d = position_distance(rng, log, kind)
        f.params = {"position_die": face, "edge_distance_p": d}
        log.events.append(
            {
                "kind": "terrain-placed",
                "what": kind,
                "by": "defender",
                "phase": "optional",
                **f.params,
                "rule": rule("terrain.def-total"),
            }
        )
        total += fe
    defender_total([f for f in log.features if f.by == "defender"])
    check_phases([f for f in log.features if f.by == "defender"])
    log.events.append(
        {"kind": "terrain-done", "invader": inv, "defender_fe": total, "rule": rule("terrain.def-total")}
    )
    return log
