"""Knight Hack army files and their points (``shieldwall kh-army cost FILE``).

"Armies are bought with points by figures, armour type and morale" (the book's description); the
errata's one cost rule is Clarification 2's: a unit's cost per figure by type and class. A unit
costs cost-per-figure x figures; its morale level adds its type's base cost
(``knight-hack:morale.level``). The army's ``points_limit``, when given, is a ceiling: a total equal
to it is within the limit, one point more is over (ruling R28).

An army file (TOML)::

    ruleset = "knight-hack"                  # optional
    name = "Royal household, 1124"
    provenance = "illustrative-sample"      # or "user" / "published"
    source = "..."
    data = "sample"                          # the data set: "sample" or a folder relative to this file
    points_limit = 150                       # optional

    [[unit]]
    id = "household-knights"
    name = "Household knights (dismounted)"  # optional
    type = "heavy-infantry"
    class = "C"
    figures = 12
    frontage = 6                             # figures in the front rank, 1..figures
    weapons = ["spear"]
    fanatic = false
    ambush = false
    leader = false                           # a leader is with the unit
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, model_validator

from shieldwall.core.datafiles import file_references_allowed, read_toml, validate
from shieldwall.core.errors import DataError
from shieldwall.core.limits import MAX_EXTRAS, MAX_FIGURES, MAX_TEXT
from shieldwall.rulesets.knight_hack.clauses import RS
from shieldwall.rulesets.knight_hack.morale import basic_morale_level
from shieldwall.rulesets.knight_hack.schemas import Provenance
from shieldwall.rulesets.knight_hack.tables import Tables, load_tables, sample_tables


class ArmyUnit(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    id: str = Field(min_length=1, max_length=MAX_TEXT)
    name: str | None = Field(default=None, max_length=MAX_TEXT)
    type: str = Field(max_length=MAX_TEXT)
    unit_class: str = Field(alias="class", max_length=MAX_TEXT)
    #: counts and flags are strict: ``figures = true`` or ``12.0`` is refused for its type, never
    #: read as 1 or 12
    figures: StrictInt = Field(ge=1, le=MAX_FIGURES)
    frontage: StrictInt = Field(ge=1, le=MAX_FIGURES)
    weapons: list[str] = Field(default_factory=list, max_length=MAX_EXTRAS)
    fanatic: StrictBool = False
    ambush: StrictBool = False
    leader: StrictBool = False

    @model_validator(mode="after")
    def _frontage(self) -> ArmyUnit:
        if self.frontage > self.figures:
            raise ValueError(f"frontage {self.frontage} is more than the unit's {self.figures} figures")
        return self

    @property
    def label(self) -> str:
        return self.name or self.id


class _ArmyFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    #: which rule system the file is for (lets a generic ``army cost`` dispatch on the file)
    ruleset: Literal["knight-hack"] = "knight-hack"
    name: str = Field(min_length=1)
    provenance: Provenance
    source: str = Field(min_length=1)
    data: str = "sample"
    points_limit: StrictInt | None = Field(default=None, ge=1)
    unit: list[ArmyUnit] = Field(min_length=1)


@dataclass(frozen=True)
class Army:
    name: str
    file: str
    provenance: str
    points_limit: int | None
    units: tuple[ArmyUnit, ...]
    tables: Tables


def check_units(
    units: list[ArmyUnit] | tuple[ArmyUnit, ...], tables: Tables, file: str, key: str = "unit"
) -> None:
    """Every unit's type, class and weapons exist in the data set; ids are unique."""
    seen: set[str] = set()
    for i, u in enumerate(units):
        where = f"{key}[{i}]"
        if u.id in seen:
            raise DataError(file, f"{where}.id", f"unit id {u.id!r} is given twice")
        seen.add(u.id)
        if u.type not in tables.types:
            raise DataError(
                file, f"{where}.type", f"unknown type {u.type!r}; the data set has: {', '.join(tables.types)}"
            )
        if u.unit_class not in tables.classes.unit_class:
            raise DataError(
                file,
                f"{where}.class",
                f"unknown class {u.unit_class!r}; the classes are: {', '.join(tables.classes.order)}",
            )
        for j, w in enumerate(u.weapons):
            if w not in tables.weapons:
                raise DataError(
                    file,
                    f"{where}.weapons[{j}]",
                    f"unknown weapon {w!r}; the data set has: {', '.join(tables.weapons)}",
                )


def tables_for(data: str, base: Path) -> Tables:
    """The data set an army or scenario file names: ``"sample"`` or a folder relative to ``base``."""
    if data == "sample":
        return sample_tables()
    folder = (base / data).resolve()
    return load_tables(folder, str(folder))


def load_army(path: str | Path) -> Army:
    p = Path(path)
    raw: dict[str, Any] = read_toml(p)
    f = validate(_ArmyFile, raw, str(p))
    if f.data != "sample" and not file_references_allowed():
        # the same words whatever the folder: an army sent to the web app reveals nothing of the server
        raise DataError(str(p), "data", 'an army sent as data may not name a folder; use data = "sample"')
    tables = tables_for(f.data, p.parent)
    check_units(f.unit, tables, str(p))
    return Army(f.name, str(p), f.provenance, f.points_limit, tuple(f.unit), tables)


@dataclass(frozen=True, slots=True)
class CostRow:
    id: str
    name: str
    type: str
    cls: str
    figures: int
    cost_per_figure: int
    points: int
    base_cost: int
    morale_level: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "type": self.type,
            "class": self.cls,
            "figures": self.figures,
            "cost_per_figure": self.cost_per_figure,
            "points": self.points,
            "base_cost": self.base_cost,
            "morale_level": self.morale_level,
        }


LimitStatus = Literal["none", "within", "over"]


@dataclass(frozen=True, slots=True)
class ArmyCost:
    name: str
    rows: tuple[CostRow, ...]
    total: int
    points_limit: int | None
    label: str | None

    @property
    def status(self) -> LimitStatus:
        if self.points_limit is None:
            return "none"
        return "within" if self.total <= self.points_limit else "over"

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": RS,
            "name": self.name,
            "units": [r.to_dict() for r in self.rows],
            "total": self.total,
            "points_limit": self.points_limit,
            "limit": self.status,
            "tables": self.label or "user tables",
        }


def army_cost(army: Army) -> ArmyCost:
    """Each unit's points (cost per figure x figures) and basic morale level, and the total."""
    rows = []
    for u in army.units:
        t = army.tables.types[u.type]
        cpf = t.cost_per_figure[u.unit_class]
        rows.append(
            CostRow(
                u.id,
                u.label,
                u.type,
                u.unit_class,
                u.figures,
                cpf,
                cpf * u.figures,
                t.base_cost,
                basic_morale_level(army.tables, u.type, u.unit_class, u.figures),
            )
        )
    return ArmyCost(army.name, tuple(rows), sum(r.points for r in rows), army.points_limit, army.tables.label)


def check_limit(army: Army, cost: ArmyCost) -> None:
    """``DataError`` naming the file and ``points_limit`` when the army is over its limit."""
    if cost.status == "over":
        raise DataError(
            army.file,
            "points_limit",
            f"the army costs {cost.total} points, over its limit of {cost.points_limit}",
        )
