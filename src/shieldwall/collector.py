"""The cyclic garbage collector while battles are played (docs/performance.md, "Young collections
further apart" and "A finished One-Hour battle freed at once").

A battle allocates many short-lived objects and, since no engine makes reference cycles
(tests/plugins/test_no_closure_cycles.py), frees them all by reference counting: the cyclic
collector finds nothing to collect, and its young collections, every 700 allocations by CPython's
default, are pure cost. :func:`battles` puts them ``YOUNG_THRESHOLD`` allocations apart for the
time a ``with`` block plays, and puts the thresholds back after, also when the block raises.
Nested and concurrent blocks (threads) share the outermost one's setting. Battles are the same
with or without it: the collector decides no result.

Freezing the objects alive when the battles start (``gc.freeze``, as ``simulate``'s workers do
once) was tried for each block and dropped: about 1.03x more, but garbage alive at the start of a
block (a caller's reference cycles) would be frozen with the rest at every block and never looked
at, and ``gc.get_freeze_count``, to tell a caller's frozen objects from ours, walks them all.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: the collector's young-generation threshold while battles are played (CPython's default: 700)
YOUNG_THRESHOLD = 10_000

_LOCK = threading.Lock()


class _Open:
    """The open blocks: how many, and the thresholds to put back."""

    depth = 0
    kept: tuple[int, int, int] = (700, 10, 10)


@contextmanager
def battles() -> Iterator[None]:
    """Young collections ``YOUNG_THRESHOLD`` allocations apart for the block; put back after."""
    with _LOCK:
        if _Open.depth == 0:
            _Open.kept = gc.get_threshold()
            gc.set_threshold(YOUNG_THRESHOLD, *_Open.kept[1:])
        _Open.depth += 1
    try:
        yield
    finally:
        with _LOCK:
            _Open.depth -= 1
            if _Open.depth == 0:
                gc.set_threshold(*_Open.kept)
