"""Unit profiles and terrain effects for one-hour-dark-ages, loaded from validated data files."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from shieldwall.core.datafiles import read_toml, validate_table

DATA = Path(__file__).parent / "data"

Category = Literal["infantry", "warband", "cavalry", "skirmishers"]


class UnitProfile(BaseModel):
    """One unit type ("Units", "Unit Definitions")."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    category: Category
    move_class: int = Field(ge=1, le=3)
    melee: int = Field(ge=-3, le=3)
    melee_param: str | None = None
    missile: Literal["bow", "javelin"] | None = None
    shoot: int | None = Field(default=None, ge=-3, le=3)
    hits: int | None = Field(default=None, ge=1)
    shieldwall: bool = False
    rough_terrain: bool = False
    interpenetrate: bool = False
    #: the types the owner chooses between after deployment (Viking Veterans: Infantry OR Warriors);
    #: until then the unit stands with this profile
    fight_as: tuple[str, ...] = ()
    #: set on a type that is only ever chosen (``fight_as``) after deployment, never deployed as such
    chosen_from: str | None = None
    clause: str

    @property
    def turns(self) -> int:
        """Turns allowed per move ("Turning" 1 and 2)."""
        return 2 if self.category in ("skirmishers", "cavalry") else 1


class TerrainEffect(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    linear: bool
    enter: Literal["all", "rough", "none", "crossings"]
    melee_defence: Literal["", "inside", "behind", "uphill"]
    shoot_defence: Literal["", "inside", "behind", "uphill"]
    blocks_sight: Literal["", "through", "over"]
    clause: str


@cache
def unit_profiles() -> dict[str, UnitProfile]:
    path = DATA / "units.toml"
    return validate_table(UnitProfile, read_toml(path), str(path))


@cache
def terrain_effects() -> dict[str, TerrainEffect]:
    path = DATA / "terrain.toml"
    return validate_table(TerrainEffect, read_toml(path), str(path))
