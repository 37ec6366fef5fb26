"""The odds plug-in interface, the result types every rule system returns, and the look-up.

A rule system plugs into ``shieldwall.odds`` through its plugin object: the ``odds`` reference of
its :class:`shieldwall.plugin.RuleSystem` names an instance of an :class:`OddsPlugin` subclass,
found through :mod:`shieldwall.registry` (:func:`get_plugin`). The plug-in says which queries it
answers (``attack``, ``morale``, ``duel``, ``matrix``), documents its SPEC grammar and its ``--set``
keys (:class:`SetKey`), parses them, and computes exact results from the rule system's own
"distribution of outcomes given a situation" code.

This module is imported by the command line at start-up, so it imports nothing heavy (the plug-ins
themselves are imported when first asked for).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from shieldwall.core.errors import ShieldwallError, UnknownName

if TYPE_CHECKING:
    from shieldwall.core.dice import Dist

COMMANDS = ("attack", "morale", "duel", "matrix")

#: Queries (and settings) memoised per plug-in, oldest dropped first.
MEMO_SIZE = 4096

R = TypeVar("R")
T = TypeVar("T")

#: A progress report for long work: ``progress(stage, done, total)`` (``total`` None when it is not
#: known in advance), called as the work advances: a duel's win probabilities (per diagonal of its
#: chain), its round distribution (per turn), a matchup table (per duel). Optional everywhere;
#: memoised answers make no calls.
Progress = Callable[[str, int, int | None], None]

#: A settings mapping as plug-ins receive it: key -> parsed value (``str`` choice or ``int``).
Settings = dict[str, str | int | None]
#: The parsed settings of a query as :meth:`OddsPlugin.memo` hands them to its computation: shared by
#: every query with the same settings, so read-only.
ReadSettings = Mapping[str, str | int | None]


# --- exact numbers in JSON --------------------------------------------------------------------


def int_text(n: int) -> str:
    """``str(n)`` for an int of any size.

    Python refuses to write an int of more than ``sys.get_int_max_str_digits()`` decimal digits
    (4300 by default: a guard against slow conversions of untrusted input), and the exact answers of
    duels between big units pass it (48 figures a side: denominators of about 16,000 digits). Such an
    int is split at a power of ten, each half written (recursively) within the limit.

    >>> n = 7 * 10**9000 + 42
    >>> t = int_text(n)
    >>> len(t), t[:2], t[-3:], int_text(-n)[:2]
    (9001, '70', '042', '-7')
    """
    try:
        return str(n)
    except ValueError:
        pass
    if n < 0:
        return "-" + int_text(-n)
    k = n.bit_length() * 3 // 20  # about half the digits (log10(2) > 0.3)
    high, low = divmod(n, 10**k)
    return int_text(high) + int_text(low).zfill(k)


def fraction_text(p: Fraction) -> str:
    """``"N/D"`` (always with a denominator, so a parser never has to guess), of any size.

    >>> fraction_text(Fraction(3, 6))
    '1/2'
    """
    return f"{int_text(p.numerator)}/{int_text(p.denominator)}"


def prob_json(p: Fraction) -> dict[str, Any]:
    """``{"probability": "N/D", "p": float}``."""
    return {"probability": fraction_text(p), "p": float(p)}


def dist_json(probs: Mapping[int, Fraction]) -> list[dict[str, Any]]:
    """``[{"value": V, "probability": "N/D", "p": float}, ...]``, values ascending."""
    return [{"value": v, **prob_json(probs[v])} for v in sorted(probs)]


# --- settings ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SetKey:
    """One ``--set KEY=VALUE`` key: its choices (or an integer range), default and documentation.

    ``default`` is ``None`` for a key that is "not stated" unless given. ``commands`` lists the
    queries the key applies to; giving it to another query is an error, never silently ignored.
    """

    name: str
    doc: str
    default: str | int | None
    choices: tuple[str, ...] = ()
    int_range: tuple[int, int] | None = None
    commands: frozenset[str] = frozenset(COMMANDS)

    def parse(self, text: str | int) -> str | int:
        if self.int_range is not None:
            lo, hi = self.int_range
            try:
                value = int(text)
            except (TypeError, ValueError):
                raise ShieldwallError(
                    f"--set {self.name} expects a whole number from {lo} to {hi}, got {text!r}"
                ) from None
            if not lo <= value <= hi:
                raise ShieldwallError(
                    f"--set {self.name} expects a whole number from {lo} to {hi}, got {value}"
                )
            return value
        if type(text) is str and text in self.choices:  # already a choice as written
            return text
        low = str(text).strip().lower()
        if low not in self.choices:
            raise UnknownName(f"value for --set {self.name}", str(text), self.choices)
        return low

    def values_text(self) -> str:
        if self.int_range is not None:
            return f"{self.int_range[0]}..{self.int_range[1]}"
        return "|".join(self.choices)


SetsArg = Iterable[str] | Mapping[str, str | int] | None


def sets_key(pairs: SetsArg) -> tuple[SetsArg, Hashable] | None:
    """``(pairs, key)``: a hashable memo key for a ``sets`` argument (a one-shot iterator is read
    into a tuple, returned in its place), or ``None`` when the values cannot be hashed.

    A mapping's key is the frozenset of its items (its order does not change the parsed settings,
    and a frozenset keeps its hash once computed); ``KEY=VALUE`` strings are a tuple, in order."""
    if pairs is None:
        return None, ()
    key: Hashable
    try:
        if type(pairs) is dict or isinstance(pairs, Mapping):
            key = frozenset(pairs.items())
        elif isinstance(pairs, str):
            key = (pairs,)
        else:
            pairs = key = tuple(pairs)
            hash(key)
    except TypeError:
        return None
    return pairs, key


def split_pairs(pairs: Iterable[str] | Mapping[str, str | int] | None) -> list[tuple[str, str | int]]:
    """``["facing=flank", ...]`` or ``{"facing": "flank"}`` -> ``[("facing", "flank"), ...]``."""
    if pairs is None:
        return []
    if type(pairs) is dict or isinstance(pairs, Mapping):
        return [(k if type(k) is str else str(k), v) for k, v in pairs.items()]
    if isinstance(pairs, str):
        pairs = [pairs]
    out: list[tuple[str, str | int]] = []
    for item in pairs:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ShieldwallError(f"--set expects KEY=VALUE, got {item!r}")
        out.append((key.strip(), value.strip()))
    return out


#: The types of values a canonical pair may have (``True == 1`` and ``1.0 == 1``, but they are not
#: written as ``SetKey.parse`` returns them).
_CANONICAL_TYPES = frozenset({str, int})


#: The settings a query gives, parsed, as (key, value) pairs: every setting that differs from its
#: default is among them (with any given at its default).
Given = frozenset[tuple[str, str | int | None]]


class _Parser:
    """How a plug-in's keys parse for one query: the keys that apply (``valid``), their defaults, and
    every (key, value) pair accepted as written (a choice, or a whole number in the key's range)."""

    __slots__ = ("keys", "command", "valid", "valid_set", "defaults", "canonical")

    def __init__(self, keys: Mapping[str, SetKey], command: str) -> None:
        self.keys, self.command = keys, command
        self.valid = [k for k, sk in keys.items() if command in sk.commands]
        self.valid_set = frozenset(self.valid)
        self.defaults: Settings = {k: keys[k].default for k in self.valid}
        canonical: set[tuple[str, str | int]] = set()
        for k in self.valid:
            rng = keys[k].int_range
            canonical.update((k, v) for v in (range(rng[0], rng[1] + 1) if rng else keys[k].choices))
        self.canonical = frozenset(canonical)

    def parse(
        self,
        pairs: Iterable[str] | Mapping[str, str | int] | None,
        ruleset: str,
        items: frozenset[Any] | None = None,
    ) -> tuple[Settings, Given]:
        """:func:`parse_settings`, and the settings given (``Given``). ``items`` may give
        ``frozenset(pairs.items())`` of a dict ``pairs``, if already made."""
        out = self.defaults.copy()
        if not pairs:
            return out, frozenset()
        if type(pairs) is dict:
            # fast path: every key and value exactly as ``SetKey.parse`` would return it
            if items is None:
                try:
                    items = frozenset(pairs.items())
                except TypeError:  # a value that cannot be hashed is no choice: the general path says so
                    items = None
            if (
                items is not None
                and items <= self.canonical
                and _CANONICAL_TYPES.issuperset(map(type, pairs.values()))
            ):
                out.update(pairs)
                return out, items
        keys, command, valid_set = self.keys, self.command, self.valid_set
        seen: dict[str, str | int] = {}
        for raw_key, value in pairs.items() if type(pairs) is dict else split_pairs(pairs):
            if type(raw_key) is not str:
                raw_key = str(raw_key)
            key = raw_key if raw_key in valid_set else raw_key.lower().replace("_", "-")
            if key not in valid_set:
                raise UnknownName(f"--set key for `odds {command} {ruleset}`", raw_key, self.valid)
            if key in seen:
                raise ShieldwallError(f"--set {key} given twice")
            out[key] = seen[key] = keys[key].parse(value)
        return out, frozenset(seen.items())


#: (id of a plug-in's keys, command) -> its parser (which holds the keys, so the id stays theirs)
_PARSERS: dict[tuple[int, str], _Parser] = {}


def _parser(keys: Mapping[str, SetKey], command: str) -> _Parser:
    got = _PARSERS.get((id(keys), command))
    if got is None or got.keys is not keys:
        got = _PARSERS[(id(keys), command)] = _Parser(keys, command)
    return got


def parse_settings(
    keys: Mapping[str, SetKey],
    pairs: Iterable[str] | Mapping[str, str | int] | None,
    command: str,
    ruleset: str,
) -> Settings:
    """Parse ``--set`` pairs against a plug-in's keys for one query; defaults fill the rest.

    Keys are case-insensitive and ``_`` may stand for ``-``. An unknown key, a key that does not
    apply to this query, a repeated key or a bad value is an error that lists the valid choices.
    """
    return _parser(keys, command).parse(pairs, ruleset)[0]


# --- results ----------------------------------------------------------------------------------


def positional(cls: type[T]) -> Callable[..., T]:
    """A constructor for the frozen slots dataclass ``cls`` taking every field in order: the same value
    as ``cls(...)`` (which must have no ``__post_init__``), about twice as fast (the queries' hot path
    builds one result per new question). The frozen ``__init__`` sets each field with
    ``object.__setattr__``; this fills a mutable twin class with the same slots by plain attribute
    stores, then makes it a ``cls`` (``__class__`` assignment, allowed between identical layouts).

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


# --- the plug-in interface --------------------------------------------------------------------


class OddsPlugin:
    """What a rule system provides to ``shieldwall.odds``.

    Subclasses set the class attributes and override the queries they support (the defaults
    raise a clear error naming the queries that *are* supported), answering through :meth:`memo`;
    one that defines ``__init__`` calls ``super().__init__()`` (the memos). Module import must stay
    light: heavy rules modules are imported inside the methods.
    """

    ruleset: ClassVar[str] = ""
    title: ClassVar[str] = ""
    #: Which of ``attack``, ``morale``, ``duel``, ``matrix`` this rule system answers.
    commands: ClassVar[tuple[str, ...]] = ()
    #: The SPEC grammar in words (for ``--help`` and the docs).
    spec_help: ClassVar[str] = ""
    spec_examples: ClassVar[tuple[str, ...]] = ()
    set_keys: ClassVar[Mapping[str, SetKey]] = {}

    # parsing ---------------------------------------------------------------------------------
    def parse_spec(self, text: str) -> Any:
        """Turn a SPEC string into the rule system's unit description (raises ``ShieldwallError``)."""
        raise NotImplementedError

    def __init__(self) -> None:
        #: (command, SPECs, settings key) -> result, and (command, settings key) -> the parsed settings
        #: (read-only) and those given; oldest dropped first
        self._query_memo: dict[Hashable, Any] = {}
        self._sets_memo: dict[Hashable, tuple[ReadSettings, Given]] = {}
        #: command -> how its settings parse
        self._parsers: dict[str, _Parser] = {}

    def parse_sets(self, pairs: Iterable[str] | Mapping[str, str | int] | None, command: str) -> Settings:
        """The settings of one query, in a dict of their own (parsing is memoised per plug-in)."""
        self.require(command)
        keyed = sets_key(pairs)
        if keyed is None:
            return parse_settings(self.set_keys, pairs, command, self.ruleset)
        return dict(self._settings(command, *keyed)[0])

    def _settings(self, command: str, pairs: SetsArg, key: Hashable) -> tuple[ReadSettings, Given]:
        """The parsed settings of ``pairs`` (memo key ``key``) for ``command`` (read-only) and those
        given (``Given``), memoised."""
        memo = self._sets_memo
        skey = (command, key)
        got = memo.get(skey)
        if got is None:
            parser = self._parsers.get(command)
            if parser is None:
                self.require(command)
                parser = self._parsers[command] = _parser(self.set_keys, command)
            given: Given
            if (  # ``_Parser.parse``'s fast path, inline: a dict exactly as parsed (``key``: its items)
                type(pairs) is dict
                and type(key) is frozenset
                and key <= parser.canonical
                and _CANONICAL_TYPES.issuperset(map(type, pairs.values()))
            ):
                out = parser.defaults.copy()
                out.update(pairs)
                given = key
            else:
                out, given = parser.parse(pairs, self.ruleset)
            got = memo[skey] = (MappingProxyType(out), given)
            if len(memo) > MEMO_SIZE:
                memo.pop(next(iter(memo)))  # the oldest
        return got

    def memo(
        self,
        command: str,
        specs: tuple[str, ...],
        pairs: SetsArg,
        compute: Callable[[tuple[str, ...], ReadSettings, Given], R],
        variant: Hashable = None,
    ) -> R:
        """``compute(specs, settings, given)``, memoised per plug-in on the query (command, SPECs,
        settings): ``settings`` are the query's parsed settings (read-only, shared) and ``given``
        those the query gives (``Given``); ``variant`` tells apart answers to the same query computed
        differently (a duel exact or in float64). Results are frozen dataclasses and must be treated
        as read-only (they are shared). Errors are not memoised. :meth:`clear_memo` empties it."""
        key: Hashable | None
        if type(pairs) is dict:  # ``sets_key`` of the commonest case, inline
            try:
                key = frozenset(pairs.items())
            except TypeError:
                key = None
        else:
            keyed = sets_key(pairs)
            key = None
            if keyed is not None:
                pairs, key = keyed
        if key is None:  # values that cannot be hashed: parsed and computed afresh
            self.require(command)
            out, given = _parser(self.set_keys, command).parse(pairs, self.ruleset)
            return compute(specs, MappingProxyType(out), given)
        memo = self._query_memo
        full = (command, specs, key) if variant is None else (command, specs, key, variant)
        got: R | None = memo.get(full)
        if got is None:
            sets = self._settings(command, pairs, key)
            got = memo[full] = compute(specs, sets[0], sets[1])
            if len(memo) > MEMO_SIZE:
                memo.pop(next(iter(memo)))  # the oldest
        return got

    def clear_memo(self) -> None:
        """Forget memoised queries and settings."""
        self._query_memo.clear()
        self._sets_memo.clear()

    def require(self, command: str) -> None:
        if command not in self.commands:
            raise ShieldwallError(
                f"`odds {command}` does not apply to {self.ruleset}"
                + (" (it has no morale or control tests)" if command == "morale" else "")
                + f"; odds for {self.ruleset}: {', '.join(self.commands)}"
            )

    # queries ---------------------------------------------------------------------------------
    def attack(
        self, attacker: str, target: str, sets: Iterable[str] | Mapping[str, str | int] | None = None
    ) -> AttackOdds:
        self.require("attack")
        raise NotImplementedError

    def morale(self, unit: str, sets: Iterable[str] | Mapping[str, str | int] | None = None) -> MoraleOdds:
        self.require("morale")
        raise NotImplementedError

    def duel(
        self,
        first: str,
        second: str,
        sets: Iterable[str] | Mapping[str, str | int] | None = None,
        *,
        progress: Progress | None = None,
    ) -> DuelOdds:
        """The duel to the finish, exactly."""
        self.require("duel")
        raise NotImplementedError

    def duel_float(
        self,
        first: str,
        second: str,
        sets: Iterable[str] | Mapping[str, str | int] | None = None,
        *,
        progress: Progress | None = None,
    ) -> DuelOdds:
        """The duel to the finish in float64 with its ``error_bound`` (what ``odds.duel`` asks for
        by default); a plug-in without a float solver answers exactly (:meth:`duel`)."""
        return self.duel(first, second, sets, progress=progress)

    def matrix(
        self, sets: Iterable[str] | Mapping[str, str | int] | None = None, *, progress: Progress | None = None
    ) -> MatrixOdds:
        """The matchup table, its duels exactly."""
        self.require("matrix")
        raise NotImplementedError

    def matrix_float(
        self, sets: Iterable[str] | Mapping[str, str | int] | None = None, *, progress: Progress | None = None
    ) -> MatrixOdds:
        """The matchup table, its duels in float64 (what ``odds.matrix`` asks for by default); a
        plug-in without a float solver answers exactly (:meth:`matrix`)."""
        return self.matrix(sets, progress=progress)


#: ruleset id -> its plug-in, once imported
_LOADED: dict[str, OddsPlugin] = {}


def ruleset_ids() -> list[str]:
    """Rule systems with an odds plug-in, in display order (:func:`shieldwall.registry.systems`)."""
    from shieldwall import registry

    return [rid for rid, system in registry.systems().items() if system.odds is not None]


def get_plugin(ruleset: str) -> OddsPlugin:
    """The odds plug-in of a rule system, imported on first use (``UnknownName`` listing the rule
    systems with odds for an unknown id; ``ShieldwallError`` naming them for a rule system without
    odds; ``PluginError`` for a reference that names no ``OddsPlugin`` of that rule system)."""
    plugin = _LOADED.get(ruleset)
    if plugin is not None:
        return plugin
    from shieldwall import registry
    from shieldwall.plugin import PluginError

    system = registry.find(ruleset)
    if system is None:
        raise UnknownName("ruleset for odds", ruleset, ruleset_ids())
    got = system.optional("odds")
    if got is None:
        with_odds = ", ".join(ruleset_ids()) or "none"
        raise ShieldwallError(f"rule system {ruleset!r} has no odds; rule systems with odds: {with_odds}")
    if not isinstance(got, OddsPlugin):
        raise PluginError(
            f"rule system {ruleset!r}: its odds reference {system.odds!r} is a {type(got).__name__}, "
            "not an OddsPlugin"
        )
    if got.ruleset != ruleset:
        raise PluginError(
            f"rule system {ruleset!r}: its odds reference {system.odds!r} is the plug-in of {got.ruleset!r}"
        )
    _LOADED[ruleset] = got
    return got
