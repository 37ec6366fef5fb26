"""The reference switch: play on the plain code every fast path was derived from (issue 16).

The engines answer their hot questions with fast paths (grids, bounds, caches, memos, answers
computed for one order instead of the whole menu), each derived from a plain computation that
is kept beside it as its *reference*: the referee whose answers the fast path must give exactly.
This module holds the one switch that sends every fast path of every rule system to its
reference, so that whole battles can be played both ways and their event logs compared
(``benchmarks/bench_fast_vs_reference.py``, ``tests/plugins/test_fast_vs_reference.py``).

    from shieldwall.core.reference import reference_path
    with reference_path():          # every fast path takes its reference for this block
        played = play(game, seed, "scripted", "random")

or, for a whole process (and the worker processes it starts), the environment variable
``SHIELDWALL_REFERENCE=1`` (read once, when this module is first imported).

A fast path asks ``REFERENCE.on`` (one attribute read: cheap enough for the hottest kernels; compiled,
this module's switch is a native class and ``REFERENCE`` a final name, so a compiled module reads a
C static and a field, not a module dictionary and an attribute) and,
when it is set, answers with its reference: a grid returns every piece, a bound measures every
distance, a cache or memo is neither read nor filled. The bookkeeping that keeps a cache valid
(invalidation, version counters) goes on either way, so a process may switch between battles;
a battle should be played in one mode from start to end (a state's caches are not rebuilt when
the switch turns). The switch is process-wide (not per thread): the benchmark and the tests play
one battle at a time. docs/performance.md ("The referee") lists each fast path and its reference,
and the systems that have none.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

#: the environment variable that turns the reference path on for a whole process
ENV = "SHIELDWALL_REFERENCE"


class _Switch:
    """Whether the fast paths take their references (``on``)."""

    __slots__ = ("on",)

    def __init__(self, on: bool) -> None:
        self.on = on


def _from_env() -> bool:
    value = os.environ.get(ENV, "").strip().lower()
    return value not in ("", "0", "false", "no", "off")


#: the switch every fast path reads (``if REFERENCE.on: <the reference>``)
REFERENCE: Final = _Switch(_from_env())


def reference_on() -> bool:
    """Whether the fast paths take their references now."""
    return REFERENCE.on


@contextmanager
def reference_path(on: bool = True) -> Iterator[None]:
    """Within the block, every fast path takes its reference (``on=False``: the fast paths, whatever
    the environment says); the switch is set back as it was afterwards, even on an error."""
    before = REFERENCE.on
    REFERENCE.on = on
    try:
        yield
    finally:
        REFERENCE.on = before
