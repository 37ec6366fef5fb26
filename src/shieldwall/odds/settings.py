"""The ``--set`` keys of the odds' queries and their parsing (split from ``odds/base.py``): a
plug-in declares its keys (:class:`SetKey`), and :func:`parse_settings` checks a query's pairs
against them, with errors that name the key and its allowed values."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from shieldwall.core.errors import ShieldwallError, UnknownName

COMMANDS = ("attack", "morale", "duel", "matrix")

#: A settings mapping as plug-ins receive it: key -> parsed value (``str`` choice or ``int``).
Settings = dict[str, str | int | None]
#: The parsed settings of a query as :meth:`OddsPlugin.memo` hands them to its computation: shared by
#: every query with the same settings, so read-only.
ReadSettings = Mapping[str, str | int | None]


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
CANONICAL_TYPES = frozenset({str, int})


#: The settings a query gives, parsed, as (key, value) pairs: every setting that differs from its
#: default is among them (with any given at its default).
Given = frozenset[tuple[str, str | int | None]]


class Parser:
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
                and CANONICAL_TYPES.issuperset(map(type, pairs.values()))
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
_PARSERS: dict[tuple[int, str], Parser] = {}


def parser_for(keys: Mapping[str, SetKey], command: str) -> Parser:
    got = _PARSERS.get((id(keys), command))
    if got is None or got.keys is not keys:
        got = _PARSERS[(id(keys), command)] = Parser(keys, command)
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
    return parser_for(keys, command).parse(pairs, ruleset)[0]
