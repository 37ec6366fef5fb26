"""The scripted general's distances from one footprint (a candidate move's end) to the units of
the table, measured only where they can matter (issue 16, "Fast core").

``_score`` (``general``) asks, for every move it weighs, the distance to every enemy, sorted, and
how many friends stand within 4". It reads only the three nearest enemies and those within 12" of
the sorted list, and only whether there are none, one or two friends. Two footprints are at least
the distance of their centres less both radii apart (each lies within its circumscribed circle), so
an enemy whose bound exceeds both 12" and the third-nearest distance found, or a friend whose bound
exceeds 4", is not measured. On the reference path (``core.reference``) every distance is measured.
"""

from __future__ import annotations

import math
from bisect import insort
from typing import Any, Final

from shieldwall.core.geometry import Footprint
from shieldwall.core.geometry_index import SMALL, FootprintIndex
from shieldwall.core.polygons import footprint_distance
from shieldwall.core.reference import REFERENCE

#: the math functions called here, bound once (compiled: a static read, not a lookup per call)
_hypot: Final = math.hypot

#: enemies with their distances, nearest first
Gaps = list[tuple[float, dict[str, Any]]]

#: slack on the bounds (the rounding of the corners, the centres' distance and the radii)
SLACK: Final = 1e-9
#: the first reach (inches) ``nearest_gap`` asks its index for
FIRST_REACH: Final = 6.0
#: the distance ``nearest_gap`` answers when there is no enemy at all
NO_ENEMY: Final = 99.0


def gaps_reference(fp: Footprint, enemies: list[dict[str, Any]], fps: dict[str, Footprint]) -> Gaps:
    """Every enemy with its distance from ``fp``, nearest first (equal distances in list order)."""
    return sorted(((footprint_distance(fp, fps[e["id"]]), e) for e in enemies), key=lambda x: x[0])


def gaps(
    fp: Footprint,
    enemies: list[dict[str, Any]],
    fps: dict[str, Footprint],
    near: float,
    index: FootprintIndex[Piece] | None = None,
) -> Gaps:
    """The prefix of ``gaps_reference`` that is read of it: the three nearest enemies and every one
    within ``near`` (the whole list on the reference path). ``index``: ``index_of(enemies,
    fps)``; the enemies then looked at (``_measured``) are those the grid gives within a reach,
    from ``near`` (at least ``FIRST_REACH``) doubled until three of them are within it (every
    enemy left out is farther than the reach, so farther than those three and than ``near``: the
    same prefix)."""
    if REFERENCE.on:
        return gaps_reference(fp, enemies, fps)
    if index is not None:
        reach = max(near, FIRST_REACH)
        known: dict[int, float] = {}  # (the distances measured at a smaller reach)
        while True:
            found = index.near(fp.x, fp.y, reach + fp.radius)
            if found is index:
                break  # (a small army, or a reach over the whole table: every enemy below)
            got = _measured(fp, [(p.fp, p.i) for p in found], near, known)
            if len(found) == len(index) or (len(got) >= 3 and got[2][0] <= reach):
                return [(d, enemies[i]) for k, (d, i) in enumerate(got) if k < 3 or d <= near]
            reach *= 2.0
    got = _measured(fp, [(fps[e["id"]], i) for i, e in enumerate(enemies)], near)
    return [(d, enemies[i]) for k, (d, i) in enumerate(got) if k < 3 or d <= near]


def _measured(
    fp: Footprint, pieces: list[tuple[Footprint, int]], near: float, known: dict[int, float] | None = None
) -> list[tuple[float, int]]:
    """The distances from ``fp`` of ``pieces`` (footprint, place), by (distance, place), measured
    nearest bound first until three are measured and the next bound passes both ``near`` and the
    third-nearest distance: those three and every piece within ``near`` are among them (an
    unmeasured piece is farther). The caller cuts off the rest: a piece measured beyond that
    prefix may stand after one left out. ``known``: distances by place measured before (by
    ``gaps`` at a smaller reach), added to as pieces are measured."""
    x, y, r = fp.x, fp.y, fp.radius
    hypot = math.hypot
    bounds = sorted((hypot(f.x - x, f.y - y) - r - f.radius, i, k) for k, (f, i) in enumerate(pieces))
    got: list[tuple[float, int]] = []
    ds: list[float] = []  # (the distances measured, in order: ``ds[2]`` the third-nearest)
    for low, i, k in bounds:
        if len(ds) >= 3 and low > max(near, ds[2]) + SLACK:
            break
        d = None if known is None else known.get(i)
        if d is None:
            d = footprint_distance(fp, pieces[k][0])
            if known is not None:
                known[i] = d
        got.append((d, i))
        insort(ds, d)
    got.sort()  # by distance, then place: the stable sort of the reference
    return got


def friends_near_reference(
    fp: Footprint, friends: list[dict[str, Any]], fps: dict[str, Footprint], uid: str
) -> int:
    """How many of ``friends`` (other than ``uid``, not routed) stand within 4" of ``fp``."""
    n = 0
    for f in friends:
        if f["id"] != uid and f["morale"] != "routed" and footprint_distance(fp, fps[f["id"]]) < 4.0:
            n += 1
    return n


def friends_near(
    fp: Footprint,
    friends: list[dict[str, Any]],
    fps: dict[str, Footprint],
    uid: str,
    index: FootprintIndex[Piece] | None = None,
) -> int:
    """``min(friends_near_reference(...), 2)``: counted up to two, a friend measured only when its
    bound is within 4" (``index``: ``index_of(friends, fps)``, asked for those near ``fp``). On
    the reference path: ``friends_near_reference``, capped at two."""
    if REFERENCE.on:
        return min(friends_near_reference(fp, friends, fps, uid), 2)
    x, y, r = fp.x, fp.y, fp.radius
    near = friends if index is None else [friends[p.i] for p in index.near(x, y, 4.0 + r + SLACK)]
    n = 0
    for f in near:
        if f["id"] == uid or f["morale"] == "routed":
            continue
        ff = fps[f["id"]]
        if _hypot(ff.x - x, ff.y - y) - r - ff.radius > 4.0 + SLACK:
            continue
        if footprint_distance(fp, ff) < 4.0:
            n += 1
            if n == 2:
                break
    return n


class Piece:
    """A footprint for ``FootprintIndex`` (which indexes anything with a ``fp``), with its unit's
    place ``i`` in the list the grid was made of (``gaps``, ``friends_near``)."""

    __slots__ = ("fp", "i")

    def __init__(self, fp: Footprint, i: int = 0) -> None:
        self.fp = fp
        self.i = i


def index_of(units: list[dict[str, Any]], fps: dict[str, Footprint]) -> FootprintIndex[Piece]:
    """The units' footprints in a grid (``core.geometry_index``), each with its place in ``units``:
    for ``nearest_gap``, ``gaps`` and ``friends_near`` (made once a decision, asked at every move
    weighed)."""
    return FootprintIndex(Piece(fps[u["id"]], i) for i, u in enumerate(units))


#: an index of units and their ids in its order (``index_again``)
Kept = tuple[list[str], FootprintIndex[Piece]]


def index_again(kept: Kept | None, units: list[dict[str, Any]], fps: dict[str, Footprint]) -> Kept:
    """``index_of(units, fps)`` with the units' ids, made from ``kept`` (the index of a decision
    before, with its ids) when that was of the same units in the same order: the pieces whose
    footprint is another object replaced, and moved in its grid (``FootprintIndex.moved``: the very
    grid a new index would build), the others kept; the very index when none moved (issue 16: the
    general asked for a new grid of a whole army at every decision, though few units move between
    two). The footprints are ``Reckoning._fps``', kept from one decision to the next while a unit
    stands where it stood. On the reference path a new index every time."""
    if len(units) < SMALL:  # (a small army's index is its list: ``FootprintIndex.near``)
        return [], index_of(units, fps)
    ids = [u["id"] for u in units]
    if kept is None or REFERENCE.on or kept[0] != ids:
        return ids, index_of(units, fps)
    old = kept[1]
    changes = [(i, p.fp) for i, p in enumerate(old) if fps[ids[i]] is not p.fp]
    if not changes:
        return kept
    pieces = list(old)
    for i, _ in changes:
        pieces[i] = Piece(fps[ids[i]], i)
    return ids, old.moved(changes, pieces)


def nearest_gap_reference(fp: Footprint, pieces: list[Piece]) -> float:
    """The distance from ``fp`` to the nearest of ``pieces`` (``NO_ENEMY`` when there is none)."""
    return min((footprint_distance(fp, p.fp) for p in pieces), default=NO_ENEMY)


def nearest_gap(fp: Footprint, index: FootprintIndex[Piece]) -> float:
    """``nearest_gap_reference(fp, index)``, measuring only the pieces near ``fp``: the index gives
    every piece whose circle comes within ``reach`` plus ``fp``'s radius of its centre (so every
    piece that can be within ``reach``); those are measured nearest bound first (the centres'
    distance less both radii: no piece is nearer than its bound) until the bound passes the nearest
    distance found. When that distance is within ``reach`` no other piece can be nearer, else the
    search widens to it (or doubles when nothing was found). So a big army's general finds his unit
    nearest the enemy without measuring every pair. On the reference path (and for small armies,
    where ``near`` answers with the whole list) every piece is measured."""
    if not index:
        return NO_ENEMY
    x, y, r = fp.x, fp.y, fp.radius
    hypot = math.hypot
    reach = FIRST_REACH
    while True:
        found = index.near(x, y, reach + r)
        if found is index:
            return nearest_gap_reference(fp, index)
        if found:
            bounds = sorted((hypot(p.fp.x - x, p.fp.y - y) - r - p.fp.radius, i) for i, p in enumerate(found))
            best = math.inf
            for low, i in bounds:
                if low > best + SLACK:
                    break
                d = footprint_distance(fp, found[i].fp)
                if d < best:
                    best = d
            if best <= reach:
                return best
            reach = best
        else:
            reach *= 2.0


def _bound(a: Footprint, b: Footprint) -> float:
    """No nearer than this: the centres' distance less both radii."""
    return _hypot(b.x - a.x, b.y - a.y) - a.radius - b.radius


def any_within(fp: Footprint, index: FootprintIndex[Piece], within: float) -> bool:
    """Whether a piece of ``index`` is less than ``within`` from ``fp``: only the pieces the grid
    gives near ``fp`` whose bound (``_bound``) is nearer than ``within`` are measured (any other is
    no nearer; issue 16)."""
    for p in index.near(fp.x, fp.y, within + fp.radius + SLACK):
        if _bound(fp, p.fp) >= within + SLACK:
            continue
        if footprint_distance(fp, p.fp) < within:
            return True
    return False


class Activation:
    """The activation order's distances (``general._activate``: each unit that may act, its
    distance from the nearest enemy), kept from one Movement decision to the next (issue 16): most
    units and enemies do not move between two. A unit's kept distance ``d`` stands when the unit
    stands where it stood (the same footprint) and every enemy that moved or left stood farther
    than ``d`` from it (so an enemy at ``d`` is still there, where it was); it is then lowered to
    any enemy that moved or came nearer. Otherwise it is found again (``nearest_gap``). The same
    numbers as ``nearest_gap`` for every unit: a minimum over the same distances."""

    __slots__ = ("side", "enemies", "kept")

    def __init__(self) -> None:
        self.side = ""
        self.enemies: dict[str, Footprint] = {}
        self.kept: dict[str, tuple[Footprint, float]] = {}

    def gaps(
        self, side: str, uids: list[str], enemies: list[dict[str, Any]], fps: dict[str, Footprint]
    ) -> dict[str, float]:
        """Each of ``uids``' distance from the nearest of ``enemies`` (``nearest_gap``)."""
        now = {e["id"]: fps[e["id"]] for e in enemies}
        before = self.enemies
        kept = self.kept if side == self.side and now and before else {}
        gone: list[Footprint] = []  # (where the enemies that moved or left stood)
        came: list[Footprint] = []  # (where the enemies that moved or came stand)
        if kept:
            for k, f in before.items():
                if now.get(k) is not f:
                    gone.append(f)
            for k, g in now.items():
                if before.get(k) is not g:
                    came.append(g)
        index: FootprintIndex[Piece] | None = None
        out: dict[str, float] = {}
        for uid in uids:
            fp = fps[uid]
            got = kept.get(uid)
            d = -1.0
            if got is not None and got[0] is fp:
                d = got[1]
                for f in gone:
                    if _bound(fp, f) <= d + SLACK and footprint_distance(fp, f) <= d:
                        d = -1.0  # (it may have been the nearest)
                        break
                if d >= 0.0:
                    for g in came:
                        if _bound(fp, g) <= d + SLACK:
                            x = footprint_distance(fp, g)
                            if x < d:
                                d = x
            if d < 0.0:
                if index is None:
                    index = index_of(enemies, fps)
                d = nearest_gap(fp, index)
            out[uid] = d
        self.side, self.enemies = side, now
        self.kept = {uid: (fps[uid], d) for uid, d in out.items()}
        return out
