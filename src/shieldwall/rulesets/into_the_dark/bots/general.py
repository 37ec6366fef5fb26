"""The scripted general for into-the-dark.

It plays by the text's Command & Control section. Each division (the army file's divisions, under
their general) gets an order every turn: **attack** (advance on the enemy, then follow the combat
preferences), **hold** (stay, only wheeling to face) or **fall back** (move away from the enemy).
Every unit follows its combat preferences: mounted prefer to charge, foot prefer to stand and wait,
missile troops stop and shoot once the enemy is in close range and evade when charged (unless cross
trained). A division's general may order as many units per turn as his rating to act against their
preferences (foot to charge, mounted to hold), which is how the bot's foot charges when the odds
favour them. With Command & Control in play the generals are figures on the table (command.generals),
and ``generals`` decides what each does: an average or good general of a division of foot stays
on his own and gives command actions (new orders, and orders that let a unit charge against its
preferences) where they help; any other rides to the friendly unit of his division nearest the
enemy and joins it (a leading general frees the unit of its preferences and steadies its morale),
keeping him more than a charge away from the enemy while he is alone.

Charges are weighed with the rule system's exact melee distributions (``melee_situation.MeleeSituation``):
expected casualties dealt against taken, flank and rear bonuses, the target's state. Missile troops
shoot the target with the most points' worth of expected casualties in range. Moves are scored on a
copy of the state (``copy`` + ``apply`` + ``view``): closing on the division's objective, keeping the
enemy in front, staying near friends and out of the reach of enemies that would hit a flank.
Charges weigh the charge round and the rounds after it alike, with the target's hill
(``target_uphill``) as the melee would see it. The ground (``ground``) sends units over deep
water by its bridges and fords: the objective's distance counts the way round, and the general adds
moves the menu does not list (wheel to face the way, then go forward), which ``apply`` judges like
any order. The general also keeps the end-of-battle count (turn-sequence.end-of-battle): ahead on
points lost he risks less; level or behind in the last turns he charges at worse odds and accepts
ending disordered near the enemy.
It reads only the public State API and the game's army data and terrain.
"""

from __future__ import annotations

import math
from typing import Any, Final

from shieldwall.core.crossings import in_front_arc
from shieldwall.core.errors import IllegalOrder
from shieldwall.core.game import State
from shieldwall.core.geometry import Footprint, normalize_angle, round_places
from shieldwall.core.geometry_index import FootprintIndex
from shieldwall.core.polygons import footprint_distance
from shieldwall.core.reference import REFERENCE
from shieldwall.rulesets.into_the_dark import orders as O

from . import generals, nearest
from .ground import heading_towards
from .reckoning import Reckoning, _fp

#: the math functions called here, bound once (compiled: a static read, not a lookup per call)
_dist: Final = math.dist

#: what ending a move disordered costs in the move score (a -1 in every morale test, front rank
#: only in melee, half-speed wheels, no shieldwall)
DISORDER_COST: Final = 4.0
#: ... and far from the enemy (more than 12"), where it can rally before it fights
DISORDER_COST_FAR: Final = 1.0
#: what ending a move disordered costs near the enemy when the general must break something
DISORDER_COST_LATE: Final = 1.5


class IntoTheDarkGeneral(Reckoning):
    """The scripted general (module docstring): the decisions, on top of the reckoning."""

    def __init__(self, rng: Any) -> None:
        super().__init__(rng)
        self._activation = nearest.Activation()

    # ------------------------------------------------------------------ decisions
    def choose(self, state: State) -> Any:
        still = getattr(state, "still", None)
        if still is None:
            return self._choose(state)
        with still():  # (no unit of ``state`` moves while the general weighs: ``State.still``)
            return self._choose(state)

    def _choose(self, state: State) -> Any:
        self._setup(state)
        d = state.decision()
        assert d is not None
        kind = d.kind
        if kind == "unit":
            u = self.units[str(d.unit)]
            lazy = getattr(state, "unit_menu", None)
            menu = lazy() if lazy is not None and not u.get("general") else None
            # the menu in parts: the moves (the costliest part) worked out only when weighed
            return self._unit(state, menu if menu is not None else _Listed(state.legal_orders()), u)
        orders = state.legal_orders()
        if kind == "initiative":
            return next((o for o in orders if isinstance(o, O.Pass)), orders[0])
        if kind == "rally":
            return self._rally(orders)
        if kind == "movement":
            return generals.movement_choice(self, state, orders, self._activate(orders))
        if kind == "orders":
            return generals.orders_choice(self, orders)
        if kind == "react":
            return self._react(orders, self.units[str(d.unit)])
        if kind == "opportunity":
            return self._opportunity(orders, self.units[str(d.unit)])
        if kind == "fire":
            return self._fire(orders)
        if kind == "pursue":
            return next((o for o in orders if isinstance(o, O.Pursue)), orders[0])
        if kind == "chase":
            return self._chase(state, orders, self.units[str(d.unit)])
        if kind == "consent":
            return next((o for o in orders if isinstance(o, O.Allow)), orders[0])
        if kind == "declare":
            # strike at a leading general with every die allowed: one hit removes him and his
            # steadying of the unit's morale (command.general-leading)
            aimed = [o for o in orders if getattr(o, "kind", "") == "declare"]
            return max(aimed, key=lambda o: o.dice) if aimed else orders[0]
        return orders[0]

    def _near(self, u: dict[str, Any], within: float) -> bool:
        """Whether an enemy's footprint is less than ``within`` from ``u``'s: the enemies' grid
        asked (``nearest.any_within``: an enemy whose circle stays ``within`` or more from ``u``'s is
        no nearer, and is not measured; issue 16); on the reference path every enemy is measured."""
        fps = self.fps
        f = fps[u["id"]]
        if REFERENCE.on:
            return any(footprint_distance(f, fps[e["id"]]) < within for e in self.enemies)
        return nearest.any_within(f, self._enemy_grid(), within)

    def _rally(self, orders: list[Any]) -> Any:
        for o in orders:
            if not isinstance(o, O.Rally):
                continue
            u = self.units[o.unit]
            if u["morale"] != "steady" or (u["disordered"] and not self._near(u, 12.0)):
                return o
        return next(o for o in orders if isinstance(o, O.End))

    def _activate(self, orders: list[Any]) -> Any:
        acts = [o for o in orders if isinstance(o, O.Activate)]
        if not acts:
            return orders[0]

        # the unit nearest the enemy acts first (its distance from the nearest enemy, found in a
        # grid of the enemies' footprints: issue 16, no pair of units measured that cannot matter;
        # kept from the decision before for the units and enemies that did not move)
        if REFERENCE.on:
            index = self._enemy_grid()

            def key(o: Any) -> tuple[float, str]:
                return (nearest.nearest_gap(self.fps[o.unit], index), o.unit)

            return min(acts, key=key)
        gaps = self._activation.gaps(self.me, [o.unit for o in acts], self.enemies, self.fps)
        return min(acts, key=lambda o: (gaps[o.unit], o.unit))

    def _react(self, orders: list[Any], u: dict[str, Any]) -> Any:
        evade = next((o for o in orders if isinstance(o, O.Evade)), None)
        if u["role"] == "missile" and evade is not None:
            fire = next((o for o in orders if isinstance(o, O.Fire)), None)
            return fire if fire is not None and u["category"] == "mounted" else evade
        cc = [o for o in orders if isinstance(o, O.CounterCharge)]
        stand = next((o for o in orders if isinstance(o, O.Stand)), orders[0])
        charger = self._charger_of(u)
        if u["shieldwall"] or not cc:
            return stand
        if u["category"] == "foot" and charger is not None and charger["category"] == "mounted":
            return stand  # "foot will hold if charged by mounted"
        if self._order_of(u) == "hold" and u["category"] == "foot":
            return stand  # "Foot will not counter charge unless ordered to"
        return max(cc, key=lambda o: o.impetuous)

    def _charger_of(self, u: dict[str, Any]) -> dict[str, Any] | None:
        f = self.fps[u["id"]]
        near = sorted(self.enemies, key=lambda e: footprint_distance(f, self.fps[e["id"]]))
        return near[0] if near else None

    def _opportunity(self, orders: list[Any], u: dict[str, Any]) -> Any:
        fires = [o for o in orders if isinstance(o, O.Fire)]
        if fires:
            return fires[0]
        best, bv = orders[0], -math.inf
        for o in orders:
            if isinstance(o, O.Charge):
                v = self._charge_value(u, self.units[o.target], self._edge(o), o.impetuous, o)
                if v > bv:
                    best, bv = o, v
        if isinstance(best, O.Charge) and bv >= self._bar(u):
            return best
        return next((o for o in orders if isinstance(o, O.Decline)), orders[0])

    def _chase(self, state: State, orders: list[Any], u: dict[str, Any]) -> Any:
        """The charged unit ran away (movement.charging.target-runs): continue the charge when it ends
        somewhere that scores better than the target's original position (closer to the objective,
        no enemy on a flank, not disordered), else stop."""
        stop = next(o for o in orders if isinstance(o, O.Halt))
        go = next((o for o in orders if isinstance(o, O.Continue)), None)
        if go is None:
            return stop
        here, there = self._after(state, stop, u["id"]), self._after(state, go, u["id"])
        if here is None or there is None or (there[1] and not here[1]):
            return stop
        keep = self._score(u, here[0], "attack", True)
        return go if self._score(u, there[0], "attack", True) > keep + 0.1 else stop

    def _fire(self, orders: list[Any]) -> Any:
        shots = [o for o in orders if isinstance(o, O.Shoot)]
        if not shots:
            return orders[0]

        def value(o: Any) -> float:
            t = self.units[o.target]
            g = footprint_distance(self.fps[o.unit], self.fps[o.target])
            per = self._value(t) / max(1, t["figures"])
            shaken = 1.5 if t["morale"] != "steady" else 1.0
            return float(per * shaken / (1.0 + 0.1 * g))

        return max(shots, key=value)

    def _edge(self, o: Any) -> str:
        """The target edge a charge order would hit: the one facing the charger's end position
        (menus square charges up on an edge); the front when the charge is straight ahead."""
        c, t = self.fps[o.unit], self.fps[o.target]
        return t.facing_of(c.front_centre)

    # ------------------------------------------------------------------ a unit's orders
    def _general_figure(self, state: State, orders: list[Any], u: dict[str, Any]) -> Any:
        """A general's figure on his own: join the friendly unit nearest the enemy if he can, else
        ride towards it, never ending within a charge (12") of an enemy (command.generals)."""
        hold = next((o for o in orders if isinstance(o, O.Hold)), orders[0])
        friends = [
            x for x in self.mine if not x.get("general") and not x.get("champion") and x["morale"] != "routed"
        ]
        division = (self.view.get("generals") or {}).get(u["id"], {}).get("division")
        own = [x for x in friends if self._division(x) == division]
        friends = own or friends
        if not friends:
            return hold

        target = min(friends, key=lambda x: (self._danger(self.fps[x["id"]]), x["id"]))
        joins = [o for o in orders if getattr(o, "kind", "") == "join"]
        joins = [o for o in joins if o.host in {x["id"] for x in friends}] or joins
        if joins:
            return min(joins, key=lambda o: (self._danger(self.fps[o.host]), o.host))
        best_o, best_s = hold, -footprint_distance(self.fps[u["id"]], self.fps[target["id"]])
        for o in orders:
            if not isinstance(o, O.Move):
                continue
            got = self._after(state, o, u["id"])
            if got is None or self._danger(got[0]) < 12.0:
                continue
            s = -footprint_distance(got[0], self.fps[target["id"]])
            if s > best_s + 1e-9:
                best_o, best_s = o, s
        return best_o

    def _danger(self, fp: Footprint) -> float:
        """The gap from ``fp`` to the nearest enemy (99 with none). A method, not a function nested
        in ``_general_figure``: compiled, that one with the lambdas that call it made a reference
        cycle (docs/performance.md, "Menus freed when they are done with")."""
        return min((footprint_distance(fp, self.fps[e["id"]]) for e in self.enemies), default=99.0)

    def _unit(self, state: State, menu: Any, u: dict[str, Any]) -> Any:
        """``menu``: the unit's menu in parts (``menus.UnitMenu``, or a whole list as ``_Listed``):
        ``head()`` holds every ``Hold`` and ``Charge``, ``rest()`` every ``Face`` and
        ``Shieldwall``, and ``orders()`` is the whole menu."""
        if u.get("general"):
            orders = menu.orders()
            own = generals.figure_choice(self, state, orders, u)
            return own if own is not None else self._general_figure(state, orders, u)
        order = self._order_of(u)
        foot = u["category"] == "foot"
        head = menu.head()
        hold = next((o for o in head if isinstance(o, O.Hold)), head[0])
        # charges
        charges = [o for o in head if isinstance(o, O.Charge)]
        if charges and u["role"] != "missile" and order != "fall back":
            best = max(
                charges,
                key=lambda o: self._charge_value(
                    u, self.units[o.target], self._edge_after(state, o), o.impetuous, o
                ),
            )
            v = self._charge_value(
                u, self.units[best.target], self._edge_after(state, best), best.impetuous, best
            )
            if v >= self._bar(u):
                prefers = not foot  # mounted prefer to charge; foot need their general's order
                if prefers or self._override(u):
                    return best
        if u["in_melee"]:
            faces = [o for o in menu.rest() if isinstance(o, O.Face)]
            return faces[0] if faces else hold
        # shieldwall: foot that stand form it when the enemy is near
        sw_on = next((o for o in menu.rest() if isinstance(o, O.Shieldwall) and o.on), None)
        if sw_on is not None and self._near(u, 10.0):
            return sw_on
        if u["role"] == "missile" and u["missile"]:
            if self._target_in(u, self.fps[u["id"]], 6.0):
                return hold  # "Missile troops within close range will stop advancing and open fire"
        elif foot and order == "attack" and self._near(u, 3.0):
            return hold  # within charge range: foot prefer to stand
        moves = [o for o in menu.orders() if isinstance(o, O.Move)]
        if order == "hold":
            moves = [o for o in moves if all(isinstance(s, O.Wheel) for s in o.steps)]
        else:
            moves += self._waypoint_moves(u)
        best_o, best_s = hold, self._score(u, self.fps[u["id"]], order, moved=False)
        ends = self._ends(state, moves, u["id"])
        for i, o in enumerate(moves):
            got = ends[i] if ends is not None else self._after(state, o, u["id"])
            if got is None:
                continue
            fp, disordered = got
            s = self._score(u, fp, order, moved=True)
            if disordered and not u["disordered"]:
                if not self._near(u, 12.0):
                    s -= DISORDER_COST_FAR
                else:
                    s -= DISORDER_COST_LATE if self.late else DISORDER_COST
            if s > best_s:
                best_o, best_s = o, s
        return best_o

    def _waypoint_moves(self, u: dict[str, Any]) -> list[Any]:
        """Moves the menu does not list: wheel to face the way to the nearest enemy (by its bridge or
        ford when deep water lies between) and go forward the whole, two thirds or a third of the
        way; the engine's ``apply`` judges them like any order (an illegal one is skipped)."""
        if not self.enemies or u["in_melee"]:
            return []
        front = self.fps[u["id"]].front_centre
        # the nearest enemy, the first in the list of those as near (``min``): the head of ``gaps``
        near = nearest.gaps(self.fps[u["id"]], self.enemies, self.fps, 0.0, self._enemy_grid())[0][1]
        way = self.ground.waypoint(front, (near["x"], near["y"]))
        turn = normalize_angle(heading_towards(front, way) - float(u["heading"]))
        if abs(turn) > 90.0:
            return []
        far = _dist(front, way)
        steps: list[Any] = [O.Wheel(round_places(turn, 2))] if abs(turn) > 2.0 else []
        out = []
        for part in (1.0, 2.0 / 3.0, 1.0 / 3.0):
            d = round_places(far * part, 2)
            if d >= 0.5:
                out.append(O.Move(u["id"], (*steps, O.Fwd(d))))
        return out

    def _edge_after(self, state: State, o: Any) -> str:
        """The edge the charge hits, read from its ``charge`` event on a copy of the state."""
        key = ("edge", str(o))
        got = self._edges.get(key)
        if got is None:
            got = self._edge(o)
            played = _probe(state, o)
            if played is not None:
                for ev in played[1]:
                    if ev.kind == "charge" and ev.data.get("unit") == o.unit:
                        got = str(ev.data.get("edge", got))
                        break
            self._edges[key] = got
        return got

    def _after(self, state: State, o: Any, uid: str) -> tuple[Footprint, bool] | None:
        """Where the unit ends a move, and whether it ends disordered (terrain, interpenetration)."""
        played = _probe(state, o)
        if played is None:
            return None
        c, evs = played
        disordered = any(e.kind == "disordered" and e.data.get("unit") == uid for e in evs)
        view_of = getattr(c, "view_of", None)
        if view_of is not None:
            v = view_of(uid)
            if v is None:
                return None
            return None if v["removed"] else (_fp(v), disordered or bool(v["disordered"]))
        for v in c.view()["units"]:
            if v["id"] == uid:
                return None if v["removed"] else (_fp(v), disordered or bool(v["disordered"]))
        return None

    def _ends(self, state: State, moves: list[Any], uid: str) -> list[tuple[Footprint, bool] | None] | None:
        """``[self._after(state, o, uid) for o in moves]`` told by the rule system without copying
        the state for each move (``ends_of_moves``: issue 16, the copy is linear in the army), or
        None when it cannot tell (then each move is probed, as on the reference path)."""
        ask = getattr(state, "ends_of_moves", None)
        if ask is None:
            return None
        told = ask(uid, moves)
        if told is None:
            return None
        return [None if e is None else (Footprint(e[0], e[1], e[2], e[3], e[4]), bool(e[5])) for e in told]

    def _target_in(self, u: dict[str, Any], fp: Footprint, rng: float) -> bool:
        return any(
            footprint_distance(fp, self.fps[e["id"]]) <= rng
            and in_front_arc(fp, self.fps[e["id"]].corners(), 60.0)
            for e in self.enemies
        )

    def _enemy_grid(self) -> FootprintIndex[nearest.Piece]:
        """The enemies' footprints in a grid (``nearest.index_again``), made once a decision from
        the last decision's."""
        ix = self.enemy_index
        if ix is None:
            self._enemy_kept = nearest.index_again(self._enemy_kept, self.enemies, self.fps)
            ix = self.enemy_index = self._enemy_kept[1]
        return ix

    def _friend_grid(self) -> FootprintIndex[nearest.Piece]:
        """The side's own units' footprints in a grid (``nearest.index_again``), made once a
        decision from the last decision's."""
        ix = self.friend_index
        if ix is None:
            self._friend_kept = nearest.index_again(self._friend_kept, self.mine, self.fps)
            ix = self.friend_index = self._friend_kept[1]
        return ix

    def _score(self, u: dict[str, Any], fp: Footprint, order: str, moved: bool) -> float:
        if not self.enemies:
            return 0.0
        # the enemies nearest first: the three nearest and those within 12" (all that is read below)
        gaps = nearest.gaps(fp, self.enemies, self.fps, 12.0, self._enemy_grid())
        g, near = gaps[0]
        score = 0.0
        missile = u["role"] == "missile" and bool(u["missile"])
        if order == "fall back":
            score += 0.3 * g
        elif missile:
            score -= abs(g - 5.0) * 0.3  # inside close range, outside easy reach
        else:
            # the weakest reachable enemy is the objective
            way = [(g + self.ground.detour(fp.centre, (e["x"], e["y"])), e) for g, e in gaps[:3]]
            target = min(way, key=lambda x: x[0] + 0.02 * self._value(x[1]))
            score -= 0.25 * target[0]
        # keep the nearest enemy in front
        if in_front_arc(fp, self.fps[near["id"]].corners(), 45.0):
            score += 1.0
        # danger: enemies near enough to charge a flank or rear next turn
        for gap, e in gaps:
            if gap > 12.0:
                break
            ef = self.fps[e["id"]]
            if not in_front_arc(ef, fp.corners(), 60.0):
                continue
            side = fp.facing_of(ef.front_centre)
            if side != "front":
                score -= 1.5
            elif missile:
                score -= 0.5
        # formation: friends close at hand
        score += 0.3 * nearest.friends_near(fp, self.mine, self.fps, u["id"], self._friend_grid())
        return score


def _probe(state: State, o: Any) -> tuple[State, list[Any]] | None:
    """A copy of the state with ``o`` applied, and its events; None when ``o`` is illegal. The rule
    system's ``probe`` plays no further than the end of the Movement phase (the later phases, and
    their dice, are not the general's to see) and takes no backup; a state without one is copied
    and the order applied as a player's."""
    probe = getattr(state, "probe", None)
    if probe is not None:
        got: tuple[State, list[Any]] | None = probe(o)
        return got
    c = state.copy()
    try:
        return c, c.apply(o)
    except IllegalOrder:
        return None


class _Listed:
    """A whole menu (a list of orders) in the shape of ``menus.UnitMenu``: every part is the list."""

    __slots__ = ("_orders",)

    def __init__(self, orders: list[Any]) -> None:
        self._orders = orders

    def head(self) -> list[Any]:
        return self._orders

    def rest(self) -> list[Any]:
        return self._orders

    def orders(self) -> list[Any]:
        return self._orders
