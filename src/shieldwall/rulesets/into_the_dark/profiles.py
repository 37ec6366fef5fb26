"""The tables of Into the Dark, loaded from validated data files (``data/*.toml``).

Every number the rules use lives in a data file next to a ``clause`` (the section of the text it
comes from, see ``clauses.CLAUSES``) and usually the words of the text. Nothing here invents a value:
where the text gives none (base depths, for example) there is no field.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from shieldwall.core.datafiles import read_toml, validate
from shieldwall.core.dice import D6, Dist, pool
from shieldwall.core.errors import DataError

from .clauses import CLAUSES, cite

DATA = Path(__file__).parent / "data"

Density = Literal["C", "L", "O"]
Category = Literal["F", "M"]
ArmourLetter = Literal["U", "P", "A", "M", "E"]
Role = Literal["melee", "missile", "cross-trained"]
QualityName = Literal["peasant", "levy", "average", "elite", "fanatic"]
WeaponKey = Literal["foot-bow", "mounted-bow", "sling", "javelin", "longbow", "heavy-crossbow"]

QUALITY_NAMES: tuple[QualityName, ...] = ("peasant", "levy", "average", "elite", "fanatic")
ARMOUR_LETTERS: tuple[ArmourLetter, ...] = ("U", "P", "A", "M", "E")
DENSITIES: tuple[Density, ...] = ("C", "L", "O")
CATEGORIES: tuple[Category, ...] = ("F", "M")
ROLES: tuple[Role, ...] = ("melee", "missile", "cross-trained")
WEAPON_KEYS: tuple[WeaponKey, ...] = (
    "foot-bow",
    "mounted-bow",
    "sling",
    "javelin",
    "longbow",
    "heavy-crossbow",
)


def _require(table: Collection[str], keys: Iterable[str], name: str) -> None:
    missing = [k for k in keys if k not in table]
    if missing:
        raise ValueError(f"{name} is missing {', '.join(missing)}")


class _Row(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    clause: str

    @model_validator(mode="after")
    def _known_clause(self) -> _Row:
        if self.clause not in CLAUSES:
            raise ValueError(f"unknown clause {self.clause!r} (see clauses.py)")
        return self

    @property
    def rule(self) -> str:
        return cite(self.clause)


class QualityLevel(_Row):
    """A Troop Quality Level ("Troop Quality", "Morale Levels", "Peasants")."""

    level: int = Field(ge=1, le=5)
    morale: str
    text: str


class ArmourClass(_Row):
    """An armour class ("Armour" for the to-hit number, "Troop Types: 2) Armour" for the cost)."""

    name: str
    hit_on: int = Field(ge=2, le=7)
    cost: int = Field(ge=0)
    cost_clause: str
    text: str


class Named(_Row):
    name: str
    text: str


class Costed(_Row):
    name: str
    cost_multiplier: int = Field(ge=1)
    text: str


class TroopTypes(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    density: dict[Density, Named]
    category: dict[Category, Costed]
    role: dict[Role, Costed]

    @model_validator(mode="after")
    def _complete(self) -> TroopTypes:
        _require(self.density, DENSITIES, "density")
        _require(self.category, CATEGORIES, "category")
        _require(self.role, ROLES, "role")
        return self


class MoveRow(_Row):
    move: int = Field(ge=0)
    rout_dice: int = Field(ge=0)


class ShieldwallMove(_Row):
    move: int = Field(ge=0)
    text: str


MoveKey = Literal["CF", "LF", "OF", "CM", "LM", "OM"]
_MOVE_KEYS: dict[tuple[Density, Category], MoveKey] = {
    ("C", "F"): "CF",
    ("L", "F"): "LF",
    ("O", "F"): "OF",
    ("C", "M"): "CM",
    ("L", "M"): "LM",
    ("O", "M"): "OM",
}


class MovementTable(BaseModel):
    """ "Distances" (inches for 25mm figures) and its encased limit."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    types: dict[MoveKey, MoveRow]
    encased: dict[Category, MoveRow]
    shieldwall: ShieldwallMove

    @model_validator(mode="after")
    def _complete(self) -> MovementTable:
        _require(self.types, _MOVE_KEYS.values(), "types")
        _require(self.encased, CATEGORIES, "encased")
        return self


class WrgBasing(_Row):
    name: str
    base_widths_mm: list[int]
    figures_per_base: dict[Density, int]
    text: str

    @model_validator(mode="after")
    def _complete(self) -> WrgBasing:
        _require(self.figures_per_base, DENSITIES, "figures_per_base")
        return self


class GwBasing(_Row):
    name: str
    width_per_figure_mm: dict[Density, int]
    text: str

    @model_validator(mode="after")
    def _complete(self) -> GwBasing:
        _require(self.width_per_figure_mm, DENSITIES, "width_per_figure_mm")
        return self


class Basing(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    wrg: WrgBasing
    gw: GwBasing


class MissileWeapon(_Row):
    """A missile weapon ("Missile Weapons", "Longbow", "Crossbow")."""

    name: str
    close: int = Field(ge=0)
    long: int | None = Field(default=None, ge=0)
    close_bonus: int
    category: Literal["F", "M", "FM"]
    shields: Literal["bow", "always"]
    move_and_fire: bool
    text: str


class CostFactor(_Row):
    value: Fraction
    kind: Literal["multiplier", "per-figure", "per-quality-level", "per-rating-level"]
    text: str


class Costs(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    longbow: CostFactor
    pike: CostFactor
    shieldwall: CostFactor
    command: CostFactor
    champion: CostFactor
    general: CostFactor


class Rating(_Row):
    rating: int = Field(ge=1)


class GeneralRules(_Row):
    code_mounted: str
    code_foot: str
    hits: int = Field(ge=1)
    dice_at_general: int = Field(ge=0)
    order_radius: int = Field(ge=0)
    text: str


class NewOrdersRules(_Row):
    range: int = Field(ge=0)
    text: str


class Command(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ratings: dict[Literal["poor", "average", "good"], Rating]
    general: GeneralRules
    new_orders: NewOrdersRules

    @model_validator(mode="after")
    def _complete(self) -> Command:
        _require(self.ratings, ("poor", "average", "good"), "ratings")
        return self


class ChampionRules(_Row):
    density: Density
    figures: int = Field(ge=1)
    hits_foot: int = Field(ge=1)
    hits_mounted: int = Field(ge=1)
    dice: int = Field(ge=0)
    dice_wounded: int = Field(ge=0)
    dice_at_champion: int = Field(ge=0)
    text: str


class Special(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    champion: ChampionRules


class DiceRules(_Row):
    figures_per_die: int = Field(ge=1)
    long_range_figures_per_die: int = Field(ge=1)
    doubled_figures_per_die: int = Field(ge=1)
    both_doubled_figures_per_die: int = Field(ge=1)
    bonus_round_figures_per_die: int = Field(ge=1)
    text: str


class RankRules(_Row):
    ranks: int = Field(ge=1)
    pike_ranks: int = Field(ge=1)
    disordered_melee_ranks: int = Field(ge=1)
    text: str


class NaturalRules(_Row):
    always_miss: int = Field(ge=1, le=6)
    always_hit: int = Field(ge=1, le=6)
    text: str


class Modifier(_Row):
    value: int
    text: str


class MissileModifiers(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    target_open_foot: Modifier
    target_loose_foot_or_open_mounted: Modifier
    target_shieldless_or_rear: Modifier
    light_cover: Modifier
    heavy_cover: Modifier
    longbow_close: Modifier
    heavy_crossbow_close: Modifier


class MeleeModifiers(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    charging: Modifier
    steady_fanatic: Modifier
    peasant_or_missile: Modifier
    enemy_shieldless: Modifier
    enemy_uphill: Modifier
    enemy_obstacle: Modifier
    polearm: Modifier
    enemy_shieldwall_front: Modifier


class CombatTables(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    dice: DiceRules
    ranks: RankRules
    natural: NaturalRules
    missile: MissileModifiers
    melee: MeleeModifiers


class CasualtyModifier(Modifier):
    per_fraction: Fraction = Field(gt=0, le=1)


class MoraleModifiers(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    shaken: Modifier
    disordered: Modifier
    casualties: CasualtyModifier
    flanked: Modifier
    outnumber: Modifier
    long_range_only: Modifier
    fewer_firers: Modifier
    deeper_ranks: Modifier
    supported: Modifier
    friends_routing: Modifier
    unsupported: Modifier
    uphill: Modifier
    in_cover: Modifier
    shieldwall: Modifier


class ResultRow(_Row):
    max_over: int | None = None
    text: str


class MoraleResults(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    passed: ResultRow
    shaken: ResultRow
    driven_back: ResultRow
    routed: ResultRow

    @model_validator(mode="after")
    def _ordered(self) -> MoraleResults:
        bounds = [self.passed.max_over, self.shaken.max_over, self.driven_back.max_over]
        known = [b for b in bounds if b is not None]
        if len(known) != 3 or known != sorted(set(known)) or self.routed.max_over is not None:
            raise ValueError("passed/shaken/driven_back need increasing max_over; routed has none")
        return self


class MoraleTables(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    modifiers: MoraleModifiers
    results: MoraleResults


_DENSITY: dict[str, Density] = {d: d for d in DENSITIES}
_ARMOUR: dict[str, ArmourLetter] = {a: a for a in ARMOUR_LETTERS}
_CATEGORY: dict[str, Category] = {c: c for c in CATEGORIES}


@cache
def parse_code(code: str) -> tuple[Density, ArmourLetter, Category]:
    """Split a three-letter unit code ("Troop Types"): density, armour, foot/mounted."""
    if len(code) != 3 or code[0] not in _DENSITY or code[1] not in _ARMOUR or code[2] not in _CATEGORY:
        raise ValueError(f"unit code {code!r} must be density C/L/O + armour U/P/A/M/E + F/M")
    return _DENSITY[code[0]], _ARMOUR[code[1]], _CATEGORY[code[2]]


M = TypeVar("M", bound=BaseModel)


def _load(model: type[M], name: str) -> M:
    path = DATA / name
    return validate(model, read_toml(path), str(path))


def _load_keyed(model: type[M], name: str, keys: tuple[str, ...]) -> dict[str, M]:
    path = DATA / name
    raw: dict[str, Any] = read_toml(path)
    if set(raw) != set(keys):
        raise DataError(str(path), "", f"expected exactly the tables {', '.join(keys)}; got {', '.join(raw)}")
    return {k: validate(model, raw[k], str(path), k) for k in keys}


@cache
def qualities() -> dict[str, QualityLevel]:
    """Troop quality levels by name (peasant 1 .. fanatic 5)."""
    out = _load_keyed(QualityLevel, "quality.toml", QUALITY_NAMES)
    levels = [out[k].level for k in QUALITY_NAMES]
    if levels != [1, 2, 3, 4, 5]:
        raise DataError(str(DATA / "quality.toml"), "", "levels must be peasant 1 .. fanatic 5")
    return out


@cache
def armour_classes() -> dict[str, ArmourClass]:
    """Armour classes by letter U/P/A/M/E."""
    return _load_keyed(ArmourClass, "armour.toml", ARMOUR_LETTERS)


@cache
def troop_types() -> TroopTypes:
    return _load(TroopTypes, "troop_types.toml")


@cache
def movement_table() -> MovementTable:
    return _load(MovementTable, "movement.toml")


@cache
def basing() -> Basing:
    return _load(Basing, "basing.toml")


@cache
def missile_weapons() -> dict[str, MissileWeapon]:
    """Missile weapons by key (foot-bow, mounted-bow, sling, javelin, longbow, heavy-crossbow)."""
    return _load_keyed(MissileWeapon, "missile_weapons.toml", WEAPON_KEYS)


@cache
def costs() -> Costs:
    return _load(Costs, "costs.toml")


@cache
def command() -> Command:
    return _load(Command, "command.toml")


@cache
def special() -> Special:
    return _load(Special, "special.toml")


@cache
def combat_tables() -> CombatTables:
    return _load(CombatTables, "combat.toml")


@cache
def morale_tables() -> MoraleTables:
    return _load(MoraleTables, "morale.toml")


class TerrainKind(_Row):
    """One kind of terrain ("Terrain": Disordering Terrain, Restrictive Terrain, Roads)."""

    name: str
    linear: bool
    move: Literal["open", "disordering", "restrictive", "impassable", "road"]
    foot_factor: int = Field(ge=0)
    mounted_factor: int = Field(ge=0)
    disorders: Literal["none", "close-foot-and-mounted", "foot", "all"]
    cover: Literal["none", "light", "heavy"]
    obstacle: bool
    sight: Literal["no", "through", "over"]
    elevated: bool
    width: float | None = Field(default=None, gt=0)
    #: A linear cover (fence, wall): a target this close behind it (inches) is "in cover" - the
    #: text gives no distance, the data file does (docs/rulings 46). 0 for other kinds.
    cover_reach: float = Field(default=0.0, ge=0)
    text: str


class CrossingKind(_Row):
    treated_as: str


class TerrainTable(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kinds: dict[str, TerrainKind]
    crossings: dict[Literal["bridge", "ford"], CrossingKind]

    @model_validator(mode="after")
    def _consistent(self) -> TerrainTable:
        _require(self.crossings, ("bridge", "ford"), "crossings")
        for name, c in self.crossings.items():
            if c.treated_as not in self.kinds:
                raise ValueError(f"crossing {name} is treated as unknown kind {c.treated_as!r}")
        return self


@cache
def terrain_table() -> TerrainTable:
    """Terrain kinds and crossings (``data/terrain.toml``)."""
    return _load(TerrainTable, "terrain.toml")


def load_all() -> None:
    """Load (and so validate) every data file; raises ``DataError`` on the first bad one."""
    qualities()
    armour_classes()
    troop_types()
    movement_table()
    basing()
    missile_weapons()
    costs()
    command()
    special()
    combat_tables()
    morale_tables()
    terrain_table()


# --- lookups ------------------------------------------------------------------------------------


def movement_for(density: Density, category: Category, armour: ArmourLetter) -> MoveRow:
    """Maximum move and rout/evade dice ("Distances"), capped for encased troops ("SPECIAL: Limit to
    maximum move distance because of armour weight")."""
    table = movement_table()
    row = table.types[_MOVE_KEYS[density, category]]
    if armour == "E":
        cap = table.encased[category]
        return MoveRow(
            move=min(row.move, cap.move), rout_dice=min(row.rout_dice, cap.rout_dice), clause=cap.clause
        )
    return row


def rout_distance_dist(density: Density, category: Category, armour: ArmourLetter) -> Dist:
    """Exact distribution of a rout, evade or break-off move in inches ("Distances", "Rout",
    "Evading", "Break Off"): the sum of the troop type's rout/evade d6s. Routers use their own troop
    type's dice (docs/rulings/into-the-dark.md)."""
    return pool(D6, movement_for(density, category, armour).rout_dice)
