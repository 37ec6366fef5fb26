"""The army file ("Order of Battle") of Into the Dark: a TOML file validated with pydantic.

Format (see ``scenarios/into-the-dark/armies/*.toml``)::

    ruleset = "into-the-dark"           # optional: lets `shieldwall army cost` skip guessing
    name = "Saxon army of 1066"
    points_limit = 1000                 # optional: "Choosing Your Army"

    [[generals]]
    name = "Harold"
    rating = "good"                     # poor 1 / average 2 / good 3
    division = "Centre"                 # the division he commands
    commanding = true                   # the commanding general (needed when there are several)
    mounted = false                     # LMF instead of LMM; or champion = "<champion unit name>"

    [[units]]
    name = "Huscarls"
    division = "Centre"
    code = "CAF"                        # density C/L/O, armour U/P/A/M/E, foot F / mounted M
    quality = "elite"                   # peasant, levy, average, elite, fanatic
    type = "melee"                      # melee, missile or cross-trained
    figures = 12
    frontage = 6                        # figures in the front rank (or ranks = 2)
    weapon = "bow"                      # missile and cross-trained units: bow, sling or javelin
    options = ["shieldwall"]            # longbow pike polearm crossbow heavy-crossbow shieldwall
                                        # warband skirmisher peasant no-shield champion

Every restriction of the text is checked; an error names the file, the unit and the clause
(``DataError(file, 'units[2] "Fyrd"', "... [rule into-the-dark:swat.swat]")``). The rulings behind
the checks are in docs/rulings/into-the-dark.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from shieldwall.core.datafiles import read_toml, validate
from shieldwall.core.errors import DataError
from shieldwall.core.limits import MAX_EXTRAS, MAX_UNITS

from . import profiles
from .clauses import cite
from .profiles import ArmourLetter, Category, Density, QualityName, Role, WeaponKey

Option = Literal[
    "longbow",
    "pike",
    "polearm",
    "crossbow",
    "heavy-crossbow",
    "shieldwall",
    "warband",
    "skirmisher",
    "peasant",
    "no-shield",
    "champion",
]
BasicWeapon = Literal["bow", "sling", "javelin"]
RatingName = Literal["poor", "average", "good"]

#: Options that are SWAT ("Special weapons and tactics"); "Peasant class units may not use SWAT".
#: Wedge and hedgehog are named in the contents but not defined by the text, so they are no options.
SWAT_OPTIONS: tuple[Option, ...] = ("longbow", "polearm", "crossbow", "heavy-crossbow", "pike", "shieldwall")
#: Options that change the unit's bow into a SWAT bow.
BOW_OPTIONS: tuple[Option, ...] = ("longbow", "crossbow", "heavy-crossbow")

#: Which clause governs each field of a unit, a general or the army (named in structural errors).
_UNIT_RULES = {
    "name": "troops.unit-organisation",
    "code": "troops.troop-types",
    "quality": "troops.troop-quality",
    "type": "troops.troop-types",
    "figures": "troops.unit-organisation",
    "frontage": "setup.formations",
    "ranks": "setup.formations",
    "weapon": "combat.missile-weapons",
    "options": "special-troops.special-troops",
    "division": "command.divisions",
    "notes": "troops.the-troops",
    "mixed": "troops.unit-organisation",
}
_GENERAL_RULES = {
    "name": "command.generals",
    "rating": "command.generals",
    "division": "command.divisions",
    "commanding": "command.generals",
    "mounted": "command.generals",
    "champion": "command.champion-generals",
    "notes": "troops.the-troops",
}
_ARMY_RULES = {
    "name": "troops.the-troops",
    "description": "troops.the-troops",
    "points_limit": "troops.choosing-your-army",
    "generals": "command.generals",
    "units": "troops.unit-organisation",
}


class MixedPart(BaseModel):
    """Figures of another troop type in a mixed unit (troops.unit-organisation): "If different troop
    types are mixed in a unit, it moves at the speed of the slowest. When in melee, the figures in
    contact with the enemy determine the attack/defence values, or when giving or receiving missile
    fire the values of the majority troop type are used." Quality, role and weapon default to the
    unit's; the density and category must be the unit's (one formation, docs/rulings ruling 76)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    code: str
    figures: int = Field(ge=1)
    quality: QualityName | None = None
    type: Role | None = None
    weapon: BasicWeapon | None = None

    @field_validator("code")
    @classmethod
    def _code(cls, v: str) -> str:
        profiles.parse_code(v)
        return v


class ArmyUnit(BaseModel):
    """One unit of the order of battle, as written in the file, with its derived characteristics."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    division: str = Field(min_length=1)
    code: str
    quality: QualityName
    type: Role
    figures: int = Field(ge=1)
    frontage: int | None = Field(default=None, ge=1)
    ranks: int | None = Field(default=None, ge=1)
    weapon: BasicWeapon | None = None
    options: tuple[Option, ...] = ()
    notes: str = ""
    #: figures of other troop types in the unit, behind the unit's own type in rank order
    mixed: tuple[MixedPart, ...] = ()

    @field_validator("code")
    @classmethod
    def _code(cls, v: str) -> str:
        profiles.parse_code(v)
        return v

    # --- mixed units (troops.unit-organisation) ------------------------------------------------
    @property
    def is_mixed(self) -> bool:
        return bool(self.mixed)

    def parts(self) -> tuple[ArmyUnit, ...]:
        """The unit's troop types as units of their own, in rank order (its own code first, with the
        figures the mixed parts leave it); a unit of one type is its only part."""
        if not self.mixed:
            return (self,)
        own = self.figures - sum(p.figures for p in self.mixed)
        out = [self.model_copy(update={"figures": max(1, own), "mixed": (), "frontage": None, "ranks": None})]
        for p in self.mixed:
            out.append(
                self.model_copy(
                    update={
                        "code": p.code,
                        "figures": p.figures,
                        "quality": p.quality or self.quality,
                        "type": p.type or self.type,
                        "weapon": p.weapon if (p.weapon or p.type) else self.weapon,
                        "mixed": (),
                        "frontage": None,
                        "ranks": None,
                    }
                )
            )
        return tuple(out)

    def part_of(self, figures_in_order: int) -> tuple[ArmyUnit, ...]:
        """The parts of the first ``figures_in_order`` figures in rank order, one entry a figure."""
        out: list[ArmyUnit] = []
        for p in self.parts():
            out.extend([p] * p.figures)
        return tuple(out[:figures_in_order])

    def majority(self, figures: int | None = None) -> ArmyUnit:
        """The majority troop type among the first ``figures`` figures in rank order (all of them by
        default; ties go to the type listed first): "the values of the majority troop type are used"."""
        if not self.mixed:
            return self
        seq = self.part_of(self.figures if figures is None else figures)
        if not seq:
            return self.parts()[0]
        counts: dict[str, tuple[int, int, ArmyUnit]] = {}
        for i, p in enumerate(seq):
            k = p.code + p.type + str(p.weapon) + p.quality
            n, first, _ = counts.get(k, (0, i, p))
            counts[k] = (n + 1, first, p)
        return max(counts.values(), key=lambda t: (t[0], -t[1]))[2]

    # --- the three-letter code ("Troop Types") ------------------------------------------------
    @property
    def code_density(self) -> Density:
        return profiles.parse_code(self.code)[0]

    @property
    def density(self) -> Density:
        """Formation density; champions "are always considered Open Order regardless of what size
        base they are on" (special-troops.champions)."""
        return profiles.special().champion.density if self.champion else self.code_density

    @property
    def armour(self) -> ArmourLetter:
        return profiles.parse_code(self.code)[1]

    @property
    def category(self) -> Category:
        return profiles.parse_code(self.code)[2]

    @property
    def mounted(self) -> bool:
        return self.category == "M"

    # --- quality and troop class --------------------------------------------------------------
    @property
    def quality_level(self) -> int:
        return profiles.qualities()[self.quality].level

    @property
    def cross_trained(self) -> bool:
        return self.type == "cross-trained"

    @property
    def has_missiles(self) -> bool:
        return self.type in ("missile", "cross-trained")

    @property
    def has_melee_weapons(self) -> bool:
        return self.type in ("melee", "cross-trained")

    def has(self, option: Option) -> bool:
        return option in self.options

    @property
    def champion(self) -> bool:
        return "champion" in self.options

    @property
    def peasant(self) -> bool:
        """Peasant class: quality peasant (level 1) (special-troops.peasants)."""
        return self.quality == "peasant"

    # --- weapons and shields ------------------------------------------------------------------
    @property
    def basic_weapon(self) -> BasicWeapon | None:
        """The basic missile weapon; a SWAT bow option implies "bow"."""
        if self.weapon is None and any(o in self.options for o in BOW_OPTIONS):
            return "bow"
        return self.weapon

    @property
    def missile_weapon(self) -> WeaponKey | None:
        """The row of "Missile Weapons" this unit shoots with (None for melee troops).

        A mounted unit's bow (light crossbow included) is a Mounted Bow; a foot unit's bow or light
        crossbow is a Foot Bow; longbows and heavy crossbows are their own rows (swat.longbow,
        swat.crossbow)."""
        w = self.basic_weapon
        if w is None:
            return None
        if w == "bow":
            if self.has("longbow"):
                return "longbow"
            if self.has("heavy-crossbow"):
                return "heavy-crossbow"
            return "mounted-bow" if self.mounted else "foot-bow"
        return w

    @property
    def has_shields(self) -> bool:
        """Whether the figures carry shields (combat.shields, combat.missile-weapons).

        "All troops are assumed to be carrying shields unless otherwise stated": the no-shield option,
        and bow troops (foot bow, mounted bow, longbow, heavy crossbow) that are not cross trained
        ("These troops do not have shields unless cross trained")."""
        # into-the-dark:combat.missile-weapons.bows-no-shields
        # into-the-dark:combat.missile-weapons.sling-and-javelins-keep-shields
        if self.has("no-shield"):
            return False
        w = self.missile_weapon
        return not (
            w is not None and profiles.missile_weapons()[w].shields == "bow" and not self.cross_trained
        )

    # --- formation ----------------------------------------------------------------------------
    @property
    def front(self) -> int:
        """Figures in the front rank."""
        if self.frontage is not None:
            return self.frontage
        if self.ranks is not None:
            return -(-self.figures // self.ranks)
        return self.figures

    @property
    def depth(self) -> int:
        """Ranks (the last one may be partial)."""
        return -(-self.figures // self.front)

    @property
    def label(self) -> str:
        return f'"{self.name}"'


class General(BaseModel):
    """A general ("Generals"): rating, the division he commands, commanding or subordinate."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    rating: RatingName
    division: str | None = None
    commanding: bool = False
    mounted: bool | None = None
    champion: str | None = None
    notes: str = ""

    @property
    def rating_level(self) -> int:
        return profiles.command().ratings[self.rating].rating

    @property
    def code(self) -> str:
        """ "treated as if he were LMM (or LMF)" (command.generals)."""
        g = profiles.command().general
        return g.code_foot if self.mounted is False else g.code_mounted


class _ArmyFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ruleset: Literal["into-the-dark"] | None = None
    name: str = Field(min_length=1)
    description: str = ""
    points_limit: int | None = Field(default=None, ge=1, le=10**9)
    generals: list[dict[str, Any]] = Field(default_factory=list, max_length=MAX_EXTRAS)
    units: list[dict[str, Any]] = Field(min_length=1, max_length=MAX_UNITS)


class Army(BaseModel):
    """A validated army: use ``load_army`` or ``parse_army``."""

    model_config = ConfigDict(frozen=True)

    file: str
    name: str
    description: str = ""
    points_limit: int | None = None
    generals: tuple[General, ...]
    units: tuple[ArmyUnit, ...]

    def unit(self, name: str) -> ArmyUnit:
        for u in self.units:
            if u.name == name:
                return u
        raise KeyError(name)

    @property
    def commanding_general(self) -> General:
        if len(self.generals) == 1:
            return self.generals[0]
        return next(g for g in self.generals if g.commanding)

    def divisions(self) -> dict[str, tuple[ArmyUnit, ...]]:
        """Units by division, in file order."""
        out: dict[str, list[ArmyUnit]] = {}
        for u in self.units:
            out.setdefault(u.division, []).append(u)
        return {k: tuple(v) for k, v in out.items()}


# --- loading ------------------------------------------------------------------------------------


def load_army(path: str | Path) -> Army:
    """Read and validate an army file; raises ``DataError`` naming file, unit and rule."""
    return parse_army(read_toml(path), str(path))


def parse_army(data: Mapping[str, Any], file: str = "<army>") -> Army:
    """Validate an army given as a TOML-like mapping: the "Order of Battle" of (troops.the-troops),
    a list of the units, their statistics, sizes (and, through ``points``, costs)."""
    top = _structural(_ArmyFile, dict(data), file, "", _ARMY_RULES)
    units = tuple(
        _structural(ArmyUnit, raw, file, f"units[{i}] {_label(raw)}", _UNIT_RULES)
        for i, raw in enumerate(top.units)
    )
    generals = tuple(
        _structural(General, raw, file, f"generals[{i}] {_label(raw)}", _GENERAL_RULES)
        for i, raw in enumerate(top.generals)
    )
    for i, u in enumerate(units):
        check_unit(u, file, f"units[{i}] {u.label}")
    army = Army(
        file=file,
        name=top.name,
        description=top.description,
        points_limit=top.points_limit,
        generals=generals,
        units=units,
    )
    _check_army(army)
    return army


def _label(raw: Any) -> str:
    name = raw.get("name") if isinstance(raw, dict) else None
    return f'"{name}"' if isinstance(name, str) else "(unnamed)"


def _structural(model: type[Any], raw: Any, file: str, where: str, rules: dict[str, str]) -> Any:
    try:
        return validate(model, raw, file, where)
    except DataError as exc:
        loc = exc.field[len(where) :].lstrip(".")
        field = loc.split(".", 1)[0].split("[", 1)[0]
        clause = rules.get(field)
        if clause is None:
            raise
        raise DataError(exc.file, exc.field, f"{exc.reason} [rule {cite(clause)}]") from None


def _check_mixed(u: ArmyUnit, file: str, where: str) -> None:
    # into-the-dark:troops.unit-organisation.mixed
    """A mixed unit (troops.unit-organisation, ruling 76): one formation (density and category), at
    least one figure of its own type, each part a valid unit of its own."""
    clause = "troops.unit-organisation"
    if u.champion:
        raise _fail(file, where, clause, "a champion is a single figure, not a mixed unit")
    if sum(p.figures for p in u.mixed) >= u.figures:
        raise _fail(
            file,
            where + ".mixed",
            clause,
            f"the mixed figures leave none of {u.code} in the {u.figures} figures",
        )
    d, _, c = profiles.parse_code(u.code)
    for i, p in enumerate(u.mixed):
        pd, _, pc = profiles.parse_code(p.code)
        if (pd, pc) != (d, c):
            raise _fail(
                file,
                f"{where}.mixed[{i}]",
                clause,
                f"{p.code} mixed into {u.code}: the figures of a unit share its density and category "
                "(one formation in ranks)",
            )
    for i, part in enumerate(u.parts()[1:]):
        check_unit(part, file, f"{where}.mixed[{i}]")


def _fail(file: str, where: str, clause: str, reason: str) -> DataError:
    return DataError(file, where, f"{reason} [rule {cite(clause)}]")


def check_unit(u: ArmyUnit, file: str, where: str) -> None:
    """Every per-unit restriction of the text, in the order of the text."""
    if u.mixed:
        _check_mixed(u, file, where)
    opts = u.options
    dup = sorted({o for o in opts if opts.count(o) > 1})
    if dup:
        raise _fail(file, where, "special-troops.special-troops", f"option {dup[0]!r} is listed twice")

    # Formations / Unit Organisation: one rectangle of `frontage` x `ranks`, the last rank may be short.
    if (
        u.frontage is not None
        and u.ranks is not None
        and not (u.ranks - 1) * u.frontage < u.figures <= u.ranks * u.frontage
    ):
        raise _fail(
            file,
            where,
            "setup.formations",
            f"{u.figures} figures do not form {u.ranks} ranks of {u.frontage}",
        )
    if u.front > u.figures:
        raise _fail(
            file, where, "setup.formations", f"frontage {u.front} is wider than the {u.figures} figures"
        )

    # Troop Types: melee troops have melee weapons, missile troops missile weapons, cross trained both.
    if u.type == "melee" and u.basic_weapon is not None:
        what = f"weapon {u.weapon!r}" if u.weapon else "a bow option"
        raise _fail(
            file,
            where,
            "troops.troop-types",
            f"melee troops have no missile weapon ({what}); make the unit missile or cross-trained",
        )
    if u.has_missiles and u.basic_weapon is None:
        raise _fail(
            file,
            where,
            "troops.troop-types",
            f"{u.type} troops need a missile weapon (bow, sling or javelin)",
        )

    # Missile Weapons: slings are "used by foot troops"; a mounted unit's bow is a Mounted Bow.
    w = u.missile_weapon
    if w is not None:
        row = profiles.missile_weapons()[w]
        if u.category not in row.category:
            clause = row.clause
            raise _fail(file, where, clause, f"{row.name} is a foot weapon; {u.name} is mounted")

    bows = [o for o in BOW_OPTIONS if u.has(o)]
    if len(bows) > 1:
        raise _fail(file, where, "swat.swat", f"choose one of {', '.join(bows)}")
    if bows and u.basic_weapon != "bow":
        clause = "swat.longbow" if bows[0] == "longbow" else "swat.crossbow"
        raise _fail(file, where, clause, f'{bows[0]} needs weapon = "bow" (got {u.weapon!r})')

    # Special Troops.
    if u.champion and u.figures != profiles.special().champion.figures:
        raise _fail(
            file,
            where,
            "special-troops.champions",
            f"a champion is represented by a single figure (got {u.figures})",
        )
    if u.has("warband") and u.category != "F":
        raise _fail(file, where, "special-troops.warbands", "only a foot unit may be declared a Warband")
    if u.has("skirmisher") and not (u.density == "O" and u.type == "missile"):
        raise _fail(
            file,
            where,
            "special-troops.skirmishers",
            f"only open order missile units may be declared skirmishers (this unit is {u.code} {u.type})",
        )
    if u.has("peasant") and not u.peasant:
        raise _fail(
            file,
            where,
            "special-troops.peasants",
            f'the peasant option needs quality "peasant" (level 1), not {u.quality!r}',
        )

    # SWAT.
    if u.peasant:
        swat = [o for o in SWAT_OPTIONS if u.has(o)]
        if swat:
            raise _fail(file, where, "swat.swat", f"Peasant class units may not use SWAT ({', '.join(swat)})")
    if u.has("longbow"):
        if u.cross_trained:
            raise _fail(file, where, "swat.longbow", "units with longbows may not be cross trained")
        if u.category != "F":
            raise _fail(
                file, where, "swat.longbow", "longbows are a foot weapon (a mounted bow is a Mounted Bow)"
            )
    if u.has("polearm"):
        if not u.has_melee_weapons:
            raise _fail(
                file,
                where,
                "swat.polearm",
                "a polearm is a melee weapon: missile troops cannot carry one (make them cross-trained)",
            )
        if u.has("pike"):
            raise _fail(file, where, "swat.polearm", "choose polearm or pike, not both")
    if u.has("crossbow") and not u.has_missiles:
        raise _fail(file, where, "swat.crossbow", "crossbows arm missile troops")
    if u.has("heavy-crossbow") and u.category != "F":
        raise _fail(
            file,
            where,
            "swat.crossbow",
            "heavy crossbows are foot weapons (any bow used by mounted troops is a Mounted Bow)",
        )
    if u.has("pike"):
        if u.cross_trained:
            raise _fail(file, where, "swat.pike", "units with pikes may not be cross trained")
        if u.type == "missile":
            raise _fail(
                file,
                where,
                "swat.pike",
                "a pike is a melee weapon; missile troops with pikes would be cross trained, "
                "and units with pikes may not be cross trained",
            )
    if u.has("shieldwall"):
        if not (u.density == "C" and u.category == "F"):
            why = "a champion is always open order" if u.champion else f"this unit is {u.code}"
            raise _fail(
                file,
                where,
                "swat.shieldwall",
                f"only close order foot troops may use Shieldwall ({why})",
            )
        if not u.has_shields:
            raise _fail(
                file,
                where,
                "swat.shieldwall",
                "Shieldwall needs troops with large shields (this unit has no shields)",
            )


def _check_army(army: Army) -> None:
    """Army-wide restrictions: names, generals, divisions, champion-generals, the points limit."""
    file = army.file
    seen: dict[str, int] = {}
    for i, u in enumerate(army.units):
        if u.name in seen:
            raise _fail(
                file,
                f"units[{i}] {u.label}",
                "troops.unit-organisation",
                f"unit name used twice (also units[{seen[u.name]}]); every unit needs its own name",
            )
        seen[u.name] = i

    if not army.generals:
        raise _fail(file, "generals", "command.generals", "each army must have at least one general")
    gnames: dict[str, int] = {}
    divisions: dict[str, int] = {}
    champions: dict[str, int] = {}
    for i, g in enumerate(army.generals):
        where = f'generals[{i}] "{g.name}"'
        if g.name in gnames or (g.name in seen and g.champion != g.name):
            raise _fail(
                file, where, "command.generals", "general name already used by another general or unit"
            )
        gnames[g.name] = i
        if g.division is not None:
            if g.division in divisions:
                raise _fail(
                    file,
                    where,
                    "command.divisions",
                    f"division {g.division!r} already has a general (generals[{divisions[g.division]}])",
                )
            divisions[g.division] = i
        if g.champion is not None:
            if g.champion not in seen:
                raise _fail(file, where, "command.champion-generals", f"no unit named {g.champion!r}")
            if not army.units[seen[g.champion]].champion:
                raise _fail(
                    file,
                    where,
                    "command.champion-generals",
                    f'unit {g.champion!r} is not a champion (add the "champion" option)',
                )
            if g.mounted is not None:
                raise _fail(
                    file,
                    where,
                    "command.champion-generals",
                    "a champion-general rides or walks as his champion unit does; drop `mounted`",
                )
            if g.champion in champions:
                raise _fail(
                    file, where, "command.champion-generals", f"champion {g.champion!r} is already a general"
                )
            champions[g.champion] = i

    commanding = [i for i, g in enumerate(army.generals) if g.commanding]
    if len(army.generals) > 1 and len(commanding) != 1:
        raise _fail(
            file,
            "generals",
            "command.generals",
            f"an army with several generals needs exactly one with commanding = true (got {len(commanding)})",
        )

    for i, u in enumerate(army.units):
        if u.division not in divisions:
            raise _fail(
                file,
                f"units[{i}] {u.label}",
                "command.divisions",
                f"division {u.division!r} has no general; every division is put under the command of a "
                f"general (known: {', '.join(divisions) or 'none'})",
            )

    if army.points_limit is not None:
        from .points import army_cost

        total = army_cost(army).total
        if total > army.points_limit:
            raise _fail(
                file,
                "points_limit",
                "troops.choosing-your-army",
                f"the army costs {total} points, over its limit of {army.points_limit}",
            )
