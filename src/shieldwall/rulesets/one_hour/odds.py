"""Exact odds for ``one-hour-dark-ages``, computed from ``combat.AttackSituation``: the rule
system's plug-in to ``shieldwall odds`` (:data:`PLUGIN`).

Every distribution here is ``AttackSituation(...).dist()``, the same object the game engine samples
with ``AttackSituation.roll``; this module only decides *which* situation a SPEC and the ``--set``
keys (:data:`SET_KEYS`) describe, the same way the engine does (``state.attack_modifier`` and
``spatial.defending_feature``).

SPEC: ``TYPE[+CHANGE][+hero]``

* TYPE is a unit profile id from ``rulesets/one_hour/data/units.toml``: the army-list "Unit
  Definitions" (infantry, warriors, raiders, cavalry, cavalry-javelins, skirmishers-javelins,
  skirmishers-bows) and the "Ideas for Unit Types" (roman-militia, roman-cavalry, arthurs-cavalry,
  roundtable-knights, mounted-servants, irish-nobles, scots-nobles).
* CHANGE is at most one of ``+household`` (+1 to the attack die), ``+levy`` (-1),
  ``+determined`` (3 more hits before removal: 18 with the standard 15), ``+reluctant`` (3 fewer:
  12), ``+elite`` (Variable Quality: 18). "Units may only get one change, and cannot be upgraded
  past +2, or downgraded past -2" (army-lists.variations), as the scenario loader checks it.
* ``+hero`` attaches a Hero personality: +1 in shooting or melee. A personality is not a change
  of the unit, so it combines with one (as in the engine).

Import stays light: the rules modules (numpy, pydantic) are imported inside the functions.

Through the generic API (``shieldwall.odds``), one attack (Warriors d5+1 against Infantry in
shieldwall: 3,4,4,5,5,6 halved rounding up):

>>> from shieldwall import odds
>>> a = odds.attack("one-hour-dark-ages", "warriors", "infantry")
>>> a.probabilities
{2: Fraction(1, 2), 3: Fraction(1, 2)}
>>> a.to_json()["distribution"][0]
{'value': 2, 'probability': '1/2', 'p': 0.5}
>>> odds.attack("one-hour-dark-ages", "warriors", "infantry", ["facing=flank"]).mean
Fraction(9, 2)
>>> odds.attack("one-hour-dark-ages", "skirmishers-bows", "infantry", {"mode": "shoot"}).probabilities
{0: Fraction(1, 6), 1: Fraction(2, 3), 2: Fraction(1, 6)}

A duel to the finish, solved as an absorbing Markov chain (in float64 by default, within its
``error_bound``; ``exact=True`` for fractions):

>>> d = odds.duel("one-hour-dark-ages", "infantry", "warriors", exact=True)
>>> d.first_wins
Fraction(35700821, 35831808)
>>> abs(odds.duel("one-hour-dark-ages", "infantry", "warriors").first_wins - 35700821 / 35831808) < 1e-15
True
>>> sorted(d.turns)
[3, 4, 5, 6, 7, 8]
>>> float(odds.duel("one-hour-dark-ages", "cavalry", "cavalry").first_wins) > 0.5  # striking first
True

The matchup table:

>>> m = odds.matrix("one-hour-dark-ages")
>>> m.types[:2], m.facings
(('infantry', 'warriors'), ('front', 'flank', 'rear'))

Errors name the valid choices:

>>> odds.attack("one-hour-dark-ages", "warriors", "infantry", {"facing": "behind"})
Traceback (most recent call last):
...
shieldwall.core.errors.UnknownName: unknown value for --set facing 'behind'; valid choices: front, flank, rear
>>> odds.morale("one-hour-dark-ages", "infantry")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
shieldwall.core.errors.ShieldwallError: `odds morale` does not apply to one-hour-dark-ages (it has no ...
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache, partial
from operator import itemgetter
from typing import TYPE_CHECKING, Any, ClassVar

from shieldwall.core.errors import ShieldwallError, UnknownName
from shieldwall.odds.base import OddsPlugin
from shieldwall.odds.results import (
    AttackOdds,
    DuelOdds,
    Grid,
    MatrixOdds,
    PGrid,
    Prob,
    Progress,
    SolvedDuel,
    attack_odds,
    positional,
    solved_duel,
)
from shieldwall.odds.settings import Given, ReadSettings, SetKey

if TYPE_CHECKING:
    from shieldwall.core.dice import Die, Dist
    from shieldwall.rulesets.one_hour.combat import AttackSituation
    from shieldwall.rulesets.one_hour.profiles import UnitProfile

RS = "one-hour-dark-ages"

#: "Unit Definitions" of the army lists.
ARMY_LIST_TYPES = (
    "infantry",
    "warriors",
    "raiders",
    "cavalry",
    "cavalry-javelins",
    "skirmishers-javelins",
    "skirmishers-bows",
)
#: "Ideas for Unit Types".
IDEAS_TYPES = (
    "roman-militia",
    "roman-cavalry",
    "arthurs-cavalry",
    "roundtable-knights",
    "mounted-servants",
    "irish-nobles",
    "scots-nobles",
    # "Viking Veterans": as deployed (Infantry until they choose) and as either choice
    "viking-veterans",
    "viking-veterans-infantry",
    "viking-veterans-warriors",
)
ALL_TYPES = ARMY_LIST_TYPES + IDEAS_TYPES

#: change -> (attack die modifier, hits before removal relative to the hit limit)
CHANGES: dict[str, tuple[int, int]] = {
    "household": (+1, 0),
    "levy": (-1, 0),
    "determined": (0, +3),
    "reluctant": (0, -3),
    "elite": (0, +3),
}
CHANGE_DOCS = {
    "household": "+1 to the attack die (army-list upgrade)",
    "levy": "-1 to the attack die (army-list downgrade)",
    "determined": "18 hits before removal (army-list upgrade; hit limit + 3)",
    "reluctant": "12 hits before removal (army-list downgrade; hit limit - 3)",
    "elite": "18 hits before removal (Variable Quality; hit limit + 3)",
}
PERSONALITIES = {"hero": 1}
OPTIONS = tuple(f"+{c}" for c in (*CHANGES, *PERSONALITIES))

FACINGS = ("front", "flank", "rear")
#: --set terrain choices; the data file's names where they differ ("hill" / "river").
TERRAINS = ("open", "uphill", "woods", "marsh", "village", "wall", "gully", "river-bank")
TERRAIN_DATA = {"uphill": "hill", "river-bank": "river"}
TERRAIN_DOC = (
    "terrain the target defends (duel and matrix: the second unit): open | uphill (fighting from "
    "uphill) | woods | marsh | village (inside) | wall | gully | river-bank (defending it). "
    "Melee halves hits for all but open (villages and marsh per data/terrain.toml); shooting "
    "halves them for woods, marsh, village and wall. Woods and marsh hold only Skirmishers and "
    "Raiders (and other units that may enter rough terrain)."
)

_ALL = frozenset({"attack", "duel", "matrix"})

SET_KEYS: dict[str, SetKey] = {
    k.name: k
    for k in (
        SetKey(
            "facing",
            "facing of the target that is attacked; for a duel, the facing the first unit's "
            "opening charge strikes (the target then turns to face, and the rest is frontal)",
            "front",
            FACINGS,
            commands=frozenset({"attack", "duel"}),
        ),
        SetKey("terrain", TERRAIN_DOC, "open", TERRAINS, commands=_ALL),
        SetKey(
            "first-terrain",
            "terrain the first unit of a duel defends (same choices as terrain)",
            "open",
            TERRAINS,
            commands=frozenset({"duel"}),
        ),
        SetKey(
            "dice",
            "attack die: d5 = the average die 2,3,3,4,4,5; d6 = 1..6",
            "d5",
            ("d5", "d6"),
            commands=_ALL,
        ),
        SetKey(
            "mode",
            "melee (one-sided melee) or shoot (bows and javelins)",
            "melee",
            ("melee", "shoot"),
            commands=frozenset({"attack"}),
        ),
        SetKey(
            "range",
            "shooting range in inches, checked against the weapon's reach (bows 12, javelins 6); "
            "the rules have no range modifier",
            None,
            int_range=(0, 48),
            commands=frozenset({"attack"}),
        ),
        SetKey(
            "hit-limit",
            "hits at which a unit is removed (Routs and Rallies: 15); Determined and Elite "
            "units take 3 more, Reluctant 3 fewer; Scots Nobles have 18 of their own",
            15,
            int_range=(1, 60),
            commands=frozenset({"duel", "matrix"}),
        ),
        SetKey(
            "warriors-bonus",
            "Warriors' melee modifier (the author toned it down from +2 to +1)",
            1,
            int_range=(-2, 2),
            commands=_ALL,
        ),
        SetKey(
            "types",
            "unit types in the matrix: army-list (the seven Unit Definitions) or all (with the "
            "Ideas for Unit Types)",
            "army-list",
            ("army-list", "all"),
            commands=frozenset({"matrix"}),
        ),
    )
}

SPEC_HELP = (
    "TYPE[+CHANGE][+hero]. TYPE: "
    + ", ".join(ARMY_LIST_TYPES)
    + " (army-list Unit Definitions); "
    + ", ".join(IDEAS_TYPES)
    + " (Ideas for Unit Types). CHANGE (at most one): "
    + "; ".join(f"+{k}: {v}" for k, v in CHANGE_DOCS.items())
    + ". +hero: a Hero personality, +1 in shooting or melee (combines with a change). A change may "
    "not take the attack past +2 or -2."
)


@dataclass(frozen=True, slots=True)
class UnitSpec:
    """A parsed one-hour-dark-ages SPEC."""

    type: str
    change: str | None = None
    hero: bool = False

    @property
    def text(self) -> str:
        return self.type + (f"+{self.change}" if self.change else "") + ("+hero" if self.hero else "")

    def __str__(self) -> str:
        return self.text


@lru_cache(maxsize=1024)
def parse_spec(text: str) -> UnitSpec:
    """Parse ``TYPE[+CHANGE][+hero]`` (case-insensitive; spaces around ``+`` allowed).

    >>> parse_spec("Warriors + Household + hero")
    UnitSpec(type='warriors', change='household', hero=True)
    >>> parse_spec("horde")
    Traceback (most recent call last):
    ...
    shieldwall.core.errors.UnknownName: unknown unit type 'horde'; valid choices: infantry, warriors, ...
    """
    parts = [p.strip().lower().replace("_", "-").replace(" ", "-") for p in str(text).split("+")]
    if not parts[0]:
        raise ShieldwallError(f"empty unit SPEC {text!r}; expected {SPEC_HELP}")
    kind = parts[0]
    if kind not in ALL_TYPES:
        raise UnknownName("unit type", kind, ALL_TYPES)
    change: str | None = None
    hero = False
    for opt in parts[1:]:
        if opt == "hero":
            if hero:
                raise ShieldwallError(f"{text!r}: +hero given twice")
            hero = True
        elif opt in CHANGES:
            if change is not None:
                raise ShieldwallError(
                    f"{text!r}: units may only get one change (army-lists.variations): "
                    f"+{change} and +{opt}; choose one of " + ", ".join(f"+{c}" for c in CHANGES)
                )
            change = opt
        else:
            raise UnknownName("unit option", f"+{opt}", OPTIONS)
    return UnitSpec(kind, change, hero)


@dataclass(frozen=True, slots=True)
class Fighter:
    """A unit as the attack rules see it (``text``: its SPEC written out, ``shieldwall``: its
    profile's, read once)."""

    spec: UnitSpec
    profile: UnitProfile
    melee: int
    shoot: int | None
    hits: int
    notes: tuple[str, ...]
    text: str = field(init=False, compare=False, repr=False)
    shieldwall: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", self.spec.text)
        object.__setattr__(self, "shieldwall", self.profile.shieldwall)


@lru_cache(maxsize=1024)
def fighter(spec: UnitSpec, warriors_bonus: int = 1, hit_limit: int = 15) -> Fighter:
    """Resolve a SPEC to attack modifiers and hits before removal, as the engine does
    (``state.attack_modifier``, the scenario checks of army-lists.variations)."""
    p = _profile(spec.type)
    melee = p.melee if p.melee_param is None else {"warriors_bonus": warriors_bonus}[p.melee_param]
    shoot = p.shoot if p.missile else None
    delta, hits_delta = CHANGES[spec.change] if spec.change else (0, 0)
    notes: list[str] = []
    if spec.change and delta:
        notes.append(f"{spec.change} {delta:+d}")
        for what, val in (("melee", melee), ("shooting", shoot)):
            if val is not None and not -2 <= val + delta <= 2:
                raise ShieldwallError(
                    f"{spec.text!r}: {what} attack would be {val + delta:+d}; units cannot be upgraded "
                    "past +2 or downgraded past -2 (army-lists.variations)"
                )
    hits = (p.hits if p.hits is not None else hit_limit) + hits_delta
    if hits < 1:
        raise ShieldwallError(f"{spec.text!r}: hit limit {hits} is below 1")
    if spec.hero:
        notes.append("hero +1")
    # the engine's own arithmetic (combat.attack_modifier): type, Variations change, Hero
    from shieldwall.rulesets.one_hour.combat import attack_modifier

    params = {"warriors_bonus": warriors_bonus}
    melee_mod = attack_modifier(p, "melee", params, delta, spec.hero)[0]
    shoot_mod = None if shoot is None else attack_modifier(p, "shoot", params, delta, spec.hero)[0]
    return Fighter(spec, p, melee_mod, shoot_mod, hits, tuple(notes))


@cache
def _rules() -> tuple[
    Callable[..., AttackSituation], Mapping[str, Die], Mapping[str, UnitProfile], Mapping[str, Any]
]:
    """The rules modules, imported on first use (keeps ``import shieldwall.rulesets.one_hour.odds`` light):
    ``AttackSituation`` (its constructor taking every field in order,
    :func:`shieldwall.odds.results.positional`), the dice, the unit profiles and the terrain effects."""
    from shieldwall.core.dice import DICE
    from shieldwall.rulesets.one_hour.combat import AttackSituation
    from shieldwall.rulesets.one_hour.profiles import terrain_effects, unit_profiles

    return positional(AttackSituation), DICE, unit_profiles(), terrain_effects()


@lru_cache(maxsize=8192)
def situation_dist(sit: AttackSituation) -> Dist:
    """``sit.dist()``, memoised (an ``AttackSituation`` is a frozen, hashable value)."""
    return sit.dist()


def terrain_bonus(terrain: str, mode: str, holder: Fighter, role: str) -> bool:
    """Does a unit defending ``terrain`` get the defensive halving in ``mode``? (data/terrain.toml)"""
    if terrain == "open":
        return False
    eff = _rules()[3][TERRAIN_DATA.get(terrain, terrain)]
    if eff.enter == "rough" and not holder.profile.rough_terrain:
        movers = [k for k in ALL_TYPES if _profile(k).rough_terrain]
        raise ShieldwallError(
            f"{role} {holder.spec.text!r} cannot be in {terrain}: only Skirmishers and Raiders may enter it "
            f"({eff.clause}); units that may: {', '.join(movers)}"
        )
    return bool(eff.melee_defence if mode == "melee" else eff.shoot_defence)


def _profile(kind: str) -> UnitProfile:
    return _rules()[2][kind]


def situation(
    attacker: Fighter,
    target: Fighter,
    mode: str = "melee",
    facing: str = "front",
    terrain: str = "open",
    dice: str = "d5",
) -> AttackSituation:
    """The ``AttackSituation`` of one attack, built as ``actions.melee_attack`` / ``actions.shoot`` do."""
    new_situation, DICE, _, _ = _rules()
    if mode == "shoot":
        if attacker.shoot is None:
            shooters = [k for k in ALL_TYPES if _profile(k).missile]
            raise ShieldwallError(
                f"{attacker.spec.text!r} has no bows or javelins and cannot shoot; units that shoot: "
                + ", ".join(shooters)
            )
        mod = attacker.shoot
    else:
        mod = attacker.melee
    halve = terrain_bonus(terrain, mode, target, "target")
    if mode not in ("melee", "shoot") or facing not in FACINGS:
        raise ShieldwallError(f"unknown mode or facing: {mode!r}, {facing!r}")
    # AttackSituation(mode, die, modifier, facing, terrain, shieldwall, notes, citations)
    return new_situation(mode, DICE[dice], mod, facing, halve, target.shieldwall, attacker.notes, ())


def _details(sit: AttackSituation, terrain: str) -> tuple[str, ...]:
    """What applied to an attack, in words."""
    mods = f"{sit.modifier:+d}" if sit.modifier else ""
    out = [
        f"{sit.mode}: {sit.die.name}{mods}"
        + (f" ({', '.join(sit.notes)})" if sit.notes else "")
        + ", at least 0"
    ]
    if sit.doubled():
        out.append(f"double: unshielded or unprepared ({sit.facing})")
    for h in sit.halvings():
        out.append("halve, rounding up: " + (f"terrain ({terrain})" if h == "terrain" else h))
    return tuple(out)


Sets = Iterable[str] | Mapping[str, str | int] | None

#: (SPEC text as given, warriors bonus, hit limit) -> its ``Fighter`` (``parse_spec`` and ``fighter``
#: in one look-up)
_FIGHTERS: dict[tuple[str, int, int], Fighter] = {}


def _fighter(text: str, warriors_bonus: int, hit_limit: int) -> Fighter:
    key = (text, warriors_bonus, hit_limit)
    got = _FIGHTERS.get(key)
    if got is None:
        got = fighter(parse_spec(text), warriors_bonus, hit_limit)
        if len(_FIGHTERS) >= 1024:
            _FIGHTERS.pop(next(iter(_FIGHTERS)))
        _FIGHTERS[key] = got
    return got


#: The settings of an attack (mode, facing, terrain, dice, range, warriors bonus) in one look-up.
_ATTACK_SETTINGS = itemgetter("mode", "facing", "terrain", "dice", "range", "warriors-bonus")


class OneHourOdds(OddsPlugin):
    ruleset: ClassVar[str] = RS
    title: ClassVar[str] = "One-Hour Dark Age Wargame Rules (d5)"
    commands: ClassVar[tuple[str, ...]] = ("attack", "duel", "matrix")
    spec_help: ClassVar[str] = SPEC_HELP
    spec_examples: ClassVar[tuple[str, ...]] = ("warriors", "infantry+household", "cavalry+elite+hero")
    set_keys: ClassVar[Mapping[str, SetKey]] = SET_KEYS

    def parse_spec(self, text: str) -> UnitSpec:
        return parse_spec(text)

    def _fighter(self, text: str, s: Mapping[str, str | int | None]) -> Fighter:
        wb, hl = s.get("warriors-bonus"), s.get("hit-limit")
        return _fighter(text, 1 if wb is None else int(wb), 15 if hl is None else int(hl))

    def attack(self, attacker: str, target: str, sets: Sets = None) -> AttackOdds:
        """Exact hits of one melee attack or one shot by ``attacker`` on ``target`` (memoised per
        query).

        >>> odds = PLUGIN.attack("warriors", "infantry")
        >>> odds.probabilities
        {2: Fraction(1, 2), 3: Fraction(1, 2)}
        >>> PLUGIN.attack("skirmishers-bows", "raiders", {"mode": "shoot", "facing": "rear"}).mean
        Fraction(3, 1)
        """
        return self.memo("attack", (attacker, target), sets, self._attack)

    def _attack(self, specs: tuple[str, ...], s: ReadSettings, given: Given) -> AttackOdds:
        attacker, target = specs
        mode, facing, terrain, dice, rng, bonus = _ATTACK_SETTINGS(s)
        a, t = _fighter(attacker, bonus, 15), _fighter(target, bonus, 15)
        if rng is not None:
            self._check_range(a, mode, int(rng))
        sit = situation(a, t, mode, facing, terrain, dice)
        return attack_odds(RS, a.text, t.text, s, sit.dist(), sit, partial(_details, sit, terrain), "hits")

    @staticmethod
    def _check_range(a: Fighter, mode: str, inches: int) -> None:
        if mode != "shoot":
            raise ShieldwallError("--set range applies to shooting only (add --set mode=shoot)")
        if a.profile.missile is None:
            return  # situation() explains that this unit cannot shoot
        from shieldwall.rulesets.one_hour.params import PARAMETERS

        reach = float(PARAMETERS[f"{a.profile.missile}_range"].default)
        if inches > reach:
            raise ShieldwallError(
                f"out of range: {a.profile.missile}s reach {reach:g} inches, not {inches} (shooting.range)"
            )

    def duel(
        self, first: str, second: str, sets: Sets = None, *, progress: Progress | None = None
    ) -> DuelOdds:
        """Two units locked in melee, fighting to the finish with alternating one-sided melee,
        exactly (memoised per query). Answered in milliseconds, so ``progress`` is not called.

        >>> d = PLUGIN.duel("warriors", "infantry")
        >>> d.first_wins + d.second_wins
        Fraction(1, 1)
        >>> round(float(d.first_wins), 4), min(d.turns), max(d.turns)
        (0.0697, 3, 8)
        """
        return self.memo("duel", (first, second), sets, partial(self._duel_query, exact=True), True)

    def duel_float(
        self, first: str, second: str, sets: Sets = None, *, progress: Progress | None = None
    ) -> DuelOdds:
        """The same duel in float64, with its ``error_bound`` (memoised per query).

        >>> f, d = PLUGIN.duel_float("warriors", "infantry"), PLUGIN.duel("warriors", "infantry")
        >>> abs(f.first_wins - float(d.first_wins)) <= f.error_bound < 1e-12
        True
        """
        return self.memo("duel", (first, second), sets, self._duel_query)

    def _duel_query(
        self, specs: tuple[str, ...], s: ReadSettings, given: Given, exact: bool = False
    ) -> DuelOdds:
        a, b = self._fighter(specs[0], s), self._fighter(specs[1], s)
        return self._duel(
            a, b, str(s["facing"]), str(s["terrain"]), str(s["first-terrain"]), str(s["dice"]), s, exact
        )

    def _duel(
        self,
        a: Fighter,
        b: Fighter,
        facing: str,
        terrain: str,
        first_terrain: str,
        dice: str,
        s: ReadSettings,
        exact: bool = False,
    ) -> DuelOdds:
        hits_a = situation(a, b, "melee", "front", terrain, dice)
        open_a = situation(a, b, "melee", facing, terrain, dice) if facing != "front" else hits_a
        hits_b = situation(b, a, "melee", "front", first_terrain, dice)
        da, db, do = situation_dist(hits_a), situation_dist(hits_b), situation_dist(open_a)
        sol: SolvedDuel
        if exact:
            from shieldwall.odds.markov import alternating_duel

            sol = alternating_duel(da, db, a.hits, b.hits, do)
        else:
            from shieldwall.odds import float_alternating

            sol = float_alternating.solve(do, da, db, a.hits, b.hits)
        details = (
            f"first: {a.spec.text}, removed at {a.hits} hits; "
            f"second: {b.spec.text}, removed at {b.hits} hits",
            "first attacks: " + "; ".join(_details(hits_a, terrain)),
            *(("opening charge: " + "; ".join(_details(open_a, terrain)),) if facing != "front" else ()),
            "second attacks: " + "; ".join(_details(hits_b, first_terrain)),
            "a turn is the first unit's player-turn then the second's; "
            "removal is checked in each Routs phase",
        )
        return solved_duel(RS, a.spec.text, b.spec.text, s, sol, details)

    def matrix(self, sets: Sets = None, *, progress: Progress | None = None) -> MatrixOdds:
        """Every unit type against every other, for each facing: the mean hits of one melee attack
        and the probability that the row type, charging that facing first, wins the duel (exact;
        memoised per query).

        >>> m = PLUGIN.matrix()
        >>> i, j = m.types.index("warriors"), m.types.index("infantry")
        >>> m.mean_hits["front"][i][j], m.mean_hits["front"][j][i]
        (Fraction(5, 2), Fraction(7, 2))
        """
        return self.memo("matrix", (), sets, partial(self._matrix, exact=True, progress=progress), True)

    def matrix_float(self, sets: Sets = None, *, progress: Progress | None = None) -> MatrixOdds:
        """The same table, its duels in float64 (``error_bound``: the largest of theirs)."""
        return self.memo("matrix", (), sets, partial(self._matrix, progress=progress))

    def _matrix(
        self,
        specs: tuple[str, ...],
        s: ReadSettings,
        given: Given,
        exact: bool = False,
        progress: Progress | None = None,
    ) -> MatrixOdds:
        types = ALL_TYPES if s["types"] == "all" else ARMY_LIST_TYPES
        terrain, dice = str(s["terrain"]), str(s["dice"])
        fighters = [self._fighter(t, s) for t in types]
        mean: dict[str, Grid] = {}
        wins: dict[str, PGrid] = {}
        bound = 0.0
        done, total = 0, len(FACINGS) * len(fighters) ** 2  # pairings (progress)
        for facing in FACINGS:
            mg: Grid = []
            wg: PGrid = []
            for a in fighters:
                mrow: list[Fraction | None] = []
                wrow: list[Prob | None] = []
                for b in fighters:
                    try:
                        sit = situation(a, b, "melee", facing, terrain, dice)
                    except ShieldwallError:  # a pairing that cannot happen: no duel
                        mrow.append(None)
                        wrow.append(None)
                    else:
                        mrow.append(situation_dist(sit).mean())
                        d = self._duel(a, b, facing, terrain, "open", dice, s, exact)
                        wrow.append(d.first_wins)
                        bound = max(bound, d.error_bound)
                    done += 1
                    if progress is not None:
                        progress("duels", done, total)
                mg.append(mrow)
                wg.append(wrow)
            mean[facing], wins[facing] = mg, wg
        return MatrixOdds(RS, s, tuple(types), FACINGS, mean, wins, exact=exact, error_bound=bound)


PLUGIN = OneHourOdds()
