"""The into-the-dark scenario schema (validated with pydantic).

A scenario gives the table, the basing, the terrain, both armies (inline in the army-file format of
``army.py``, or an ``army_file`` path relative to the scenario file; a scenario sent to the web
app may not name a file: ``core.datafiles.no_file_references``) and where each unit stands.
"If the battle is part of a campaign or scenario, the method of deployment will be determined by the
conditions of that campaign or scenario" (setup.deployment): positions come from the scenario, and
``meeting_engagement = true`` checks the meeting-engagement limits (within 1/4 of the table from the
own edge, 12" from the sides); with ``[options] deployment = "alternate"`` the sides place their
units in turn instead (the positions become suggestions), with ``concealed_deployment = true`` as
face-down cards plus each side's ``dummies`` (``card_width`` x ``card_depth`` inches). With
``command_and_control = true`` a side's ``[[red.generals]]`` table places its generals:
``{ name = "Harold", unit = "r3", leading = true, orders = "hold" }``. The ``[options]`` are the
parameters of ``params.py``.

Format::

    ruleset = "into-the-dark"
    name = "Senlac"
    turns = 12
    [table]            # inches
    width = 96
    depth = 48
    [basing]           # "Basing": the figure widths of a system; the text gives no depths
    system = "gw"      # wrg-60 | wrg-75 | gw | custom (then width_mm = {C=.., L=.., O=..})
    foot_depth_mm = 20
    mounted_depth_mm = 40
    [[terrain]]
    id = "hill"
    kind = "hill"      # see data/terrain.toml
    points = [[30, 30], [60, 30], [60, 48], [30, 48]]
    [red]
    name = "Saxons"
    home_edge = "north"
    army_file = "armies/saxon-1066.toml"     # or an inline [red.army] table
    [[red.deploy]]
    id = "r1"
    unit = "Harold's huscarls"
    x = 48             # centre of the unit's front edge
    y = 36
    heading = 180      # degrees clockwise from north (0 faces +y)
    frontage = 6       # figures in the front rank (default: the army file's)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from shieldwall.core import schema
from shieldwall.core.datafiles import file_references_allowed, read_toml, validate
from shieldwall.core.errors import DataError
from shieldwall.core.geometry import CONTACT_TOL
from shieldwall.core.limits import (
    MAX_EXTRAS,
    MAX_FEATURES,
    MAX_FIGURES,
    MAX_TABLE,
    MAX_UNITS,
    Coord,
    Heading,
    off_table,
)
from shieldwall.core.polygons import convex_penetration
from shieldwall.core.reference import REFERENCE
from shieldwall.core.terrain import TerrainMap

from .army import Army, parse_army
from .clauses import cite
from .params import PARAMETERS
from .profiles import terrain_table


class TableSpec(schema.StrictModel):
    """The playing surface in inches (setup.gaming-area): the scenario gives its size and places the
    terrain ("Unless you're recreating a battle from history ... use whatever system both players
    agree on")."""

    width: float = Field(gt=0, le=MAX_TABLE)
    depth: float = Field(gt=0, le=MAX_TABLE)


class BasingSpec(schema.StrictModel):
    system: Literal["wrg-60", "wrg-75", "gw", "custom"]
    width_mm: dict[Literal["C", "L", "O"], float] | None = None
    foot_depth_mm: float = Field(gt=0, le=200)
    mounted_depth_mm: float = Field(gt=0, le=200)


class CrossingSpec(schema.StrictModel):
    kind: Literal["bridge", "ford"]
    at: schema.Pt
    width: float = Field(gt=0, le=MAX_TABLE)


class TerrainSpec(schema.TerrainSpecBase[CrossingSpec]):
    @classmethod
    def terrain_kinds(cls) -> dict[str, Any]:
        return terrain_table().kinds


class DeploySpec(schema.StrictModel):
    id: str = Field(pattern=r"^[A-Za-z0-9_-]+$")
    unit: str
    x: Coord
    y: Coord
    heading: Heading = 0.0
    frontage: int | None = Field(default=None, ge=1, le=MAX_FIGURES)
    shieldwall: bool = False


class GeneralSpec(schema.StrictModel):
    """Where a general of the army file stands (command.generals): his figure joined to ``unit`` (a
    deploy id of his division) when ``leading``, else standing on his own - at ``x``, ``y``,
    ``heading`` when given, else just behind ``unit`` - and his first ``orders`` (command.orders)."""

    name: str
    unit: str | None = None
    leading: bool = False
    orders: Literal["attack", "hold", "fall-back"] = "attack"
    x: float | None = None
    y: float | None = None
    heading: float = 0.0


class SideSpec(schema.StrictModel):
    name: str
    home_edge: schema.HomeEdge = "south"
    army: dict[str, Any] | None = None
    army_file: str | None = None
    deploy: list[DeploySpec] = Field(min_length=1, max_length=MAX_UNITS)
    # Concealed Deployment: "agree upon using a number of 'dummy' cards that represent no unit at
    # all" - how many, and the size of one card in inches (the text gives none: the scenario does).
    generals: list[GeneralSpec] = Field(default=[], max_length=MAX_EXTRAS)
    dummies: int = Field(default=0, ge=0, le=MAX_EXTRAS)
    card_width: float | None = Field(default=None, gt=0, le=MAX_TABLE)
    card_depth: float | None = Field(default=None, gt=0, le=MAX_TABLE)


class ScenarioSpec(schema.StrictModel):
    ruleset: Literal["into-the-dark"]
    name: str
    description: str = ""
    turns: int = Field(default=12, ge=1, le=100)
    table: TableSpec
    basing: BasingSpec
    meeting_engagement: bool = False
    options: dict[str, Any] = {}
    terrain: list[TerrainSpec] = Field(default=[], max_length=MAX_FEATURES)
    red: SideSpec
    blue: SideSpec


#: Army-file options whose optional rules (Part III) are not yet implemented in play.
UNPLAYED_OPTIONS: dict[str, str] = {}


def build_scenario(data: Any, file: str) -> tuple[ScenarioSpec, dict[str, Army]]:
    """Validate a scenario mapping; returns the spec and each side's army."""
    spec = validate(ScenarioSpec, data, file)
    schema.check_options(spec.options, PARAMETERS, file)
    if spec.basing.system == "custom" and not spec.basing.width_mm:
        raise DataError(
            file,
            "basing.width_mm",
            f"a custom basing needs width_mm for C, L and O [rule {cite('troops.basing')}]",
        )
    if spec.basing.system == "custom" and set(spec.basing.width_mm or {}) != {"C", "L", "O"}:
        raise DataError(file, "basing.width_mm", "give the width of one figure for each density C, L and O")
    if spec.basing.system != "custom" and spec.basing.width_mm:
        raise DataError(file, "basing.width_mm", 'width_mm is only for system = "custom"')
    _check_terrain(spec, file)
    for side in ("red", "blue"):
        sd0: SideSpec = getattr(spec, side)
        if sd0.dummies and (sd0.card_width is None or sd0.card_depth is None):
            raise DataError(
                file,
                f"{side}.card_width",
                f"dummy cards need card_width and card_depth (inches) "
                f"[rule {cite('concealed-deployment.dummies')}]",
            )
    armies: dict[str, Army] = {}
    seen: set[str] = set()
    for side in ("red", "blue"):
        sd: SideSpec = getattr(spec, side)
        armies[side] = _side_army(sd, side, file)
        names: set[str] = set()
        for i, d in enumerate(sd.deploy):
            where = f"{side}.deploy[{i}]"
            if d.id in seen:
                raise DataError(file, f"{where}.id", f"duplicate unit id {d.id!r}")
            seen.add(d.id)
            problem = off_table(d.x, d.y, spec.table.width, spec.table.depth)
            if problem:
                raise DataError(file, f"{where}.x", f"the unit stands off the table: {problem}")
            try:
                u = armies[side].unit(d.unit)
            except KeyError:
                known = ", ".join(x.name for x in armies[side].units)
                raise DataError(
                    file, f"{where}.unit", f"no unit {d.unit!r} in the army (known: {known})"
                ) from None
            if d.unit in names:
                raise DataError(file, f"{where}.unit", f"{d.unit!r} is deployed twice")
            names.add(d.unit)
            for opt, clause in UNPLAYED_OPTIONS.items():
                if u.has(opt):  # type: ignore[arg-type]
                    raise DataError(
                        file,
                        f"{where}.unit",
                        f"{u.name} is a {opt}: that optional rule is not yet implemented in play "
                        f"[rule {cite(clause)}]; leave the unit out of the deployment",
                    )
            if d.frontage is not None and d.frontage > u.figures:
                raise DataError(
                    file,
                    f"{where}.frontage",
                    f"frontage {d.frontage} is wider than the {u.figures} figures "
                    f"[rule {cite('setup.formations')}]",
                )
            if d.shieldwall and not u.has("shieldwall"):
                raise DataError(
                    file,
                    f"{where}.shieldwall",
                    f"{u.name} may not form shieldwall [rule {cite('swat.shieldwall')}]",
                )
    for side in ("red", "blue"):
        _check_generals(getattr(spec, side), armies[side], side, file)
    return spec, armies


def _check_generals(sd: SideSpec, army: Army, side: str, file: str) -> None:
    names = {g.name: g for g in army.generals}
    ids = {d.id: d.unit for d in sd.deploy}
    for i, gs in enumerate(sd.generals):
        where = f"{side}.generals[{i}]"
        if gs.name not in names:
            raise DataError(
                file, f"{where}.name", f"no general {gs.name!r} in the army [rule {cite('command.generals')}]"
            )
        if gs.unit is None:
            continue
        if gs.unit not in ids:
            raise DataError(file, f"{where}.unit", f"no deployed unit {gs.unit!r}")
        if army.unit(ids[gs.unit]).division != names[gs.name].division:
            raise DataError(
                file,
                f"{where}.unit",
                f"{gs.unit} is not in {gs.name}'s division [rule {cite('command.divisions')}]",
            )


def with_armies_inline(data: Mapping[str, Any], file: str) -> dict[str, Any]:
    """The scenario data ``data`` (loaded from ``file``) with each side's ``army_file`` replaced by
    the army it names, inline (``army``): what a save records, so that it replays anywhere, from
    any folder (a relative ``army_file`` was looked for beside the save, not the scenario, and a
    different file of that name there would have been used). Data that names no file is returned
    as it is (a copy)."""
    out = dict(data)
    base = Path(file).parent if Path(file).exists() else Path(".")
    for side in ("red", "blue"):
        sd = out.get(side)
        if isinstance(sd, Mapping) and isinstance(sd.get("army_file"), str) and "army" not in sd:
            side_data = dict(sd)
            side_data["army"] = read_toml(base / side_data.pop("army_file"))
            out[side] = side_data
    return out


def _side_army(sd: SideSpec, side: str, file: str) -> Army:
    if (sd.army is None) == (sd.army_file is None):
        raise DataError(file, f"{side}", "give exactly one of army (inline) or army_file")
    if sd.army is not None:
        return _bounded(parse_army(sd.army, f"{file}: {side}.army"), file, f"{side}.army")
    assert sd.army_file is not None
    if not file_references_allowed():
        # the same words whatever the path: they reveal nothing about the server's files
        raise DataError(
            file,
            f"{side}.army_file",
            f"a scenario sent as data may not name a file; give the army inline as [{side}.army]",
        )
    base = Path(file).parent if Path(file).exists() else Path(".")
    path = base / sd.army_file
    return _bounded(parse_army(read_toml(path), str(path)), str(path), "army")


def _bounded(army: Army, file: str, where: str) -> Army:
    """``army``, whose units a scenario may play: at most ``MAX_FIGURES`` figures a unit (a
    scenario's bound, ``core.limits``; the odds take any size), whether the army is given inline
    or in an army file (which once played a 200-figure unit the inline army refused)."""
    for i, u in enumerate(army.units):
        if u.figures > MAX_FIGURES:
            raise DataError(file, f"{where}.units[{i}].figures", f"at most {MAX_FIGURES} figures a unit")
    return army


def _check_terrain(spec: ScenarioSpec, file: str) -> None:
    kinds = terrain_table().kinds
    seen: set[str] = set()
    for i, t in enumerate(spec.terrain):
        k = kinds[t.kind]
        schema.check_feature_id_and_points(i, t, k.linear, seen, file)
        if k.linear and t.width is None and k.width is None:
            raise DataError(file, f"terrain[{i}].width", f"give the width of the {t.kind} in inches")
        if k.width is not None and t.width is not None and t.width != k.width:
            raise DataError(
                file, f"terrain[{i}].width", f"a {t.kind} is {k.width:g} inches wide [rule {cite(k.clause)}]"
            )
        if t.crossings and t.kind not in ("deep-stream", "deep-water"):
            raise DataError(
                file, f"terrain[{i}].crossings", "only deep streams and deep water have crossings"
            )
        if t.crest and not k.elevated:
            raise DataError(file, f"terrain[{i}].crest", "only hills have a crest")
        schema.check_crossings_on_line(i, t, t.width or 0.0, "stream", file)


def terrain_map(spec: ScenarioSpec) -> TerrainMap:
    kinds = terrain_table().kinds
    feats = []
    for t in spec.terrain:
        k = kinds[t.kind]
        width = float(t.width if t.width is not None else (k.width or 0.0))
        feats.append(schema.terrain_feature(t, name=k.name, linear=k.linear, width=width))
    return TerrainMap(spec.table.width, spec.table.depth, tuple(feats))


def overlap_problem(fps: list[tuple[str, Any]]) -> str | None:
    """Two deployed units overlapping (touching is allowed): the first pair in the order of
    ``overlap_problem_reference`` (every pair in turn), found from a grid of cells wider than any two
    footprints' radii, so that only footprints in neighbouring cells are measured (two footprints
    further apart than their radii cannot overlap)."""
    if len(fps) < 2 or REFERENCE.on:
        return overlap_problem_reference(fps)
    cell = 2.0 * max(f.radius for _, f in fps) + 1.0
    grid: dict[tuple[int, int], list[int]] = {}
    keys = []
    for i, (_, f) in enumerate(fps):
        try:
            key = (math.floor(f.x / cell), math.floor(f.y / cell))
        except (ValueError, OverflowError):  # not a finite position: every pair is measured
            return overlap_problem_reference(fps)
        keys.append(key)
        grid.setdefault(key, []).append(i)
    first: tuple[int, int] | None = None
    for i, (_, fa) in enumerate(fps):
        kx, ky = keys[i]
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for j in grid.get((kx + dx, ky + dy), ()):
                    if j <= i or (first is not None and (i, j) >= first):
                        continue
                    if convex_penetration(fa.corners(), fps[j][1].corners()) > CONTACT_TOL:
                        first = (i, j)
        if first is not None and first[0] == i:
            break
    return None if first is None else f"{fps[first[0]][0]} and {fps[first[1]][0]} overlap"


def overlap_problem_reference(fps: list[tuple[str, Any]]) -> str | None:
    """What ``overlap_problem`` answered before its grid: every pair measured."""
    for i, (a, fa) in enumerate(fps):
        for b, fb in fps[i + 1 :]:
            if convex_penetration(fa.corners(), fb.corners()) > CONTACT_TOL:
                return f"{a} and {b} overlap"
    return None


def zone_problem(t: Any, edge: str, corners: Any, scale: str) -> str | None:
    """ "You may deploy no further in than 1/4 of the table width ... and no closer than 12" from
    the side edges" (setup.deployment). The quarter is of the table across from the own edge."""
    # into-the-dark:setup.deployment.zone
    side_gap = 12.0 * (0.5 if scale == "15mm" else 1.0)
    for x, y in corners:
        if edge in ("south", "north"):
            deep = y if edge == "south" else t.depth - y
            lim, lateral = t.depth / 4.0, min(x, t.width - x)
        else:
            deep = x if edge == "west" else t.width - x
            lim, lateral = t.width / 4.0, min(y, t.depth - y)
        if deep > lim + 1e-6:
            return "is deployed further in than 1/4 of the table"
        if lateral < side_gap - 1e-6:
            return 'is closer than 12" to a side edge'
        if deep < -1e-6 or lateral < -1e-6:
            return "does not stand on the table"
    return None
