"""The result types every rule system's odds plug-in returns (split from ``odds/base.py``): one
attack, a morale test, a duel to the finish and the matchup table, each with its exact (or float,
with its error bound) numbers and its JSON form."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from .numbers import dist_json, fraction_text, prob_json

if TYPE_CHECKING:
    from shieldwall.core.dice import Dist

T = TypeVar("T")

#: A progress report for long work: ``progress(stage, done, total)`` (``total`` None when it is not
#: known in advance), called as the work advances: a duel's win probabilities (per diagonal of its
#: chain), its round distribution (per turn), a matchup table (per duel). Optional everywhere;
#: memoised answers make no calls.
Progress = Callable[[str, int, int | None], None]


def positional(cls: type[T]) -> Callable[..., T]:
    """A constructor for the frozen slots dataclass ``cls`` taking every field in order: the same value
    as ``cls(...)`` (which must have no ``__post_init__``), about twice as fast (the queries' hot path
    builds one result per new question). The frozen ``__init__`` sets each field with
    ``object.__setattr__``; this fills a mutable twin class with the same slots by plain attribute
    stores, then makes it a ``cls`` (``__class__`` assignment, allowed between identical layouts).

    >>> from shieldwall.odds.settings import SetKey
    >>> p = positional(SetKey)("k", "doc", None, ("a",), None, frozenset({"attack"}))
    >>> p == SetKey("k", "doc", None, ("a",), commands=frozenset({"attack"})), type(p) is SetKey
    (True, True)
    """
    if "__post_init__" in vars(cls) or "__slots__" not in vars(cls):
        raise TypeError(f"{cls.__name__}: positional() needs slots and no __post_init__")
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    twin = type(f"_{cls.__name__}Fields", (), {"__slots__": vars(cls)["__slots__"]})
    env: dict[str, Any] = {"_twin": twin, "_cls": cls}
    lines = [f"def make({', '.join(names)}):", "    obj = _twin()"]
    lines += [f"    obj.{n} = {n}" for n in names]
    lines += ["    obj.__class__ = _cls", "    return obj"]
    exec("\n".join(lines), env)  # the generated code only stores the arguments
    make: Callable[..., T] = env["make"]
    make.__qualname__ = make.__name__ = f"{cls.__name__}_positional"
    return make


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """The exact distribution of the result of one attack (hits, casualties...).

    ``situation`` is the rule system's own situation object the distribution came from (the value
    its rules sample in play); :attr:`details` says in words what applied (computed on demand by
    ``explain``).
    """

    ruleset: str
    attacker: str
    target: str
    settings: Mapping[str, Any]
    dist: Dist
    situation: Any = None
    explain: Callable[[], tuple[str, ...]] | None = None
    unit: str = "hits"

    @property
    def details(self) -> tuple[str, ...]:
        return self.explain() if self.explain is not None else ()

    @property
    def probabilities(self) -> dict[int, Fraction]:
        """value -> exact probability, values ascending."""
        return self.dist.probabilities()

    @property
    def mean(self) -> Fraction:
        return self.dist.mean()

    def p_at_least(self, value: int) -> Fraction:
        return self.dist.p_where(lambda v: v >= value)

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "attacker": self.attacker,
            "target": self.target,
            "settings": dict(self.settings),
            "unit": self.unit,
            "distribution": dist_json(self.probabilities),
            "mean": float(self.mean),
            "mean_exact": fraction_text(self.mean),
            "details": list(self.details),
        }


#: ``AttackOdds(ruleset, attacker, target, settings, dist, situation, explain, unit)``, every field
#: given, built faster (:func:`positional`).
attack_odds = positional(AttackOdds)

MORALE_OUTCOMES = ("passed", "shaken", "driven_back", "routed")


@dataclass(frozen=True, slots=True)
class MoraleOdds:
    """Exact probabilities of each outcome of a morale or control test."""

    ruleset: str
    unit: str
    settings: Mapping[str, Any]
    outcomes: Mapping[str, Fraction]
    situation: Any = None
    explain: Callable[[], tuple[str, ...]] | None = None

    @property
    def details(self) -> tuple[str, ...]:
        return self.explain() if self.explain is not None else ()

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "unit": self.unit,
            "settings": dict(self.settings),
            "outcomes": {k: prob_json(p) for k, p in self.outcomes.items()},
            "details": list(self.details),
        }


#: ``MoraleOdds(ruleset, unit, settings, outcomes, situation, explain)``, every field given, built
#: faster (:func:`positional`).
morale_odds = positional(MoraleOdds)


#: A probability: exact (``Fraction``), or float64 when solved in floating point (duels and the duel
#: grids of matrices by default; ``exact=True`` for fractions).
Prob = Fraction | float


def _pj(p: Prob) -> dict[str, Any]:
    """``prob_json`` of an exact or float probability (``"probability": None`` for a float)."""
    if isinstance(p, Fraction):
        return prob_json(p)
    return {"probability": None, "p": p}


@dataclass(frozen=True, slots=True)
class DuelOdds:
    """Two units fighting to the finish, solved as an absorbing Markov chain.

    ``turns`` maps a full game turn T (both players' turns) to P(the duel ends in turn T), for
    T up to ``horizon``; ``turns_beyond`` is the probability that it is still going after
    ``horizon`` turns (zero when every duel ends within the horizon). ``undecided`` is the
    probability that it never ends (neither side can ever hurt the other); ``draw`` that both
    sides go at once (rule systems with simultaneous melee).

    ``exact``: the probabilities are exact ``Fraction`` s; otherwise (the default of
    ``odds.duel``) they are float64 and ``error_bound`` bounds the absolute error of every one of
    them (:mod:`shieldwall.odds.float_solution`).
    """

    ruleset: str
    first: str
    second: str
    settings: Mapping[str, Any]
    first_wins: Prob
    second_wins: Prob
    turns: Mapping[int, Prob]
    first_wins_by_turn: Mapping[int, Prob] = field(default_factory=dict)
    second_wins_by_turn: Mapping[int, Prob] = field(default_factory=dict)
    draw: Prob = Fraction(0)
    undecided: Prob = Fraction(0)
    turns_beyond: Prob = Fraction(0)
    horizon: int = 0
    details: tuple[str, ...] = ()
    exact: bool = True
    error_bound: float = 0.0

    @property
    def mean_turns(self) -> Prob | None:
        """Mean number of turns, or ``None`` when the turn distribution has a tail beyond
        the horizon (then see :attr:`mean_turns_within_horizon`)."""
        if self.turns_beyond:
            return None
        total: Prob = Fraction(0) if self.exact else 0.0
        for t, p in self.turns.items():
            total += t * p
        return total

    @property
    def mean_turns_within_horizon(self) -> Prob:
        """E[turns | the duel ends within the horizon]."""
        mass: Prob = Fraction(0) if self.exact else 0.0
        total: Prob = mass
        for t, p in self.turns.items():
            mass += p
            total += t * p
        if not mass:
            return mass
        return total / mass

    def to_json(self) -> dict[str, Any]:
        """Exact fractions as ``"N/D"`` beside their floats; solved in float64, the fraction
        fields are ``null`` and ``error_bound`` bounds the error of every float."""
        mean = self.mean_turns

        def ft(p: Prob) -> str | None:
            return fraction_text(p) if isinstance(p, Fraction) else None

        return {
            "ruleset": self.ruleset,
            "first": self.first,
            "second": self.second,
            "settings": dict(self.settings),
            "exact": self.exact,
            "error_bound": self.error_bound,
            "first_wins": ft(self.first_wins),
            "p_first_wins": float(self.first_wins),
            "second_wins": ft(self.second_wins),
            "p_second_wins": float(self.second_wins),
            "draw": ft(self.draw),
            "p_draw": float(self.draw),
            "undecided": ft(self.undecided),
            "p_undecided": float(self.undecided),
            "turns": [{"value": v, **_pj(self.turns[v])} for v in sorted(self.turns)],
            "turns_beyond": _pj(self.turns_beyond),
            "horizon": self.horizon,
            "mean_turns": None if mean is None else float(mean),
            "details": list(self.details),
        }


Grid = list[list[Fraction | None]]
#: a duel grid: exact, or float64 (``MatrixOdds.exact``)
PGrid = list[list[Prob | None]]


class SolvedDuel(Protocol):
    """What ``solved_duel`` reads of a duel solved to the finish (``odds.markov``'s
    ``DuelSolution`` and ``RoundsSolution``, exact; ``odds.float_solution``'s ``FloatDuel`` and
    ``FloatRounds``, float64 with an ``error_bound``)."""

    @property
    def first_wins(self) -> Prob: ...

    @property
    def second_wins(self) -> Prob: ...

    @property
    def turns(self) -> Mapping[int, Prob]: ...

    @property
    def first_by_turn(self) -> Mapping[int, Prob]: ...

    @property
    def second_by_turn(self) -> Mapping[int, Prob]: ...

    @property
    def undecided(self) -> Prob: ...

    @property
    def beyond(self) -> Prob: ...

    @property
    def horizon(self) -> int: ...


def solved_duel(
    ruleset: str,
    first: str,
    second: str,
    settings: Mapping[str, Any],
    sol: SolvedDuel,
    details: tuple[str, ...],
    *,
    draw: Prob | None = None,
) -> DuelOdds:
    """The ``DuelOdds`` of a solved duel, exact or float64 as ``sol`` is (a float solution carries its
    ``error_bound``); ``draw`` is the probability that both sides go at once (rule systems with
    simultaneous melee)."""
    exact = isinstance(sol.first_wins, Fraction)
    zero: Prob = Fraction(0) if exact else 0.0
    return DuelOdds(
        ruleset,
        first,
        second,
        settings,
        sol.first_wins,
        sol.second_wins,
        sol.turns,
        sol.first_by_turn,
        sol.second_by_turn,
        zero if draw is None else draw,
        sol.undecided,
        sol.beyond,
        sol.horizon,
        details,
        exact,
        0.0 if exact else float(getattr(sol, "error_bound", 0.0)),
    )


@dataclass(frozen=True, slots=True)
class MatrixOdds:
    """Every unit type against every other, for each facing.

    ``mean_hits[facing][i][j]`` is the exact mean result of one attack by ``types[i]`` on
    ``types[j]``'s ``facing``; ``first_wins[facing][i][j]`` the exact probability that ``types[i]``,
    attacking first with its opening attack on that facing, wins the duel to the finish.
    ``first_wins`` may hold only some facings (a rule system may solve the frontal duel only);
    ``draws`` has P(the duel is drawn) for rule systems where both units can go at once. ``None``
    marks a pairing the rules do not allow in the stated situation. ``short`` are column labels and
    ``descriptions`` say what each type is (for example its SPEC). The duel grids are exact
    (``exact``) or float64 (the default of ``odds.matrix``), each entry then within ``error_bound``
    (the largest of its duels' bounds) of the exact value.
    """

    ruleset: str
    settings: Mapping[str, Any]
    types: tuple[str, ...]
    facings: tuple[str, ...]
    mean_hits: Mapping[str, Grid]
    first_wins: Mapping[str, PGrid]
    unit: str = "hits"
    draws: Mapping[str, PGrid] = field(default_factory=dict)
    short: tuple[str, ...] = ()
    descriptions: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    exact: bool = True
    error_bound: float = 0.0

    @property
    def duel_facings(self) -> tuple[str, ...]:
        """The facings with a duel grid."""
        return tuple(f for f in self.facings if f in self.first_wins)

    def to_json(self) -> dict[str, Any]:
        def fl(g: Sequence[Sequence[Prob | None]]) -> list[list[float | None]]:
            return [[None if x is None else float(x) for x in row] for row in g]

        def ex(g: Sequence[Sequence[Prob | None]]) -> list[list[str | None]]:
            return [[fraction_text(x) if isinstance(x, Fraction) else None for x in row] for row in g]

        out: dict[str, Any] = {
            "ruleset": self.ruleset,
            "settings": dict(self.settings),
            "types": list(self.types),
            "facings": list(self.facings),
            "unit": self.unit,
            "exact": self.exact,
            "error_bound": self.error_bound,
            "rows": "attacker (first)",
            "columns": "target (second)",
            "mean_hits": {f: fl(g) for f, g in self.mean_hits.items()},
            "mean_hits_exact": {f: ex(g) for f, g in self.mean_hits.items()},
            "p_first_wins": {f: fl(g) for f, g in self.first_wins.items()},
            "first_wins": {f: ex(g) for f, g in self.first_wins.items()},
        }
        if self.draws:
            out["p_draw"] = {f: fl(g) for f, g in self.draws.items()}
            out["draw"] = {f: ex(g) for f, g in self.draws.items()}
        if self.short:
            out["short"] = list(self.short)
        if self.descriptions:
            out["descriptions"] = list(self.descriptions)
        if self.notes:
            out["notes"] = list(self.notes)
        return out
