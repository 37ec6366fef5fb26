"""A deep copy of the state's plain data without ``copy.deepcopy``'s machinery (issue 16, "Fast core").

``IntoTheDarkState.copy`` deep-copies ten of its fields (``pending``, ``charge``, ``melee``,
``generals``, ...) for every look-ahead of the scripted general: some 2,500 copies a senlac battle,
``copy.deepcopy`` 8% of the battle's own time on the compiled build. Those fields hold plain data:
dicts with string (or integer) keys, lists and tuples of strings, numbers, booleans and None.

``plain_deepcopy(x)`` builds what ``copy.deepcopy(x)`` builds for such a tree in which no container
is reached twice: new dicts and lists, in the same order, the same atoms (``deepcopy`` returns a
string, a number, a boolean or None itself) and a tuple returned itself when each of its items
copies to itself (as ``deepcopy`` does). Anything else (another type anywhere in ``x``, a subclass
of dict or list, a container reached twice, whose sharing ``deepcopy``'s memo keeps) makes it answer
``copy.deepcopy(x)`` itself. The reference (``SHIELDWALL_REFERENCE=1``) is ``copy.deepcopy``;
``tests/into_the_dark/test_itd_fast_paths_copy.py`` compares the two.
"""

from __future__ import annotations

import copy
from typing import Any, TypeVar

from shieldwall.core.reference import REFERENCE

T = TypeVar("T")


class _NotPlain(Exception):
    """``x`` is not a tree of plain data (``plain_deepcopy`` then asks ``copy.deepcopy``)."""


def _copy(x: Any, seen: set[int]) -> Any:
    t = type(x)
    if x is None or t is str or t is int or t is float or t is bool:
        return x
    if t is dict:
        if id(x) in seen:
            raise _NotPlain
        seen.add(id(x))
        out: dict[Any, Any] = {}
        for k, v in x.items():
            tk = type(k)
            if tk is not str and tk is not int:
                raise _NotPlain
            out[k] = _copy(v, seen)
        return out
    if t is list:
        if id(x) in seen:
            raise _NotPlain
        seen.add(id(x))
        return [_copy(v, seen) for v in x]
    if t is tuple:
        items = [_copy(v, seen) for v in x]
        for a, b in zip(items, x, strict=True):
            if a is not b:
                return tuple(items)
        return x
    raise _NotPlain


def plain_deepcopy(x: T) -> T:
    """``copy.deepcopy(x)``, built directly when ``x`` is a tree of plain data (module docstring)."""
    if REFERENCE.on:
        return copy.deepcopy(x)
    try:
        got: T = _copy(x, set())
    except _NotPlain:
        return copy.deepcopy(x)
    return got
