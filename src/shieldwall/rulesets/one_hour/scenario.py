"""The one-hour-dark-ages scenario schema (validated with pydantic; no file I/O here).

A scenario gives the table, terrain, both armies with their deployment, the optional rules in
force and the turn limit. ``build_scenario(data, file)`` validates a parsed TOML mapping and
checks the army-list rules (personality counts, upgrades, allies, variable quality); every
error is a ``DataError`` naming the file, the field and the reason.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field, field_validator

from shieldwall.core import schema
from shieldwall.core.datafiles import validate
from shieldwall.core.errors import DataError
from shieldwall.core.limits import (
    MAX_EXTRAS,
    MAX_FEATURES,
    MAX_TABLE,
    MAX_TEXT,
    MAX_UNITS,
    Coord,
    Heading,
)
from shieldwall.core.terrain import TerrainMap
from shieldwall.rulesets.one_hour.params import PARAMETERS, range_problem
from shieldwall.rulesets.one_hour.profiles import terrain_effects, unit_profiles


class _Strict(schema.StrictModel):
    # every number finite: TOML can say inf and nan, and no distance, heading or size is either
    model_config = ConfigDict(allow_inf_nan=False)


class TableSpec(_Strict):
    width: float = Field(default=48.0, gt=0, le=MAX_TABLE)
    depth: float = Field(default=36.0, gt=0, le=MAX_TABLE)


class CrossingSpec(_Strict):
    kind: Literal["bridge", "ford", "shallows"]
    at: schema.Pt
    width: float = Field(default=4.0, gt=0, le=MAX_TABLE)


class TerrainSpec(schema.TerrainSpecBase[CrossingSpec], _Strict):
    width: float = Field(default=2.0, gt=0, le=MAX_TABLE)

    @classmethod
    def terrain_kinds(cls) -> dict[str, Any]:
        return terrain_effects()


class UnitSpec(_Strict):
    id: str = Field(pattern=r"^[A-Za-z0-9_-]+$")
    type: str
    name: str = Field(default="", max_length=MAX_TEXT)
    x: Coord
    y: Coord
    heading: Heading = 0.0
    frontage: float = 5.0  # "Figures & Basing": 4-6 inch frontage per Unit
    depth: float = Field(default=2.0, gt=0, le=6)  # "no prescribed depth" (kept within reason)
    upgrade: Literal["", "household", "determined", "levy", "reluctant"] = ""
    quality: Literal["", "elite", "levy"] = ""
    allied: bool = False
    fixed: bool = False  # "Units in italics may not be changed"

    @field_validator("frontage")
    @classmethod
    def _basing(cls, v: float) -> float:
        if not 4.0 <= v <= 6.0:
            raise ValueError(f"figures-basing: a Unit has a 4-6 inch frontage, not {v:g}")
        return v

    @field_validator("type")
    @classmethod
    def _known_type(cls, v: str) -> str:
        return schema.known_name(v, unit_profiles(), "unit type")


class PersonalitySpec(_Strict):
    id: str
    kind: Literal["hero", "leader", "priest"]
    banner: bool = False
    unit: str
    allied: bool = False


class ZoneSpec(_Strict):
    """A side's deployment zone (ruling R50, ``deployment.zone``): a rectangle of the table."""

    x0: Coord
    y0: Coord
    x1: Coord
    y1: Coord


class SideSpec(_Strict):
    name: str
    army_list: str = ""
    ally_list: str = ""
    home_edge: schema.HomeEdge = "south"
    force_morale_bonus: int = Field(default=0, ge=-3, le=3)
    #: where the side places its units with ``hand_deployment`` (ruling R50); none: derived
    deploy_zone: ZoneSpec | None = None
    units: list[UnitSpec] = Field(min_length=1, max_length=MAX_UNITS)
    personalities: list[PersonalitySpec] = Field(default=[], max_length=MAX_EXTRAS)


class ScenarioSpec(_Strict):
    ruleset: Literal["one-hour-dark-ages"]
    name: str
    description: str = ""
    attacker: Literal["red", "blue", "roll-off"] = "red"
    turns: int = Field(default=15, ge=1, le=100)
    table: TableSpec = TableSpec()
    options: dict[str, Any] = {}
    terrain: list[TerrainSpec] = Field(default=[], max_length=MAX_FEATURES)
    red: SideSpec
    blue: SideSpec


def build_scenario(data: Any, file: str) -> ScenarioSpec:
    spec = validate(ScenarioSpec, data, file)
    schema.check_options(spec.options, PARAMETERS, file, int_as_float=True, range_problem=range_problem)
    _check_ids(spec, file)
    for side in ("red", "blue"):
        _check_army(spec, side, file)
        _check_zone(spec, side, file)
    return spec


def _check_zone(spec: ScenarioSpec, side: str, file: str) -> None:
    """A deployment zone (ruling R50) is a rectangle of some size within the table."""
    z = getattr(spec, side).deploy_zone
    if z is None:
        return
    where = f"{side}.deploy_zone"
    if not (z.x0 < z.x1 and z.y0 < z.y1):
        raise DataError(file, where, "deployment.zone: needs x0 < x1 and y0 < y1")
    t = spec.table
    if z.x0 < 0 or z.y0 < 0 or z.x1 > t.width or z.y1 > t.depth:
        raise DataError(
            file, where, f"deployment.zone: the zone must lie within the {t.width:g} x {t.depth:g} table"
        )
    # room for each of the side's units facing away from its home edge (a zone too small for one
    # would leave that unit nowhere to go)
    sd = getattr(spec, side)
    along, across = (z.x1 - z.x0, z.y1 - z.y0)
    if sd.home_edge in ("west", "east"):
        along, across = across, along
    for i, u in enumerate(sd.units):
        if u.frontage > along + 1e-9 or u.depth > across + 1e-9:
            raise DataError(
                file,
                where,
                f"deployment.zone: {along:g} x {across:g} has no room for {side}.units[{i}] ({u.id}, "
                f"{u.frontage:g} wide and {u.depth:g} deep)",
            )


def _check_ids(spec: ScenarioSpec, file: str) -> None:
    seen: set[str] = set()
    for side in ("red", "blue"):
        for i, u in enumerate(getattr(spec, side).units):
            if u.id in seen:
                raise DataError(file, f"{side}.units[{i}].id", f"duplicate unit id {u.id!r}")
            seen.add(u.id)
    tseen: set[str] = set()
    for i, t in enumerate(spec.terrain):
        schema.check_feature_id_and_points(i, t, terrain_effects()[t.kind].linear, tseen, file)
        if t.crossings and t.kind != "river":
            raise DataError(file, f"terrain[{i}].crossings", "only rivers have crossings")
        if t.crest and t.kind != "hill":
            raise DataError(file, f"terrain[{i}].crest", "only hills have a crest")
        schema.check_crossings_on_line(i, t, t.width, "river", file)


#: "Mounted Servants" and the types that are "Arthur's cavalry" ("Ideas for Unit Types")
SERVANTS = "mounted-servants"
ARTHURS = ("arthurs-cavalry", "roundtable-knights")


def _check_army(spec: ScenarioSpec, side: str, file: str) -> None:
    s: SideSpec = getattr(spec, side)
    opts = spec.options
    ids = {u.id: u for u in s.units}
    prof = unit_profiles()
    # Variable Quality: "For each army of six Units, allow one Unit to be Elite, but one must be Levy"
    elites = [i for i, u in enumerate(s.units) if u.quality == "elite"]
    levies = [i for i, u in enumerate(s.units) if u.quality == "levy"]
    if (elites or levies) and not opts.get("variable_quality", False):
        i = (elites + levies)[0]
        raise DataError(file, f"{side}.units[{i}].quality", "quality needs options.variable_quality = true")
    allowed = max(1, len(s.units) // 6) if s.units else 0
    if len(elites) > allowed:
        raise DataError(
            file,
            f"{side}.units[{elites[-1]}].quality",
            f"variable-quality: at most {allowed} Elite unit(s) for {len(s.units)} units",
        )
    if len(elites) != len(levies):
        i = (elites + levies)[-1]
        raise DataError(
            file,
            f"{side}.units[{i}].quality",
            "variable-quality: each Elite unit must be balanced by one Levy unit",
        )
    # Variations for all armies: one upgrade and then one downgrade, one change per unit, within +-2.
    # "Mounted Servants ... If Arthur's cavalry is in play, they may also be upgraded. In this case,
    # a second Unit must be downgraded." (ruling R46): an upgrade of their own, beside the list's one,
    # only with Arthur's Cavalry (or Roundtable Knights) in the same army, each bringing a downgrade.
    upped = [i for i, u in enumerate(s.units) if u.upgrade in ("household", "determined")]
    servants = [i for i in upped if s.units[i].type == SERVANTS]
    ups = [i for i in upped if i not in servants]
    downs = [i for i, u in enumerate(s.units) if u.upgrade in ("levy", "reluctant")]
    if (upped or downs) and not opts.get("upgrades", False):
        raise DataError(
            file, f"{side}.units[{(upped + downs)[0]}].upgrade", "upgrades need options.upgrades = true"
        )
    if servants and not any(u.type in ARTHURS for u in s.units):
        raise DataError(
            file,
            f"{side}.units[{servants[0]}].upgrade",
            "ideas-for-unit-types.mounted-servants.upgrade: Mounted Servants may be upgraded only "
            "if Arthur's cavalry is in play (in the same army)",
        )
    if len(ups) > 1:
        raise DataError(
            file, f"{side}.units[{ups[1]}].upgrade", "army-lists.variations: only ONE upgrade per list"
        )
    if len(downs) > 1 + len(servants):
        raise DataError(
            file,
            f"{side}.units[{downs[1 + len(servants)]}].upgrade",
            "army-lists.variations: only one downgrade"
            + (" (and one for each upgraded Mounted Servants unit)" if servants else ""),
        )
    if ups and not downs:
        raise DataError(
            file,
            f"{side}.units[{ups[0]}].upgrade",
            "army-lists.variations: a list that selects an upgrade MUST also select a downgrade",
        )
    if servants and len(downs) < len(ups) + len(servants):
        raise DataError(
            file,
            f"{side}.units[{servants[0]}].upgrade",
            "ideas-for-unit-types.mounted-servants.upgrade: upgraded Mounted Servants need a second "
            "Unit downgraded (beside the list's own downgrade)",
        )
    for i, u in enumerate(s.units):
        p = prof[u.type]
        if p.chosen_from is not None:
            raise DataError(
                file,
                f"{side}.units[{i}].type",
                f"ideas-for-unit-types.viking-veterans: {u.type!r} is chosen after deployment; "
                f"deploy the unit as {p.chosen_from!r}",
            )
        if u.upgrade and u.fixed:
            raise DataError(
                file,
                f"{side}.units[{i}].upgrade",
                "army-lists.variations: this unit is fixed (italic) and may not be changed",
            )
        if u.upgrade and u.quality:
            raise DataError(
                file, f"{side}.units[{i}]", "army-lists.variations: units may only get one change"
            )
        delta = {"household": 1, "levy": -1}.get(u.upgrade, 0)
        base = (
            p.melee
            if p.melee_param is None
            else int(spec.options.get(p.melee_param, PARAMETERS[p.melee_param].default))
        )
        for what, val in (("melee", base), ("shooting", p.shoot)):
            if val is None or not delta:
                continue
            if val + delta > 2 or val + delta < -2:
                raise DataError(
                    file,
                    f"{side}.units[{i}].upgrade",
                    f"army-lists.variations: {what} attack would be {val + delta:+d}; units cannot "
                    "be upgraded past +2 or downgraded past -2",
                )
    # Allied forces: 1-3 units from another list.
    allied = [i for i, u in enumerate(s.units) if u.allied]
    if allied and not opts.get("allies", False):
        raise DataError(file, f"{side}.units[{allied[0]}].allied", "allied units need options.allies = true")
    if len(allied) > 3:
        raise DataError(
            file, f"{side}.units[{allied[3]}].allied", "army-lists.allies: 1-3 allied units at most"
        )
    # Personalities: one per three units; a banner counts as one of the permitted personalities.
    if s.personalities and not opts.get("personalities", False):
        raise DataError(file, f"{side}.personalities", "personalities need options.personalities = true")
    limit = len(s.units) // 3
    used = 0
    for j, pz in enumerate(s.personalities):
        used += 2 if pz.banner else 1
        if pz.unit not in ids:
            raise DataError(file, f"{side}.personalities[{j}].unit", f"no unit {pz.unit!r} in this army")
        if pz.banner and pz.kind == "priest":
            raise DataError(
                file, f"{side}.personalities[{j}].banner", "a banner upgrades a hero or a leader only"
            )
        if pz.allied != ids[pz.unit].allied:
            raise DataError(
                file,
                f"{side}.personalities[{j}].unit",
                "army-lists.allies.own-list: personalities may only attach to units of their own list",
            )
        if pz.allied and len(allied) != 3:
            raise DataError(
                file,
                f"{side}.personalities[{j}].allied",
                "army-lists.allies.personality: only a 3-unit allied force may take a personality",
            )
    if used > limit:
        raise DataError(
            file,
            f"{side}.personalities",
            f"personalities: {used} personality choices (a banner counts as one) but only one per "
            f"three units is allowed ({limit} for {len(s.units)} units)",
        )


def terrain_map(spec: ScenarioSpec) -> TerrainMap:
    eff = terrain_effects()
    feats = [
        schema.terrain_feature(t, name=t.kind, linear=eff[t.kind].linear, width=t.width) for t in spec.terrain
    ]
    return TerrainMap(spec.table.width, spec.table.depth, tuple(feats))
