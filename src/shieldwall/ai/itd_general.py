"""The scripted general for into-the-dark.

It plays by the text's Command & Control section. Each division (the army file's divisions, under
their general) gets an order every turn: **attack** (advance on the enemy, then follow the combat
preferences), **hold** (stay, only wheeling to face) or **fall back** (move away from the enemy).
Every unit follows its combat preferences: mounted prefer to charge, foot prefer to stand and wait,
missile troops stop and shoot once the enemy is in close range and evade when charged (unless cross
trained). A division's general may order as many units per turn as his rating to act against their
preferences (foot to charge, mounted to hold), which is how the bot's foot charges when the odds
favour them. The engine does not play generals on the table yet, so the bot keeps these orders to
itself and only the resulting unit orders reach the game.

Charges are weighed with the rule system's exact melee distributions (``combat.MeleeSituation``):
expected casualties dealt against taken, flank and rear bonuses, the target's state. Missile troops
shoot the target with the most points' worth of expected casualties in range. Moves are scored on a
copy of the state (``copy`` + ``apply`` + ``view``): closing on the division's objective, keeping the
enemy in front, staying near friends and out of the reach of enemies that would hit a flank.
Charges weigh the charge round and the rounds after it alike, with the target's hill
(``target_uphill``) as the melee would see it. The ground (``itd_ground``) sends units over deep
water by its bridges and fords: the objective's distance counts the way round, and the general adds
moves the menu does not list (wheel to face the way, then go forward), which ``apply`` judges like
any order. The general also keeps the end-of-battle count (turn-sequence.end-of-battle): ahead on
points lost he risks less; level or behind in the last turns he charges at worse odds and accepts
ending disordered near the enemy.
It reads only the public State API and the game's army data and terrain.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.game import State
from shieldwall.core.geometry import Footprint, footprint_distance, in_front_arc, normalize_angle
from shieldwall.rulesets.into_the_dark import orders as O
from shieldwall.rulesets.into_the_dark.combat import MeleeSituation, Troops
from shieldwall.rulesets.into_the_dark.points import unit_cost

from .itd_ground import Ground, heading_towards, standing

RATING = {"poor": 1, "average": 2, "good": 3}
#: quality level by name (troops.troop-quality)
LEVEL = {"peasant": 1, "levy": 2, "average": 3, "elite": 4, "fanatic": 5}
#: a charge is worth making when its value (expected casualties dealt less taken, plus bonuses)
#: reaches this; mounted, who prefer to charge, accept less
CHARGE_BAR = {"mounted": 0.6, "foot": 0.8}
#: what ending a move disordered costs in the move score (a -1 in every morale test, front rank
#: only in melee, half-speed wheels, no shieldwall)
DISORDER_COST = 4.0
#: ... and far from the enemy (more than 12"), where it can rally before it fights
DISORDER_COST_FAR = 1.0
#: how the charge bars move with the count at the turn limit: ahead, the general risks less;
#: level or behind with few turns left, he must break something (turn-sequence.end-of-battle)
AHEAD_SHIFT = 0.4
LATE_SHIFT = -0.6
LATE_TURNS = 5
#: what ending a move disordered costs near the enemy when the general must break something
DISORDER_COST_LATE = 1.5
#: a charge's target with other enemy units this close: each costs the charge this much
EXPOSED_WITHIN = 4.0
EXPOSED_COST = 0.5


def _fp(u: dict[str, Any]) -> Footprint:
    return Footprint(u["x"], u["y"], u["heading"], u["frontage"], u["depth"])


class IntoTheDarkGeneral:
    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self._turn_key: tuple[int, str] | None = None
        self.orders: dict[str, str] = {}  # division -> attack | hold | fall back
        self.overrides: dict[str, int] = {}  # division -> counter-preference orders left this turn
        self._exp: dict[tuple[Any, ...], float] = {}

    # ------------------------------------------------------------------ set-up per decision
    def _setup(self, state: State) -> None:
        self.state = state
        self.view = state.view()
        d = state.decision()
        assert d is not None
        self.me = d.side
        self.units = {u["id"]: u for u in self.view["units"] if not u["removed"]}
        self.fps = {k: _fp(u) for k, u in self.units.items()}
        self.mine = [u for u in self.units.values() if u["side"] == self.me]
        self.enemies = [u for u in self.units.values() if u["side"] != self.me and u["morale"] != "routed"]
        self.armies = getattr(state.game, "armies", {})
        self._edges: dict[tuple[str, str], str] = {}
        self.ground = Ground(self.view, getattr(state.game, "terrain", None))
        lead = standing(self.view["units"], self._cost, self.me)
        left = int(self.view.get("max_turns") or 99) - int(self.view["turn"])
        self.late = lead <= 1e-12 and left < LATE_TURNS
        if lead > 1e-12:
            self.bar_shift = AHEAD_SHIFT
        elif self.late:
            self.bar_shift = LATE_SHIFT
        else:
            self.bar_shift = 0.0
        key = (int(self.view["turn"]), self.me)
        if key != self._turn_key:
            self._turn_key = key
            self._plan_turn()

    def _army_unit(self, u: dict[str, Any]) -> Any:
        army = self.armies.get(u["side"])
        if army is None:
            return None
        try:
            return army.unit(u["name"])
        except (KeyError, ValueError, LookupError):
            return None

    def _division(self, u: dict[str, Any]) -> str:
        au = self._army_unit(u)
        return str(au.division) if au is not None else "army"

    def _value(self, u: dict[str, Any]) -> float:
        """Points per figure times figures left (troops.unit-cost)."""
        au = self._army_unit(u)
        per = unit_cost(au).points / max(1, u["original"]) if au is not None else 4.0
        return float(per * u["figures"])

    def _cost(self, u: dict[str, Any]) -> float:
        """The unit's whole cost (troops.unit-cost), as the end-of-battle count weighs it."""
        au = self._army_unit(u)
        return float(unit_cost(au).points) if au is not None else 4.0 * float(u["original"])

    def _bar(self, u: dict[str, Any]) -> float:
        return CHARGE_BAR[u["category"]] + self.bar_shift

    def _plan_turn(self) -> None:
        """The orders of each division this turn, and its general's counter-preference orders."""
        army = self.armies.get(self.me)
        gens = {g.division: RATING.get(str(g.rating), 2) for g in getattr(army, "generals", ())}
        divisions: dict[str, list[dict[str, Any]]] = {}
        for u in self.mine:
            divisions.setdefault(self._division(u), []).append(u)
        self.orders, self.overrides = {}, {}
        foes = sum(self._value(e) for e in self.enemies)
        for div, us in divisions.items():
            self.overrides[div] = gens.get(div, 2) if gens else 99
            left = [u for u in us if u["morale"] != "routed"]
            start = sum(self._value(u) / max(1, u["figures"]) * u["original"] for u in us)
            now = sum(self._value(u) for u in left)
            mine = sum(self._value(u) for u in self.mine if u["morale"] != "routed")
            if not left or now < 0.35 * start and mine < 0.6 * foes:
                self.orders[div] = "fall back"
            else:
                self.orders[div] = "attack"

    def _order_of(self, u: dict[str, Any]) -> str:
        return self.orders.get(self._division(u), "attack")

    def _override(self, u: dict[str, Any]) -> bool:
        """Spend one of the division general's command actions, if he has one left."""
        div = self._division(u)
        if self.overrides.get(div, 0) <= 0:
            return False
        self.overrides[div] -= 1
        return True

    # ------------------------------------------------------------------ combat maths
    def _troops(self, u: dict[str, Any]) -> Troops | None:
        au = self._army_unit(u)
        if au is None:
            return None
        try:
            return Troops.from_unit(
                au,
                shaken=u["morale"] != "steady",
                disordered=bool(u["disordered"]),
                in_shieldwall=bool(u["shieldwall"]) and not u["disordered"],
                routing=u["morale"] == "routed",
            )
        except ValueError:
            return None

    def _fighting(self, u: dict[str, Any], width: float) -> int:
        """Figures of ``u`` that would fight along ``width`` inches of contact (two ranks)."""
        fig_w = u["frontage"] / max(1, u["front"])
        n = min(u["front"], max(1, int(width / fig_w + 1e-6)))
        ranks = 1 if u["disordered"] else min(2, u["ranks"])
        return int(min(u["figures"], n * ranks))

    def _expected(self, a: dict[str, Any], t: dict[str, Any], edge: str, charging: bool, imp: bool) -> float:
        facing = "front" if edge == "front" else ("rear" if edge == "rear" else "flank")
        width = t["frontage"] if edge in ("front", "rear") else t["depth"]
        n = self._fighting(a, width)
        key: tuple[Any, ...] = (a["id"], t["id"], a["figures"], t["figures"], a["morale"], t["morale"])
        key = (
            *key,
            a["disordered"],
            t["disordered"],
            a["shieldwall"],
            t["shieldwall"],
            facing,
            charging,
            imp,
            n,
            a["x"],
            a["y"],
        )
        got = self._exp.get(key)
        if got is None:
            ta, tt = self._troops(a), self._troops(t)
            if ta is None or tt is None or n <= 0:
                got = 0.0
            else:
                sit = MeleeSituation(
                    ta,
                    tt,
                    front=n if facing == "front" else 0,
                    flank=n if facing == "flank" else 0,
                    rear=n if facing == "rear" else 0,
                    charging=charging,
                    impetuous=imp,
                    target_uphill=self.ground.uphill_of((t["x"], t["y"]), (a["x"], a["y"])),
                )
                got = float(sit.dist().mean())
            self._exp[key] = got
        return got

    def _charge_value(self, c: dict[str, Any], t: dict[str, Any], edge: str, imp: bool) -> float:
        # the charge round (charging, impetuous doubling) and the rounds after it weigh alike: a
        # charge that only wins its first round is a melee lost
        dealt = 0.5 * (self._expected(c, t, edge, True, imp) + self._expected(c, t, edge, False, False))
        back = self._expected(t, c, "front", False, False) * (1.0 if edge == "front" else 0.35)
        value = dealt - back
        lc = LEVEL.get(str(c["quality"]), 3) - (1 if c["morale"] != "steady" else 0)
        lt = LEVEL.get(str(t["quality"]), 3) - (1 if t["morale"] != "steady" else 0)
        value += 0.25 * (lc - lt) + (0.5 if t["disordered"] else 0.0)
        if edge != "front":
            value += 1.5  # "unit flanked -3" to the target's morale, and it is pinned
        # a charger that wins ends beside the target's friends, or stranded where the target stood
        # when it is driven off before contact (an impetuous charge's morale test): each enemy unit
        # standing close to the target may hit its flank next
        tf = self.fps[t["id"]]
        close = sum(
            1
            for e in self.enemies
            if e["id"] != t["id"] and footprint_distance(tf, self.fps[e["id"]]) < EXPOSED_WITHIN
        )
        value -= EXPOSED_COST * close
        if t["role"] == "missile" and t["missile"] and edge == "front":
            value -= 0.3  # it may shoot or evade
        if c["role"] == "missile":
            value -= 2.0
        return value

    # ------------------------------------------------------------------ decisions
    def choose(self, state: State) -> Any:
        self._setup(state)
        d = state.decision()
        assert d is not None
        orders = state.legal_orders()
        kind = d.kind
        if kind == "initiative":
            return next((o for o in orders if isinstance(o, O.Pass)), orders[0])
        if kind == "rally":
            return self._rally(orders)
        if kind == "movement":
            return self._activate(orders)
        if kind == "unit":
            return self._unit(state, orders, self.units[str(d.unit)])
        if kind == "react":
            return self._react(orders, self.units[str(d.unit)])
        if kind == "opportunity":
            return self._opportunity(orders, self.units[str(d.unit)])
        if kind == "fire":
            return self._fire(orders)
        if kind == "pursue":
            return next((o for o in orders if isinstance(o, O.Pursue)), orders[0])
        if kind == "consent":
            return next((o for o in orders if isinstance(o, O.Allow)), orders[0])
        if kind == "declare":
            # strike at a leading general with every die allowed: one hit removes him and his
            # steadying of the unit's morale (command.general-leading)
            aimed = [o for o in orders if getattr(o, "kind", "") == "declare"]
            return max(aimed, key=lambda o: o.dice) if aimed else orders[0]
        return orders[0]

    def _near(self, u: dict[str, Any], within: float) -> bool:
        f = self.fps[u["id"]]
        return any(footprint_distance(f, self.fps[e["id"]]) < within for e in self.enemies)

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

        def key(o: Any) -> tuple[float, str]:
            f = self.fps[o.unit]
            g = min((footprint_distance(f, self.fps[e["id"]]) for e in self.enemies), default=99.0)
            return (g, o.unit)

        return min(acts, key=key)

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
                v = self._charge_value(u, self.units[o.target], self._edge(o), o.impetuous)
                if v > bv:
                    best, bv = o, v
        if isinstance(best, O.Charge) and bv >= self._bar(u):
            return best
        return next((o for o in orders if isinstance(o, O.Decline)), orders[0])

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
    def _unit(self, state: State, orders: list[Any], u: dict[str, Any]) -> Any:
        order = self._order_of(u)
        foot = u["category"] == "foot"
        hold = next((o for o in orders if isinstance(o, O.Hold)), orders[0])
        # charges
        charges = [o for o in orders if isinstance(o, O.Charge)]
        if charges and u["role"] != "missile" and order != "fall back":
            best = max(
                charges,
                key=lambda o: self._charge_value(
                    u, self.units[o.target], self._edge_after(state, o), o.impetuous
                ),
            )
            v = self._charge_value(u, self.units[best.target], self._edge_after(state, best), best.impetuous)
            if v >= self._bar(u):
                prefers = not foot  # mounted prefer to charge; foot need their general's order
                if prefers or self._override(u):
                    return best
        if u["in_melee"]:
            faces = [o for o in orders if isinstance(o, O.Face)]
            return faces[0] if faces else hold
        # shieldwall: foot that stand form it when the enemy is near
        sw_on = next((o for o in orders if isinstance(o, O.Shieldwall) and o.on), None)
        if sw_on is not None and self._near(u, 10.0):
            return sw_on
        moves = [o for o in orders if isinstance(o, O.Move)]
        if u["role"] == "missile" and u["missile"]:
            if self._target_in(u, self.fps[u["id"]], 6.0):
                return hold  # "Missile troops within close range will stop advancing and open fire"
        elif foot and order == "attack" and self._near(u, 3.0):
            return hold  # within charge range: foot prefer to stand
        if order == "hold":
            moves = [o for o in moves if all(isinstance(s, O.Wheel) for s in o.steps)]
        else:
            moves += self._waypoint_moves(u)
        best_o, best_s = hold, self._score(u, self.fps[u["id"]], order, moved=False)
        for o in moves:
            got = self._after(state, o, u["id"])
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
        near = min(self.enemies, key=lambda e: footprint_distance(self.fps[u["id"]], self.fps[e["id"]]))
        way = self.ground.waypoint(front, (near["x"], near["y"]))
        turn = normalize_angle(heading_towards(front, way) - float(u["heading"]))
        if abs(turn) > 90.0:
            return []
        far = math.dist(front, way)
        steps: list[Any] = [O.Wheel(round(turn, 2))] if abs(turn) > 2.0 else []
        out = []
        for part in (1.0, 2.0 / 3.0, 1.0 / 3.0):
            d = round(far * part, 2)
            if d >= 0.5:
                out.append(O.Move(u["id"], (*steps, O.Fwd(d))))
        return out

    def _edge_after(self, state: State, o: Any) -> str:
        """The edge the charge hits, read from its ``charge`` event on a copy of the state."""
        key = ("edge", str(o))
        got = self._edges.get(key)
        if got is None:
            got = self._edge(o)
            try:
                for ev in state.copy().apply(o):
                    if ev.kind == "charge" and ev.data.get("unit") == o.unit:
                        got = str(ev.data.get("edge", got))
                        break
            except IllegalOrder:
                pass
            self._edges[key] = got
        return got

    def _after(self, state: State, o: Any, uid: str) -> tuple[Footprint, bool] | None:
        """Where the unit ends a move, and whether it ends disordered (terrain, interpenetration)."""
        c = state.copy()
        try:
            evs = c.apply(o)
        except IllegalOrder:
            return None
        disordered = any(e.kind == "disordered" and e.data.get("unit") == uid for e in evs)
        for v in c.view()["units"]:
            if v["id"] == uid:
                return None if v["removed"] else (_fp(v), disordered or bool(v["disordered"]))
        return None

    def _target_in(self, u: dict[str, Any], fp: Footprint, rng: float) -> bool:
        return any(
            footprint_distance(fp, self.fps[e["id"]]) <= rng
            and in_front_arc(fp, self.fps[e["id"]].corners(), 60.0)
            for e in self.enemies
        )

    def _score(self, u: dict[str, Any], fp: Footprint, order: str, moved: bool) -> float:
        if not self.enemies:
            return 0.0
        gaps = sorted(
            ((footprint_distance(fp, self.fps[e["id"]]), e) for e in self.enemies), key=lambda x: x[0]
        )
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
        friends = 0
        for f in self.mine:
            if (
                f["id"] != u["id"]
                and f["morale"] != "routed"
                and footprint_distance(fp, self.fps[f["id"]]) < 4.0
            ):
                friends += 1
        score += 0.3 * min(friends, 2)
        return score
