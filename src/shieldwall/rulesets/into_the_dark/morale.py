"""Morale tests, control tests and the new-orders roll of Into the Dark, exact and sampled.

A morale test (morale.morale-tests) rolls one d6 against the unit's morale level (its troop quality
level, morale.morale-levels) adjusted by every applicable modifier (morale.modifiers, swat.shieldwall),
less the negative modifiers a general leading the unit negates up to his rating
(command.general-leading). The result depends on how far the roll is over the modified level
(morale.results): passed (not over), shaken (over by 1), driven back (2 or 3), routed (4 or more).

A control test (morale.control-tests) is "done exactly the same as morale tests (using only relevent
modifiers)": passed if the roll is not over the modified level, failed otherwise. Which modifiers
are relevant is the caller's choice (docs/rulings/into-the-dark.md).

There is no natural-1 / natural-6 rule for morale: that rule belongs to "Combat" only.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import IntEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple, Self

from shieldwall.core.dice import D6, Dist

from . import profiles
from .clauses import cite
from .combat import Mod
from .situation_values import changed_value, quick_value, value_from_fields

if TYPE_CHECKING:
    import numpy as np


class MoraleOutcome(IntEnum):
    """Results of a morale test (morale.results); the ints are the outcomes of ``MoraleSituation.dist``."""

    PASSED = 0
    SHAKEN = 1
    DRIVEN_BACK = 2
    ROUTED = 3


class ControlOutcome(IntEnum):
    """Results of a control test (morale.control-tests) or a new-orders roll (command.new-orders)."""

    FAILED = 0
    PASSED = 1


def casualty_steps(casualties: int, original: int) -> int:
    """ "-1 for each 25% casualties accumulated from original strength" (morale.modifiers): the number
    of whole 25% steps lost."""
    if not _check_casualties(casualties, original):
        return 0
    return _steps(casualties, original, _level_values().step)


def _check_casualties(casualties: int, original: int) -> bool:
    """The checks of ``casualty_steps``; False when there is no original strength (so no steps)."""
    if original <= 0:
        if casualties:
            raise ValueError("casualties need the unit's original strength")
        return False
    if not 0 <= casualties <= original:
        raise ValueError(f"casualties must be 0..{original}, got {casualties}")
    return True


def _steps(casualties: int, original: int, step: tuple[int, int]) -> int:
    """floor(casualties / (original * step)) in integer arithmetic, for step = p/q > 0 as (p, q)."""
    return (casualties * step[1]) // (original * step[0])


def outnumbers_double(own: int, opponents: int) -> bool:
    """ "if you outnumber your melee opponents by double or more" (morale.modifiers)."""
    return opponents > 0 and own >= 2 * opponents


@dataclass(frozen=True)
class _Test:
    """The morale level and modifiers shared by morale and control tests.

    ``quality``: the troop quality level of the lowest quality troops in the unit (1..5): "The
    Quality level of the lowest quality troops in the unit determines its morale level"
    (morale.morale; one troop type per unit, docs/rulings 2).
    ``casualties`` / ``original``: figures lost and the original strength. ``friends_routing``:
    friendly units routing within 12". ``general``: the rating of a general who has joined and is
    leading the unit (0 = none). The other flags are the lines of the Morale Tests table.

    No ``__slots__``: the unset fields of ``quick`` read the class defaults, and ``from_fields`` keeps
    its dict as the ``__dict__``.
    """

    # into-the-dark:swat.shieldwall.morale

    quality: int
    shaken: bool = False
    disordered: bool = False
    casualties: int = 0
    original: int = 0
    flanked: bool = False
    outnumber_double: bool = False
    long_range_missile_only: bool = False
    fewer_firers: bool = False
    deeper_ranks: bool = False
    supported: bool = False
    friends_routing: int = 0
    unsupported: bool = False
    uphill: bool = False
    in_cover: bool = False
    shieldwall: bool = False
    general: int = 0
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if not 1 <= self.quality <= 5:
            raise ValueError(f"morale level must be 1..5, got {self.quality}")
        if self.shieldwall and self.disordered:
            raise ValueError("Disordered units may not be in shieldwall (into-the-dark:swat.shieldwall)")
        if self.supported and self.unsupported:
            raise ValueError(
                "a unit cannot be both supported and unsupported (into-the-dark:morale.modifiers)"
            )
        if self.friends_routing < 0:
            raise ValueError("friends_routing must be >= 0")
        if self.general:
            ratings = _ratings(profiles.command())
            if self.general not in ratings:
                raise ValueError(f"general rating must be one of {sorted(ratings)} (or 0 for none)")
        if self.original <= 0 or not 0 <= self.casualties <= self.original:
            _check_casualties(self.casualties, self.original)

    @classmethod
    def quick(cls, **state: Any) -> Self:
        """``cls(**state)``, built faster (``situation_values.quick_value``)."""
        return quick_value(cls, _TEST_FIELDS, state)

    @classmethod
    def from_fields(cls, state: dict[str, Any]) -> Self:
        """``cls(**state)`` for a dict naming every field, which it keeps
        (``situation_values.value_from_fields``)."""
        return value_from_fields(cls, _TEST_FIELDS, state)

    def with_fields(self, changes: dict[str, Any]) -> Self:
        """``dataclasses.replace(self, **changes)``, built faster (``situation_values.changed_value``)."""
        return changed_value(self, _TEST_FIELDS, changes)

    def modifiers(self) -> tuple[Mod, ...]:
        """Every applicable modifier, cumulative, then the general's negation (command.general-leading)."""
        m = profiles.morale_tables().modifiers
        out: list[Mod] = []
        # into-the-dark:morale.modifiers.shaken
        if self.shaken:
            out.append(Mod.of(m.shaken, "unit shaken"))
        # into-the-dark:morale.modifiers.disordered
        if self.disordered:
            out.append(Mod.of(m.disordered, "unit disordered"))
        # into-the-dark:morale.modifiers.casualties
        steps = casualty_steps(self.casualties, self.original)
        if steps:
            out.append(
                Mod(
                    f"casualties {self.casualties}/{self.original} ({steps} x 25%)",
                    steps * m.casualties.value,
                    m.casualties.rule,
                )
            )
        # into-the-dark:morale.modifiers.flanked
        if self.flanked:
            out.append(Mod.of(m.flanked, "unit flanked"))
        # into-the-dark:morale.modifiers.outnumber
        if self.outnumber_double:
            out.append(Mod.of(m.outnumber, "outnumbers melee opponents by double or more"))
        # into-the-dark:morale.modifiers.long-range-only
        if self.long_range_missile_only:
            out.append(Mod.of(m.long_range_only, "receiving long range missile fire only"))
        # into-the-dark:morale.modifiers.fewer-firers
        if self.fewer_firers:
            out.append(Mod.of(m.fewer_firers, "missile fire from less enemy than own numbers"))
        # into-the-dark:morale.modifiers.deeper-ranks
        if self.deeper_ranks:
            out.append(Mod.of(m.deeper_ranks, "opponent has more complete ranks"))
        # into-the-dark:morale.modifiers.supported
        if self.supported:
            out.append(Mod.of(m.supported, "unit supported"))
        # into-the-dark:morale.modifiers.friends-routing
        if self.friends_routing:
            out.append(
                Mod(
                    f'{self.friends_routing} friendly unit(s) routing within 12"',
                    self.friends_routing * m.friends_routing.value,
                    m.friends_routing.rule,
                )
            )
        # into-the-dark:morale.modifiers.unsupported
        if self.unsupported:
            out.append(Mod.of(m.unsupported, "unit unsupported"))
        # into-the-dark:morale.modifiers.uphill
        if self.uphill:
            out.append(Mod.of(m.uphill, "unit is uphill"))
        # into-the-dark:morale.modifiers.in-cover
        if self.in_cover:
            out.append(Mod.of(m.in_cover, "unit in cover"))
        if self.shieldwall:
            out.append(Mod.of(m.shieldwall, "unit in shieldwall"))
        negative = -sum(x.value for x in out if x.value < 0)
        negated = min(self.general, negative)
        if negated:
            out.append(
                Mod(
                    f"general (rating {self.general}) negates negative modifiers",
                    negated,
                    cite("command.general-leading"),
                )
            )
        return tuple(out)

    @property
    def level(self) -> int:
        """The modified morale level: troop quality level plus all modifiers (may be <1 or >6).

        The sum of the values of ``modifiers()``, added up in integers without building the ``Mod``
        rows (tests/odds/test_odds_itd_fast.py checks the two agree on every combination)."""
        v = _level_values()
        total = 0
        # the yes/no lines (_LEVEL_LINES)
        if self.shaken:
            total += v.shaken
        if self.disordered:
            total += v.disordered
        if self.flanked:
            total += v.flanked
        if self.outnumber_double:
            total += v.outnumber_double
        if self.long_range_missile_only:
            total += v.long_range_missile_only
        if self.fewer_firers:
            total += v.fewer_firers
        if self.deeper_ranks:
            total += v.deeper_ranks
        if self.supported:
            total += v.supported
        if self.unsupported:
            total += v.unsupported
        if self.uphill:
            total += v.uphill
        if self.in_cover:
            total += v.in_cover
        if self.shieldwall:
            total += v.shieldwall
        # casualty_steps without its checks (they ran when the test was built)
        cas = _steps(self.casualties, self.original, v.step) * v.casualties if self.casualties else 0
        friends = self.friends_routing * v.friends_routing
        level = self.quality + total + cas + friends
        if not self.general:
            return level
        # the general negates negative modifiers up to his rating
        negative: int = -sum(min(getattr(v, f), 0) for f, _ in _LEVEL_LINES if getattr(self, f))
        return level + min(self.general, negative - min(cas, 0) - min(friends, 0))

    def _data(self, face: int) -> dict[str, Any]:
        return {
            "die": "d6",
            "faces": [face],
            "morale_level": self.quality,
            "level_rule": cite("morale.morale-levels"),
            "modifiers": [m.to_dict() for m in self.modifiers()],
            "target": self.level,
            "over": face - self.level,
            "notes": list(self.notes),
        }


#: The yes/no lines of the morale modifiers table in ``_Test.level``'s order: (``_Test`` field,
#: ``MoraleModifiers`` row).
_LEVEL_LINES = (
    ("shaken", "shaken"),
    ("disordered", "disordered"),
    ("flanked", "flanked"),
    ("outnumber_double", "outnumber"),
    ("long_range_missile_only", "long_range_only"),
    ("fewer_firers", "fewer_firers"),
    ("deeper_ranks", "deeper_ranks"),
    ("supported", "supported"),
    ("unsupported", "unsupported"),
    ("uphill", "uphill"),
    ("in_cover", "in_cover"),
    ("shieldwall", "shieldwall"),
)


class _LevelValues(NamedTuple):
    """What ``_Test.level`` reads of the morale modifiers table: the value of each yes/no line, named
    as the ``_Test`` field that sets it (``_LEVEL_LINES``), per 25% casualty step, per friendly unit
    routing, and the casualty step as (numerator, denominator)."""

    shaken: int
    disordered: int
    flanked: int
    outnumber_double: int
    long_range_missile_only: int
    fewer_firers: int
    deeper_ranks: int
    supported: int
    unsupported: int
    uphill: int
    in_cover: int
    shieldwall: int
    casualties: int
    friends_routing: int
    step: tuple[int, int]


#: (the morale tables, the values ``_Test.level`` reads of them), for the tables now loaded
_LEVEL_VALUES: list[tuple[Any, _LevelValues]] = []


def _level_values() -> _LevelValues:
    """The values ``_Test.level`` reads of the morale modifiers table (read once per table)."""
    tables = profiles.morale_tables()
    if _LEVEL_VALUES and _LEVEL_VALUES[0][0] is tables:
        return _LEVEL_VALUES[0][1]
    m = tables.modifiers
    step = m.casualties.per_fraction
    got = _LevelValues(
        **{name: getattr(m, row).value for name, row in _LEVEL_LINES},
        casualties=m.casualties.value,
        friends_routing=m.friends_routing.value,
        step=(step.numerator, step.denominator),
    )
    _LEVEL_VALUES[:] = [(tables, got)]
    return got


#: (the command table, its general ratings), for the table now loaded
_RATINGS: list[tuple[Any, frozenset[int]]] = []


def _ratings(command: profiles.Command) -> frozenset[int]:
    """The ratings a general may have (command.toml)."""
    if _RATINGS and _RATINGS[0][0] is command:
        return _RATINGS[0][1]
    got = frozenset(r.rating for r in command.ratings.values())
    _RATINGS[:] = [(command, got)]
    return got


def outcome_for_over(over: int) -> MoraleOutcome:
    """The result of a morale test by how far the d6 is over the modified level (morale.results)."""
    r = profiles.morale_tables().results
    assert r.passed.max_over is not None and r.shaken.max_over is not None
    assert r.driven_back.max_over is not None
    if over <= r.passed.max_over:
        return MoraleOutcome.PASSED
    if over <= r.shaken.max_over:
        return MoraleOutcome.SHAKEN
    if over <= r.driven_back.max_over:
        return MoraleOutcome.DRIVEN_BACK
    return MoraleOutcome.ROUTED


@lru_cache(maxsize=256)
def morale_dist(level: int) -> Dist:
    """Exact distribution over ``MoraleOutcome`` ints of a d6 against the modified ``level``
    (weights out of 6). The level is computed once per test, not once per face."""
    return D6.dist().map(lambda f: int(outcome_for_over(f - level)))


@lru_cache(maxsize=256)
def control_dist(level: int) -> Dist:
    """Exact distribution over ``ControlOutcome`` ints of a control test against ``level``."""
    return D6.dist().map(lambda f: int(ControlOutcome.PASSED if f <= level else ControlOutcome.FAILED))


@dataclass(frozen=True, slots=True)
class MoraleRoll:
    face: int
    outcome: MoraleOutcome
    data: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return self.data


_TEST_FIELDS = frozenset(f.name for f in fields(_Test))


@dataclass(frozen=True)
class MoraleSituation(_Test):
    """A morale test (morale.morale-tests, morale.modifiers, morale.results)."""

    def outcome(self, face: int) -> MoraleOutcome:
        """The result for a natural d6 face, by how much it is over the modified level."""
        return outcome_for_over(face - self.level)

    def dist(self) -> Dist:
        """Exact distribution over ``MoraleOutcome`` ints (weights out of 6)."""
        return morale_dist(self.level)

    def roll(self, rng: np.random.Generator) -> MoraleRoll:
        face = D6.roll(rng)
        out = self.outcome(face)
        data = self._data(face) | {
            "rule": cite("morale.morale-tests"),
            "result": out.name.lower().replace("_", " "),
            "result_rule": cite("morale.results"),
        }
        return MoraleRoll(face, out, data)


@dataclass(frozen=True, slots=True)
class ControlRoll:
    face: int
    outcome: ControlOutcome
    data: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return self.data


@dataclass(frozen=True)
class ControlSituation(_Test):
    """A control test (morale.control-tests): pass on the modified level or less. Pass only the
    modifiers relevant to the test; shaken and disordered always apply (morale.morale-states,
    movement.disorder)."""

    def outcome(self, face: int) -> ControlOutcome:
        return ControlOutcome.PASSED if face <= self.level else ControlOutcome.FAILED

    def dist(self) -> Dist:
        """Exact distribution over ``ControlOutcome`` ints (weights out of 6)."""
        return control_dist(self.level)

    def roll(self, rng: np.random.Generator) -> ControlRoll:
        face = D6.roll(rng)
        out = self.outcome(face)
        data = self._data(face) | {"rule": cite("morale.control-tests"), "result": out.name.lower()}
        return ControlRoll(face, out, data)


@dataclass(frozen=True, slots=True)
class NewOrdersTest:
    """ "Add both general's ratings together and roll a d6. If the roll is equal to or less than this
    total, the orders are replaced immediately. If not then the orders take effect next turn."
    (command.new-orders). PASSED = immediately, FAILED = next turn."""

    # into-the-dark:command.new-orders.subordinate

    issuing_rating: int
    receiving_rating: int

    @property
    def target(self) -> int:
        return self.issuing_rating + self.receiving_rating

    def outcome(self, face: int) -> ControlOutcome:
        return ControlOutcome.PASSED if face <= self.target else ControlOutcome.FAILED

    def dist(self) -> Dist:
        return D6.dist().map(lambda f: int(self.outcome(f)))

    def roll(self, rng: np.random.Generator) -> ControlRoll:
        face = D6.roll(rng)
        out = self.outcome(face)
        data = {
            "rule": cite("command.new-orders"),
            "die": "d6",
            "faces": [face],
            "target": self.target,
            "result": "immediately" if out else "next turn",
        }
        return ControlRoll(face, out, data)
