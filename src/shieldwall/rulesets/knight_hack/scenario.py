"""Knight Hack scenario files: the table, cosmetic terrain, the turn limit and the two armies.

    ruleset = "knight-hack"
    name = "Bourgthéroulde, 26 March 1124"
    data = "sample"                 # the data set: "sample" or a folder relative to the file
    turns = 8
    [table]
    width = 48
    depth = 36
    [[terrain]]                     # drawn only: the errata has no terrain rules (R36)
    id = "wood"; kind = "wood"; points = [[0, 20], [8, 20], [8, 30], [0, 30]]
    [red]
    army = "royal-household-1124"   # a packaged sample army, or give units = [...] inline
    edge = "south"                  # its home edge: routers run for it
    [[red.place]]
    unit = "archers"; x = 12; y = 10; heading = 0

Every unit is placed once, on the table, out of contact with every other unit. With the parameter
``hand_deployment`` (ruling R51) these places are suggestions: the sides place their units by hand
within their zones, a side's ``deploy_zone = { x0 = 0, y0 = 0, x1 = 48, y1 = 12 }`` (under
``[red]``) or else the zone derived from these places (``zones.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt

from shieldwall.core.datafiles import file_references_allowed, packaged_toml, validate
from shieldwall.core.errors import DataError
from shieldwall.core.geometry import Footprint
from shieldwall.core.limits import (
    MAX_FEATURES,
    MAX_POINTS,
    MAX_TABLE,
    MAX_TEXT,
    MAX_UNITS,
    Coord,
    Heading,
    Pt,
)
from shieldwall.core.polygons import footprint_distance
from shieldwall.rulesets.knight_hack.army import ArmyUnit, check_units, load_army, tables_for
from shieldwall.rulesets.knight_hack.formation import FIGURE_WIDTH, RANK_DEPTH
from shieldwall.rulesets.knight_hack.tables import Tables, sample_folder
from shieldwall.rulesets.knight_hack.zones import Zone, derived_zone

SIDES = ("red", "blue")


class _M(BaseModel):
    # every number finite and every list bounded (core.limits): a scenario may come from the web;
    # counts, numbers and flags strict (StrictInt, StrictFloat, StrictBool: true is not 1)
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class Table(_M):
    width: StrictFloat = Field(gt=0, le=min(200.0, MAX_TABLE))
    depth: StrictFloat = Field(gt=0, le=min(200.0, MAX_TABLE))


class TerrainSpec(_M):
    id: str = Field(min_length=1, max_length=MAX_TEXT)
    kind: str = Field(min_length=1, max_length=MAX_TEXT)
    name: str = Field(default="", max_length=MAX_TEXT)
    points: list[Pt] = Field(min_length=2, max_length=MAX_POINTS)
    linear: StrictBool = False
    width: StrictFloat = Field(default=0.0, ge=0, le=MAX_TABLE)


class Placement(_M):
    unit: str = Field(max_length=MAX_TEXT)
    x: Coord
    y: Coord
    heading: Heading = 0.0
    #: the unit starts hidden in ambush here (as its army file's ``ambush = true``; R26, R49)
    ambush: StrictBool = False


class ZoneSpec(_M):
    """A side's deployment zone with ``hand_deployment`` (ruling R51, ``knight-hack:deployment.zone``):
    a rectangle of the table."""

    x0: Coord
    y0: Coord
    x1: Coord
    y1: Coord


class ArmySpec(_M):
    army: str | None = Field(default=None, max_length=MAX_TEXT)
    name: str | None = Field(default=None, max_length=MAX_TEXT)
    units: list[ArmyUnit] | None = Field(default=None, max_length=MAX_UNITS)
    edge: Literal["south", "north"]
    place: list[Placement] = Field(min_length=1, max_length=MAX_UNITS)
    #: where the side places its units with ``hand_deployment`` (R51); none: derived (``zones.py``)
    deploy_zone: ZoneSpec | None = None


class ScenarioFile(_M):
    ruleset: Literal["knight-hack"] = "knight-hack"
    name: str = Field(min_length=1, max_length=MAX_TEXT)
    description: str = Field(default="", max_length=MAX_TEXT)
    date: str = Field(default="", max_length=MAX_TEXT)
    provenance: str = Field(default="", max_length=MAX_TEXT)
    data: str = Field(default="sample", max_length=MAX_TEXT)
    turns: StrictInt = Field(default=8, ge=1, le=50)
    table: Table
    terrain: list[TerrainSpec] = Field(default_factory=list, max_length=MAX_FEATURES)
    red: ArmySpec
    blue: ArmySpec
    #: the SHA-256 of each table file the battle must be played on (a save records them; a scenario
    #: may pin them): other tables are refused (:func:`check_tables`)
    tables_sha256: dict[str, str] | None = Field(default=None, max_length=16)


@dataclass(frozen=True)
class Deployed:
    side: str
    unit: ArmyUnit
    x: float
    y: float
    heading: float
    #: hidden in ambush at deployment (the army's ``ambush`` or the placement's)
    ambush: bool = False


@dataclass(frozen=True)
class Scenario:
    spec: ScenarioFile
    tables: Tables
    armies: dict[str, str]
    edges: dict[str, str]
    units: tuple[Deployed, ...]
    #: each side's deployment zone with ``hand_deployment`` (R51): the scenario's, else derived
    zones: dict[str, Zone]


def _army_units(a: ArmySpec, side: str, tables: Tables, file: str) -> tuple[str, list[ArmyUnit]]:
    if (a.army is None) == (a.units is None):
        raise DataError(file, side, "give either army (a packaged sample army) or units (inline), not both")
    if a.units is not None:
        check_units(a.units, tables, file, f"{side}.units")
        return a.name or side, list(a.units)
    assert a.army is not None
    node = packaged_toml(sample_folder() / "armies", a.army, file, f"{side}.army", "packaged army")
    army = load_army(Path(str(node)))
    return a.name or army.name, list(army.units)


def build_scenario(data: Any, file: str) -> Scenario:
    spec = validate(ScenarioFile, data, file)
    if spec.data != "sample" and not file_references_allowed():
        # the same words whatever the path: a scenario sent to the web app reveals nothing of the server
        raise DataError(file, "data", 'a scenario sent as data may not name a file; use data = "sample"')
    base = Path(file).parent if Path(file).is_file() else Path(".")
    tables = tables_for(spec.data, base)
    check_tables(spec.tables_sha256, tables, file)
    deployed: list[Deployed] = []
    names: dict[str, str] = {}
    edges: dict[str, str] = {}
    for side in SIDES:
        a: ArmySpec = getattr(spec, side)
        names[side], units = _army_units(a, side, tables, file)
        edges[side] = a.edge
        by_id = {u.id: u for u in units}
        seen: set[str] = set()
        for i, p in enumerate(a.place):
            where = f"{side}.place[{i}]"
            if p.unit not in by_id:
                raise DataError(file, f"{where}.unit", f"no unit {p.unit!r} in the {side} army")
            if p.unit in seen:
                raise DataError(file, f"{where}.unit", f"{p.unit} is placed twice")
            seen.add(p.unit)
            u = by_id[p.unit]
            deployed.append(Deployed(side, u, p.x, p.y, p.heading % 360.0, u.ambush or p.ambush))
        missing = [u for u in by_id if u not in seen]
        if missing:
            raise DataError(file, f"{side}.place", f"unit {missing[0]!r} is not placed")
    ids = [d.unit.id for d in deployed]
    dup = next((i for i in ids if ids.count(i) > 1), None)
    if dup:
        raise DataError(file, "red", f"unit id {dup!r} is used by both armies")
    fps = [(d, _footprint(d)) for d in deployed]
    for d, fp in fps:
        if not all(0 <= x <= spec.table.width and 0 <= y <= spec.table.depth for x, y in fp.corners()):
            raise DataError(file, f"{d.side}.place", f"{d.unit.id} is not wholly on the table")
    for i, (d, fp) in enumerate(fps):
        for e, fq in fps[i + 1 :]:
            if footprint_distance(fp, fq) < 0.25:
                raise DataError(file, f"{d.side}.place", f"{d.unit.id} and {e.unit.id} are in contact")
    return Scenario(spec, tables, names, edges, tuple(deployed), _zones(spec, edges, fps, file))


def _zones(
    spec: ScenarioFile, edges: dict[str, str], fps: list[tuple[Deployed, Footprint]], file: str
) -> dict[str, Zone]:
    """Each side's deployment zone (ruling R51): its ``deploy_zone``, checked to be a rectangle
    within the table, else derived from where the scenario places the two armies."""
    out: dict[str, Zone] = {}
    t = spec.table
    for side in SIDES:
        z = getattr(spec, side).deploy_zone
        if z is None:
            own = [fp for d, fp in fps if d.side == side]
            enemy = [fp for d, fp in fps if d.side != side]
            out[side] = derived_zone(edges[side], t.width, t.depth, own, enemy)
            continue
        where = f"{side}.deploy_zone"
        if not (z.x0 < z.x1 and z.y0 < z.y1):
            raise DataError(file, where, "knight-hack:deployment.zone: needs x0 < x1 and y0 < y1")
        if z.x0 < 0 or z.y0 < 0 or z.x1 > t.width or z.y1 > t.depth:
            raise DataError(
                file,
                where,
                f"knight-hack:deployment.zone: the zone must lie within the {t.width:g} x {t.depth:g} table",
            )
        out[side] = (z.x0, z.y0, z.x1, z.y1)
    return out


def check_tables(want: dict[str, str] | None, tables: Tables, file: str) -> None:
    """A save (or scenario) that names the tables it was played on is refused on other tables, in
    one line naming the files that differ."""
    if want is None or want == tables.digests:
        return
    differ = sorted(n for n in set(want) | set(tables.digests) if want.get(n) != tables.digests.get(n))
    raise DataError(
        file,
        "tables_sha256",
        f"this battle was played on other Knight Hack tables: {', '.join(differ)} "
        f"{'differs' if len(differ) == 1 else 'differ'} from the data set {tables.name!r} found now; "
        "refusing to replay it on tables it was not played on (restore those files, or start a new battle)",
    )


def _footprint(d: Deployed) -> Footprint:
    ranks = -(-d.unit.figures // d.unit.frontage)
    return Footprint(d.x, d.y, d.heading, d.unit.frontage * FIGURE_WIDTH, ranks * RANK_DEPTH)
