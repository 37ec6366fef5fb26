"""Dark Ages scenario files: the Scenario Chart's line for one battle plus its orders of battle
(docs/spi-dark-ages-data.md, "Scenario files")::

    ruleset = "spi-dark-ages"
    name = "Tours"
    chart = "Tours"               # the Scenario Chart's name (PV/PL of the errata are checked)
    data = "sample"               # the data set: "sample" or a folder relative to the file
    turns = 12
    first_listed = "franks"       # deploys first (setup.order)
    second_listed = "arabs"       # moves first
    [army.franks]
    name = "Franks"; colour = "green"; pv = 55; pl = 22; pv_source = "errata"
    [[army.franks.unit]]
    type = "spear"; at = "1005"; facing = 3   # id optional

Values the errata states are locked: a Tours file giving the Franks a PL other than 22 is a
``DataError`` naming ``spi-dark-ages:scenario.pv-pl``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from shieldwall.core.datafiles import file_references_allowed, validate
from shieldwall.core.errors import DataError
from shieldwall.core.hexgrid import Hex, parse_ccrr
from shieldwall.core.limits import MAX_TEXT, MAX_UNITS
from shieldwall.rulesets.spi_dark_ages.clauses import rule
from shieldwall.rulesets.spi_dark_ages.hexmap import HexMap, build_map
from shieldwall.rulesets.spi_dark_ages.tables import Charts, load_charts, load_map, sample_charts

SIDES = ("green", "tan")

#: spi-dark-ages:scenario.pv-pl: (scenario chart name, army) -> (PV, PL), with the aliases of ruling A31
ERRATA_PV_PL = {
    ("tours", "franks"): (55, 22),
    ("tours", "arabs"): (80, 24),
    ("constantinople", "byzantines"): (150, 60),
    ("balathusta", "byzantines"): (160, 64),
    ("stanford bridge", "anglo-saxons"): (115, 34),
    ("manzikert", "seljug turks"): (145, 72),
}
ALIASES = {"stamford bridge": "stanford bridge", "balathista": "balathusta", "seljuk turks": "seljug turks"}


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class Enter(_M):
    turn: int = Field(ge=2, le=50)
    at: str = Field(min_length=4, max_length=4)


class UnitSpec(_M):
    id: str | None = Field(default=None, min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")
    type: str = Field(min_length=1, max_length=MAX_TEXT)
    #: the set-up hex; a reinforcement gives ``enter`` instead
    at: str | None = Field(default=None, min_length=4, max_length=4)
    facing: int = Field(default=0, ge=0, le=5)
    enter: Enter | None = None
    #: set up aboard this fleet (a unit id of the same army): no "at"
    aboard: str | None = Field(default=None, max_length=40)


class ArmySpec(_M):
    name: str = Field(min_length=1, max_length=MAX_TEXT)
    colour: Literal["green", "tan"]
    pv: int = Field(ge=1, le=10000)
    pl: int = Field(ge=1, le=10000)
    pv_source: Literal["errata", "illustrative", "user"] = "user"
    ferocity: bool = False
    vitality: bool = False
    #: Dorylaeum (scenario.dorylaeum): half the PV set up within 15 hexes of the east edge, the rest
    #: entering on the east road on Game-Turn 5
    east_half: bool = False
    unit: list[UnitSpec] = Field(min_length=1, max_length=MAX_UNITS)


class ScenarioFile(_M):
    ruleset: Literal["spi-dark-ages"] = "spi-dark-ages"
    name: str = Field(min_length=1, max_length=MAX_TEXT)
    chart: str = Field(default="", max_length=MAX_TEXT)
    description: str = Field(default="", max_length=MAX_TEXT)
    year: int | None = Field(default=None, ge=1, le=2000)
    provenance: str = Field(default="", max_length=MAX_TEXT)
    data: str = Field(default="sample", max_length=MAX_TEXT)
    #: the map of the data set: map.toml, or another map-<name>.toml of the same folder
    map: str = Field(default="map.toml", max_length=200)
    turns: int = Field(default=12, ge=1, le=50)
    first_listed: str
    second_listed: str
    army: dict[str, ArmySpec] = Field(min_length=2, max_length=2)


@dataclass(frozen=True)
class Placed:
    id: str
    side: str
    army: str
    type: str
    hex: Hex
    facing: int
    enter_turn: int = 0
    aboard: str | None = None


@dataclass(frozen=True)
class Scenario:
    spec: ScenarioFile
    charts: Charts
    map: HexMap
    #: colour -> army key
    armies: dict[str, str]
    #: the order of the Player-Turns (second listed first)
    order: tuple[str, str]
    units: tuple[Placed, ...]
    #: army key -> VP of its order of battle (a warning when it differs from PV)
    oob_vp: dict[str, int]


def charts_for(data: str, base: Path) -> Charts:
    if data == "sample":
        return sample_charts()
    folder = (base / data).resolve()
    if not folder.is_dir():
        raise DataError(str(folder), "", "data folder not found")
    return load_charts(folder)


def build_scenario(data: Any, file: str) -> Scenario:
    spec = validate(ScenarioFile, data, file)
    if spec.data != "sample" and not file_references_allowed():
        raise DataError(file, "data", 'a scenario sent as data may not name a file; use data = "sample"')
    base = Path(file).parent if Path(file).is_file() else Path(".")
    charts = charts_for(spec.data, base)
    hm = build_map(load_map(charts, spec.map), charts.tec, f"{charts.name}/{spec.map}")
    keys = list(spec.army)
    for k in (spec.first_listed, spec.second_listed):
        if k not in spec.army:
            raise DataError(file, "first_listed", f"{k!r} is not an army of the scenario ({', '.join(keys)})")
    if spec.first_listed == spec.second_listed:
        raise DataError(file, "second_listed", "the two players listed are the same army")
    colours = {spec.army[k].colour: k for k in keys}
    if len(colours) != 2:
        raise DataError(file, "army", "one army is green, the other tan (inventory)")
    chart = ALIASES.get(spec.chart.lower(), spec.chart.lower())
    placed: list[Placed] = []
    seen: set[str] = set()
    oob: dict[str, int] = {}
    occupied: dict[Hex, str] = {}
    points: dict[Hex, int] = {}
    for k in (spec.first_listed, spec.second_listed):  # spi-dark-ages:setup.order: first listed deploys first
        a = spec.army[k]
        name = ALIASES.get(a.name.lower(), a.name.lower())
        want = ERRATA_PV_PL.get((chart, name))
        if want is not None and (a.pv, a.pl) != want:
            raise DataError(
                file,
                f"army.{k}",
                f"PV {a.pv} / PL {a.pl} contradicts the errata: {want[0]} / {want[1]} "
                f"({rule('scenario.pv-pl')})",
            )
        if a.pl >= a.pv:
            raise DataError(file, f"army.{k}.pl", "the Panic Level is below the Point Value")
        oob[k] = 0
        for i, u in enumerate(a.unit):
            where = f"army.{k}.unit[{i}]"
            if u.type not in charts.units:
                raise DataError(file, f"{where}.type", f"no unit type {u.type!r} in {charts.name}/units.toml")
            uid = u.id or f"{k[:2]}{i + 1}"
            if uid in seen:
                raise DataError(file, f"{where}.id", f"unit id {uid!r} is used twice")
            seen.add(uid)
            if u.aboard is not None:
                fleet = next((p for p in placed if p.id == u.aboard and p.army == k), None)
                if fleet is None or charts.units[fleet.type].cls != "fleet" or u.at or u.enter:
                    raise DataError(file, f"{where}.aboard", f"{u.aboard!r} is not a fleet listed before it")
                t = charts.units[u.type]
                cargo = [p for p in placed if p.aboard == fleet.id and charts.units[p.type].cls != "command"]
                if t.cls == "fleet" or (
                    t.cls != "command" and len(cargo) >= charts.units[fleet.type].capacity
                ):
                    raise DataError(
                        file, f"{where}.aboard", f"{fleet.id} is full ({rule('stacking.C.capacity')})"
                    )
                oob[k] += t.vp
                placed.append(Placed(uid, a.colour, k, u.type, fleet.hex, u.facing, 0, fleet.id))
                continue
            if (u.at is None) == (u.enter is None):
                raise DataError(
                    file, f"{where}.at", "give the set-up hex (at) or a reinforcement's enter, not both"
                )
            text = u.at if u.at is not None else u.enter.at  # type: ignore[union-attr]
            try:
                h = parse_ccrr(text)
            except ValueError as exc:
                raise DataError(file, f"{where}.at", str(exc)) from None
            if not hm.on_map(h):
                raise DataError(file, f"{where}.at", f"{text} is off the map")
            t = charts.units[u.type]
            oob[k] += t.vp
            if u.enter is not None:
                placed.append(Placed(uid, a.colour, k, u.type, h, u.facing, u.enter.turn))
                continue
            if hm.is_river(h) and t.cls != "fleet" and h not in hm.bridge:
                raise DataError(file, f"{where}.at", f"{text} is a river hex ({rule('tec.river')})")
            if occupied.setdefault(h, k) != k:
                raise DataError(file, f"{where}.at", f"{text} holds units of both armies")
            points[h] = points.get(h, 0) + t.stacking_points
            if points[h] > charts.rules.hex_stack_limit:
                raise DataError(
                    file, f"{where}.at", f"{text} is over the stacking limit ({rule('stacking.C')})"
                )
            placed.append(Placed(uid, a.colour, k, u.type, h, u.facing))
    for k, a in spec.army.items():
        if a.east_half:
            check_east_half(charts, hm, k, a.pv, [p for p in placed if p.army == k], file)
    fleets = [p.hex for p in placed if charts.units[p.type].cls == "fleet" and not p.enter_turn]
    if len(fleets) != len(set(fleets)):
        raise DataError(file, "army", f"two fleets in one hex ({rule('stacking.C')})")
    order = (spec.army[spec.second_listed].colour, spec.army[spec.first_listed].colour)
    return Scenario(spec, charts, hm, {a.colour: k for k, a in spec.army.items()}, order, tuple(placed), oob)


#: spi-dark-ages:scenario.dorylaeum: within 15 hexes of the east edge (the edge column is hex 1: ruling A25)
EAST_HEXES = 15
EAST_TURN = 5


def check_east_half(charts: Charts, hm: HexMap, k: str, pv: int, units: list[Placed], file: str) -> None:
    """Dorylaeum (``scenario.dorylaeum``, ruling A25): the units set up are worth at least half the
    PV and none of them could be left off without falling below it; every one stands within 15 hexes
    of the east edge; the rest enter on an east-edge road hex on Game-Turn 5."""
    where = f"army.{k}"
    on = [p for p in units if not p.enter_turn]
    value = sum(charts.units[p.type].vp for p in on)
    if 2 * value < pv:
        raise DataError(
            file, where, f"{value} VP set up, less than half the PV {pv} ({rule('scenario.dorylaeum')})"
        )
    if on and 2 * (value - min(charts.units[p.type].vp for p in on)) >= pv:
        raise DataError(
            file, where, f"{value} VP set up: more than half the PV {pv} ({rule('scenario.dorylaeum')})"
        )
    for p in on:
        if hm.edge_distance(p.hex, "east") >= EAST_HEXES:
            raise DataError(
                file, where, f"{p.id} is not within 15 hexes of the east edge ({rule('scenario.dorylaeum')})"
            )
    for p in units:
        if p.enter_turn and (
            p.enter_turn != EAST_TURN or hm.edge_distance(p.hex, "east") != 0 or p.hex not in hm.road_hexes
        ):
            raise DataError(
                file,
                where,
                f"{p.id} must enter on the east road on Game-Turn 5 ({rule('scenario.dorylaeum')})",
            )
