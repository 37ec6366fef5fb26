"""Exact odds: "what are my chances?" computed from the same rule code the engine plays with.

Every query names a rule system and returns exact probabilities (``fractions.Fraction``) with
floats beside them in ``to_json()``; duels (and the duel grids of matrices) are solved in float64
by default, with a stated bound on their error, and exactly with ``exact=True``. The numbers come
from the rule system's own "distribution of
outcomes given a situation" (the object its engine samples in play), never from a second copy of
the rules: each rule system answers through its odds plug-in (:class:`OddsPlugin`), named by its
plugin object and found through :mod:`shieldwall.registry` (:func:`get_plugin`).

``sets`` is either a mapping (``{"facing": "flank"}``) or ``KEY=VALUE`` strings as on the command
line; each plug-in declares its keys (``OddsPlugin.set_keys``; ``shieldwall odds attack --help``).
A unit is a SPEC string in the rule system's own grammar (``OddsPlugin.spec_help``).

>>> from shieldwall import odds
>>> rid = odds.ruleset_ids()[0]  # the first rule system with odds, in display order
>>> p = odds.get_plugin(rid)
>>> p.ruleset == rid and set(p.commands) <= {"attack", "morale", "duel", "matrix"}
True
>>> unit = p.spec_examples[0]
>>> sum(odds.attack(rid, unit, unit).probabilities.values())  # one attack: a distribution
Fraction(1, 1)
>>> d = odds.duel(rid, unit, unit, exact=True)  # a duel to the finish: an absorbing Markov chain
>>> d.first_wins + d.second_wins + d.draw + d.undecided
Fraction(1, 1)
>>> f = odds.duel(rid, unit, unit)  # by default in float64, with a bound on its error
>>> abs(f.first_wins - float(d.first_wins)) <= f.error_bound < 1e-11
True

Errors name the valid choices:

>>> odds.attack("no-such-rules", unit, unit)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
shieldwall.core.errors.UnknownName: unknown ruleset for odds 'no-such-rules'; valid choices: ...
>>> odds.attack(rid, unit, unit, {"no-such-key": "yes"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
shieldwall.core.errors.UnknownName: unknown --set key for `odds attack ...` 'no-such-key'; valid choices: ...
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from shieldwall.odds.base import _LOADED, OddsPlugin, get_plugin, ruleset_ids
from shieldwall.odds.results import AttackOdds, DuelOdds, MatrixOdds, MoraleOdds, Progress
from shieldwall.odds.settings import SetKey

Sets = Iterable[str] | Mapping[str, str | int] | None

__all__ = [
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
    """Exact distribution of the result of one attack (hits, casualties...: ``AttackOdds.unit``)."""
    return (_LOADED.get(ruleset) or get_plugin(ruleset)).attack(attacker, target, sets)


def morale(ruleset: str, unit: str, sets: Sets = None) -> MoraleOdds:
    """Exact outcome probabilities of a morale or control test (passed / shaken / driven back /
    routed), for rule systems that have them."""
    return (_LOADED.get(ruleset) or get_plugin(ruleset)).morale(unit, sets)


def duel(
    ruleset: str,
    first: str,
    second: str,
    sets: Sets = None,
    *,
    exact: bool = False,
    progress: Progress | None = None,
) -> DuelOdds:
    """Two units locked in frontal melee until one is gone: P(each side wins) and the distribution
    of the number of turns, in float64 with a bound on the error (``DuelOdds.error_bound``), or
    exact fractions with ``exact=True``. ``progress(stage, done, total)`` is told how long work
    advances (:data:`Progress`)."""
    plugin = _LOADED.get(ruleset) or get_plugin(ruleset)
    if exact:
        return plugin.duel(first, second, sets, progress=progress)
    return plugin.duel_float(first, second, sets, progress=progress)


def matrix(
    ruleset: str, sets: Sets = None, *, exact: bool = False, progress: Progress | None = None
) -> MatrixOdds:
    """Every unit type against every other, for each facing (mean result of one attack, and
    P(the row type wins a duel it opens on that facing): float64 within ``MatrixOdds.error_bound``,
    or exact with ``exact=True``); ``progress(stage, done, total)`` is told after each duel."""
    plugin = _LOADED.get(ruleset) or get_plugin(ruleset)
    if exact:
        return plugin.matrix(sets, progress=progress)
    return plugin.matrix_float(sets, progress=progress)
