"""Building Into the Dark's situation values fast, for the odds engine's hot path (split from
``combat.py``): ``MissileSituation``, ``MeleeSituation`` and the morale tests are frozen dataclasses
without ``__slots__``; these build equal values (same hash, same checks in ``__post_init__``)
without their generated ``__init__``."""

from __future__ import annotations

from typing import Any, TypeVar

_S = TypeVar("_S")


def quick_value(cls: type[_S], names: frozenset[str], state: dict[str, Any]) -> _S:
    """``cls(**state)`` for the odds engine's hot path: an equal value (same hash, same checks in
    ``__post_init__``), built without the generated ``__init__`` (fields not given keep their class
    defaults: the situations have no ``__slots__`` for this)."""
    if not names.issuperset(state):
        raise TypeError(f"unknown field(s) {sorted(set(state) - names)}")
    obj = object.__new__(cls)
    obj.__dict__.update(state)
    obj.__post_init__()  # type: ignore[attr-defined]
    return obj


def changed_value(obj: _S, names: frozenset[str], changes: dict[str, Any]) -> _S:
    """``dataclasses.replace(obj, **changes)`` for the odds engine's hot path: an equal value (same
    hash, same checks in ``__post_init__``), built from a copy of ``obj``'s ``__dict__`` without the
    generated ``__init__``."""
    if not names.issuperset(changes):
        raise TypeError(f"unknown field(s) {sorted(set(changes) - names)}")
    state = obj.__dict__.copy()
    state.update(changes)
    new = object.__new__(type(obj))
    object.__setattr__(new, "__dict__", state)
    new.__post_init__()  # type: ignore[attr-defined]
    return new


def value_from_fields(cls: type[_S], names: frozenset[str], state: dict[str, Any]) -> _S:
    """``cls(**state)`` for a ``state`` that names every field: an equal value (same hash, same checks
    in ``__post_init__``) whose ``__dict__`` is ``state`` itself (the caller gives the dict away), so
    its fields are read as fast as a constructed situation's. The odds engine's hot path."""
    if state.keys() != names:
        unknown, missing = sorted(set(state) - names), sorted(names - set(state))
        raise TypeError(f"unknown field(s) {unknown}" if unknown else f"missing field(s) {missing}")
    obj = object.__new__(cls)
    object.__setattr__(obj, "__dict__", state)
    obj.__post_init__()  # type: ignore[attr-defined]
    return obj
