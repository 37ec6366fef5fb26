"""Hypothesis strategies for the fuzz suite: JSON-like garbage, and mutations of real files."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

NUMBERS = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, 1, -1, 0.5, 1e30, -1e30, 1e-30, 2**63, float("nan"), float("inf"), 1e308, 360, 720]),
)
TEXT = st.one_of(
    st.text(max_size=20),
    st.sampled_from(["", "red", "blue", "r1", "b1", "front", "flank", "rear", "hill", "../x", "/dev/zero"]),
)
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, TEXT)
JSON: st.SearchStrategy[Any] = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)),
    max_leaves=12,
)


def _paths(x: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(x, dict):
        for k, v in x.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            out += _paths(v, (*prefix, i))
    return out


def _get(x: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        x = x[p]
    return x


@st.composite
def mutated(draw: st.DrawFn, base: Any, max_mutations: int = 3) -> Any:
    """``base`` with 1 to ``max_mutations`` changes: a value replaced (by garbage or by a value
    taken from elsewhere in the file), a key removed, a key added, a list item duplicated or
    dropped, a number nudged."""
    x = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, max_mutations))):
        paths = _paths(x)
        path = draw(st.sampled_from(paths))
        if not path:
            continue
        parent, key = _get(x, path[:-1]), path[-1]
        what = draw(st.sampled_from(["replace", "borrow", "delete", "add", "dup", "nudge"]))
        if what == "replace":
            parent[key] = draw(JSON)
        elif what == "borrow":
            parent[key] = copy.deepcopy(_get(x, draw(st.sampled_from(paths))))
        elif what == "delete":
            del parent[key]
        elif what == "add" and isinstance(parent, dict):
            parent[draw(TEXT)] = draw(JSON)
        elif what == "dup" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        elif what == "nudge" and isinstance(parent[key], (int, float)) and not isinstance(parent[key], bool):
            parent[key] = parent[key] + draw(st.sampled_from([-100, -1, -0.5, 0.5, 1, 100, 1e6]))
    return x
