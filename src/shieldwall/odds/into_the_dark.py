"""Exact odds for ``into-the-dark``, computed from ``combat.MeleeSituation`` / ``MissileSituation``
and ``morale.MoraleSituation`` / ``ControlSituation`` (the objects the game samples).

SPEC: ``FIGURES CODE QUALITY [OPTION ...]``, e.g. ``"12 CAF average"``, ``"16 LUF levy bow"``,
``"8 LMM elite cross-trained javelin"``.

* FIGURES: the unit's figures, formed in two ranks ("a two rank deep line", Formations); all of
  them fight. Casualties come off the rear rank first; a disordered unit fights with its front rank
  only in melee (movement.disorder). It is also the unit's original strength for the casualty
  morale modifier.
* CODE: density C/L/O, armour U/P/A/M/E, F (foot) or M (mounted) ("Troop Types").
* QUALITY: peasant, levy, average, elite, fanatic.
* OPTIONs: ``cross-trained``; a missile weapon ``bow``, ``sling`` or ``javelin`` (a unit with one
  is missile troops unless cross-trained); the special troops and SWAT options of the army file
  ``longbow``, ``crossbow``, ``heavy-crossbow``, ``polearm``, ``pike``, ``shieldwall``, ``warband``,
  ``skirmisher``, ``peasant``, ``no-shield``. The unit is checked exactly as an army file's unit
  (``army.check_unit``). A unit with ``shieldwall`` is taken to be *in* shieldwall unless it is
  disordered ("Disordered units may not be in shieldwall").

Import stays light: the rules modules are imported inside the functions.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import cache, lru_cache, partial
from operator import itemgetter
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from shieldwall.core.errors import ShieldwallError, UnknownName
from shieldwall.odds.base import (
    AttackOdds,
    DuelOdds,
    Given,
    Grid,
    MatrixOdds,
    MoraleOdds,
    OddsPlugin,
    Progress,
    ReadSettings,
    SetKey,
    attack_odds,
    morale_odds,
)

if TYPE_CHECKING:
    from shieldwall.core.dice import Dist
    from shieldwall.rulesets.into_the_dark.army import ArmyUnit
    from shieldwall.rulesets.into_the_dark.combat import Troops

RS = "into-the-dark"
FACINGS = ("front", "flank", "rear")

QUALITIES = ("peasant", "levy", "average", "elite", "fanatic")
WEAPONS = ("bow", "sling", "javelin")
UNIT_OPTIONS = (
    "longbow",
    "crossbow",
    "heavy-crossbow",
    "polearm",
    "pike",
    "shieldwall",
    "warband",
    "skirmisher",
    "peasant",
    "no-shield",
)
BOW_OPTIONS = ("longbow", "crossbow", "heavy-crossbow")
OPTIONS = ("cross-trained", *WEAPONS, *UNIT_OPTIONS)
YES_NO = ("yes", "no")
GENERALS = ("none", "poor", "average", "good")

_X = frozenset({"matrix"})
_A = frozenset({"attack"})
_M = frozenset({"morale"})
_D = frozenset({"duel"})
_AD = frozenset({"attack", "duel"})
_AM = frozenset({"attack", "morale"})
_ADM = frozenset({"attack", "duel", "morale"})

SET_KEYS: dict[str, SetKey] = {
    k.name: k
    for k in (
        SetKey(
            "mode",
            "melee (a round of melee) or shoot (missile fire)",
            "melee",
            ("melee", "shoot"),
            commands=_A,
        ),
        SetKey(
            "facing",
            "side of the target the attacking figures are in contact with, or shot from (rear: "
            "shields do not count)",
            "front",
            ("front", "flank", "rear"),
            commands=_A,
        ),
        SetKey(
            "charging",
            "melee: the attacker (duel: the first unit) charged this round, +1",
            "no",
            YES_NO,
            commands=_AD,
        ),
        SetKey(
            "impetuous",
            "melee: an impetuous charge (cavalry and warbands): double dice in the first "
            "round; in a duel the second unit tests morale on receiving it",
            "no",
            YES_NO,
            commands=_AD,
        ),
        SetKey(
            "uphill",
            "attack: the target is uphill of the attacker (-1); duel: the second unit is uphill "
            "of the first (-1 to the first's dice, +1 to the second's morale); morale: the unit is uphill "
            "of all enemy (+1)",
            "no",
            YES_NO,
            commands=_ADM,
        ),
        SetKey(
            "obstacle",
            "melee: the target (duel: the second unit) defends an obstacle (fence, ditch) on "
            "the side attacked (-1; in a duel also +1 to its morale, 'in cover')",
            "no",
            YES_NO,
            commands=_AD,
        ),
        SetKey(
            "range",
            "shoot: every firing figure at close or long range (long: 1 d6 per 8 figures)",
            "close",
            ("close", "long"),
            commands=_A,
        ),
        SetKey(
            "cover",
            "shoot: the target is in light cover (woods, fences) -1 or heavy cover (buildings, walls) -2",
            "none",
            ("none", "light", "heavy"),
            commands=_A,
        ),
        SetKey(
            "shaken",
            "attack: the attacker is shaken (steady fanatics lose their +1); morale: the unit is shaken (-1)",
            "no",
            YES_NO,
            commands=_AM,
        ),
        SetKey(
            "disordered",
            "attack: the attacker is disordered (only its front rank fights in melee, no "
            "shieldwall); morale: the unit is disordered (-1)",
            "no",
            YES_NO,
            commands=_AM,
        ),
        SetKey(
            "target-disordered", "the target is disordered (so not in shieldwall)", "no", YES_NO, commands=_A
        ),
        SetKey(
            "target-firing",
            "shoot: the target is firing bows (it cannot use shields)",
            "no",
            YES_NO,
            commands=_A,
        ),
        SetKey(
            "test",
            "morale test (passed / shaken / driven back / routed) or control test (passed / failed)",
            "morale",
            ("morale", "control"),
            commands=_M,
        ),
        SetKey(
            "casualties",
            "figures lost from the SPEC's strength (-1 per full 25%)",
            0,
            int_range=(0, 1000),
            commands=_M,
        ),
        SetKey("flanked", "the unit has been flanked by enemy in melee (-3)", "no", YES_NO, commands=_M),
        SetKey(
            "outnumber",
            "the unit outnumbers its melee opponents by double or more (+1)",
            "no",
            YES_NO,
            commands=_M,
        ),
        SetKey("long-range-only", "receiving long range missile fire only (+1)", "no", YES_NO, commands=_M),
        SetKey(
            "fewer-firers",
            "receiving missile fire from fewer enemy than its own numbers (+1)",
            "no",
            YES_NO,
            commands=_M,
        ),
        SetKey(
            "deeper-ranks",
            "the opposing unit in melee has more complete ranks (-1)",
            "no",
            YES_NO,
            commands=_M,
        ),
        SetKey(
            "supported",
            'unrouted friends within 3" of both flanks or 6" behind (+1)',
            "no",
            YES_NO,
            commands=_M,
        ),
        SetKey(
            "unsupported", 'no unrouted friendly troops in sight within 12" (-2)', "no", YES_NO, commands=_M
        ),
        SetKey(
            "friends-routing",
            'friendly units routing within 12" (-1 each)',
            0,
            int_range=(0, 50),
            commands=_M,
        ),
        SetKey(
            "in-cover",
            "completely in or behind cover for missile fire, or defending an obstacle in melee, "
            "or behind the front lines (+1)",
            "no",
            YES_NO,
            commands=_M,
        ),
        SetKey(
            "types",
            "matrix: every representative troop type of odds/data/into-the-dark-types.toml (all) or "
            "the 8 marked core",
            "all",
            ("all", "core"),
            commands=_X,
        ),
        SetKey(
            "charge",
            "matrix: the row unit's opening charge (the first round, and the mean of one round): none; "
            "charge (+1); impetuous (cavalry and Warbands charge impetuously: double dice, and the "
            "column unit tests morale on receiving it; the others charge)",
            "charge",
            ("none", "charge", "impetuous"),
            commands=_X,
        ),
        SetKey(
            "general",
            "a general leading the unit negates negative modifiers up to his rating (poor 1, "
            "average 2, good 3)",
            "none",
            GENERALS,
            commands=_M,
        ),
    )
}

SPEC_HELP = (
    "FIGURES CODE QUALITY [OPTION ...], e.g. '12 CAF average'. FIGURES: the unit's figures, in two ranks, "
    "all fighting (and its original strength). CODE: density C/L/O + armour U/P/A/M/E + F foot / M "
    "mounted. QUALITY: "
    + ", ".join(QUALITIES)
    + ". OPTIONs: cross-trained; a missile weapon "
    + ", ".join(WEAPONS)
    + " (missile troops unless cross-trained); "
    + ", ".join(UNIT_OPTIONS)
    + ". Checked like a unit of an army file; a shieldwall unit is in shieldwall unless disordered."
)


@dataclass(frozen=True, slots=True)
class ITDSpec:
    """A parsed into-the-dark SPEC."""

    figures: int
    code: str
    quality: str
    weapon: str | None = None
    cross_trained: bool = False
    options: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        parts = [str(self.figures), self.code, self.quality]
        if self.cross_trained:
            parts.append("cross-trained")
        if self.weapon:
            parts.append(self.weapon)
        return " ".join([*parts, *self.options])

    def __str__(self) -> str:
        return self.text


@lru_cache(maxsize=512)
def parse_spec(text: str) -> ITDSpec:
    """Parse ``FIGURES CODE QUALITY [OPTION ...]`` (case-insensitive; commas allowed).

    >>> parse_spec("12 caf Average, shieldwall")
    ITDSpec(figures=12, code='CAF', quality='average', weapon=None, cross_trained=False, \
options=('shieldwall',))
    >>> parse_spec("12 CAF brave")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    shieldwall.core.errors.UnknownName: unknown quality 'brave'; valid choices: peasant, levy, ...
    """
    tokens = str(text).replace(",", " ").split()
    if len(tokens) < 3:
        raise ShieldwallError(f"unit SPEC {text!r} is too short; expected {SPEC_HELP}")
    try:
        figures = int(tokens[0])
    except ValueError:
        raise ShieldwallError(
            f"unit SPEC {text!r} must start with the number of figures, e.g. '12 CAF average'"
        ) from None
    if not 1 <= figures <= 1000:
        raise ShieldwallError(f"unit SPEC {text!r}: figures must be 1..1000")
    code = tokens[1].upper()
    if len(code) != 3 or code[0] not in "CLO" or code[1] not in "UPAME" or code[2] not in "FM":
        raise ShieldwallError(
            f"unit SPEC {text!r}: code {tokens[1]!r} must be density C/L/O + armour U/P/A/M/E "
            "+ F (foot) or M (mounted)"
        )
    quality = tokens[2].lower()
    if quality not in QUALITIES:
        raise UnknownName("quality", tokens[2], QUALITIES)
    weapon: str | None = None
    cross = False
    opts: list[str] = []
    for tok in tokens[3:]:
        o = tok.lower().replace("_", "-")
        if o not in OPTIONS:
            raise UnknownName("unit option", tok, OPTIONS)
        if o in opts or (o == "cross-trained" and cross) or o == weapon:
            raise ShieldwallError(f"unit SPEC {text!r}: option {o!r} given twice")
        if o == "cross-trained":
            cross = True
        elif o in WEAPONS:
            if weapon is not None:
                raise ShieldwallError(f"unit SPEC {text!r}: one missile weapon only ({weapon} and {o})")
            weapon = o
        else:
            opts.append(o)
    return ITDSpec(figures, code, quality, weapon, cross, tuple(opts))


@cache
def _rules() -> Any:
    """The rules modules, imported on first use."""
    from shieldwall.rulesets.into_the_dark import army, combat, morale, profiles

    return army, combat, morale, profiles


@dataclass(frozen=True, slots=True)
class Side:
    """A SPEC as the rules see it: the army-file unit and its two-rank formation.

    What the queries read of the unit is read once, when the SPEC is parsed (``text``, ``figures``,
    ``front``, ``shieldwall``, ``pike``, ``quality``: the army unit is a pydantic model, slow to ask)."""

    spec: ITDSpec
    unit: ArmyUnit
    text: str = field(init=False, compare=False, repr=False)
    figures: int = field(init=False, compare=False, repr=False)
    front: int = field(init=False, compare=False, repr=False)
    shieldwall: bool = field(init=False, compare=False, repr=False)
    pike: bool = field(init=False, compare=False, repr=False)
    quality: int = field(init=False, compare=False, repr=False)
    shoots: bool = field(init=False, compare=False, repr=False)
    #: (disordered, melee) -> figures that count at full strength (``fighting``)
    full: dict[tuple[bool, bool], int] = field(init=False, compare=False, repr=False)
    #: Templates for new questions (``with_fields``): control -> the unit's morale (False) or control
    #: (True) test with no modifier but shieldwall; its melee attack and its shot (None if it does not
    #: shoot), each on itself with nothing in contact.
    tests: dict[bool, Any] = field(init=False, compare=False, repr=False)
    melee: Any = field(init=False, compare=False, repr=False)
    shot: Any = field(init=False, compare=False, repr=False)
    _hash: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        u = self.unit
        for name, value in (
            ("text", self.spec.text),
            ("figures", self.spec.figures),
            ("front", u.front),
            ("shieldwall", u.has("shieldwall")),
            ("pike", u.has("pike")),
            ("quality", u.quality_level),
            ("shoots", u.missile_weapon is not None),
            ("_hash", hash(self.spec)),
        ):
            object.__setattr__(self, name, value)
        object.__setattr__(
            self,
            "full",
            {
                (dis, melee): self._fighting(self.figures, dis, melee)
                for dis in (False, True)
                for melee in (False, True)
            },
        )
        _, combat, morale, _ = _rules()
        tests = {
            control: _plain(cls(quality=self.quality, original=self.figures, shieldwall=self.shieldwall))
            for control, cls in ((False, morale.MoraleSituation), (True, morale.ControlSituation))
        }
        object.__setattr__(self, "tests", tests)
        me = self.troops()
        object.__setattr__(self, "melee", _plain(combat.MeleeSituation(me, me)))
        object.__setattr__(self, "shot", _plain(combat.MissileSituation(me, me)) if self.shoots else None)

    def __hash__(self) -> int:
        return self._hash

    def fighting(self, figures: int, disordered: bool, melee: bool = True) -> int:
        """Figures that count with ``figures`` left: casualties come off the rear rank first."""
        if figures == self.figures:
            return self.full[(disordered, melee)]
        return self._fighting(figures, disordered, melee)

    def _fighting(self, figures: int, disordered: bool, melee: bool) -> int:
        combat = _rules()[1]
        front = min(self.front, figures)
        return int(
            combat.fighting_figures(
                front, [figures - front], melee=melee, disordered=disordered, pike=self.pike
            )
        )

    def troops(self, shaken: bool = False, disordered: bool = False, firing: bool = False) -> Troops:
        return _troops(self, shaken, disordered, firing)

    def _make_troops(self, shaken: bool, disordered: bool, firing: bool) -> Troops:
        combat = _rules()[1]
        t: Troops = combat.Troops.from_unit(
            self.unit,
            shaken=shaken,
            disordered=disordered,
            in_shieldwall=self.shieldwall and not disordered,
            firing=firing,
        )
        return t


def _plain(sit: Any) -> Any:
    """The same situation holding its fields in a plain dict of its own, which ``with_fields`` copies
    fast: a template for new questions."""
    return type(sit).from_fields({f.name: getattr(sit, f.name) for f in fields(sit)})


@lru_cache(maxsize=4096)
def _troops(side: Side, shaken: bool, disordered: bool, firing: bool) -> Troops:
    return side._make_troops(shaken, disordered, firing)


@lru_cache(maxsize=512)
def side(spec: ITDSpec) -> Side:
    """Build and check the army-file unit of a SPEC (``army.check_unit``)."""
    army = _rules()[0]
    bow_opt = any(o in BOW_OPTIONS for o in spec.options)
    role = "cross-trained" if spec.cross_trained else ("missile" if spec.weapon or bow_opt else "melee")
    try:
        unit = army.ArmyUnit(
            name=spec.text,
            division="odds",
            code=spec.code,
            quality=spec.quality,
            type=role,
            figures=spec.figures,
            frontage=-(-spec.figures // 2),
            weapon=spec.weapon,
            options=spec.options,
        )
    except ValueError as exc:  # pydantic
        raise ShieldwallError(f"unit SPEC {spec.text!r}: {exc}") from None
    army.check_unit(unit, "SPEC", repr(spec.text))
    return Side(spec, unit)


@lru_cache(maxsize=8192)
def situation_dist(sit: Any) -> Dist:
    """``sit.dist()``, memoised (the rules' situations are frozen, hashable values)."""
    d: Dist = sit.dist()
    return d


def _yes(v: object) -> bool:
    return v == "yes"


def _rule_error(exc: ValueError) -> ShieldwallError:
    return ShieldwallError(str(exc))


def _pool_details(sit: Any) -> tuple[str, ...]:
    out = []
    for g in sit.pool():
        mods = ", ".join(f"{m.name} {m.value:+d}" for m in g.modifiers) or "no modifiers"
        out.append(f"{g.label}: {g.dice} d6 ({g.rate}) hitting on {g.need}+ [armour {g.hit_on}; {mods}]")
    return tuple(out) or ("no dice",)


def _morale_details(sit: Any) -> tuple[str, ...]:
    """What applied to a morale or control test, in words."""
    test = "control" if isinstance(sit, _rules()[2].ControlSituation) else "morale"
    mods = "".join(f", {m.name} {m.value:+d}" for m in sit.modifiers())
    return (f"{test} test: d6 against morale level {sit.level} (quality {sit.quality}{mods})",)


Sets = Iterable[str] | Mapping[str, str | int] | None

_MORALE_NAMES = ("passed", "shaken", "driven_back", "routed")
#: --set key -> the ``MoraleSituation`` field it sets: a line of the table (yes/no as True/False, or
#: a number)
_MORALE_ARGS = {
    "shaken": "shaken",
    "disordered": "disordered",
    "casualties": "casualties",
    "flanked": "flanked",
    "outnumber": "outnumber_double",
    "long-range-only": "long_range_missile_only",
    "fewer-firers": "fewer_firers",
    "deeper-ranks": "deeper_ranks",
    "supported": "supported",
    "friends-routing": "friends_routing",
    "unsupported": "unsupported",
    "uphill": "uphill",
    "in-cover": "in_cover",
}
#: --set keys that apply to shooting only, and their defaults (a melee attack must leave them so)
_SHOOT_ONLY = ("range", "cover", "target-firing")
_SHOOT_ONLY_VALUES = itemgetter(*_SHOOT_ONLY)
_SHOOT_ONLY_DEFAULTS = _SHOOT_ONLY_VALUES({k: SET_KEYS[k].default for k in _SHOOT_ONLY})
#: ``ControlOutcome`` ints: FAILED 0, PASSED 1.
_CONTROL_NAMES = ("failed", "passed")
_CONTROL_ORDER = ("passed", "failed")


@lru_cache(maxsize=1024)
def _outcomes(level: int, control: bool) -> Mapping[str, Fraction]:
    """name -> exact probability of each outcome of a morale (or control) test against the modified
    ``level``: the outcome table per level (``morale.morale_dist`` / ``control_dist``, which is what
    ``MoraleSituation.dist()`` / ``ControlSituation.dist()`` are), read-only, memoised."""
    morale = _rules()[2]
    dist: Dist = (morale.control_dist if control else morale.morale_dist)(level)
    names = _CONTROL_NAMES if control else _MORALE_NAMES
    out = {name: dist.probability(i) for i, name in enumerate(names)}
    if control:
        out = {k: out[k] for k in _CONTROL_ORDER}
    return MappingProxyType(out)


#: The representative troop types of the matchup table (a data file: into-the-dark has no fixed list).
TYPES_FILE = Path(__file__).resolve().parent / "data" / "into-the-dark-types.toml"
_TYPE_FIELDS = {"name": str, "short": str, "spec": str, "core": bool, "source": str}


@dataclass(frozen=True, slots=True)
class TroopType:
    """One representative troop type: a name, a short column label, its SPEC and where it comes from."""

    name: str
    short: str
    spec: str
    core: bool
    source: str


def load_troop_types(path: Path | str = TYPES_FILE) -> tuple[TroopType, ...]:
    """Read and check a troop-types file: every field present and of its type, names and short labels
    unique (short: at most 5 characters), and every SPEC a valid unit (``army.check_unit``).

    >>> [t.name for t in troop_types() if t.core][:3]
    ['huscarls', 'select fyrd', 'levy spearmen']
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ShieldwallError(f"{path}: cannot read the troop types: {exc}") from None
    rows = data.get("types")
    if not isinstance(rows, list) or not rows:
        raise ShieldwallError(f"{path}: expected [[types]] entries")
    out: list[TroopType] = []
    for n, row in enumerate(rows, 1):
        where = f"{path.name}: [[types]] #{n}"
        if not isinstance(row, dict):
            raise ShieldwallError(f"{where}: expected a table")
        extra = set(row) - set(_TYPE_FIELDS)
        if extra:
            raise ShieldwallError(f"{where}: unknown field(s) {', '.join(sorted(extra))}")
        for k, typ in _TYPE_FIELDS.items():
            if not isinstance(row.get(k), typ):
                raise ShieldwallError(f"{where}: field {k!r} must be a {typ.__name__}")
        t = TroopType(**row)
        if not 1 <= len(t.short) <= 5:
            raise ShieldwallError(f"{where} ({t.name}): short label {t.short!r} must be 1-5 characters")
        try:
            side(parse_spec(t.spec))
        except ShieldwallError as exc:
            raise ShieldwallError(f"{where} ({t.name}): {exc}") from None
        out.append(t)
    for attr in ("name", "short"):
        seen: set[str] = set()
        for t in out:
            v = getattr(t, attr).lower()
            if v in seen:
                raise ShieldwallError(f"{path.name}: {attr} {getattr(t, attr)!r} appears twice")
            seen.add(v)
    return tuple(out)


@cache
def troop_types() -> tuple[TroopType, ...]:
    """The representative troop types (``odds/data/into-the-dark-types.toml``), loaded once."""
    return load_troop_types()


#: SPEC text as given -> its ``Side`` (the parsed units: ``parse_spec`` and ``side`` in one look-up)
_SIDES: dict[str, Side] = {}


class IntoTheDarkOdds(OddsPlugin):
    ruleset: ClassVar[str] = RS
    title: ClassVar[str] = "Into the Dark"
    commands: ClassVar[tuple[str, ...]] = ("attack", "morale", "duel", "matrix")
    spec_help: ClassVar[str] = SPEC_HELP
    spec_examples: ClassVar[tuple[str, ...]] = (
        "12 CAF average",
        "16 LUF levy bow",
        "12 CPF elite shieldwall",
        "8 LAM elite cross-trained javelin",
    )
    set_keys: ClassVar[Mapping[str, SetKey]] = SET_KEYS

    def parse_spec(self, text: str) -> ITDSpec:
        return parse_spec(text)

    def side(self, text: str) -> Side:
        got = _SIDES.get(text)
        if got is None:
            got = side(parse_spec(text))
            if len(_SIDES) >= 512:
                _SIDES.pop(next(iter(_SIDES)))
            _SIDES[text] = got
        return got

    # --- one attack -------------------------------------------------------------------------------
    def attack(self, attacker: str, target: str, sets: Sets = None) -> AttackOdds:
        """Exact casualties of one round of melee or one volley (memoised per query).

        >>> PLUGIN.attack("12 CAF average", "12 CPF average").probabilities
        {0: Fraction(1, 8), 1: Fraction(3, 8), 2: Fraction(3, 8), 3: Fraction(1, 8)}
        """
        return self.memo("attack", (attacker, target), sets, self._attack)

    def _attack(self, specs: tuple[str, ...], st: ReadSettings, given: Given) -> AttackOdds:
        attacker, target = specs
        a, t = _SIDES.get(attacker) or self.side(attacker), _SIDES.get(target) or self.side(target)
        facing = str(st["facing"])
        dis = st["disordered"] == "yes"
        tgt = _troops(t, False, st["target-disordered"] == "yes", st["target-firing"] == "yes")
        att = _troops(a, st["shaken"] == "yes", dis, False)
        # ``with_fields``: the constructors' values, with the same checks
        try:
            if st["mode"] == "melee":
                if _SHOOT_ONLY_VALUES(st) != _SHOOT_ONLY_DEFAULTS:
                    for k, default in zip(_SHOOT_ONLY, _SHOOT_ONLY_DEFAULTS, strict=True):
                        if st[k] != default:
                            raise ShieldwallError(
                                f"--set {k} applies to shooting only (add --set mode=shoot)"
                            )
                impetuous = st["impetuous"] == "yes"
                if impetuous:
                    self._check_impetuous(a)
                changes: dict[str, Any] = {"attacker": att, "target": tgt, facing: a.full[(dis, True)]}
                if st["charging"] == "yes":
                    changes["charging"] = True
                if impetuous:
                    changes["impetuous"] = True
                if st["uphill"] == "yes":
                    changes["target_uphill"] = True
                if st["obstacle"] == "yes":
                    changes["obstacle"] = (facing,)
                sit: Any = a.melee.with_fields(changes)
            else:
                for k in ("charging", "impetuous", "uphill", "obstacle"):
                    if st[k] == "yes":
                        raise ShieldwallError(f"--set {k} applies to melee only")
                if not a.shoots:
                    raise ShieldwallError(
                        f"{a.text!r} is melee troops and cannot shoot (give it a weapon: "
                        + ", ".join(WEAPONS)
                        + ")"
                    )
                changes = {"shooter": att, "target": tgt, str(st["range"]): a.full[(dis, False)]}
                if facing == "rear":
                    changes["from_rear"] = True
                if st["cover"] != "none":
                    changes["cover"] = st["cover"]
                sit = a.shot.with_fields(changes)
            dist = sit.dist()
        except ValueError as exc:
            raise _rule_error(exc) from None
        return attack_odds(RS, a.text, t.text, st, dist, sit, partial(_pool_details, sit), "casualties")

    @staticmethod
    def _check_impetuous(a: Side) -> None:
        if not (a.unit.mounted or a.unit.has("warband")):
            raise ShieldwallError(
                f"{a.spec.text!r} cannot charge impetuously: impetuous charges are normally permitted "
                "only to "
                "cavalry, and to Warbands (movement.impetuous-charges, special-troops.warbands)"
            )

    # --- morale -------------------------------------------------------------------------------------
    def morale(self, unit: str, sets: Sets = None) -> MoraleOdds:
        """Exact outcomes of a morale (or control) test (memoised per query).

        >>> o = PLUGIN.morale("12 CAF average", {"shaken": "yes"}).outcomes
        >>> o["passed"], o["shaken"], o["driven_back"], o["routed"]
        (Fraction(1, 3), Fraction(1, 6), Fraction(1, 3), Fraction(1, 6))
        """
        return self.memo("morale", (unit,), sets, self._morale)

    def _morale(self, specs: tuple[str, ...], s: ReadSettings, given: Given) -> MoraleOdds:
        u = _SIDES.get(specs[0]) or self.side(specs[0])
        # the fields of the unit's test that the settings change: the lines of the table given (the
        # yes/no lines, casualties, friends routing), and a disordered unit is out of shieldwall
        changes: dict[str, Any] = {}
        for key, value in given:
            arg = _MORALE_ARGS.get(key)
            if arg is not None:
                changes[arg] = value == "yes" if type(value) is str else value
        if changes.get("disordered"):
            changes["shieldwall"] = False
        gen = s["general"]
        if gen != "none":
            changes["general"] = _rules()[3].command().ratings[gen].rating
        control = s["test"] == "control"
        try:
            # ``with_fields``: the constructor's value, with the same checks
            sit: Any = u.tests[control].with_fields(changes)
            level = sit.level
            outcomes = _outcomes(level, control)
        except ValueError as exc:
            cas = int(s["casualties"] or 0)
            if cas > u.figures:  # (``with_fields`` checks it too, in the rules' words)
                raise ShieldwallError(
                    f"--set casualties={cas} is more than the unit's {u.figures} figures"
                ) from None
            raise _rule_error(exc) from None
        return morale_odds(RS, u.text, s, outcomes, sit, partial(_morale_details, sit))

    # --- duel ---------------------------------------------------------------------------------------
    def duel(
        self, first: str, second: str, sets: Sets = None, *, progress: Progress | None = None
    ) -> DuelOdds:
        """Rounds of simultaneous melee, each followed by the morale tests, until one unit routs or
        is destroyed; solved as an absorbing Markov chain (memoised per query).

        >>> d = PLUGIN.duel("12 CAF average", "12 CPF average")
        >>> d.first_wins + d.second_wins + d.draw + d.undecided
        Fraction(1, 1)
        >>> d.first_wins > d.second_wins
        True
        """
        return self.memo("duel", (first, second), sets, partial(self._duel, progress=progress))

    def _duel(
        self, specs: tuple[str, ...], s: ReadSettings, given: Given, progress: Progress | None = None
    ) -> DuelOdds:
        first, second = specs
        a, b = self.side(first), self.side(second)
        imp = _yes(s["impetuous"])
        if imp:
            self._check_impetuous(a)
        from shieldwall.odds.markov import simultaneous_duel

        model = _DuelModel(a, b, _yes(s["charging"]), imp, _yes(s["uphill"]), _yes(s["obstacle"]))
        try:
            sol = simultaneous_duel(model, progress=progress)
        except ValueError as exc:
            raise _rule_error(exc) from None
        details = (
            f"first: {a.spec.text} ({a.figures} figures, {a.front} wide); "
            f"second: {b.spec.text} ({b.figures} figures, {b.front} wide)",
            "each round: simultaneous melee, then the loser (more casualties) tests morale first; the winner "
            "tests if still in contact; ties test together",
            "ends when a unit routs or is destroyed (draw: both at once, or both driven back apart)",
            *(("the second unit tests morale on receiving the impetuous charge",) if imp else ()),
            *(
                ("the first unit (a warband) is disordered after the first round",)
                if model.a_disorders
                else ()
            ),
        )
        return DuelOdds(
            RS,
            a.spec.text,
            b.spec.text,
            s,
            sol.first_wins,
            sol.second_wins,
            sol.turns,
            sol.first_by_turn,
            sol.second_by_turn,
            sol.draw,
            sol.undecided,
            sol.beyond,
            sol.horizon,
            details,
        )

    # --- matrix -----------------------------------------------------------------------------------
    def matrix(self, sets: Sets = None, *, progress: Progress | None = None) -> MatrixOdds:
        """Every representative troop type against every other: the mean casualties of one round of
        melee on each facing, and P(the row type wins / the duel is drawn) of a frontal duel it
        opens with its charge (memoised per query).

        >>> m = PLUGIN.matrix({"types": "core"})
        >>> len(m.types), m.facings, m.duel_facings
        (8, ('front', 'flank', 'rear'), ('front',))
        """
        return self.memo("matrix", (), sets, partial(self._matrix, progress=progress))

    def _matrix(
        self, specs: tuple[str, ...], s: ReadSettings, given: Given, progress: Progress | None = None
    ) -> MatrixOdds:
        types = [t for t in troop_types() if s["types"] == "all" or t.core]
        sides = [self.side(t.spec) for t in types]
        charge = str(s["charge"])
        combat = _rules()[1]
        from shieldwall.odds.markov import simultaneous_duel

        def impetuous(a: Side) -> bool:
            return charge == "impetuous" and (a.unit.mounted or a.unit.has("warband"))

        mean: dict[str, Grid] = {}
        for facing in FACINGS:
            grid: Grid = []
            for a in sides:
                imp = impetuous(a)
                att = a.troops()
                row: list[Fraction | None] = []
                for b in sides:
                    sit = combat.MeleeSituation(
                        att,
                        b.troops(),
                        **{facing: a.fighting(a.figures, False)},
                        charging=charge != "none",
                        impetuous=imp,
                    )
                    row.append(situation_dist(sit).mean())
                grid.append(row)
            mean[facing] = grid
        wins: Grid = []
        draws: Grid = []
        for a in sides:
            wrow: list[Fraction | None] = []
            drow: list[Fraction | None] = []
            for b in sides:
                model = _DuelModel(a, b, charge != "none", impetuous(a), False, False)
                try:
                    sol = simultaneous_duel(model, max_turns=1)  # win probabilities only
                except ValueError as exc:
                    raise _rule_error(exc) from None
                wrow.append(sol.first_wins)
                drow.append(sol.draw)
                if progress is not None:
                    progress("duels", len(wins) * len(sides) + len(wrow), len(sides) ** 2)
            wins.append(wrow)
            draws.append(drow)
        notes = (
            f"types: {TYPES_FILE.name} ({len(types)} of {len(troop_types())}); every unit in two ranks",
            "mean: casualties the row inflicts in one round of melee on the column's facing, every "
            "figure in contact" + ("" if charge == "none" else f", with its {charge} charge"),
            "duel: frontal, in simultaneous rounds with morale tests, to a rout or destruction; "
            + ("no charge" if charge == "none" else f"the row opens with its {charge} charge"),
        )
        return MatrixOdds(
            RS,
            s,
            tuple(t.name for t in types),
            FACINGS,
            mean,
            {"front": wins},
            "casualties",
            draws={"front": draws},
            short=tuple(t.short for t in types),
            descriptions=tuple(t.spec for t in types),
            notes=notes,
        )


class _DuelModel:
    """The round-by-round rules of a frontal melee between two units, for ``simultaneous_duel``.

    State: (figures of first, figures of second, first shaken, second shaken). Round 1 has the charge
    modifiers (charging +1, impetuous double dice); a Warband that charged impetuously is disordered
    "at the end of the turn" and stays so while in melee.
    """

    def __init__(
        self, a: Side, b: Side, charging: bool, impetuous: bool, uphill: bool, obstacle: bool
    ) -> None:
        self.a, self.b = a, b
        self.charging, self.impetuous, self.uphill, self.obstacle = charging, impetuous, uphill, obstacle
        self.a_disorders = impetuous and a.unit.has("warband")
        self.a_front, self.b_front = a.front, b.front
        self._att: dict[tuple[Any, ...], tuple[tuple[tuple[int, int], ...], int]] = {}
        self._mor: dict[tuple[Any, ...], tuple[tuple[int, int], ...]] = {}
        self._interned: dict[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] = {}
        self._tests: dict[tuple[Any, ...], tuple[tuple[tuple[int, int], ...], ...]] = {}
        self._aft: dict[tuple[Any, ...], tuple[tuple[object, int], ...]] = {}

    @property
    def start(self) -> tuple[int, int]:
        return self.a.figures, self.b.figures

    def a_disordered(self, later: bool) -> bool:
        return self.a_disorders and later

    def casualties(
        self, attacker: str, figures: int, shaken: bool, later: bool
    ) -> tuple[tuple[tuple[int, int], ...], int]:
        """Casualties inflicted by ``attacker`` ('A' first / 'B' second) with ``figures`` left, as
        integer weights and their total (``MeleeSituation.dist()``)."""
        key = (attacker, figures, shaken, later)
        got = self._att.get(key)
        if got is not None:
            return got
        combat = _rules()[1]
        round1 = not later
        dis = self.a_disordered(later)
        if attacker == "A":
            sit = combat.MeleeSituation(
                self.a.troops(shaken=shaken, disordered=dis),
                self.b.troops(),
                front=self.a.fighting(figures, dis),
                charging=self.charging and round1,
                impetuous=self.impetuous and round1,
                target_uphill=self.uphill,
                obstacle=("front",) if self.obstacle else (),
            )
        else:
            sit = combat.MeleeSituation(
                self.b.troops(shaken=shaken),
                self.a.troops(disordered=dis),
                front=self.b.fighting(figures, False),
            )
        dist = situation_dist(sit)
        got = (tuple(dist.items()), dist.total)
        self._att[key] = got
        return got

    def morale(
        self, who: str, own: int, opp: int, shaken: bool, later: bool, initial: bool = False
    ) -> tuple[tuple[int, int], ...]:
        """Weights out of 6 of each ``MoraleOutcome`` of a test by ``who`` with ``own`` figures
        against ``opp`` (``MoraleSituation.dist()``)."""
        if who == "A":
            me, my_front, their_front = self.a, self.a_front, self.b_front
        else:
            me, my_front, their_front = self.b, self.b_front, self.a_front
        outnumber = not initial and own >= 2 * opp
        deeper = not initial and opp // their_front > own // my_front
        dis = who == "A" and self.a_disorders and later
        # memoised on what the test depends on (the opponent's figures only through these flags)
        key = (who, own, outnumber, deeper, shaken, dis)
        got = self._mor.get(key)
        if got is not None:
            return got
        morale = _rules()[2]
        sit = morale.MoraleSituation(
            quality=me.unit.quality_level,
            shaken=shaken,
            disordered=dis,
            casualties=me.figures - own,
            original=me.figures,
            outnumber_double=outnumber,
            deeper_ranks=deeper,
            uphill=who == "B" and self.uphill,
            in_cover=who == "B" and self.obstacle,
            shieldwall=me.shieldwall and not dis,
        )
        d = situation_dist(sit)
        got = tuple((o, w * 6 // d.total) for o, w in d.items())
        got = self._mor[key] = self._interned.setdefault(got, got)  # equal answers: one object
        return got

    def after_melee(
        self, fa: int, fb: int, sa: bool, sb: bool, loser: str, later: bool
    ) -> tuple[tuple[object, int], ...]:
        """The morale tests after a round ("Morale Tests" **: losers first, winners if still in contact,
        ties together) and their effect, as weights out of 36: 'A' / 'B' (that unit wins), 'D'
        (draw), or the new shaken flags (a unit that drives back its opponent without being driven
        back itself becomes steady)."""
        tests = self._tests.get((fa, fb, sa, sb, later))
        if tests is None:  # the same two tests whoever lost the round
            tests = self._tests[fa, fb, sa, sb, later] = (
                self.morale("A", fa, fb, sa, later),
                self.morale("B", fb, fa, sb, later),
            )
        ma, mb = tests
        # the effect depends on the two tests' outcome weights and the loser only (``morale``
        # memoises its answers, so they are told apart by identity)
        key = (id(ma), id(mb), loser)
        got = self._aft.get(key)
        if got is not None:
            return got
        shaken, back, routed = 1, 2, 3
        out: dict[object, int] = {}
        if loser == "T":
            for oa, pa in ma:
                for ob, pb in mb:
                    if oa == routed and ob == routed:
                        k: object = "D"
                    elif oa == routed:
                        k = "B"
                    elif ob == routed:
                        k = "A"
                    elif oa == back and ob == back:
                        k = "D"
                    elif oa == back:
                        k = (True, False)
                    elif ob == back:
                        k = (False, True)
                    else:
                        k = (oa == shaken, ob == shaken)
                    out[k] = out.get(k, 0) + pa * pb
        else:
            ml, mw = (ma, mb) if loser == "A" else (mb, ma)
            winner = "B" if loser == "A" else "A"
            for ol, pl in ml:
                if ol == routed:
                    out[winner] = out.get(winner, 0) + 6 * pl
                    continue
                if ol == back:
                    k = (True, False) if loser == "A" else (False, True)
                    out[k] = out.get(k, 0) + 6 * pl
                    continue
                for ow, pw in mw:
                    if ow == routed:
                        k = loser
                    else:
                        lsh, wsh = (False, True) if ow == back else (ol == shaken, ow == shaken)
                        k = (lsh, wsh) if loser == "A" else (wsh, lsh)
                    out[k] = out.get(k, 0) + pl * pw
        got = tuple(out.items())
        self._aft[key] = got
        return got

    def opening(self) -> tuple[tuple[tuple[object, int], ...], int]:
        """Before the first round: the second unit tests on receiving an impetuous charge.
        Weights and their total."""
        if not self.impetuous:
            steady: tuple[tuple[object, int], ...] = (((False, False), 1),)
            return steady, 1
        out: dict[object, int] = {}
        for o, w in self.morale("B", self.b.figures, self.a.figures, False, False, initial=True):
            k: object = "A" if o == 3 else (False, o != 0)
            out[k] = out.get(k, 0) + w
        return tuple(out.items()), 6


PLUGIN = IntoTheDarkOdds()
