"""The schemas of Knight Hack's user-supplied tables (pydantic, unknown keys refused).

The 1997 errata gives rules and two numbers only (heavy infantry, C class: 3 points a figure; heavy
infantry base cost 40; Clarification 2). Every other table is data the user supplies, one TOML file
each, validated here field by field; the cross-file checks (every class costed, the melee chart
complete, the errata's two numbers) are in :mod:`.tables`. Conditions are a **closed vocabulary in
code** (:data:`MELEE_CONDITIONS`, :data:`MORALE_CONDITIONS`): a file only binds numbers to them.
The fields are documented in ``docs/knight-hack-data.md``.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    field_validator,
    model_validator,
)

PROVENANCES = ("published", "user", "illustrative-sample")
Provenance = Literal["published", "user", "illustrative-sample"]

#: the banner shown wherever an illustrative-sample table is in use
SAMPLE_LABEL = "illustrative sample tables — not the published Knight Hack charts"

_ID = re.compile(r"^[a-z][a-z0-9-]*$")

#: melee modifier conditions the engine implements (``knight-hack:casualties.target``): the
#: attacker's situation against its target. ``class-step`` counts once per class the attacker is
#: better than the target (negative when worse); ``rank-beyond-first`` once per rank fighting behind
#: the front rank; ``target-open`` when the target is in open formation.
MELEE_CONDITIONS: dict[str, str] = {
    "flank": "the attacker fights the target's flank",
    "rear": "the attacker fights the target's rear",
    "disordered": "the attacker is disordered",
    "target-disordered": "the target is disordered",
    "charging-first-round": "the attacker charged into this melee and this is its first round",
    "uphill": "the attacker fights from uphill",
    "class-step": "per class the attacker is better than the target (negative per class worse)",
    "fanatic": "the attacker is a fanatic unit",
    "leader": "the attacker has a leader with it",
    "rank-beyond-first": "per rank fighting behind the front rank (up to its weapon's ranks)",
}
#: per-step conditions: their value counts once per step
MELEE_PER_STEP = frozenset({"class-step", "rank-beyond-first"})

#: morale modifier conditions ("the modifiers on page 15", ``knight-hack:morale.level``)
MORALE_CONDITIONS: dict[str, str] = {
    "casualties-quarter": "per full quarter of the unit's muster figures lost",
    "disordered": "the unit is disordered",
    "flanked": "enemy fight the unit's flank or rear",
    "leader-near": "a leader is with the unit",
    "leader-lost": "the unit's leader has been lost",
    "fanatic": "the unit is fanatic",
}
#: the tests a unit takes, each with its outcome on failure in ``morale.toml`` ``[on_fail]``
MORALE_TRIGGERS: dict[str, str] = {
    "charger-hit": "a charger that received 2 casualties from missiles (morale.charger-casualties)",
    "receive-charge": "a unit charged by a higher class (morale.receive-charge)",
    "melee-loser": "the loser of a melee round (melee.loser-fights-on)",
    "cease-pursuit": "a victor testing to cease pursuit (rally.who)",
    "stop-rout": "a routed unit tested to stop its rout (rout.stop)",
}
FAIL_OUTCOMES = ("halt", "disorder", "fall-back", "rout", "remove")
#: outcomes the errata itself fixes: a unit failing to receive a charge in good order receives it in
#: disorder; routers "not stopping rout are removed" (Clarification 1)
FIXED_BY_TEXT: dict[str, tuple[str, str]] = {
    "receive-charge": ("disorder", "Clarification 1, knight-hack:morale.receive-charge"),
    "stop-rout": ("remove", "Clarification 1, knight-hack:rout.stop"),
}

Arm = Literal["foot", "mounted"]
Formation = Literal["open", "loose", "close"]
FORMATIONS = ("open", "loose", "close")


class _Model(BaseModel):
    """A table: unknown keys refused; its counts and numbers are ``StrictInt`` and its flags
    ``StrictBool``, its distances ``StrictFloat`` (``evolutions = true`` or ``base_cost = 40.0`` is
    refused for its type, never read as 1 or 40)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class _File(_Model):
    """Every table file states where its numbers come from."""

    provenance: Provenance
    source: str = Field(min_length=1)


def _check_id(value: str, what: str) -> str:
    if not _ID.match(value):
        raise ValueError(f"{what} {value!r} must be lower-case letters, digits and dashes")
    return value


# --- classes.toml ---------------------------------------------------------------------------------


class UnitClass(_Model):
    evolutions: StrictInt = Field(ge=0, le=5)


class ClassesFile(_File):
    #: best first; "lower morale class" is later in this list (ruling R7)
    order: list[str] = Field(min_length=1)
    unit_class: dict[str, UnitClass] = Field(alias="class")

    @model_validator(mode="after")
    def _consistent(self) -> ClassesFile:
        if len(set(self.order)) != len(self.order):
            raise ValueError(f"order lists a class twice: {self.order}")
        if set(self.order) != set(self.unit_class):
            missing = [c for c in self.order if c not in self.unit_class]
            extra = [c for c in self.unit_class if c not in self.order]
            raise ValueError(
                "order and [class.*] must name the same classes"
                + (f"; no [class.{missing[0]}]" if missing else "")
                + (f"; [class.{extra[0]}] is not in order" if extra else "")
            )
        return self


# --- troop_types.toml -----------------------------------------------------------------------------


class TroopType(_Model):
    name: str = Field(min_length=1)
    arm: Arm
    formation: Formation
    base_cost: StrictInt = Field(ge=0)
    cost_per_figure: dict[str, StrictInt]
    normal_move: StrictFloat = Field(gt=0)
    rout_move: StrictFloat = Field(gt=0)
    #: absent: the type cannot evade
    evade_move: StrictFloat | None = Field(default=None, gt=0)
    figures_per_base: StrictInt = Field(ge=1)
    skirmisher: StrictBool = False
    eastern: StrictBool = False
    #: accept heavy-infantry numbers other than the errata's (Clarification 2)
    errata_override: StrictBool = False

    @field_validator("cost_per_figure")
    @classmethod
    def _costs(cls, v: dict[str, int]) -> dict[str, int]:
        for k, cost in v.items():
            if cost < 0:
                raise ValueError(f"cost of class {k} must be >= 0, got {cost}")
        return v


class TroopTypesFile(_File):
    type: dict[str, TroopType] = Field(min_length=1)

    @field_validator("type")
    @classmethod
    def _ids(cls, v: dict[str, TroopType]) -> dict[str, TroopType]:
        for k in v:
            _check_id(k, "type id")
        return v


# --- melee_chart.toml -----------------------------------------------------------------------------


class ChartEntry(_Model):
    attacker: str
    defender: str
    factor: StrictInt = Field(ge=-100, le=1000)
    automatic: StrictInt = Field(default=0, ge=0, le=2)


class MeleeChartFile(_File):
    factor: list[ChartEntry] = Field(min_length=1)


# --- melee_modifiers.toml / morale.toml modifiers -------------------------------------------------


class MeleeModifier(_Model):
    id: str
    value: StrictInt
    when: str

    @field_validator("id")
    @classmethod
    def _id(cls, v: str) -> str:
        return _check_id(v, "modifier id")

    @field_validator("when")
    @classmethod
    def _when(cls, v: str) -> str:
        if v not in MELEE_CONDITIONS:
            raise ValueError(f"unknown condition {v!r}; the engine knows: {', '.join(MELEE_CONDITIONS)}")
        return v


class MeleeModifiersFile(_File):
    modifier: list[MeleeModifier] = Field(default_factory=list)

    @field_validator("modifier")
    @classmethod
    def _unique(cls, v: list[MeleeModifier]) -> list[MeleeModifier]:
        seen: set[str] = set()
        for m in v:
            if m.id in seen:
                raise ValueError(f"modifier id {m.id!r} is given twice")
            seen.add(m.id)
        return v


class MoraleModifier(_Model):
    id: str
    value: StrictInt
    when: str

    @field_validator("id")
    @classmethod
    def _id(cls, v: str) -> str:
        return _check_id(v, "modifier id")

    @field_validator("when")
    @classmethod
    def _when(cls, v: str) -> str:
        if v not in MORALE_CONDITIONS:
            raise ValueError(f"unknown condition {v!r}; the engine knows: {', '.join(MORALE_CONDITIONS)}")
        return v


class MoraleFile(_File):
    modifier: list[MoraleModifier] = Field(default_factory=list)
    on_fail: dict[str, Literal["halt", "disorder", "fall-back", "rout", "remove"]]

    @field_validator("on_fail")
    @classmethod
    def _complete(cls, v: dict[str, str]) -> dict[str, str]:
        for k in v:
            if k not in MORALE_TRIGGERS:
                raise ValueError(f"unknown test {k!r}; the tests are: {', '.join(MORALE_TRIGGERS)}")
        missing = [k for k in MORALE_TRIGGERS if k not in v]
        if missing:
            raise ValueError(f"no outcome for the test {missing[0]!r} (every test needs one)")
        for k, (outcome, where) in FIXED_BY_TEXT.items():
            if v[k] != outcome:
                raise ValueError(
                    f"{k} = {v[k]!r} contradicts the errata ({where}): a failed {k} test is {outcome!r}"
                )
        return v


# --- weapons.toml ---------------------------------------------------------------------------------


class Weapon(_Model):
    ranks_fighting: StrictInt = Field(ge=1)
    javelin: StrictBool = False
    #: missile range in inches; absent for a melee weapon
    range: StrictFloat | None = Field(default=None, gt=0)
    #: melee factor modifier against a formation or a troop type id (a type id wins)
    factor_vs: dict[str, StrictInt] = Field(default_factory=dict)
    #: missile hits use the 1/2/3 procedure of Clarification 3 (ruling R10)
    multi_casualty: StrictBool = True


class WeaponsFile(_File):
    weapon: dict[str, Weapon] = Field(default_factory=dict)

    @field_validator("weapon")
    @classmethod
    def _ids(cls, v: dict[str, Weapon]) -> dict[str, Weapon]:
        for k in v:
            _check_id(k, "weapon id")
        return v
