"""The spatial checks of one decision's menu, each worked out once (issue 16, "Fast core").

Building a move menu asks the same questions many times: the footprint after a turn is placed for
"face", for each approach and for "close to range" along it; a charge's turn is placed again by the
move that makes the same turn; the menu may be rebuilt when a step changes but the table does not.
``placement_problem``, ``path_problem`` and ``max_advance`` are pure functions of the unit that
moves (its id, side and profile), the footprints asked about, the units on the table and the
terrain. While a menu is built nothing on the table changes (``OneHourState._menu`` opens a
``Checks`` for the build and drops it after), so within one ``Checks`` their answers are keyed by
the unit's id and the footprints alone, and every repeat is a look-up.

Outside a menu build (``OneHourState.checks`` is None) each call gets a fresh ``Checks``: no memo
outlives the table it was made for. ``MEMO = False`` turns every look-up off (the reference path
the tests compare the memo with).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from shieldwall.core.geometry import Footprint, Point
from shieldwall.rulesets.one_hour import spatial as S
from shieldwall.rulesets.one_hour.model import Unit

if TYPE_CHECKING:
    from shieldwall.core.terrain import TerrainMap
    from shieldwall.rulesets.one_hour.state import OneHourState

#: Whether answers are memoised (False: every check is made afresh, the reference path).
MEMO = True


class Checks:
    """Memoised spatial checks against one fixed table: ``units`` (the live units) and ``terrain``."""

    def __init__(self, units: Sequence[Unit], terrain: TerrainMap) -> None:
        self.units = units
        self.terrain = terrain
        self._memo: dict[tuple[Any, ...], Any] = {}

    def placement(self, unit: Unit, fp: Footprint) -> str | None:
        """``spatial.placement_problem(unit, fp, units, terrain)``."""
        key = ("place", unit.id, fp)
        memo = self._memo
        if MEMO and key in memo:
            got: str | None = memo[key]
            return got
        got = memo[key] = S.placement_problem(unit, fp, self.units, self.terrain)
        return got

    def path(self, unit: Unit, start: Footprint, end: Point) -> str | None:
        """``spatial.path_problem(unit, start, [end], units, terrain)``."""
        key = ("path", unit.id, start, end)
        memo = self._memo
        if MEMO and key in memo:
            got: str | None = memo[key]
            return got
        got = memo[key] = S.path_problem(unit, start, [end], self.units, self.terrain)
        return got

    def max_advance(self, unit: Unit, start: Footprint, direction: Point, budget: float) -> float:
        """``spatial.max_advance(unit, start, direction, budget, units, terrain)``."""
        key = ("advance", unit.id, start, direction, budget)
        memo = self._memo
        if MEMO and key in memo:
            far: float = memo[key]
            return far
        far = memo[key] = S.max_advance(unit, start, direction, budget, self.units, self.terrain)
        return far


def checks(st: OneHourState) -> Checks:
    """The checks of the menu being built, or fresh ones against the table as it stands."""
    got = st.checks
    return got if got is not None else Checks(st.live(), st.terrain)
