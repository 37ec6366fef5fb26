"""The odds plug-in of into-the-dark (:data:`PLUGIN`): one attack, a morale or control test, a duel
to the finish and the matchup table, from ``melee_situation.MeleeSituation`` /
``fire_situation.MissileSituation`` and ``morale.MoraleSituation`` / ``ControlSituation`` (the objects
the game samples)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from functools import lru_cache, partial
from operator import itemgetter
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from shieldwall.core.errors import ShieldwallError
from shieldwall.odds.base import OddsPlugin
from shieldwall.odds.results import (
    AttackOdds,
    DuelOdds,
    MatrixOdds,
    MoraleOdds,
    Progress,
    attack_odds,
    morale_odds,
    solved_duel,
)
from shieldwall.odds.settings import Given, ReadSettings, SetKey

from .matrix import matrix_odds
from .model import DuelModel
from .settings import SET_KEYS
from .sides import SIDES, Side, cached_troops, rule_error, rules, side_of
from .spec import RS, SPEC_HELP, WEAPONS, ITDSpec, parse_spec

if TYPE_CHECKING:
    from shieldwall.core.dice import Dist
    from shieldwall.odds.float_solution import FloatRounds
    from shieldwall.odds.simultaneous import RoundsSolution


def _yes(v: object) -> bool:
    return v == "yes"


def _pool_details(sit: Any) -> tuple[str, ...]:
    out = []
    for g in sit.pool():
        mods = ", ".join(f"{m.name} {m.value:+d}" for m in g.modifiers) or "no modifiers"
        out.append(f"{g.label}: {g.dice} d6 ({g.rate}) hitting on {g.need}+ [armour {g.hit_on}; {mods}]")
    return tuple(out) or ("no dice",)


def _morale_details(sit: Any) -> tuple[str, ...]:
    """What applied to a morale or control test, in words."""
    test = "control" if isinstance(sit, rules()[2].ControlSituation) else "morale"
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
    morale = rules()[2]
    dist: Dist = (morale.control_dist if control else morale.morale_dist)(level)
    names = _CONTROL_NAMES if control else _MORALE_NAMES
    out = {name: dist.probability(i) for i, name in enumerate(names)}
    if control:
        out = {k: out[k] for k in _CONTROL_ORDER}
    return MappingProxyType(out)


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
        return SIDES.get(text) or side_of(text)

    # --- one attack -------------------------------------------------------------------------------
    def attack(self, attacker: str, target: str, sets: Sets = None) -> AttackOdds:
        """Exact casualties of one round of melee or one volley (memoised per query).

        >>> PLUGIN.attack("12 CAF average", "12 CPF average").probabilities
        {0: Fraction(1, 8), 1: Fraction(3, 8), 2: Fraction(3, 8), 3: Fraction(1, 8)}
        """
        return self.memo("attack", (attacker, target), sets, self._attack)

    def _attack(self, specs: tuple[str, ...], st: ReadSettings, given: Given) -> AttackOdds:
        attacker, target = specs
        a, t = SIDES.get(attacker) or self.side(attacker), SIDES.get(target) or self.side(target)
        facing = str(st["facing"])
        dis = st["disordered"] == "yes"
        tgt = cached_troops(t, False, st["target-disordered"] == "yes", st["target-firing"] == "yes")
        att = cached_troops(a, st["shaken"] == "yes", dis, False)
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
            raise rule_error(exc) from None
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
        u = SIDES.get(specs[0]) or self.side(specs[0])
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
            changes["general"] = rules()[3].command().ratings[gen].rating
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
            raise rule_error(exc) from None
        return morale_odds(RS, u.text, s, outcomes, sit, partial(_morale_details, sit))

    # --- duel ---------------------------------------------------------------------------------------
    def duel(
        self, first: str, second: str, sets: Sets = None, *, progress: Progress | None = None
    ) -> DuelOdds:
        """Rounds of simultaneous melee, each followed by the morale tests, until one unit routs or
        is destroyed; solved exactly as an absorbing Markov chain (memoised per query).

        >>> d = PLUGIN.duel("12 CAF average", "12 CPF average")
        >>> d.first_wins + d.second_wins + d.draw + d.undecided
        Fraction(1, 1)
        >>> d.first_wins > d.second_wins
        True
        """
        return self.memo(
            "duel", (first, second), sets, partial(self._duel, progress=progress, exact=True), True
        )

    def duel_float(
        self, first: str, second: str, sets: Sets = None, *, progress: Progress | None = None
    ) -> DuelOdds:
        """The same duel in float64, with its ``error_bound`` (memoised per query).

        >>> f = PLUGIN.duel_float("12 CAF average", "12 CPF average")
        >>> d = PLUGIN.duel("12 CAF average", "12 CPF average")
        >>> abs(f.first_wins - float(d.first_wins)) <= f.error_bound < 1e-12
        True
        """
        return self.memo("duel", (first, second), sets, partial(self._duel, progress=progress))

    def _duel(
        self,
        specs: tuple[str, ...],
        s: ReadSettings,
        given: Given,
        progress: Progress | None = None,
        exact: bool = False,
    ) -> DuelOdds:
        first, second = specs
        a, b = self.side(first), self.side(second)
        imp = _yes(s["impetuous"])
        if imp:
            self._check_impetuous(a)
        model = DuelModel(a, b, _yes(s["charging"]), imp, _yes(s["uphill"]), _yes(s["obstacle"]))
        sol: RoundsSolution | FloatRounds
        try:
            if exact:
                from shieldwall.odds.simultaneous import simultaneous_duel

                sol = simultaneous_duel(model, progress=progress)
            else:
                from shieldwall.odds import float_rounds

                sol = float_rounds.solve(model, progress=progress)
        except ValueError as exc:
            raise rule_error(exc) from None
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
        return solved_duel(RS, a.spec.text, b.spec.text, s, sol, details, draw=sol.draw)

    # --- matrix -----------------------------------------------------------------------------------
    def matrix(self, sets: Sets = None, *, progress: Progress | None = None) -> MatrixOdds:
        """Every representative troop type against every other: the mean casualties of one round of
        melee on each facing, and P(the row type wins / the duel is drawn) of a frontal duel it
        opens with its charge (exact; memoised per query).

        >>> m = PLUGIN.matrix({"types": "core"})
        >>> len(m.types), m.facings, m.duel_facings
        (8, ('front', 'flank', 'rear'), ('front',))
        """
        return self.memo("matrix", (), sets, partial(self._matrix, progress=progress, exact=True), True)

    def matrix_float(self, sets: Sets = None, *, progress: Progress | None = None) -> MatrixOdds:
        """The same table, its duels in float64 (``error_bound``: the largest of theirs)."""
        return self.memo("matrix", (), sets, partial(self._matrix, progress=progress))

    def _matrix(
        self,
        specs: tuple[str, ...],
        s: ReadSettings,
        given: Given,
        progress: Progress | None = None,
        exact: bool = False,
    ) -> MatrixOdds:
        return matrix_odds(s, progress, exact)


PLUGIN = IntoTheDarkOdds()
