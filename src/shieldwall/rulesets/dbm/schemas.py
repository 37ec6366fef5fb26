"""The schemas of DBM 3.2's user-supplied data (pydantic, unknown keys refused, finite numbers,
flags ``true`` or ``false`` only: a string such as ``"no"`` is refused, never read as a boolean).

The amendments replace paragraphs of DBM 3.1; the base tables (factors, distances, most outcomes,
PIP costs, army points, lists) are not in the text, so each is a TOML file validated here field by
field. Values the text *does* state are checked in :mod:`.tables` and a contradicting file is a
``DataError`` naming the clause. Conditions are a closed vocabulary in code: a file only binds
numbers to them. Documented in ``docs/dbm-data.md``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator, model_validator

#: the banner shown wherever the illustrative sample is in use
SAMPLE_LABEL = "illustrative data: not the published DBM tables"

#: the troop-type codes of DBM (the amendments name all of them)
CODES = (
    "Kn", "Cv", "LH", "Cm", "El", "Exp", "WWg", "Art", "Sp", "Pk",
    "Bd", "Ax", "Bw", "Ps", "Wb", "Hd", "Bge", "Shp", "Gal", "Bts",
)  # fmt: skip
Grade = Literal["S", "O", "I", "F", "X"]
GRADES = ("S", "O", "I", "F", "X")
Going = Literal["good", "rough", "difficult", "impassable"]
TroopClass = Literal["mounted", "foot", "naval", "baggage"]

#: tactical-factor conditions the engine evaluates (``[[tactical]] when``); per-step ones count
#: once per occurrence (each overlap)
TACTICAL_CONDITIONS: dict[str, str] = {
    "general": "the element is a general's element, in close combat",
    "overlap": "per enemy element overlapping it (cc.overlap), in close combat",
    "uphill": "the element fights uphill of its frontal opponent",
    "flank-contact": "an enemy is in contact with its flank",
    "rear-contact": "an enemy is in contact with its rear",
    "shooting-aided": "the element shoots aided by a 2nd rank of bowmen (shoot.aid), in shooting",
}
TACTICAL_PER_STEP = frozenset({"overlap"})
#: grading-factor conditions (the base grading factors other than grade.vs-f)
GRADING_CONDITIONS: dict[str, str] = {
    "s-scored-more": "the element is (S) and scored more than its opponent",
    "i-scored-equal-or-less": "the element is (I) and scored equal to or less than its opponent",
}


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class Meta(_Model):
    """Every file's ``[meta]``: where its numbers come from."""

    source: str = Field(min_length=1)
    illustrative: StrictBool
    ruleset_version: Literal["dbm-3.2"] = "dbm-3.2"


class _File(_Model):
    meta: Meta


def _check_codes(v: dict[str, object], what: str, complete: bool) -> None:
    for k in v:
        if k not in CODES:
            raise ValueError(f"{what}: unknown troop type {k!r}; the codes are {', '.join(CODES)}")
    if complete:
        missing = [c for c in CODES if c not in v]
        if missing:
            raise ValueError(f"{what}: no entry for {', '.join(missing)} (every troop type needs one)")


# --- troops.toml ----------------------------------------------------------------------------------


class TroopType(_Model):
    name: str = Field(min_length=1)
    troop_class: TroopClass = Field(alias="class")
    skirmisher: StrictBool = False
    grades: list[Grade] = Field(min_length=1)
    depth_p: float = Field(gt=0)
    turns_to_flank: StrictBool = True
    #: friends facing the same way this type may pass through when recoiling (recoil.friends)
    pass_through: list[str] = Field(default_factory=list)


class TroopsFile(_File):
    type: dict[str, TroopType]

    @field_validator("type")
    @classmethod
    def _codes(cls, v: dict[str, TroopType]) -> dict[str, TroopType]:
        _check_codes(dict(v), "type", complete=True)
        for t in v.values():
            _check_codes(dict.fromkeys(t.pass_through), "pass_through", complete=False)
        return v


# --- geometry.toml --------------------------------------------------------------------------------


class GeometryFile(_File):
    bw_p: float = Field(gt=0, description="element base width (frontage) in paces, all types")
    scale: str = Field(min_length=1)
    table_w_p: float = Field(gt=0)
    table_d_p: float = Field(gt=0)


# --- movement.toml --------------------------------------------------------------------------------


class Move(_Model):
    good: float = Field(ge=0)
    rough: float = Field(ge=0)
    difficult: float = Field(ge=0)
    recoil: float = Field(ge=0)
    flee: float = Field(ge=0)
    pursue: float = Field(ge=0)


class MovementFile(_File):
    type: dict[str, Move]

    @field_validator("type")
    @classmethod
    def _codes(cls, v: dict[str, Move]) -> dict[str, Move]:
        _check_codes(dict(v), "type", complete=False)
        if "Cv" not in v:  # terrain.mixed-going ranks goings by their effect on cavalry
            raise ValueError("type: no Cv row (terrain.mixed-going needs cavalry speeds)")
        return v


# --- ranges.toml ----------------------------------------------------------------------------------


class RangesFile(_File):
    range_p: dict[str, float]

    @field_validator("range_p")
    @classmethod
    def _codes(cls, v: dict[str, float]) -> dict[str, float]:
        _check_codes(dict(v), "range_p", complete=False)
        for k, r in v.items():
            if r <= 0:
                raise ValueError(f"range_p.{k} must be > 0, got {r}")
        return v


# --- factors.toml ---------------------------------------------------------------------------------


class BaseFactor(_Model):
    v_foot: int
    v_mounted: int
    v_naval: int
    shot_at: int
    #: the Bw row's "+3 when shooting at or shot at by bowmen" (factor.bw-cm); other rows omit it
    v_bowmen_shooting: int | None = None


class Modifier(_Model):
    id: str = Field(min_length=1)
    delta: int = Field(ge=-10, le=10)
    when: str


class FactorsFile(_File):
    base: dict[str, BaseFactor]
    tactical: list[Modifier] = Field(default_factory=list)
    grading: list[Modifier] = Field(default_factory=list)
    #: deleted base rear-support bullets may not appear (rs.deleted): the loader refuses these keys
    rear_support: dict[str, int] = Field(default_factory=dict)

    @field_validator("base")
    @classmethod
    def _codes(cls, v: dict[str, BaseFactor]) -> dict[str, BaseFactor]:
        _check_codes(dict(v), "base", complete=False)
        return v

    @model_validator(mode="after")
    def _vocab(self) -> FactorsFile:
        for i, m in enumerate(self.tactical):
            if m.when not in TACTICAL_CONDITIONS:
                raise ValueError(
                    f"tactical[{i}].when {m.when!r} unknown; "
                    f"the engine knows {', '.join(TACTICAL_CONDITIONS)}"
                )
        for i, m in enumerate(self.grading):
            if m.when not in GRADING_CONDITIONS:
                raise ValueError(
                    f"grading[{i}].when {m.when!r} unknown; the engine knows {', '.join(GRADING_CONDITIONS)}"
                )
        return self


# --- outcomes.toml --------------------------------------------------------------------------------

Band = Literal["beaten", "doubled"]
Result = Literal["recoil", "flee", "destroyed", "none"]


class OutcomeRow(_Model):
    loser: str
    band: Band
    #: winner troop-type codes that destroy the loser in this band
    destroyed_by: list[str] = Field(default_factory=list)
    otherwise: Result = "recoil"


class OutcomesFile(_File):
    row: list[OutcomeRow]

    @model_validator(mode="after")
    def _codes(self) -> OutcomesFile:
        seen: set[tuple[str, str]] = set()
        for i, r in enumerate(self.row):
            _check_codes({r.loser: 0, **dict.fromkeys(r.destroyed_by, 0)}, f"row[{i}]", complete=False)
            if (r.loser, r.band) in seen:
                raise ValueError(f"row[{i}]: a second row for {r.loser} {r.band}")
            seen.add((r.loser, r.band))
        return self


# --- pips.toml ------------------------------------------------------------------------------------


class PipsFile(_File):
    die: Literal["d6"] = "d6"
    cost: dict[str, int]
    #: march surcharges beyond the text's (pip.march-extra is in code, locked)
    march_extra_threshold: int | None = None

    @field_validator("cost")
    @classmethod
    def _costs(cls, v: dict[str, int]) -> dict[str, int]:
        for k, c in v.items():
            if c < 0:
                raise ValueError(f"cost.{k} must be >= 0")
        for need in ("tactical_move", "march_move"):
            if need not in v:
                raise ValueError(f"cost.{need} is required")
        return v


# --- costs.toml -----------------------------------------------------------------------------------


class CostRow(_Model):
    regular: StrictBool
    code: str
    grade: Grade
    ap: float = Field(ge=0)

    @field_validator("ap")
    @classmethod
    def _half(cls, v: float) -> float:
        if abs(v * 2 - round(v * 2)) > 1e-9:
            raise ValueError(f"ap {v} is not a multiple of 0.5")
        return v


class CostsFile(_File):
    cost: list[CostRow]
    general_extra: float = Field(ge=0)
    double_base_rear_reduction: float = Field(ge=0)

    @model_validator(mode="after")
    def _codes(self) -> CostsFile:
        seen: set[tuple[bool, str, str]] = set()
        for i, r in enumerate(self.cost):
            _check_codes({r.code: 0}, f"cost[{i}]", complete=False)
            key = (r.regular, r.code, r.grade)
            if key in seen:
                raise ValueError(
                    f"cost[{i}]: a second row for {'Reg' if r.regular else 'Irr'} {r.code}({r.grade})"
                )
            seen.add(key)
        return self


# --- terrain.toml ---------------------------------------------------------------------------------


class Feature(_Model):
    going: Going
    area: StrictBool
    fe: float = Field(ge=0)
    visibility: Literal["clear", "blocks"] = "clear"
    paltry: StrictBool = False
    water: StrictBool = False


class TerrainFile(_File):
    feature: dict[str, Feature]


# --- game.toml ------------------------------------------------------------------------------------


class GameFile(_File):
    bound_limit: int = Field(ge=1)
    vp_scale_max: int = Field(ge=1)
    demoralised_at_fraction: float = Field(gt=0, le=1)
    army_defeat_fraction: float = Field(gt=0, le=1)
    command_range_p: float = Field(gt=0)
    #: the PIP die scores on which an off-table flank march arrives (base rule, not in the
    #: amendments: ruling R38); needed only by armies with a flank-marching command
    flank_arrival: list[int] = Field(default_factory=list)
    #: the combat score (before its die) of an undefended fortification section an assaulter
    #: fights (base rule, not in the amendments: ruling R41); needed only by scenarios with
    #: fortifications
    undefended_fort: int | None = None

    @field_validator("flank_arrival")
    @classmethod
    def _faces(cls, v: list[int]) -> list[int]:
        if any(not 1 <= f <= 6 for f in v):
            raise ValueError("flank_arrival holds die faces 1-6")
        return v


# --- lists/*.toml ---------------------------------------------------------------------------------


class ListEntry(_Model):
    code: str
    grade: Grade
    regular: StrictBool
    min: int = Field(ge=0)
    max: int = Field(ge=0)
    mounted: Literal["no", "optional", "compulsory"] = "no"
    double_base_required: StrictBool = False
    generals: int = Field(default=0, ge=0)
    allied: StrictBool = False

    @model_validator(mode="after")
    def _range(self) -> ListEntry:
        _check_codes({self.code: 0}, "code", complete=False)
        if self.min > self.max:
            raise ValueError(f"min {self.min} > max {self.max}")
        return self


class ArmyList(_Model):
    meta: Meta
    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    nation: str = Field(min_length=1)
    compulsory_terrain: list[str] = Field(default_factory=list)
    permitted_terrain: list[str] = Field(default_factory=list)
    bua_allowed: StrictBool = False
    entries: list[ListEntry] = Field(min_length=1)


# --- army.toml (order of battle) ------------------------------------------------------------------

#: dbm-3.2:size.baggage: "6 baggage elements if 400AP or less, otherwise 8"
MAX_BAGGAGE = 8


class DismountAs(_Model):
    """The foot element a mounted element becomes when it dismounts (base rule: ruling R39)."""

    code: str
    grade: Grade
    #: it leaves riderless mounts behind it (base rule, not in the amendments: ruling R42)
    mounts: StrictBool = False


class ArmyElement(_Model):
    id: str = Field(min_length=1)
    code: str
    grade: Grade
    regular: StrictBool
    general: StrictBool = False
    double_base: StrictBool = False
    bow: StrictBool = False
    #: a mounted element that may dismount, and as what (ruling R39)
    dismount: DismountAs | None = None

    @model_validator(mode="after")
    def _code(self) -> ArmyElement:
        _check_codes({self.code: 0}, "code", complete=False)
        return self


class ArmyCommand(_Model):
    name: str = Field(min_length=1)
    c_in_c: StrictBool = False
    ally: StrictBool = False
    nation: str | None = None
    civil_war: StrictBool = False
    flank_march: StrictBool = False
    #: the table flank (as seen by its own side) a flank-marching command arrives on (ruling R38)
    flank: Literal["left", "right"] = "left"
    elements: list[ArmyElement] = Field(min_length=1)


class OrderOfBattle(_Model):
    meta: Meta
    #: the rule system (``shieldwall army cost`` finds the plugin by it)
    ruleset: Literal["dbm-3.2"] | None = None
    army_list: str = Field(alias="list")
    name: str = Field(min_length=1)
    ap_limit: float = Field(gt=0)
    #: at most :data:`MAX_BAGGAGE`; whether the count is the 6 or 8 the army's points need is
    #: ``shieldwall army cost``'s check (army.py)
    baggage: int = Field(ge=0)
    baggage_mobile: StrictBool = True
    commands: list[ArmyCommand] = Field(min_length=1)

    @field_validator("baggage")
    @classmethod
    def _baggage(cls, v: int) -> int:
        """dbm-3.2:size.baggage: an army has 6 baggage elements, or 8 above 400 AP; no army may have
        more than 8, so a larger count is refused here (one element is built and costed for each)."""
        if v > MAX_BAGGAGE:
            raise ValueError(
                f"{v} baggage elements: an army has at most {MAX_BAGGAGE} "
                "(dbm-3.2:size.baggage: 6 if 400 AP or less, otherwise 8)"
            )
        return v

    @field_validator("commands")
    @classmethod
    def _unique_ids(cls, v: list[ArmyCommand]) -> list[ArmyCommand]:
        """Every element of the order of battle has an id of its own: orders, events and the table
        name an element by it, so a second element with the same id would replace the first."""
        seen: dict[str, str] = {}
        for i, cmd in enumerate(v):
            for j, el in enumerate(cmd.elements):
                where = f"commands[{i}].elements[{j}]"
                if el.id in seen:
                    raise ValueError(f"element id {el.id!r} is used twice ({seen[el.id]} and {where})")
                seen[el.id] = where
        return v
