"""Exact odds: "what are my chances?" computed from the same rule code the engine plays with.

Every query names a rule system and returns exact probabilities (``fractions.Fraction``) with
floats beside them in ``to_json()``. The numbers come from the rule system's own "distribution of
outcomes given a situation" (for one-hour-dark-ages, ``combat.AttackSituation.dist()``, which the
engine samples with ``AttackSituation.roll``), never from a second copy of the rules.

``sets`` is either a mapping (``{"facing": "flank"}``) or ``KEY=VALUE`` strings as on the command
line; see ``shieldwall odds attack --help`` or :data:`shieldwall.odds.one_hour.SET_KEYS`.

One attack (Warriors d5+1 against Infantry in shieldwall: 3,4,4,5,5,6 halved rounding up):

>>> from shieldwall import odds
>>> a = odds.attack("one-hour-dark-ages", "warriors", "infantry")
>>> a.probabilities
{2: Fraction(1, 2), 3: Fraction(1, 2)}
>>> a.to_json()["distribution"][0]
{'value': 2, 'probability': '1/2', 'p': 0.5}
>>> odds.attack("one-hour-dark-ages", "warriors", "infantry", ["facing=flank"]).mean
Fraction(9, 2)

A duel to the finish, solved as an absorbing Markov chain:

>>> d = odds.duel("one-hour-dark-ages", "infantry", "warriors")
>>> d.first_wins
Fraction(35700821, 35831808)
>>> sorted(d.turns)
[3, 4, 5, 6, 7, 8]

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

from collections.abc import Iterable, Mapping

from shieldwall.odds.base import (
    _LOADED,
    PLUGINS,
    AttackOdds,
    DuelOdds,
    MatrixOdds,
    MoraleOdds,
    OddsPlugin,
    Progress,
    SetKey,
    get_plugin,
    ruleset_ids,
)

Sets = Iterable[str] | Mapping[str, str | int] | None

__all__ = [
    "PLUGINS",
    "AttackOdds",
    "DuelOdds",
    "MatrixOdds",
    "MoraleOdds",
    "OddsPlugin",
    "Progress",
    "SetKey",
    "attack",
    "duel",
    "get_plugin",
    "matrix",
    "morale",
    "ruleset_ids",
]


def attack(ruleset: str, attacker: str, target: str, sets: Sets = None) -> AttackOdds:
    """Exact distribution of the result of one attack (one-hour: hits of a melee attack or shot).

    >>> attack("one-hour-dark-ages", "skirmishers-bows", "infantry", {"mode": "shoot"}).probabilities
    {0: Fraction(1, 6), 1: Fraction(2, 3), 2: Fraction(1, 6)}
    """
    return (_LOADED.get(ruleset) or get_plugin(ruleset)).attack(attacker, target, sets)


def morale(ruleset: str, unit: str, sets: Sets = None) -> MoraleOdds:
    """Exact outcome probabilities of a morale or control test (passed / shaken / driven back /
    routed), for rule systems that have them."""
    return (_LOADED.get(ruleset) or get_plugin(ruleset)).morale(unit, sets)


def duel(
    ruleset: str, first: str, second: str, sets: Sets = None, *, progress: Progress | None = None
) -> DuelOdds:
    """Two units locked in frontal melee until one is gone: exact P(each side wins) and the
    distribution of the number of turns. ``progress(stage, done, total)`` is told how long work
    advances (:data:`Progress`).

    >>> d = duel("one-hour-dark-ages", "cavalry", "cavalry")
    >>> float(d.first_wins) > 0.5     # striking first is an advantage
    True
    """
    return (_LOADED.get(ruleset) or get_plugin(ruleset)).duel(first, second, sets, progress=progress)


def matrix(ruleset: str, sets: Sets = None, *, progress: Progress | None = None) -> MatrixOdds:
    """Every unit type against every other, for each facing (mean result of one attack, and
    P(the row type wins a duel it opens on that facing)); ``progress(stage, done, total)`` is told
    after each duel.

    >>> m = matrix("one-hour-dark-ages")
    >>> m.types[:2], m.facings
    (('infantry', 'warriors'), ('front', 'flank', 'rear'))
    """
    return (_LOADED.get(ruleset) or get_plugin(ruleset)).matrix(sets, progress=progress)
