"""One melee round's exact outcome (``shieldwall odds duel knight-hack``; registered in :mod:`.odds`).

A Knight Hack melee round is both units rolling one d100 at once, each against its own target
number T (``knight-hack:casualties.target``, ``knight-hack:casualties.multiple``), and the unit that
inflicted more casualties winning the round, equal a draw (``knight-hack:melee.rounds``, R15, R16).
The query enumerates the rules' own :class:`melee.MeleeRound` (the object the game samples): both
units' casualty distributions, their joint distribution and the round's winner. A round is decided
when it is fought, so the host's duel answer has one "turn" (the round) with P = 1.

SPECs are ``TYPE[:CLASS][:FIGURES]`` (figures left; 3 if not given) or a whole number, T itself (then
both are numbers). ``--set`` keys describe FIRST's situation (as for ``attack``: ``charging``,
``flank``, ``rear``, ``disordered``, ``target-disordered``, ``uphill``, ``fanatic``, ``leader``,
``ranks``, ``weapon``); SECOND fights FIRST's front with its own ``second-weapon``,
``second-ranks``, ``second-fanatic``, ``second-leader``, ``second-uphill``; disorder is mirrored
(FIRST's ``target-disordered`` is SECOND's ``disordered``). FIRST fighting the rear of an open order
SECOND destroys it at its first casualty (``knight-hack:charge.rear-open``, R23)::

    >>> from shieldwall.rulesets.knight_hack.odds import PLUGIN
    >>> d = PLUGIN.duel("60", "45")
    >>> d.first_wins, d.second_wins, d.draw
    (Fraction(831, 2000), Fraction(21, 80), Fraction(161, 500))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

from shieldwall.core.errors import ShieldwallError
from shieldwall.odds.results import DuelOdds
from shieldwall.odds.settings import Given, ReadSettings, SetKey

if TYPE_CHECKING:
    from shieldwall.rulesets.knight_hack.casualties import AutoMode
    from shieldwall.rulesets.knight_hack.factors import Target
    from shieldwall.rulesets.knight_hack.melee import MeleeRound
    from shieldwall.rulesets.knight_hack.tables import Tables

RS = "knight-hack"


class KHSpec(Protocol):
    """A parsed SPEC (``odds.KHSpec``): a troop type, class and figures, or a number T."""

    @property
    def type(self) -> str | None: ...
    @property
    def cls(self) -> str: ...
    @property
    def figures(self) -> int | None: ...
    @property
    def number(self) -> int | None: ...


#: ``odds.parse_spec`` (passed in: this module does not import ``odds``, which registers it)
ParseSpec = Callable[..., KHSpec]
_D = frozenset({"duel"})
YES_NO = ("no", "yes")

#: SECOND's own situation (FIRST's is given by the attack keys, which also apply to duel)
_SECOND_KEYS: tuple[SetKey, ...] = (
    *(
        SetKey(f"second-{n}", d, "no", YES_NO, commands=_D)
        for n, d in (
            ("fanatic", "the second unit is a fanatic unit"),
            ("leader", "the second unit has a leader with it"),
            ("uphill", "the second unit fights from uphill"),
        )
    ),
    SetKey(
        "second-ranks",
        "the second unit's ranks fighting behind its front rank (rank-beyond-first)",
        0,
        int_range=(0, 10),
        commands=_D,
    ),
)

#: the attack keys that also describe FIRST in a duel
SHARED_WITH_DUEL = frozenset(
    {
        "charging",
        "flank",
        "rear",
        "disordered",
        "target-disordered",
        "uphill",
        "fanatic",
        "leader",
        "ranks",
        "weapon",
        "auto",
    }
)


def with_duel(keys: dict[str, SetKey], weapons: tuple[str, ...]) -> dict[str, SetKey]:
    """``keys`` (the attack and morale keys) with the duel's: FIRST's are the attack keys of
    :data:`SHARED_WITH_DUEL`, SECOND's are its own."""
    out = {n: replace(k, commands=k.commands | _D) if n in SHARED_WITH_DUEL else k for n, k in keys.items()}
    second_weapon = SetKey(
        "second-weapon", "the second unit's weapon (its factor_vs bonus)", "none", weapons, commands=_D
    )
    for k in (*_SECOND_KEYS, second_weapon):
        out[k.name] = k
    return out


def _yes(v: object) -> bool:
    return v == "yes"


def check_facing(st: ReadSettings) -> None:
    """A unit is attacked in its flank or its rear, not both (ruling R56): a melee fights one
    facing (``Melee.faces``), so ``flank`` and ``rear`` together would add both modifiers to T."""
    if _yes(st["flank"]) and _yes(st["rear"]):
        raise ShieldwallError(
            "--set flank=yes and --set rear=yes: a unit is attacked in the flank or the rear, not both "
            "(a melee is fought on one facing; knight-hack:casualties.target, ruling R56)"
        )


def _figures(s: KHSpec) -> int:
    from shieldwall.rulesets.knight_hack.casualties import MAX_ROLLED

    return s.figures if s.figures is not None else MAX_ROLLED


def melee_round(tables: Tables, a: KHSpec, b: KHSpec, st: ReadSettings) -> tuple[MeleeRound, list[str]]:
    """The round the game would sample for FIRST ``a`` against SECOND ``b`` and how each T was made."""
    from shieldwall.rulesets.knight_hack.casualties import CasualtySituation
    from shieldwall.rulesets.knight_hack.factors import Fighter, MeleeConditions, melee_target
    from shieldwall.rulesets.knight_hack.melee import MeleeRound

    auto: AutoMode = "add" if st["auto"] == "add" else "floor"
    fa, fb = _figures(a), _figures(b)
    if a.number is not None and b.number is not None:
        given_lines: list[str] = [f"first: T = {a.number} (given)", f"second: T = {b.number} (given)"]
        return MeleeRound(
            CasualtySituation(a.number, 0, fb, auto), CasualtySituation(b.number, 0, fa, auto)
        ), given_lines
    if a.type is None or b.type is None:
        raise ShieldwallError("knight-hack duel: FIRST and SECOND are both troop types or both numbers T")
    check_facing(st)
    weapon = () if st["weapon"] == "none" else (str(st["weapon"]),)
    second_weapon = () if st["second-weapon"] == "none" else (str(st["second-weapon"]),)
    ca = MeleeConditions(
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
    cb = MeleeConditions(
        disordered=_yes(st["target-disordered"]),
        target_disordered=_yes(st["disordered"]),
        uphill=_yes(st["second-uphill"]),
        fanatic=_yes(st["second-fanatic"]),
        leader=_yes(st["second-leader"]),
        extra_ranks=int(st["second-ranks"] or 0),
    )
    ta: Target = melee_target(tables, Fighter(a.type, a.cls, fa, weapon), Fighter(b.type, b.cls, fb), ca)
    tb: Target = melee_target(
        tables, Fighter(b.type, b.cls, fb, second_weapon), Fighter(a.type, a.cls, fa), cb
    )
    rear_open = ca.rear and tables.types[b.type].formation == "open"
    lines: list[str] = []
    for who, t in (("first", ta), ("second", tb)):
        lines += [f"{who}: {x.source}: {x.value:+d} ({x.note})" for x in t.terms]
        lines.append(f"{who}: T = {t.value}; chart automatic casualties {t.automatic} ({auto})")
    if rear_open:
        lines.append("first fights the rear of open order: its first casualty destroys the second (R23)")
    rnd = MeleeRound(ta.situation(fb, auto), tb.situation(fa, auto), a_rear_open=rear_open)
    return rnd, lines


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.4g}%"


def duel_round(
    specs: tuple[str, ...], st: ReadSettings, given: Given, tables: Tables, parse_spec: ParseSpec
) -> DuelOdds:
    """The exact outcome of one melee round of ``specs[0]`` (first) against ``specs[1]`` (second)."""
    from shieldwall.rulesets.knight_hack.melee import round_winner

    a = parse_spec(specs[0], number_ok=True, what="FIRST")
    b = parse_spec(specs[1], number_ok=True, what="SECOND")
    if (a.number is None) != (b.number is None):
        raise ShieldwallError("knight-hack duel: FIRST and SECOND are both troop types or both numbers T")
    if a.number is not None:
        for k, _ in given:
            if k != "auto":
                raise ShieldwallError(
                    f"--set {k} needs troop types for FIRST and SECOND (a number is T itself)"
                )
    rnd, lines = melee_round(tables, a, b, st)
    joint = rnd.dist()
    win = {"a": Fraction(0), "b": Fraction(0), "draw": Fraction(0)}
    on_b: dict[int, Fraction] = {}
    on_a: dict[int, Fraction] = {}
    for (x, y), p in joint.items():
        win[round_winner(x, y)] += p
        on_b[x] = on_b.get(x, Fraction(0)) + p
        on_a[y] = on_a.get(y, Fraction(0)) + p
    for who, ta, dist in (("first", rnd.a_roll, on_b), ("second", rnd.b_roll, on_a)):
        t = ta.target
        lines.append(
            f"{who} inflicts (one d100, r <= {t} one, <= {t / 2:g} two, <= {t / 4:g} three): "
            + ", ".join(f"{k}: {_pct(p)}" for k, p in sorted(dist.items()))
        )
    lines.append("one melee round: more casualties inflicted wins, equal is a draw (R15)")
    if tables.label:
        lines.append(tables.label)
    return DuelOdds(
        RS,
        specs[0],
        specs[1],
        dict(st),
        win["a"],
        win["b"],
        {1: Fraction(1)},
        {1: win["a"]},
        {1: win["b"]},
        win["draw"],
        Fraction(0),
        Fraction(0),
        1,
        tuple(lines),
    )
