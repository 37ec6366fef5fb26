"""The flush contacts of every unit, kept between questions (issue 16, "Fast core").

``State.touching(u)`` is asked tens of thousands of times a battle (every ``world()`` asks it of
every unit on the table). The answer is ``spatial.touches(u, <the enemy units on the table>)``: a
pure function of the units' poses. ``Contacts`` keeps each answer until a unit it could depend on
changes, and answers a new question from a spatial hash of the units on the table instead of every
enemy:

* each question first compares every unit's pose (``pose``: position, heading, frontage, figures,
  on the table) with the poses the cache was built on (one list comparison); a unit whose pose
  changed drops its own answer, the answers that name it, and the answers of enemy units within
  contact reach of where it stands now (the only ones it can have joined);
* a new answer is ``touches`` of the enemies in the hash cells within contact reach, in the state's
  unit order: every enemy left out is further than ``touches`` itself looks
  (``footprints_within(..., 2 * FLUSH_TOL)``), so the answer is the same list.

The cache is copied with the state (``copy``): the answers are values of the poses, which a copy
shares until one of them moves.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Final

from shieldwall.core.polygons import footprints_within
from shieldwall.core.reference import REFERENCE

from .model import Unit
from .spatial import FLUSH_TOL, Touch, touches

#: side of a cell of the spatial hash, inches
CELL: Final = 8.0
#: how far apart two units' footprints may be and still touch (``touches``' own reach)
REACH = FLUSH_TOL * 2
#: more changed units than this at once: rebuild everything rather than sort out what stays
MANY: Final = 12

Pose = tuple[float, float, float, int, int, bool]


def pose(u: Unit) -> Pose:
    return (u.x, u.y, u.heading, u.front, u.figures, u.on_table)


def poses_of(units: Mapping[str, Unit]) -> list[Pose]:
    """``[pose(u) for u in units.values()]``, ``pose`` and ``Unit.on_table`` inlined (the same
    tuples; the calls were most of the time of ``Contacts.sync``, which asks it at every question)."""
    return [
        (
            u.x,
            u.y,
            u.heading,
            u.front,
            u.figures,
            u.deployed and not (u.gone or u.destroyed) and u.joined is None,
        )
        for u in units.values()
    ]


def same_poses(units: Mapping[str, Unit], poses: list[Pose]) -> bool:
    """``poses_of(units) == poses``, unit by unit, stopping at the first that differs: no list of
    poses built while nothing has moved (issue 16: ``sync`` asks it at every question, of every
    unit of a big army)."""
    if len(poses) != len(units):
        return False
    for u, p in zip(units.values(), poses, strict=True):
        if (
            u.x,
            u.y,
            u.heading,
            u.front,
            u.figures,
            u.deployed and not (u.gone or u.destroyed) and u.joined is None,
        ) != p:
            return False
    return True


def touches_reference(u: Unit, units: Mapping[str, Unit]) -> list[Touch]:
    """What ``State.touching`` answered before this cache (the reference the tests compare with)."""
    return touches(u, [x for x in units.values() if x.on_table and x.side != u.side])


class Contacts:
    """Cached ``touches`` answers for the units of one state (module docstring)."""

    __slots__ = ("_ids", "_poses", "_touch", "_cells", "_where", "_order", "_rmax")

    def __init__(self) -> None:
        self._ids: list[str] = []
        self._poses: list[Pose] = []
        self._touch: dict[str, list[Touch]] = {}
        self._cells: dict[tuple[int, int], list[str]] = {}
        self._where: dict[str, tuple[int, int]] = {}  # units on the table -> their cell
        self._order: dict[str, int] = {}
        self._rmax = 0.0

    def copy(self) -> Contacts:
        new = Contacts.__new__(Contacts)
        new._ids = self._ids
        new._poses = self._poses
        new._touch = dict(self._touch)
        new._cells = {k: list(v) for k, v in self._cells.items()}
        new._where = dict(self._where)
        new._order = self._order
        new._rmax = self._rmax
        return new

    # ------------------------------------------------------------------ keeping up with the units
    def sync(self, units: Mapping[str, Unit]) -> None:
        """Bring the cache up to date with ``units`` (the state's, in its order)."""
        if REFERENCE.on:
            return  # (the reference reads no cache; a later sync compares poses, so skipping is safe)
        if same_poses(units, self._poses):
            return
        poses = poses_of(units)
        ids = list(units)
        if ids != self._ids:
            self._rebuild(units, ids, poses)
            return
        changed = [ids[i] for i, (a, b) in enumerate(zip(poses, self._poses, strict=True)) if a != b]
        if len(changed) > MANY:
            self._rebuild(units, ids, poses)
            return
        self._poses = poses
        gone = set(changed)
        for uid in changed:
            self._unhash(uid)
            u = units[uid]
            if u.on_table:
                self._hash(u)
        drop = [k for k, ts in self._touch.items() if k in gone or any(t.other in gone for t in ts)]
        for uid in changed:
            c = units[uid]
            if not c.on_table:
                continue
            fc = c.fp
            for k in self._touch:
                x = units[k]
                if x.side != c.side and footprints_within(x.fp, fc, REACH):
                    drop.append(k)
        for k in drop:
            self._touch.pop(k, None)

    def _rebuild(self, units: Mapping[str, Unit], ids: list[str], poses: list[Pose]) -> None:
        self._ids = ids
        self._poses = poses
        self._order = {k: i for i, k in enumerate(ids)}
        self._touch = {}
        self._cells = {}
        self._where = {}
        for u in units.values():
            if u.on_table:
                self._hash(u)

    def _hash(self, u: Unit) -> None:
        fp = u.fp
        self._rmax = max(self._rmax, fp.radius)
        cell = (math.floor(fp.x / CELL), math.floor(fp.y / CELL))
        self._cells.setdefault(cell, []).append(u.id)
        self._where[u.id] = cell

    def _unhash(self, uid: str) -> None:
        cell = self._where.pop(uid, None)
        if cell is not None:
            self._cells[cell].remove(uid)

    # ------------------------------------------------------------------ questions
    def touching(self, u: Unit, units: Mapping[str, Unit]) -> list[Touch]:
        """``touches(u, <enemies on the table>)``; call ``sync`` first."""
        if REFERENCE.on:
            return touches_reference(u, units)
        got = self._touch.get(u.id)
        if got is None:
            got = touches(u, self._near_enemies(u, units))
            self._touch[u.id] = got
        return got

    def touching_ids(self, us: list[Unit], units: Mapping[str, Unit]) -> set[str]:
        """The ids of ``us`` that touch an enemy (``{u.id for u in us if self.touching(u, units)}``,
        the loop compiled: ``State.world`` asks it of every unit on the table); call ``sync`` first."""
        return {u.id for u in us if self.touching(u, units)}

    def _near_enemies(self, u: Unit, units: Mapping[str, Unit]) -> list[Unit]:
        """The enemies on the table that may be within ``REACH`` of ``u``, in the state's order."""
        fp = u.fp
        reach = fp.radius + self._rmax + REACH + 1e-6
        x0, x1 = math.floor((fp.x - reach) / CELL), math.floor((fp.x + reach) / CELL)
        y0, y1 = math.floor((fp.y - reach) / CELL), math.floor((fp.y + reach) / CELL)
        cells = self._cells
        found: list[str] = []
        if (x1 - x0 + 1) * (y1 - y0 + 1) > len(cells):
            for ids in cells.values():
                found.extend(ids)
        else:
            for cx in range(x0, x1 + 1):
                for cy in range(y0, y1 + 1):
                    got = cells.get((cx, cy))
                    if got:
                        found.extend(got)
        order = self._order
        found.sort(key=order.__getitem__)
        side = u.side
        return [x for x in (units[k] for k in found) if x.side != side]
