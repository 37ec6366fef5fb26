"""The scripted general for one-hour-dark-ages.

It keeps formation (stays near friends), picks favourable charges (expected hits dealt against
hits taken back, kills and flank/rear attacks first), shoots the most damaged target in reach,
turns to face attackers on its flanks, and keeps skirmishers out of the reach of formed enemies.
With Declared Movement it weighs each unit's intents before the roll (``declared``).
It reads the public State API (``decision()``, ``legal_orders()``, ``view()``) and the
ruleset's public order and combat modules; of a ``OneHourState`` it reads the units directly,
building only the views of units that changed since its last decision (the same values ``view()``
gives, see ``_setup``), and it finds the units near a spot with a grid (``FootprintIndex``), so a
decision costs about the same in a big battle as in a small one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from shieldwall.core.crossings import in_front_arc
from shieldwall.core.dice import AVERAGE_DIE, D6
from shieldwall.core.game import State
from shieldwall.core.geometry import Footprint, round_places
from shieldwall.core.geometry_index import FootprintIndex
from shieldwall.core.polygons import footprint_distance, point_in_polygon, polygon_distance
from shieldwall.core.reference import REFERENCE
from shieldwall.rulesets.one_hour import orders as O
from shieldwall.rulesets.one_hour.combat import AttackSituation
from shieldwall.rulesets.one_hour.model import Unit
from shieldwall.rulesets.one_hour.profiles import terrain_effects, unit_profiles
from shieldwall.rulesets.one_hour.state import OneHourState

from .declared import choose_intent

#: the math functions called here, bound once (compiled: a static read, not a lookup per call)
_hypot: Final = math.hypot

#: mean movement by class (1d5+2, 2d5+2, 3d5+2 with the average die)
MEAN_REACH = {1: 5.5, 2: 9.0, 3: 12.5}


def _fp(u: dict[str, Any]) -> Footprint:
    return Footprint(u["x"], u["y"], u["heading"], u["frontage"], u["depth"])


def _bbox(poly: list[tuple[float, float]]) -> tuple[float, float, float, float]:
    """The bounding box of a polygon (a point outside it is outside the polygon)."""
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    return (min(xs), min(ys), max(xs), max(ys))


def _unit_entry(u: Unit, labels: list[str], supply: bool, shots: int) -> tuple[dict[str, Any], Footprint]:
    """The keys of ``OneHourState.unit_view`` this general reads, with the same values, and the
    footprint ``_fp`` makes of them."""
    fp = u.fp
    p = u.profile
    shots_left: int | None = None
    if p.missile:
        shots_left = (0 if u.out_of_missiles else None) if supply else max(0, shots - u.shots_used)
    view = {
        "id": u.id,
        "side": u.side,
        "type": u.type,
        "category": u.category,
        "x": round_places(fp.x, 4),
        "y": round_places(fp.y, 4),
        "heading": round_places(fp.heading, 4),
        "frontage": fp.frontage,
        "depth": fp.depth,
        "hits": u.hits,
        "max_hits": u.max_hits,
        "missile": p.missile,
        "shots_left": shots_left,
        "removed": u.removed,
        "upgrade": u.upgrade,
        "personalities": list(labels),
    }
    return view, _fp(view)


def _expected_key(att: dict[str, Any], tgt: dict[str, Any], facing: str, mode: str) -> tuple[Any, ...]:
    """Everything ``OneHourGeneral._expected_of`` reads besides the die and the game's parameters
    (fixed for a game): the attacker's type, upgrade and personalities (``_mod``), the target's
    type, the facing and the mode."""
    return (att["type"], att["upgrade"], tuple(att["personalities"]), tgt["type"], facing, mode)


#: Expected hits of an attack situation (a pure function of it; few distinct situations occur).
_EXPECTED: dict[AttackSituation, float] = {}
#: Slack for the distance lower bounds below: far above floating-point error, far below any rule.
_SLACK: Final = 1e-6
#: the longest reach ``_position`` weighs an enemy's threat at
_MAX_REACH = max(MEAN_REACH.values())
#: entries kept in the general's memos (of unit views and nearest gaps) before they are emptied
_MEMO_MAX: Final = 20000
#: at most this many friends' footprints made again since the last decision: the friends' grid
#: is moved (``_friends_moved``), not made again
_FEW_FRIENDS: Final = 8


def _half_widths(
    ox: float, oy: float, a1x: float, a1y: float, a2x: float, a2y: float, other: Sequence[tuple[float, float]]
) -> float:
    """``dc`` times the sum of the half widths of two rectangles' shadows on the line of their
    centres (``(ox, oy)`` from the first to the second, ``dc`` long): the first's two edge vectors
    are given, the second's corners. The gap between the rectangles is at least that between their
    shadows (a separating-axis bound), ``dc`` less this over ``dc``: a lower bound far tighter than
    the circumradii's for units seen from their front or side."""
    e0, e1, e2 = other[0], other[1], other[2]
    return 0.5 * (
        abs(ox * a1x + oy * a1y)
        + abs(ox * a2x + oy * a2y)
        + abs(ox * (e1[0] - e0[0]) + oy * (e1[1] - e0[1]))
        + abs(ox * (e2[0] - e1[0]) + oy * (e2[1] - e1[1]))
    )


def _point_gap(
    cx: float,
    cy: float,
    a1x: float,
    a1y: float,
    a2x: float,
    a2y: float,
    bx: float,
    by: float,
    other: Sequence[tuple[float, float]],
) -> float:
    """An upper bound of the gap between two rectangles, up to rounding: the distance from the
    point of the first (centre ``(cx, cy)``, edge vectors ``a1``, ``a2``) nearest the second's
    centre ``(bx, by)`` to the point of the second (corners ``other``) nearest that point."""
    dx, dy = bx - cx, by - cy
    t = (dx * a1x + dy * a1y) / (a1x * a1x + a1y * a1y)
    t = -0.5 if t < -0.5 else 0.5 if t > 0.5 else t
    v = (dx * a2x + dy * a2y) / (a2x * a2x + a2y * a2y)
    v = -0.5 if v < -0.5 else 0.5 if v > 0.5 else v
    px, py = cx + t * a1x + v * a2x, cy + t * a1y + v * a2y
    e0, e1, e2 = other[0], other[1], other[2]
    b1x, b1y, b2x, b2y = e1[0] - e0[0], e1[1] - e0[1], e2[0] - e1[0], e2[1] - e1[1]
    dx, dy = px - bx, py - by
    t = (dx * b1x + dy * b1y) / (b1x * b1x + b1y * b1y)
    t = -0.5 if t < -0.5 else 0.5 if t > 0.5 else t
    v = (dx * b2x + dy * b2y) / (b2x * b2x + b2y * b2y)
    v = -0.5 if v < -0.5 else 0.5 if v > 0.5 else v
    return _hypot(px - (bx + t * b1x + v * b2x), py - (by + t * b1y + v * b2y))


class _Info:
    """An enemy as ``_position`` reads it: its index in ``enemy_info``, view and footprint, the
    footprint's centre and radius, whether it shoots a bow and its mean reach (``fp`` serves
    ``FootprintIndex``). A class with typed fields, not a tuple: compiled, its fields are read
    natively (a tuple subclass is unpacked through Python's iterator protocol, its floats boxed)."""

    def __init__(self, i: int, view: dict[str, Any], fp: Footprint, bow: bool, reach: float) -> None:
        self.i = i
        self.view = view
        self.fp = fp
        self.x = fp.x
        self.y = fp.y
        self.radius = fp.radius
        self.bow = bow
        self.reach = reach

    def __reduce__(self) -> tuple[Any, ...]:
        """Copied and pickled through the constructor (a compiled native class has no other way)."""
        return (_Info, (self.i, self.view, self.fp, self.bow, self.reach))


class _Friend:
    """A friend as ``_position`` reads it: its id and footprint (``fp`` serves ``FootprintIndex``)."""

    def __init__(self, uid: str, fp: Footprint) -> None:
        self.id = uid
        self.fp = fp

    def __reduce__(self) -> tuple[Any, ...]:
        """Copied and pickled through the constructor (a compiled native class has no other way)."""
        return (_Friend, (self.id, self.fp))


class OneHourGeneral:
    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        #: per unit id: the footprint and the other values its view was made of, the view (the keys
        #: this general reads, ``_unit_entry``) and the footprint made of the view
        self._views: dict[str, tuple[Footprint, tuple[Any, ...], dict[str, Any], Footprint]] = {}
        #: the enemies and friends of the last decision (their views), and what was built of them
        self._enemy_key: list[dict[str, Any]] = []
        self._friend_key: list[dict[str, Any]] = []
        self.enemy_info: list[_Info] = []
        self.enemy_index: FootprintIndex[_Info] = FootprintIndex(())
        self.friend_info: list[_Friend] = []
        self.friend_index: FootprintIndex[_Friend] = FootprintIndex(())
        #: the cover polygons (and their boxes) of a terrain map
        self._cover: (
            tuple[Any, list[list[tuple[float, float]]], list[tuple[float, float, float, float]]] | None
        ) = None
        #: ``_nearest_gap`` answers by footprint, valid for the enemies of ``_enemy_key``
        self._gaps: dict[Footprint, float] = {}
        #: ``_expected_of`` answers by what they are made of (``_expected_key``), kept from one
        #: decision to the next while the die and the game's parameters are the very same
        self._exp_kept: dict[tuple[Any, ...], float] = {}
        self._exp_basis: tuple[Any, Any] | None = None
        #: ``_position``'s parts that friends do not change, by (unit id, footprint): the unit's view
        #: they were made of, the score before the friends' term, in cover, facing the nearest enemy;
        #: valid while the enemies, the die, the parameters and the cover polygons are the very
        #: same (``_pos_basis``): friends move while a side moves, enemies do not
        self._pos_memo: dict[tuple[str, Footprint], tuple[dict[str, Any], float, bool, bool]] = {}
        self._pos_basis: tuple[Any, ...] = ()
        #: what ``units`` and ``fps`` were last made from by ``_setup_direct``: the token of the
        #: state's log of unit changes (``OneHourState.units_touched``: a state's own, new with
        #: every copy) and the log's length then, the game's parameters and the personalities'
        #: labels (None: made afresh next time)
        self._src: tuple[object, int, Any, dict[str, list[str]]] | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        """Copied and pickled as a new general on the same generator, given the state built so far
        (the compiled build's native class cannot be made without its constructor's argument)."""
        return (OneHourGeneral, (self.rng,), self.__getstate__())

    # ------------------------------------------------------------------ helpers
    def _setup(self, state: State) -> None:
        self.params = state.game.params
        self.die = AVERAGE_DIE if self.params["dice"] == "d5" else D6
        d = state.decision()
        assert d is not None
        self.me = d.side
        if isinstance(state, OneHourState) and not REFERENCE.on:
            self._setup_direct(state)
        else:
            self._setup_view(state)
        me = self.me
        self.mine = [u for u in self.units.values() if u["side"] == me]
        self.enemies = [u for u in self.units.values() if u["side"] != me]
        self._exp_memo: dict[tuple[str, str, str, str], float] = {}
        if (
            self._exp_basis is None
            or self._exp_basis[0] is not self.die
            or self._exp_basis[1] is not self.params
        ):
            self._exp_basis = (self.die, self.params)
            self._exp_kept = {}
        # the enemies' and friends' tables are kept while their views are the very same (the views
        # of unchanged units are kept, so the lists compare by identity, element by element)
        if self.enemies != self._enemy_key or len(self._gaps) >= _MEMO_MAX:
            self._enemy_key = self.enemies
            profiles = unit_profiles()
            #: per enemy, what ``_position`` reads of it (``_Info``)
            self.enemy_info = []
            for i, e in enumerate(self.enemies):
                prof = profiles[e["type"]]
                self.enemy_info.append(
                    _Info(i, e, self.fps[e["id"]], prof.missile == "bow", MEAN_REACH[prof.move_class])
                )
            #: the same, with a grid for big armies (small ones are scanned whole)
            self.enemy_index = FootprintIndex(self.enemy_info)
            self._gaps = {}
        basis = self._pos_basis
        if (
            len(basis) != 4
            or basis[0] is not self._enemy_key
            or basis[1] is not self.die
            or basis[2] is not self.params
            or basis[3] is not self.cover_polys
            or len(self._pos_memo) >= _MEMO_MAX
        ):
            self._pos_basis = (self._enemy_key, self.die, self.params, self.cover_polys)
            self._pos_memo = {}
        if self.mine != self._friend_key:
            if REFERENCE.on or not self._friends_moved():
                #: per friend: (id, footprint)
                self.friend_info = [_Friend(f["id"], self.fps[f["id"]]) for f in self.mine]
                self.friend_index = FootprintIndex(self.friend_info)
            self._friend_key = self.mine

    def _friends_moved(self) -> bool:
        """``friend_info`` and ``friend_index`` brought up to date when the friends are those of
        the last decision, in the same order, and at most ``_FEW_FRIENDS`` of their footprints were
        made again (a unit moved: the others' views are the very same): a new entry for each of
        those, the index's grid moved (``FootprintIndex.moved``: the grid a new index would
        build). False (nothing changed here) otherwise."""
        mine, old, info = self.mine, self._friend_key, self.friend_info
        if len(old) != len(mine) or len(info) != len(mine):
            return False
        new_info: list[_Friend] | None = None
        changes: list[tuple[int, Footprint]] = []
        for i in range(len(mine)):
            f = mine[i]
            if f is old[i]:
                continue
            uid = f["id"]
            if uid != old[i]["id"]:
                return False
            fp = self.fps[uid]
            was = info[i]
            if fp is not was.fp:
                if len(changes) >= _FEW_FRIENDS:
                    return False
                if new_info is None:
                    new_info = list(info)
                new_info[i] = _Friend(uid, fp)
                changes.append((i, was.fp))
        if new_info is not None:
            self.friend_info = new_info
            self.friend_index = self.friend_index.moved(changes, new_info)
        return True

    def _setup_view(self, state: State) -> None:
        """The units and terrain as ``view()`` gives them (the reference of ``_setup_direct``)."""
        self._src = None
        view = state.view()
        self.units = {u["id"]: u for u in view["units"] if not u["removed"]}
        cover = [
            f
            for f in view["terrain"]
            if not f["linear"] and terrain_effects()[f["kind"]].melee_defence == "inside"
        ]
        self.cover_polys = [[(p[0], p[1]) for p in c["points"]] for c in cover]
        self.cover_boxes = [_bbox(c) for c in self.cover_polys]
        #: footprints of the units in the view, built once per decision
        self.fps = {uid: _fp(u) for uid, u in self.units.items()}

    def _setup_direct(self, state: OneHourState) -> None:
        """What ``_setup_view`` finds, read from the state's units: each unit's view (the keys this
        general reads, with ``view()``'s values) is built again only when something in it changed."""
        params = state.params
        labels: dict[str, list[str]] = {}
        if params["personalities"]:
            for p in state.personalities.values():
                if p.unit is not None:
                    labels.setdefault(p.unit, []).append(p.label)
        supply = bool(params["missile_supply"])
        shots = int(params["shots"])
        views = self._views
        if len(views) >= _MEMO_MAX:
            views.clear()
            self._src = None
        token, touched = state.units_touched()
        src = self._src
        if not (
            src is not None
            and src[0] is token
            and src[2] is params
            and src[3] == labels
            and self._setup_touched(state, touched, src[1], labels, supply, shots)
        ):
            units: dict[str, dict[str, Any]] = {}
            fps: dict[str, Footprint] = {}
            for u in state.units.values():
                if u.removed:
                    continue
                got = self._entry(u, labels.get(u.id), supply, shots)
                units[u.id] = got[2]
                fps[u.id] = got[3]
            self.units = units
            self.fps = fps
        self._src = (token, len(touched), params, labels)
        cover = self._cover
        if cover is None or cover[0] is not state.terrain:
            polys = [
                [(p[0], p[1]) for p in f.points]
                for f in state.terrain.features
                if not f.linear and terrain_effects()[f.kind].melee_defence == "inside"
            ]
            cover = self._cover = (state.terrain, polys, [_bbox(c) for c in polys])
        self.cover_polys = cover[1]
        self.cover_boxes = cover[2]

    def _entry(
        self, u: Unit, pl: list[str] | None, supply: bool, shots: int
    ) -> tuple[Footprint, tuple[Any, ...], dict[str, Any], Footprint]:
        """The unit's entry in ``_views`` (its footprint and the other values its view was made
        of, the view, the footprint made of the view), made again only when one of them changed."""
        uid = u.id
        fp = u.fp
        sig: tuple[Any, ...] = (
            u.side,
            u.hits,
            u.max_hits,
            u.type,
            u.shots_used,
            u.out_of_missiles,
            u.upgrade,
            supply,
            shots,
        )
        if pl:
            sig += tuple(pl)
        got = self._views.get(uid)
        if got is None or got[0] is not fp or got[1] != sig:
            view, vfp = _unit_entry(u, pl or [], supply, shots)
            got = self._views[uid] = (fp, sig, view, vfp)
        return got

    def _setup_touched(
        self,
        state: OneHourState,
        touched: list[Unit],
        start: int,
        labels: dict[str, list[str]],
        supply: bool,
        shots: int,
    ) -> bool:
        """``_setup_direct``'s units and footprints brought up to date from those of its last
        decision on this very state, looking only at the units a field was set on since
        (``OneHourState.units_touched``, the log after ``start``): every other unit's view is the
        one it had.
        False (nothing changed here) when a unit comes back to the table, whose place in the
        order of the units the full pass keeps."""
        if start == len(touched):
            return True
        units = dict(self.units)
        fps = dict(self.fps)
        done: set[str] = set()
        for i in range(start, len(touched)):
            u = touched[i]
            uid = u.id
            if uid in done:
                continue
            done.add(uid)
            if u.removed:
                if uid in units:
                    del units[uid]
                    del fps[uid]
                continue
            if uid not in units:
                return False
            got = self._entry(u, labels.get(uid), supply, shots)
            units[uid] = got[2]
            fps[uid] = got[3]
        self.units = units
        self.fps = fps
        return True

    def _mod(self, u: dict[str, Any], mode: str) -> int:
        p = unit_profiles()[u["type"]]
        base = (
            (p.melee if p.melee_param is None else int(self.params[p.melee_param]))
            if mode == "melee"
            else (p.shoot or 0)
        )
        base += {"household": 1, "levy": -1}.get(u["upgrade"], 0)
        if any(x.startswith("hero") for x in u["personalities"]):
            base += 1
        return base

    def _expected(self, att: dict[str, Any], tgt: dict[str, Any], facing: str, mode: str = "melee") -> float:
        # a pure function of the two views (fixed for this decision), the facing and the mode
        if REFERENCE.on:
            return self._expected_of(att, tgt, facing, mode)
        key = (att["id"], tgt["id"], facing, mode)
        got = self._exp_memo.get(key)
        if got is None:
            # the same answer as in an earlier decision when it is made of the same values
            kept = _expected_key(att, tgt, facing, mode)
            got = self._exp_kept.get(kept)
            if got is None:
                if len(self._exp_kept) >= _MEMO_MAX:
                    self._exp_kept.clear()
                got = self._exp_kept[kept] = self._expected_of(att, tgt, facing, mode)
            self._exp_memo[key] = got
        return got

    def _expected_of(self, att: dict[str, Any], tgt: dict[str, Any], facing: str, mode: str) -> float:
        cls = "flank" if facing in ("left", "right") else facing
        sit = AttackSituation(
            mode,  # type: ignore[arg-type]
            self.die,
            self._mod(att, mode),
            cls,  # type: ignore[arg-type]
            False,
            unit_profiles()[tgt["type"]].shieldwall,
        )
        got = _EXPECTED.get(sit)
        if got is None:
            got = _EXPECTED[sit] = float(sit.dist().mean())
        return got

    # ------------------------------------------------------------------ decisions
    def choose(self, state: State) -> Any:
        self._setup(state)
        d = state.decision()
        assert d is not None
        if d.kind == "move":
            uid = d.unit or ""
            if isinstance(state, OneHourState):
                # the menu's first best, most of it never checked (``OneHourState.best_order``)
                return state.best_order(lambda o: self._score_move(o, uid))
            return max(state.legal_orders(), key=lambda o: self._score_move(o, uid))
        orders = state.legal_orders()
        if d.kind == "transfer":
            return orders[0]
        if d.kind == "deploy":
            return self._deploy(state, orders, d.unit or "")
        if d.kind == "fight-as":
            return self._fight_as(state, orders)
        if d.kind == "activate":
            return self._activate(orders)
        if d.kind in ("after-shot", "shoot"):
            shots = [o for o in orders if isinstance(o, (O.Shoot, O.MovingShot))]
            if not shots:
                return orders[0]
            return max(shots, key=self._shot_value)
        if d.kind == "melee":
            return max(orders, key=lambda o: self.units[o.target]["hits"] / self.units[o.target]["max_hits"])
        return orders[0]

    @staticmethod
    def _deploy(state: State, orders: list[Any], uid: str) -> Any:
        """Hand deployment (ruling R50): the scenario's own place when the rules allow it, else the
        legal place of the menu nearest to it (the first of equals: deterministic)."""
        start = state.game.initial_fp[uid]  # type: ignore[attr-defined]
        return min(orders, key=lambda o: _hypot(o.x - start.x, o.y - start.y))

    def _activate(self, orders: list[Any]) -> Any:
        faces = [o for o in orders if isinstance(o, O.Face)]
        if faces:
            return faces[0]
        falls = [o for o in orders if isinstance(o, O.FallBack)]
        for o in falls:
            u = self.units[o.unit]
            if u["category"] == "skirmishers" or u["hits"] >= u["max_hits"] // 2:
                return o
        acts = [o for o in orders if isinstance(o, O.Activate)]
        if not acts:
            return orders[0]
        if self.params["declared_movement"]:
            # the intent decides the move (``declared``); no intent worth it: end the movement
            intent = choose_intent(self, acts)
            return intent if intent is not None else next(o for o in orders if isinstance(o, O.End))

        return min(acts, key=lambda o: self._nearest_gap(self.fps[o.unit]))

    def _nearest_gap(self, f: Footprint) -> float:
        """The least gap from ``f`` to an enemy (99 with none); remembered while the enemies stand
        where they stood (they do not move while this side moves)."""
        if REFERENCE.on:
            return self._nearest_gap_reference(f)
        got = self._gaps.get(f)
        if got is None:
            got = self._gaps[f] = self._nearest_gap_of(f)
        return got

    def _nearest_gap_reference(self, f: Footprint) -> float:
        """The least gap from ``f`` to an enemy (99 with none), every enemy measured (the reference
        of ``_nearest_gap``)."""
        corners = f.corners()
        return min((polygon_distance(corners, info.fp.corners()) for info in self.enemy_info), default=99.0)

    def _nearest_gap_of(self, f: Footprint) -> float:
        """The least gap from ``f`` to an enemy (99 with none): the enemies are measured nearest
        lower bound first (centre distance less both circumradii, widened by ``_SLACK``), and
        those whose bound is above the least gap so far cannot be nearer, so are not measured.
        Only the enemies the grid finds within ``reach`` are looked at, while the least gap found
        among them is certainly below the gap of every other (the reach doubles until it is)."""
        if not self.enemy_info:
            return 99.0
        fx, fy, fr = f.x, f.y, f.radius
        index = self.enemy_index
        reach = 2.0 * _MAX_REACH
        while True:
            cands = index.near(fx, fy, reach + fr)
            whole = len(cands) == len(index)
            best = math.inf
            if cands:
                bounds = sorted((_hypot(fx - c.x, fy - c.y) - fr - c.radius - _SLACK, c.i) for c in cands)
                for lb, i in bounds:
                    if lb > best:
                        break
                    g = footprint_distance(f, self.enemy_info[i].fp)
                    if g < best:
                        best = g
            # an enemy the grid left out has its centre beyond ``reach + fr`` + its radius, so its
            # gap exceeds ``reach``
            if whole or best < reach - _SLACK:
                return best
            reach *= 2.0

    def _fight_as(self, state: State, orders: list[Any]) -> Any:
        """Viking Veterans: Infantry (a shieldwall halves hits) against an army with two or more
        missile units, Warriors (faster, +1 in melee) otherwise."""
        shooters = sum(
            1
            for u in self.units.values()
            if u["side"] != self.me and unit_profiles()[u["type"]].missile is not None
        )
        want = "infantry" if shooters >= 2 else "warriors"
        return next((o for o in orders if o.choice == want), orders[0])

    def _shot_value(self, o: Any) -> float:
        u, t = self.units[o.unit], self.units[o.target]
        f = self.fps[t["id"]].facing_of(self.fps[u["id"]].front_centre)
        exp = self._expected(u, t, f, "shoot")
        return exp + 3.0 * float(t["hits"]) / float(t["max_hits"])

    def _score_move(self, o: Any, uid: str) -> float:
        u = self.units[uid]
        if isinstance(o, O.Charge):
            return self._charge_value(u, o)
        if isinstance(o, O.MovingShot):
            return 2.0 + self._shot_value(o)
        fp = self.fps[uid]
        if isinstance(o, O.Move):
            for s in o.steps:
                fp = (
                    fp.turned(s.angle, s.pivot)
                    if isinstance(s, O.Turn)
                    else Footprint(s.x, s.y, fp.heading, fp.frontage, fp.depth)
                )
        score = self._position(u, fp)
        if isinstance(o, O.Hold) and u["missile"] == "bow":
            score += 0.6  # bows that do not move may shoot
        return score

    def _charge_value(self, u: dict[str, Any], o: Any) -> float:
        """A race to the hit limit: we strike first (at the facing charged, then at the front once
        they turn); they strike back at our front. Worth it if we should remove them first."""
        return self._charge_value_of(u, self.units[o.target], o.facing)

    def _charge_value_of(self, u: dict[str, Any], t: dict[str, Any], facing: str) -> float:
        """``_charge_value`` of a charge of ``u`` on ``t``'s ``facing``."""
        first = self._expected(u, t, facing)
        ours = self._expected(u, t, "front")
        theirs = self._expected(t, u, "front")
        rem_t = t["max_hits"] - t["hits"]
        rem_u = u["max_hits"] - u["hits"]
        if first >= rem_t:
            return 8.0  # a kill now
        k = 1.0 + (rem_t - first) / max(ours, 0.1)
        m = rem_u / max(theirs, 0.1)
        value = 1.0 + max(-5.0, min(5.0, float(m - k)))
        if u["missile"] == "bow":
            value -= 3.0
        return value

    def _position(self, u: dict[str, Any], fp: Footprint) -> float:
        if not self.enemies:
            return 0.0
        if REFERENCE.on:
            return self._position_reference(u, fp)
        key = (u["id"], fp)
        got = self._pos_memo.get(key)
        if got is None or got[0] is not u:
            got = self._pos_memo[key] = self._position_parts(u, fp)
        # the same operations, in the same order, as in ``_position_reference``
        score = got[1]
        score += 0.4 * min(self._friends_near(u, fp), 2)
        if got[2]:
            score += 0.8
        if not got[3]:
            score -= 0.5
        return score + 1e-6 * _hypot(fp.x, fp.y)

    def _position_parts(self, u: dict[str, Any], fp: Footprint) -> tuple[dict[str, Any], float, bool, bool]:
        """What ``_position`` remembers of ``u`` at ``fp`` (``_pos_memo``): ``u``, the score before
        the friends' term (the nearest gap, the enemies' danger), in cover, facing the nearest enemy."""
        # Exact gaps are worked out only where a comparison below needs them. Each enemy's gap lies
        # between a lower bound (centre distance less both circumradii) and an upper bound (centre
        # distance less both inradii: each rectangle holds the disc of its inradius about its
        # centre), both widened by ``_SLACK``. A question the bounds answer gets the answer the
        # exact gap would give; only the others are measured.
        fx, fy, fr = fp.x, fp.y, fp.radius
        # only the enemies within the longest reach can threaten, and the nearest is among those
        # within ``horizon`` when its gap is below it (an enemy the grid leaves out is farther):
        # the horizon doubles until it is, and at last every enemy is looked at
        index = self.enemy_index
        horizon = _MAX_REACH
        while True:
            near = index.near(fx, fy, horizon + fr + _SLACK)
            if len(near) == len(index):
                break
            got = self._position_among(u, fp, near, horizon)
            if got is not None:
                return got
            horizon *= 2.0
        got = self._position_among(u, fp, self.enemy_info, math.inf)
        assert got is not None
        return got

    def _position_reference(self, u: dict[str, Any], fp: Footprint) -> float:
        """``_position`` measuring every gap exactly (no bounds, no grid): its reference."""
        if not self.enemies:
            return 0.0
        corners = fp.corners()
        gaps = [(polygon_distance(corners, info.fp.corners()), info) for info in self.enemy_info]
        gap_, near = min(gaps, key=lambda x: x[0])
        score = 0.0
        shooter = u["missile"] is not None and u["category"] in ("skirmishers", "cavalry")
        if shooter and u["shots_left"] != 0:
            rng = float(self.params["bow_range"] if u["missile"] == "bow" else self.params["javelin_range"])
            score -= abs(gap_ - (rng - 1.0)) * 0.25
        else:
            score -= gap_ * 0.15
        for gap, info in gaps:
            if gap >= info.reach or info.bow:
                continue
            e, ef = info.view, info.fp
            facing = fp.facing_of(ef.front_centre)
            if not in_front_arc(ef, corners, 60.0):
                continue
            danger = self._expected(e, u, facing)
            mine = self._expected(u, e, "front")
            weight = 1.5 if u["missile"] else 0.6
            score -= weight * max(0.0, danger - 0.5 * mine) * (1.5 if facing != "front" else 1.0)
        friends = sum(
            1 for f in self.friend_info if f.id != u["id"] and polygon_distance(corners, f.fp.corners()) < 4.0
        )
        score += 0.4 * min(friends, 2)
        if any(point_in_polygon((fp.x, fp.y), c) for c in self.cover_polys):
            score += 0.8
        if not in_front_arc(fp, near.fp.corners(), 45.0):
            score -= 0.5
        return score + 1e-6 * _hypot(fp.x, fp.y)

    def _position_among(
        self, u: dict[str, Any], fp: Footprint, enemies: Sequence[_Info], horizon: float
    ) -> tuple[dict[str, Any], float, bool, bool] | None:
        """``_position_parts`` with the enemies ``enemies`` (in the order of ``enemy_info``), which
        hold every enemy whose gap is below ``horizon``; None when the nearest gap among them is not
        certainly below ``horizon`` (an enemy left out might then be nearer, or as near)."""
        fx, fy, fr, fi = fp.x, fp.y, fp.radius, fp._inradius
        corners = fp.corners()
        hypot = math.hypot
        lbs: list[float] = []
        cutoff = math.inf  # an upper bound of the nearest gap
        #: the gaps measured, by enemy index
        exact: dict[int, float] = {}
        #: per enemy: whether its gap is certainly below its reach (then it need not be measured)
        sure_in: list[bool] = []
        c0, c1, c2 = corners[0], corners[1], corners[2]
        a1x, a1y, a2x, a2y = c1[0] - c0[0], c1[1] - c0[1], c2[0] - c1[0], c2[1] - c1[1]
        for i, info in enumerate(enemies):  # (indices below are into ``enemies``)
            ef = info.fp
            ex, ey, er, bow, reach = info.x, info.y, info.radius, info.bow, info.reach
            ox, oy = ex - fx, ey - fy
            dc = hypot(fx - ex, fy - ey)
            lb = dc - fr - er - _SLACK
            if dc > 0.0:
                lb2 = dc - _half_widths(ox, oy, a1x, a1y, a2x, a2y, ef._corners) / dc - _SLACK
                if lb2 > lb:
                    lb = lb2
            ub = dc - fi - ef._inradius
            ub = (ub if ub > 0.0 else 0.0) + _SLACK  # (a gap is never below 0)
            if ub >= reach or ub >= cutoff:
                ub2 = _point_gap(fx, fy, a1x, a1y, a2x, a2y, ex, ey, ef._corners) + _SLACK
                if ub2 < ub:
                    ub = ub2
            lbs.append(lb)
            if ub < cutoff:
                cutoff = ub
            sure = False
            if not bow and lb < reach:
                if ub < reach:
                    sure = True  # the gap is below ``reach`` whatever it is exactly
                else:
                    exact[i] = footprint_distance(fp, ef)
            sure_in.append(sure)
        for g in exact.values():
            if g < cutoff:
                cutoff = g
        # the nearest: every enemy whose lower bound is not above the nearest gap is measured (so
        # ties are all seen); the first of the enemies' order at the least gap is kept
        for i in sorted(range(len(lbs)), key=lbs.__getitem__):
            if lbs[i] > cutoff:
                break  # this one and every later one are strictly farther than the nearest
            if i in exact:
                continue
            exact[i] = g = footprint_distance(fp, enemies[i].fp)
            if g < cutoff:
                cutoff = g
        if not exact:
            return None
        gaps = [(exact[k], info) for k, info in enumerate(enemies) if k in exact]
        g, near = min(gaps, key=lambda x: x[0])
        if not g < horizon - _SLACK:
            return None
        score = 0.0
        shooter = u["missile"] is not None and u["category"] in ("skirmishers", "cavalry")
        if shooter and u["shots_left"] != 0:
            rng = float(self.params["bow_range"] if u["missile"] == "bow" else self.params["javelin_range"])
            score -= abs(g - (rng - 1.0)) * 0.25
        else:
            score -= g * 0.15
        # danger: enemies that could charge us first next turn, worse on a flank or rear
        for i, info in enumerate(enemies):
            if info.bow or not (sure_in[i] or (i in exact and exact[i] < info.reach)):
                continue
            e, ef = info.view, info.fp
            facing = fp.facing_of(ef.front_centre)
            if not in_front_arc(ef, corners, 60.0):
                continue
            danger = self._expected(e, u, facing)
            mine = self._expected(u, e, "front")
            weight = 1.5 if u["missile"] else 0.6
            score -= weight * max(0.0, danger - 0.5 * mine) * (1.5 if facing != "front" else 1.0)
        # cover
        cover = False
        centre = (fx, fy)
        for c, (x0, y0, x1, y1) in zip(self.cover_polys, self.cover_boxes, strict=True):
            if x0 <= fx <= x1 and y0 <= fy <= y1 and point_in_polygon(centre, c):
                cover = True
                break
        # facing the enemy
        return (u, score, cover, in_front_arc(fp, near.fp.corners(), 45.0))

    def _friends_near(self, u: dict[str, Any], fp: Footprint) -> int:
        """``_position``'s friends close at hand: how many of ``u``'s friends are within 4" of ``fp``."""
        fx, fy, fr, fi = fp.x, fp.y, fp.radius, fp._inradius
        corners = fp.corners()
        hypot = math.hypot
        c0, c1, c2 = corners[0], corners[1], corners[2]
        a1x, a1y, a2x, a2y = c1[0] - c0[0], c1[1] - c0[1], c2[0] - c1[0], c2[1] - c1[1]
        friends = 0
        uid = u["id"]
        for friend in self.friend_index.near(fx, fy, 4.0 + fr + _SLACK):
            if friend.id == uid:
                continue
            ff = friend.fp
            ox, oy = ff.x - fx, ff.y - fy
            dc = hypot(fx - ff.x, fy - ff.y)
            if dc - fr - ff.radius - _SLACK > 4.0:
                continue  # certainly 4" or more apart
            if dc > 0.0 and dc - _half_widths(ox, oy, a1x, a1y, a2x, a2y, ff._corners) / dc - _SLACK > 4.0:
                continue  # (their shadows on the line of centres are 4" or more apart)
            if (
                dc - fi - ff._inradius + _SLACK < 4.0
                or _point_gap(fx, fy, a1x, a1y, a2x, a2y, ff.x, ff.y, ff._corners) + _SLACK < 4.0
                or footprint_distance(fp, ff) < 4.0
            ):
                friends += 1  # (the first test: certainly closer than 4")
        return friends
