"""A DBM 3.2 scenario file: the data set, the two orders of battle, the table, fixed terrain or
the terrain procedure, and the invader. Validated (pydantic) with errors naming file and field."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from shieldwall.core.datafiles import packaged_toml, validate
from shieldwall.core.errors import DataError
from shieldwall.rulesets.dbm.schemas import OrderOfBattle
from shieldwall.rulesets.dbm.tables import Tables, load_order_of_battle, sample_tables

SIDES = ("red", "blue")


class TerrainRect(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    kind: str
    x0: float
    y0: float
    x1: float
    y1: float


class FortRect(BaseModel):
    """A table-parallel strip of fortification held by ``side`` (ruling R40)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    x0: float
    y0: float
    x1: float
    y1: float
    side: Literal["red", "blue"]
    #: the direction the section faces (its outer edge; the inner edge is opposite): by default
    #: towards the enemy's base edge (blue: south, red: north). Sections of one side that touch
    #: with perpendicular fronts form a corner (dbm-3.2:cc.fort-corner, ruling R41).
    front: Literal["north", "south", "east", "west"] | None = None

    @model_validator(mode="after")
    def _box(self) -> FortRect:
        if self.x1 <= self.x0 or self.y1 <= self.y0:
            raise ValueError("a fortification needs x0 < x1 and y0 < y1")
        return self


class ScenarioFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    ruleset: Literal["dbm-3.2"]
    name: str = Field(min_length=1)
    description: str = ""
    data: Literal["sample"] = "sample"
    bounds: int = Field(default=20, ge=1, le=200)
    terrain_procedure: Literal["fixed", "dbm"] = "fixed"
    invader: Literal["red", "blue"] = "red"
    armies: dict[Literal["red", "blue"], str]
    terrain: list[TerrainRect] = Field(default_factory=list)
    fortifications: list[FortRect] = Field(default_factory=list)


class Scenario:
    def __init__(self, spec: ScenarioFile, tables: Tables, armies: Mapping[str, OrderOfBattle]) -> None:
        self.spec = spec
        self.tables = tables
        self.armies = dict(armies)

    @property
    def name(self) -> str:
        return self.spec.name


def distinct_ids(armies: Mapping[str, OrderOfBattle]) -> dict[str, OrderOfBattle]:
    """The two orders of battle with element ids the sides do not share (ruling R50).

    Ids name elements on the table, in orders and in events, so an id in both armies (the same
    order of battle on both sides: a mirror match, or a civil war, which the text's unreliable
    allies allow for) would let one side's element replace the other's. When the armies
    share any id, every element id of each side is prefixed with the side (``red-b-gen``,
    ``blue-b-gen``); armies whose ids are already distinct keep them unchanged."""
    ids = {side: {el.id for c in oob.commands for el in c.elements} for side, oob in armies.items()}
    if not set.intersection(*ids.values()):
        return dict(armies)
    return {
        side: oob.model_copy(
            update={
                "commands": [
                    c.model_copy(
                        update={
                            "elements": [e.model_copy(update={"id": f"{side}-{e.id}"}) for e in c.elements]
                        }
                    )
                    for c in oob.commands
                ]
            }
        )
        for side, oob in armies.items()
    }


def build_scenario(data: Mapping[str, Any], file: str) -> Scenario:
    spec = validate(ScenarioFile, dict(data), file)
    tables = sample_tables()
    armies: dict[str, OrderOfBattle] = {}
    folder = resources.files("shieldwall.rulesets.dbm") / "data" / "sample" / "armies"
    for side in SIDES:
        name = spec.armies.get(side)  # type: ignore[call-overload]
        if name is None:
            raise DataError(file, f"armies.{side}", "missing (name a sample order of battle)")
        node = packaged_toml(folder, name, file, f"armies.{side}", "order of battle")
        armies[side] = load_order_of_battle(node, f"dbm-3.2/sample/armies/{name}.toml")
        if armies[side].army_list not in tables.lists:
            raise DataError(
                file, f"armies.{side}", f"its list {armies[side].army_list!r} is not in the data set"
            )
    for side, oob in armies.items():
        if any(c.flank_march for c in oob.commands) and not tables.game.flank_arrival:
            raise DataError(
                "dbm-3.2/sample/game.toml",
                "flank_arrival",
                f"the {side} army has a flank march: give the die scores on which it arrives (ruling R38)",
            )
    for side, oob in armies.items():
        for c in oob.commands:
            for el in c.elements:
                if el.dismount is None:
                    continue
                ty = tables.troops.type
                where = f"dbm-3.2/sample/armies/{spec.armies[side]}.toml"  # type: ignore[index]
                if ty[el.code].troop_class != "mounted" or ty.get(el.dismount.code) is None:
                    raise DataError(where, f"{el.id}.dismount", "only a mounted element dismounts")
                if ty[el.dismount.code].troop_class != "foot":
                    raise DataError(where, f"{el.id}.dismount", f"{el.dismount.code} is not foot")
                if "dismount" not in tables.pips.cost:
                    raise DataError("dbm-3.2/sample/pips.toml", "cost.dismount", "missing (ruling R39)")
    if spec.fortifications and tables.game.undefended_fort is None:
        raise DataError(
            "dbm-3.2/sample/game.toml",
            "undefended_fort",
            "missing: the scenario has fortifications (an undefended section's score, ruling R41)",
        )
    for i, t in enumerate(spec.terrain):
        if t.kind not in tables.terrain.feature:
            raise DataError(file, f"terrain[{i}].kind", f"unknown terrain kind {t.kind!r}")
    return Scenario(spec, tables, distinct_ids(armies))
