"""The moves of one state, planned once (issue 16, "Fast core").

The scripted general plans a unit's moves three times over on the same state: the menu checks
each move (``menus._ok_move``: ``plan_move(verdict=True)``), the look-ahead applies it to a copy of
the state (``State.probe``: ``act_move.move`` plans it again, on a copy whose units are the same)
and the chosen one is applied for real (``State.apply``: planned once more). ``plan_move`` is a pure
function of the state's units (every field of every unit: where they stand, what they did this
turn, their flags), the game (terrain, scale) and the move, so a move planned once can be answered
from a memo while none of that has changed.

``PlanMemo`` keeps the traces of the moves ``plan_move`` accepted, with a snapshot of every unit's
every field (``unit_snapshot``) taken when the first of them was kept; a question first compares
the state's units with that snapshot (one list comparison) and starts afresh when any field of any
unit differs. The memo is shared by a state and its copies (the snapshot decides, not the object),
so a copy made to look ahead finds the moves its original's menu planned. Refusals are not kept
(the reason differs with ``verdict``), nor anything on the reference path (``REFERENCE.on``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import fields
from operator import attrgetter
from typing import Any

from shieldwall.core.reference import REFERENCE

from .model import Unit
from .movement import Trace

#: every field of a unit but ``extra`` (a dict changed in place: copied by ``unit_snapshot``) and
#: its footprint cache (``_fpc``: derived from the others)
_STATE_FIELDS = attrgetter(*(f.name for f in fields(Unit) if f.name not in ("extra", "_fpc")))


def _fields_of() -> Callable[[Unit], tuple[Any, ...]]:
    """How a unit's fields are read, asked once per snapshot or refresh, not per unit: every field
    but ``extra`` and ``_fpc``, in their order (``Unit.state_fields``; on the reference path
    ``attrgetter`` of the fields' names)."""
    if REFERENCE.on:
        return _STATE_FIELDS
    return Unit.state_fields


def unit_snapshot(units: Mapping[str, Unit]) -> list[Any]:
    """Every field of every unit, in the state's order (``extra`` as a copy, compared by value)."""
    fields_of = _fields_of()
    return [(fields_of(u), dict(u.extra)) for u in units.values()]


def refresh(units: Mapping[str, Unit], snap: list[Any]) -> bool:
    """Bring ``snap`` (a snapshot of as many units) up to date in place, unit by unit: an entry
    whose unit's fields differ (every field but ``_fpc``, ``extra`` by value) is made again, the
    others are kept; True when none differed. Afterwards ``snap == unit_snapshot(units)``.
    (Issue 16: most units do not change between two decisions; a whole new snapshot at each was
    some 14% of a decision at 200 units a side, with the collector's work on what it kept.)"""
    if REFERENCE.on:
        same = True
        for i, u in enumerate(units.values()):
            f, extra = snap[i]
            now = _STATE_FIELDS(u)
            if now != f or u.extra != extra:
                snap[i] = (now, dict(u.extra))
                same = False
        return same
    same = True
    for i, u in enumerate(units.values()):  # (``Unit.same_fields``: no tuple made for an unchanged unit)
        f, extra = snap[i]
        if not u.same_fields(f) or u.extra != extra:
            snap[i] = (u.state_fields(), dict(u.extra))
            same = False
    return same


class PlanMemo:
    """Accepted moves of the units as they stand in ``snap`` (module docstring)."""

    __slots__ = ("snap", "plans", "_held", "_still", "_still_units")

    def __init__(self) -> None:
        self.snap: list[Any] | None = None
        self.plans: dict[tuple[str, tuple[Any, ...]], Trace] = {}
        self._held: Mapping[str, Unit] | None = None
        #: the still block (``State.still``: its one world, the block's token) in which the snapshot
        #: was last found equal to the units, or taken from them; None when it was for a state
        #: outside a block (a copy)
        self._still: object | None = None
        #: the units that check was of (the token answers for these units only)
        self._still_units: Mapping[str, Unit] | None = None

    def _check(self, units: Mapping[str, Unit], still: object | None) -> None:
        """Make the snapshot the units' (a fresh one, the plans dropped, when any field of any
        unit differs). Within the still block ``still`` in which it was last checked no unit has
        moved since (issue 16: the menu, ``ends_of_moves`` and the charges' look-aheads each asked
        it of every unit of a big army at the same decision), so it is not compared again."""
        if still is not None and still is self._still and units is self._still_units:
            return
        snap = self.snap
        if snap is None or len(snap) != len(units):
            self.snap = unit_snapshot(units)
            self.plans = {}
        elif not refresh(units, snap):
            self.plans = {}  # (the snapshot is the units' again: ``refresh``)
        self._still = still
        self._still_units = units

    @contextmanager
    def held(self, units: Mapping[str, Unit], still: object | None = None) -> Iterator[None]:
        """For a block that only plans (``menus.UnitMenu.moves``: a dozen plans of one state, none
        of which changes a unit): the units compared with the snapshot once, at the start, and not
        again at each plan of the block. Not for a block that may change a unit. ``still``: the
        token of the state's still block (``State.still_token``), None outside one."""
        self._check(units, still)
        self._held = units
        try:
            yield
        finally:
            self._held = None

    def plan(
        self,
        units: Mapping[str, Unit],
        uid: str,
        steps: tuple[Any, ...],
        make: Callable[[], Trace],
        still: object | None = None,
    ) -> Trace:
        """The trace of ``uid``'s ``steps`` with the units as they stand: the one kept if every
        unit is as it was when it was kept, else ``make()`` (kept if it returns; a refusal raises
        through). ``make`` must not change the units (``plan_move`` changes nothing). ``still``:
        as for ``held``."""
        key = (uid, steps)
        # (``held``: the units were compared when the block began)
        if units is not self._held:
            self._check(units, still)
        got = self.plans.get(key)
        if got is not None:
            return got
        tr = make()
        self.plans[key] = tr
        return tr
