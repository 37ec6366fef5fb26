"""Exact odds for ``knight-hack`` (the rule system's plug-in to ``shieldwall odds``, :data:`PLUGIN`).

Every distribution is the rules' own situation object enumerated: a casualty roll is
:class:`casualties.CasualtySituation` (the object the game samples, one d100), a morale test
:class:`morale.MoraleTest`. The tables are the illustrative sample set (``data/sample``), and every
answer says so in its details.

``attack`` SPECs: ATTACKER is ``TYPE[:CLASS]`` (a troop type of the tables) or a whole number, the
target number T itself (0 or more, ruling R57); TARGET is ``TYPE[:CLASS][:FIGURES]`` or ``any``
(FIGURES caps the casualties at the figures left). With a number for the attacker the chart is not
used and ``--set`` melee conditions do not apply (only ``automatic`` and ``figures``); ``flank``
and ``rear`` are never both given (ruling R56)::

    >>> a = PLUGIN.attack("60", "any")
    >>> [a.probabilities[k] for k in range(4)]
    [Fraction(2, 5), Fraction(3, 10), Fraction(3, 20), Fraction(3, 20)]

``morale`` SPEC: ``TYPE:CLASS:FIGURES`` (the muster figures)::

    >>> PLUGIN.morale("heavy-infantry:C:12").outcomes["passed"]
    Fraction(19, 25)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar

from shieldwall.core.errors import ShieldwallError, UnknownName
from shieldwall.odds.base import OddsPlugin
from shieldwall.odds.results import AttackOdds, DuelOdds, MoraleOdds, Progress, attack_odds, morale_odds
from shieldwall.odds.settings import Given, ReadSettings, SetKey
from shieldwall.rulesets.knight_hack.odds_melee import check_facing, duel_round, with_duel

if TYPE_CHECKING:
    from shieldwall.rulesets.knight_hack.casualties import AutoMode
    from shieldwall.rulesets.knight_hack.morale import BmlFigures
    from shieldwall.rulesets.knight_hack.tables import Tables

RS = "knight-hack"
Sets = Iterable[str] | Mapping[str, str | int] | None

YES_NO = ("no", "yes")
_A = frozenset({"attack"})
_M = frozenset({"morale"})

#: the melee conditions as --set keys (yes/no), in the vocabulary's words
_MELEE_FLAGS = {
    "flank": "the attacker fights the target's flank",
    "rear": "the attacker fights the target's rear",
    "disordered": "the attacker is disordered",
    "target-disordered": "the target is disordered",
    "charging": "the attacker charged in and this is the first round (charging-first-round)",
    "uphill": "the attacker fights from uphill",
    "fanatic": "the attacker is a fanatic unit",
    "leader": "the attacker has a leader with it",
}
_MORALE_FLAGS = {
    "disordered": "the unit is disordered",
    "flanked": "enemy fight the unit's flank or rear",
    "leader-near": "a leader is with the unit",
    "leader-lost": "the unit's leader has been lost",
    "fanatic": "the unit is fanatic",
}

_BOTH = frozenset({"attack", "morale"})
_SHARED = {
    "disordered": "the attacker (attack) or the unit (morale) is disordered",
    "fanatic": "the attacker (attack) or the unit (morale) is fanatic",
}
#: the sample tables' weapons (a SPEC names none; ``--set weapon`` adds its ``factor_vs`` bonus)
WEAPONS = ("none", "lance", "spear", "sword", "javelin", "bow")

SET_KEYS: dict[str, SetKey] = {
    k.name: k
    for k in (
        *(SetKey(n, d, "no", YES_NO, commands=_A) for n, d in _MELEE_FLAGS.items() if n not in _SHARED),
        *(SetKey(n, d, "no", YES_NO, commands=_BOTH) for n, d in _SHARED.items()),
        *(SetKey(n, d, "no", YES_NO, commands=_M) for n, d in _MORALE_FLAGS.items() if n not in _SHARED),
        SetKey(
            "ranks",
            "ranks fighting behind the front rank (rank-beyond-first)",
            0,
            int_range=(0, 10),
            commands=_A,
        ),
        SetKey(
            "weapon",
            "the attacker's weapon (its factor_vs bonus against the target)",
            "none",
            WEAPONS,
            commands=_A,
        ),
        SetKey(
            "automatic",
            "automatic casualties when ATTACKER is a number (chart entries give their own)",
            0,
            int_range=(0, 2),
            commands=_A,
        ),
        SetKey(
            "auto",
            "automatic casualties: floor (R4: a floor under the roll) or add (variant)",
            "floor",
            ("floor", "add"),
            commands=_A,
        ),
        SetKey(
            "lost",
            "figures the unit has lost (casualties-quarter, and bml-figures=current)",
            0,
            int_range=(0, 500),
            commands=_M,
        ),
        SetKey(
            "bml-figures",
            "figures in the basic morale level: muster (R6) or current (variant)",
            "muster",
            ("muster", "current"),
            commands=_M,
        ),
        SetKey(
            "test",
            "which test (its outcome on failure comes from morale.toml [on_fail])",
            "melee-loser",
            ("charger-hit", "receive-charge", "melee-loser", "cease-pursuit", "stop-rout"),
            commands=_M,
        ),
    )
}
SET_KEYS = with_duel(SET_KEYS, WEAPONS)

SPEC_HELP = (
    "attack: ATTACKER TARGET; ATTACKER = TYPE[:CLASS] or a whole number T, 0 or more (the target number "
    "itself); TARGET = TYPE[:CLASS][:FIGURES] or any. morale: TYPE:CLASS:FIGURES. TYPE is a troop type of "
    "the illustrative sample tables (not the published charts); CLASS defaults to C. duel: one melee round, "
    "FIRST SECOND as TYPE[:CLASS][:FIGURES] or both numbers T (rulesets/knight_hack/odds_melee.py)."
)


@dataclass(frozen=True, slots=True)
class KHSpec:
    type: str | None
    cls: str
    figures: int | None
    number: int | None = None


def _tables() -> Tables:
    from shieldwall.rulesets.knight_hack.tables import sample_tables

    return sample_tables()


def parse_spec(text: str, *, number_ok: bool = False, any_ok: bool = False, what: str = "SPEC") -> KHSpec:
    """``TYPE[:CLASS][:FIGURES]``, a whole number (``number_ok``: T, 0 or more, ruling R57) or
    ``any`` (``any_ok``); ``what`` names the SPEC in errors (ATTACKER, FIRST, ...)."""
    t = text.strip().lower()
    if number_ok:
        try:
            number = int(t)
        except ValueError:
            pass
        else:
            if number < 0:
                raise ShieldwallError(
                    f"knight-hack {what} {text!r}: a target number T is 0 or more, not {number} (every "
                    "T of 0 or less inflicts nothing; knight-hack:casualties.target, rulings R3, R57)"
                )
            return KHSpec(None, "C", None, number)
    if any_ok and t == "any":
        return KHSpec(None, "C", None)
    tables = _tables()
    parts = t.split(":")
    if len(parts) > 3 or not parts[0]:
        raise ShieldwallError(f"knight-hack {what} {text!r}: expected TYPE[:CLASS][:FIGURES]")
    if parts[0] not in tables.types:
        raise UnknownName("knight-hack troop type", parts[0], list(tables.types))
    cls = parts[1].upper() if len(parts) > 1 and parts[1] else "C"
    if cls not in tables.classes.unit_class:
        raise UnknownName("knight-hack class", cls, tables.classes.order)
    figures = None
    if len(parts) == 3:
        try:
            figures = int(parts[2])
        except ValueError:
            raise ShieldwallError(f"knight-hack {what} {text!r}: FIGURES must be a whole number") from None
        if figures < 1:
            raise ShieldwallError(f"knight-hack {what} {text!r}: FIGURES must be at least 1")
    return KHSpec(parts[0], cls, figures)


def _yes(v: object) -> bool:
    return v == "yes"


class KnightHackOdds(OddsPlugin):
    ruleset: ClassVar[str] = RS
    title: ClassVar[str] = "Knight Hack"
    commands: ClassVar[tuple[str, ...]] = ("attack", "morale", "duel")
    spec_help: ClassVar[str] = SPEC_HELP
    spec_examples: ClassVar[tuple[str, ...]] = (
        "60 any",
        "heavy-cavalry:B heavy-infantry:C:12",
        "heavy-infantry:C:12",
    )
    set_keys: ClassVar[Mapping[str, SetKey]] = SET_KEYS

    def parse_spec(self, text: str) -> KHSpec:
        return parse_spec(text, number_ok=True, any_ok=True)

    def attack(self, attacker: str, target: str, sets: Sets = None) -> AttackOdds:
        """The exact casualties of one percentile roll (memoised per query)."""
        return self.memo("attack", (attacker, target), sets, self._attack)

    def _attack(self, specs: tuple[str, ...], st: ReadSettings, given: Given) -> AttackOdds:
        from shieldwall.rulesets.knight_hack.casualties import CasualtySituation
        from shieldwall.rulesets.knight_hack.factors import Fighter, MeleeConditions, melee_target

        a = parse_spec(specs[0], number_ok=True, what="ATTACKER")
        d = parse_spec(specs[1], any_ok=True, what="TARGET")
        tables = _tables()
        figures = d.figures if d.figures is not None else 3
        auto: AutoMode = "add" if st["auto"] == "add" else "floor"
        lines: list[str] = []
        if a.number is not None:
            for k, _ in given:
                if k not in ("automatic", "auto"):
                    raise ShieldwallError(f"--set {k} needs a troop type for ATTACKER (a number is T itself)")
            sit = CasualtySituation(a.number, int(st["automatic"] or 0), figures, auto)
            lines.append(f"T = {a.number} (given)")
        else:
            if d.type is None:
                raise ShieldwallError(
                    "TARGET must be a troop type when ATTACKER is one (any needs a number T)"
                )
            if any(k == "automatic" for k, _ in given):
                raise ShieldwallError(
                    "--set automatic applies when ATTACKER is a number; the chart gives its own"
                )
            assert a.type is not None
            check_facing(st)
            cond = MeleeConditions(
                flank=_yes(st["flank"]),
                rear=_yes(st["rear"]),
                disordered=_yes(st["disordered"]),
                target_disordered=_yes(st["target-disordered"]),
                charging_first_round=_yes(st["charging"]),
                uphill=_yes(st["uphill"]),
                fanatic=_yes(st["fanatic"]),
                leader=_yes(st["leader"]),
                extra_ranks=int(st["ranks"] or 0),
            )
            weapons = () if st["weapon"] == "none" else (str(st["weapon"]),)
            tgt = melee_target(
                tables, Fighter(a.type, a.cls, 0, weapons), Fighter(d.type, d.cls, figures), cond
            )
            sit = tgt.situation(figures, auto)
            lines += [f"{t.source}: {t.value:+d} ({t.note})" for t in tgt.terms]
            lines.append(f"T = {tgt.value}; chart automatic casualties {tgt.automatic} ({auto})")
        t = sit.target
        lines.append(f"one d100 (00 = 100): r <= {t} one casualty, r <= {t / 2:g} two, r <= {t / 4:g} three")
        if tables.label:
            lines.append(tables.label)
        details = tuple(lines)
        return attack_odds(
            RS, specs[0], specs[1], st, sit.dist(), sit, partial(lambda x: x, details), "casualties"
        )

    def morale(self, unit: str, sets: Sets = None) -> MoraleOdds:
        """The exact outcome of a morale test (memoised per query)."""
        return self.memo("morale", (unit,), sets, self._morale)

    def _morale(self, specs: tuple[str, ...], st: ReadSettings, given: Given) -> MoraleOdds:
        from shieldwall.rulesets.knight_hack.morale import MoraleState, MoraleTest, morale_level

        u = parse_spec(specs[0], what="UNIT")
        if u.type is None or u.figures is None:
            raise ShieldwallError(f"knight-hack morale SPEC {specs[0]!r}: expected TYPE:CLASS:FIGURES")
        tables = _tables()
        lost = int(st["lost"] or 0)
        if lost >= u.figures:
            raise ShieldwallError(f"--set lost={lost} leaves none of the unit's {u.figures} figures")
        state = MoraleState(
            u.figures,
            lost,
            _yes(st["disordered"]),
            _yes(st["flanked"]),
            _yes(st["leader-near"]),
            _yes(st["leader-lost"]),
            _yes(st["fanatic"]),
        )
        bml: BmlFigures = "current" if st["bml-figures"] == "current" else "muster"
        level, terms = morale_level(tables, u.type, u.cls, state, bml)
        test = MoraleTest(level)
        dist = test.dist()
        fail = tables.morale.on_fail[str(st["test"])]
        outcomes = MappingProxyType({"passed": dist.probability(1), fail: dist.probability(0)})
        lines = [f"{x.source}: {x.value:+d} ({x.note})" for x in terms]
        lines.append(
            f"morale level {level}: automatic pass, no die (over 100 cannot fail)"
            if test.automatic
            else f"morale level {level}: passed on a d100 of {level} or less"
        )
        lines.append(f"on failing a {st['test']} test: {fail} (morale.toml)")
        if tables.label:
            lines.append(tables.label)
        details = tuple(lines)
        return morale_odds(RS, specs[0], st, outcomes, test, partial(lambda x: x, details))

    def duel(
        self, first: str, second: str, sets: Sets = None, *, progress: Progress | None = None
    ) -> DuelOdds:
        """One melee round, exactly (:mod:`.odds_melee`; memoised per query)."""
        return self.memo(
            "duel", (first, second), sets, lambda s, st, g: duel_round(s, st, g, _tables(), parse_spec)
        )


PLUGIN = KnightHackOdds()
