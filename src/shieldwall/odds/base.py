"""The odds plug-in interface and the look-up (the result types every rule system returns are in
:mod:`.results`, the ``--set`` keys and their parsing in :mod:`.settings`, exact numbers in JSON
in :mod:`.numbers`).

A rule system plugs into ``shieldwall.odds`` through its plugin object: the ``odds`` reference of
its :class:`shieldwall.plugin.RuleSystem` names an instance of an :class:`OddsPlugin` subclass,
found through :mod:`shieldwall.registry` (:func:`get_plugin`). The plug-in says which queries it
answers (``attack``, ``morale``, ``duel``, ``matrix``), documents its SPEC grammar and its ``--set``
keys (:class:`.settings.SetKey`), parses them, and computes exact results from the rule system's own
"distribution of outcomes given a situation" code.

This module is imported by the command line at start-up, so it imports nothing heavy (the plug-ins
themselves are imported when first asked for).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

from shieldwall.core.errors import ShieldwallError, UnknownName

from .results import AttackOdds, DuelOdds, MatrixOdds, MoraleOdds, Progress
from .settings import (
    CANONICAL_TYPES,
    Given,
    Parser,
    ReadSettings,
    SetKey,
    SetsArg,
    Settings,
    parse_settings,
    parser_for,
    sets_key,
)

#: Queries (and settings) memoised per plug-in, oldest dropped first.
MEMO_SIZE = 4096

R = TypeVar("R")


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
        self._parsers: dict[str, Parser] = {}

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
                parser = self._parsers[command] = parser_for(self.set_keys, command)
            given: Given
            if (  # ``Parser.parse``'s fast path, inline: a dict exactly as parsed (``key``: its items)
                type(pairs) is dict
                and type(key) is frozenset
                and key <= parser.canonical
                and CANONICAL_TYPES.issuperset(map(type, pairs.values()))
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
            out, given = parser_for(self.set_keys, command).parse(pairs, self.ruleset)
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
