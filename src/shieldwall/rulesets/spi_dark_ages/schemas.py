"""The data files of a Dark Ages data set (pydantic schemas; documented in docs/spi-dark-ages-data.md).

The errata gives none of SPI's charts, only corrections to them: the Combat Results Table
(``crt.toml``), the base Terrain Effects Chart (``tec.toml``), the Combat Unit Capability Chart
(``cuc.toml``), the Summary of Units / counters (``units.toml``), the rules the text is silent on
(``rules.toml``: stacking limit, sequence of play) and the map (``map.toml``) are user files. Every
file starts with ``[meta] provenance = "spi" | "illustrative" | "user"`` and ``source``. The values
the errata states are checked by :mod:`.tables` (a file that contradicts one is a ``DataError``
naming the clause).

Strength multipliers ("effects") are written as text: ``"1"``, ``"2"``, ``"1/2"``, ``"1/4"`` or
``"P"`` (prohibited).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from shieldwall.core.limits import MAX_TEXT
from shieldwall.core.reference import REFERENCE

#: the combat classes of the Summary of Units (no "L": tec.notes)
CLASSES = ("I", "II", "III", "IV", "V")
#: classes an attacker may have (the CUC's columns)
ATTACKER_CLASSES = (*CLASSES, "command")
KINDS = (*CLASSES, "command", "fleet")
PHASES = ("movement", "allocation", "defensive-fire", "offensive-fire", "melee")
SAMPLE_LABEL = "ILLUSTRATIVE DATA — not SPI's charts, counters or map"

Effect = str


#: ``effect_value``'s answers by text (a ``Fraction`` is immutable; the texts are the charts' few)
_EFFECTS: dict[str, Fraction | None] = {}


def effect_value(text: Effect) -> Fraction | None:
    """A multiplier: ``None`` for "P" (prohibited), else the positive fraction (memoised by text:
    combat asks for the same few thousands of times a battle; the reference parses each time)."""
    if REFERENCE.on:
        return None if text == "P" else Fraction(text)
    try:
        return _EFFECTS[text]
    except KeyError:
        got = _EFFECTS[text] = None if text == "P" else Fraction(text)
        return got


def _check_effect(v: str) -> str:
    if v == "P":
        return v
    try:
        f = Fraction(v)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{v!r} is not a multiplier ('1', '2', '1/2', '1/4' or 'P')") from None
    if f <= 0 or f > 10:
        raise ValueError(f"{v!r}: a multiplier is above 0 and at most 10")
    return v


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, populate_by_name=True)


class Meta(_M):
    provenance: Literal["spi", "illustrative", "user"]
    source: str = Field(default="", max_length=MAX_TEXT)


# --- units.toml: the Summary of Units Chart and counter values ---------------------------------


class Charge(_M):
    min_hexes: int = Field(ge=1, le=10)
    #: MAS lost for each hex the straight charge falls short
    shortfall: int = Field(ge=0, le=20)
    #: the short-charge reduction never takes MAS below this
    floor: int = Field(ge=0, le=20)


class UnitType(_M):
    name: str = Field(min_length=1, max_length=MAX_TEXT)
    cls: Literal["I", "II", "III", "IV", "V", "command", "fleet"] = Field(alias="class")
    cavalry: Literal["none", "medium", "heavy", "cataphract"] = "none"
    mas: int = Field(ge=0, le=50)
    mds_front: int = Field(ge=0, le=50)
    mds_flank: int = Field(ge=0, le=50)
    missile: int = Field(default=0, ge=0, le=50)
    range: int = Field(default=0, ge=0, le=20)
    ma: int = Field(ge=0, le=30)
    stacking_points: int = Field(ge=0, le=20)
    vp: int = Field(ge=0, le=100)
    command_bonus: int = Field(default=0, ge=0, le=5)
    charge: Charge | None = None
    dismounts_to: str | None = Field(default=None, max_length=MAX_TEXT)
    mount: str | None = Field(default=None, max_length=MAX_TEXT)
    capacity: int = Field(default=0, ge=0, le=10)


class UnitsFile(_M):
    meta: Meta
    type: dict[str, UnitType] = Field(min_length=1, max_length=200)


# --- tec.toml: the base Terrain Effects Chart --------------------------------------------------


class Terrain(_M):
    name: str = Field(default="", max_length=MAX_TEXT)
    mp: float | Literal["P"]
    mp_by_class: dict[str, float | Literal["P"]] = Field(default_factory=dict)
    fps: int = Field(ge=0, le=20)
    blocks_fire: bool = False
    attack: dict[str, Effect] = Field(default_factory=dict)
    defense: dict[str, Effect] = Field(default_factory=dict)
    road_only: list[str] = Field(default_factory=list)

    @field_validator("attack", "defense")
    @classmethod
    def _effects(cls, v: dict[str, str]) -> dict[str, str]:
        for k, e in v.items():
            if k not in ATTACKER_CLASSES:
                raise ValueError(f"{k!r} is not a class ({', '.join(ATTACKER_CLASSES)})")
            _check_effect(e)
        return v

    @field_validator("mp")
    @classmethod
    def _mp(cls, v: float | str) -> float | str:
        if isinstance(v, float) and not (0 < v <= 20 and v * 2 == int(v * 2)):
            raise ValueError("an MP cost is a positive multiple of 1/2 (at most 20), or 'P'")
        return v


class Column(_M):
    attack: dict[str, Effect] = Field(default_factory=dict)
    defense: dict[str, Effect] = Field(default_factory=dict)

    @field_validator("attack", "defense")
    @classmethod
    def _effects(cls, v: dict[str, str]) -> dict[str, str]:
        for e in v.values():
            _check_effect(e)
        return v


class CrossRiver(_M):
    """The base Cross River Attack rule (``tec.cross-river``): the errata says only that it applies
    to stream or river hexes adjacent to a unit's front and that such control is lost while
    demoralized (``demoralization.control``); its values are the user's (ruling A28)."""

    #: an enemy unit entering a stream or river hex adjacent to a unit's front ceases movement
    stop: bool = False
    #: the melee attack strength multiplier of a unit attacking out of such a hex
    attack: Effect = "1"
    #: added to the melee die roll when any attacker attacks out of such a hex (+ favours the defender)
    shift: int = Field(default=0, ge=-3, le=3)

    @field_validator("attack")
    @classmethod
    def _attack(cls, v: str) -> str:
        if v == "P":
            raise ValueError(
                "'P' is not a cross-river multiplier: the rule changes a strength, it forbids no attack"
            )
        return _check_effect(v)


class TecFile(_M):
    meta: Meta
    #: MP to turn one hexside
    facing_mp: float = Field(gt=0, le=10)
    terrain: dict[str, Terrain] = Field(min_length=1, max_length=50)
    uphill: Column
    downhill: Column
    #: the Cross River Attack rule (ruling A28); absent: not played
    cross_river: CrossRiver | None = None


# --- cuc.toml: the Combat Unit Capability Chart ------------------------------------------------


class CucFile(_M):
    meta: Meta
    #: defender type -> attacker class (or ``flank_<class>``) -> multiplier of its melee defence
    defender: dict[str, dict[str, Effect]]


# --- crt.toml: the Combat Results Table ---------------------------------------------------------


class CrtColumn(_M):
    id: str = Field(min_length=1, max_length=20)
    att: int = Field(ge=1, le=100)
    defn: int = Field(alias="def", ge=1, le=100)


class CrtEffect(_M):
    side: Literal["attacker", "defender"]
    kind: Literal["demoralize", "eliminate", "eliminate_n"]
    n: int = Field(default=0, ge=0, le=10)


class CrtResult(_M):
    name: str = Field(default="", max_length=MAX_TEXT)
    effects: list[CrtEffect] = Field(default_factory=list, max_length=10)


class CrtTable(_M):
    columns: list[CrtColumn] = Field(min_length=1, max_length=30)
    rows: dict[str, list[str]] = Field(min_length=1, max_length=30)
    min_row: int = Field(ge=-10, le=20)
    max_row: int = Field(ge=-10, le=20)
    #: odds below the first column: a column id or a result code
    below_min: str
    #: odds above the last column: a column id or a result code
    above_max: str


class CrtFile(_M):
    meta: Meta
    melee: CrtTable
    fire: CrtTable
    results: dict[str, CrtResult] = Field(min_length=1, max_length=40)


# --- rules.toml: what the text is silent on ------------------------------------------------------


class RulesFile(_M):
    meta: Meta
    #: stacking points allowed in a hex
    hex_stack_limit: int = Field(ge=1, le=50)
    #: the phases of a Player-Turn (ruling A11)
    sequence: list[Literal["movement", "allocation", "defensive-fire", "offensive-fire", "melee"]] = Field(
        default=["movement", "allocation", "defensive-fire", "offensive-fire", "melee"]
    )


# --- map.toml ---------------------------------------------------------------------------------


class MapHex(_M):
    at: str = Field(min_length=4, max_length=4)
    terrain: list[str] = Field(default_factory=list, max_length=6)
    ford: bool = False
    bridge: bool = False


class MapSide(_M):
    at: str = Field(min_length=4, max_length=4)
    dir: int = Field(ge=0, le=5)
    road: bool = False
    water: bool = False


class MapFile(_M):
    meta: Meta
    name: str = Field(min_length=1, max_length=MAX_TEXT)
    cols: int = Field(ge=2, le=99)
    rows: int = Field(ge=2, le=99)
    hex: list[MapHex] = Field(default_factory=list, max_length=9801)
    hexside: list[MapSide] = Field(default_factory=list, max_length=30000)
