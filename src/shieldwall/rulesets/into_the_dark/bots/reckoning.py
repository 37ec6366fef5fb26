"""What the into-the-dark scripted general reckons before it decides: the army's divisions and
their orders this turn, what a unit is worth, and the expected casualties of a melee.

``Reckoning`` is the first half of :class:`~.general.IntoTheDarkGeneral` (which adds the
decisions); it reads only the public State API and the game's army data and terrain, and for the
forecast of a charge asks the engine (``charging.charge_troops``) which figures will touch: the
dice of a mixed unit are those of its figures in contact, as in the melee (ruling 78).
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from shieldwall.core.game import State
from shieldwall.core.geometry import Footprint
from shieldwall.core.geometry_index import FootprintIndex
from shieldwall.core.polygons import footprint_distance
from shieldwall.core.reference import REFERENCE
from shieldwall.rulesets.into_the_dark.charging import charge_troops
from shieldwall.rulesets.into_the_dark.combat import Troops
from shieldwall.rulesets.into_the_dark.melee_situation import MeleeSituation
from shieldwall.rulesets.into_the_dark.points import unit_points

from .ground import Ground, standing
from .nearest import Kept, Piece

#: a general's rating -> the counter-preference orders he may give a turn (command)
RATING = {"poor": 1, "average": 2, "good": 3}
#: quality level by name (troops.troop-quality)
LEVEL = {"peasant": 1, "levy": 2, "average": 3, "elite": 4, "fanatic": 5}
#: a charge is worth making when its value (expected casualties dealt less taken, plus bonuses)
#: reaches this; mounted, who prefer to charge, accept less
CHARGE_BAR = {"mounted": 0.6, "foot": 0.8}
#: how the charge bars move with the count at the turn limit: ahead, the general risks less;
#: level or behind with few turns left, he must break something (turn-sequence.end-of-battle)
AHEAD_SHIFT: Final = 0.4
LATE_SHIFT: Final = -0.6
LATE_TURNS: Final = 5
#: a charge's target with other enemy units this close: each costs the charge this much
EXPOSED_WITHIN: Final = 4.0
EXPOSED_COST: Final = 0.5


def _fp(u: dict[str, Any]) -> Footprint:
    return Footprint(u["x"], u["y"], u["heading"], u["frontage"], u["depth"])


def _fps(
    units: dict[str, dict[str, Any]],
    before: dict[str, Footprint],
    seen: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Footprint]:
    """``{k: _fp(u) for k, u in units.items()}``, a unit that stands where it stood at the decision
    before keeping its footprint (``before``: most do not move between two decisions; the same
    numbers make the same footprint). ``seen``: the views ``before`` was made from; a unit whose
    view is the very same entry (``State.shared_view``: the view memo's own, kept while the unit
    is unchanged, and never changed in place) keeps its footprint without its numbers compared.
    On the reference path every footprint is made afresh."""
    if REFERENCE.on:
        return {k: _fp(u) for k, u in units.items()}
    out: dict[str, Footprint] = {}
    if seen is None:
        seen = {}
    for k, u in units.items():
        f = before.get(k)
        if f is not None and seen.get(k) is u:
            out[k] = f
            continue
        if f is None or (f.x, f.y, f.heading, f.frontage, f.depth) != (
            u["x"],
            u["y"],
            u["heading"],
            u["frontage"],
            u["depth"],
        ):
            f = _fp(u)
        out[k] = f
    return out


class Reckoning:
    """The state of the battle as the general sees it at one decision, and the combat maths."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self._turn_key: tuple[int, str] | None = None
        self.orders: dict[str, str] = {}  # division -> attack | hold | fall back
        self.overrides: dict[str, int] = {}  # division -> counter-preference orders left this turn
        self._exp: dict[tuple[Any, ...], float] = {}
        self._forecasts: dict[str, tuple[Troops, Troops] | None] = {}
        self._points_of: dict[tuple[str, str], int | None] = {}
        self._points_armies: Any = None
        #: ``_standing``: per unit id, its view entry and what it adds to the count (``_stake``)
        self._stakes: dict[str, tuple[dict[str, Any], tuple[bool, float, bool, float | None]]] = {}
        self._stakes_armies: Any = None
        #: the grids of the last decision that asked for them, with their units' ids
        #: (``nearest.index_again``)
        self._enemy_kept: Kept | None = None
        self._friend_kept: Kept | None = None

    # ------------------------------------------------------------------ set-up per decision
    def _setup(self, state: State) -> None:
        self.state = state
        # (the units' entries the view memo keeps, not copies: the general changes none of them)
        shared = getattr(state, "shared_view", None)
        self.view = shared() if shared is not None else state.view()
        d = state.decision()
        assert d is not None
        self.me = d.side
        seen: dict[str, dict[str, Any]] | None = getattr(self, "units", None)
        self.units = {u["id"]: u for u in self.view["units"] if not u["removed"]}
        self.fps = _fps(self.units, getattr(self, "fps", {}), seen)
        self.mine = [u for u in self.units.values() if u["side"] == self.me]
        self.enemies = [u for u in self.units.values() if u["side"] != self.me and u["morale"] != "routed"]
        # (grids of the two lists, made when first asked this decision: ``nearest.index_of``)
        self.enemy_index: FootprintIndex[Piece] | None = None
        self.friend_index: FootprintIndex[Piece] | None = None
        self.armies = getattr(state.game, "armies", {})
        self._edges: dict[tuple[str, str], str] = {}
        self._forecasts = {}
        self.ground = Ground(self.view, getattr(state.game, "terrain", None))
        if REFERENCE.on:
            lead = standing(self.view["units"], self._cost, self.me)
        else:
            lead = self._standing(self.view["units"])
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

    def _standing(self, units: list[dict[str, Any]]) -> float:
        """``ground.standing(units, self._cost, self.me)`` compiled (issue 16: every unit at every
        decision): the engine's end-of-battle count (turn-sequence.end-of-battle, rulings 39 and
        74), each unit's cost asked once, the same sums in the same order, each side's in a float of
        its own instead of a dict's entry. What a unit adds to the sums is kept with its view's
        entry (``_stake``) and made again only when the entry is another object: the view memo
        keeps a unit's entry while the unit is unchanged and never changes one in place
        (``State.shared_view``), so most units are only looked up."""
        foe = "blue" if self.me == "red" else "red"
        if self._stakes_armies is not self.armies:
            self._stakes, self._stakes_armies = {}, self.armies
        stakes = self._stakes
        recs: list[tuple[bool, float, bool, float | None]] = []
        total_red = total_blue = lost_red = lost_blue = 0.0
        for u in units:
            got = stakes.get(u["id"])
            if got is None or got[0] is not u:
                got = (u, self._stake(u))
                stakes[u["id"]] = got
            rec = got[1]
            recs.append(rec)
            red, pts, lost, _ = rec
            if red:
                total_red += pts
                if lost:
                    lost_red += pts
            else:
                total_blue += pts
                if lost:
                    lost_blue += pts
        share_red = lost_red / total_red if total_red else 0.0
        share_blue = lost_blue / total_blue if total_blue else 0.0
        mine, theirs = (share_red, share_blue) if self.me == "red" else (share_blue, share_red)
        if abs(theirs - mine) > 1e-9:
            return theirs - mine
        worn_red = worn_blue = 0.0
        for red, _, _, w in recs:
            if w is not None:
                if red:
                    worn_red += w
                else:
                    worn_blue += w
        worn = {
            "red": worn_red / total_red if total_red else 0.0,
            "blue": worn_blue / total_blue if total_blue else 0.0,
        }
        return 1e-3 * (worn[foe] - worn[self.me])

    def _stake(self, u: dict[str, Any]) -> tuple[bool, float, bool, float | None]:
        """What the unit of view entry ``u`` adds to ``_standing``'s sums: whether it is red, its
        cost, whether it counts as lost (gone or routing) and its casualties' worth (None when it
        is lost or has no figures to start with), each as ``ground.standing`` works it out."""
        pts = float(self._cost(u))
        lost = bool(u["removed"] or u["morale"] == "routed")
        w: float | None = None
        if not u["removed"] and u["morale"] != "routed" and u["original"]:
            w = pts * (u["original"] - u["figures"]) / u["original"]
        return (u["side"] == "red", pts, lost, w)

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

    def _points(self, u: dict[str, Any]) -> int | None:
        """``points.unit_points`` of the unit's army entry (None without one), looked up once per
        army entry: the armies are the game's and do not change during a battle."""
        armies = self.armies
        if self._points_armies is not armies:
            self._points_of = {}
            self._points_armies = armies
        key = (u["side"], u["name"])
        if key not in self._points_of:
            au = self._army_unit(u)
            self._points_of[key] = unit_points(au) if au is not None else None
        return self._points_of[key]

    def _value(self, u: dict[str, Any]) -> float:
        """Points per figure times figures left (troops.unit-cost)."""
        pts = self._points(u)
        per = pts / max(1, u["original"]) if pts is not None else 4.0
        return float(per * u["figures"])

    def _cost(self, u: dict[str, Any]) -> float:
        """The unit's whole cost (troops.unit-cost), as the end-of-battle count weighs it."""
        pts = self._points(u)
        return float(pts) if pts is not None else 4.0 * float(u["original"])

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

    def _forecast(self, order: Any) -> tuple[Troops, Troops] | None:
        """The charger and target of a charge ``order`` as the melee will see them at contact
        (``charging.charge_troops``: a mixed unit's figures in contact, ruling 78), once a decision;
        None when the state is not the engine's or the charge cannot be planned."""
        if order is None or not hasattr(self.state, "units"):
            return None
        key = str(order)
        if key not in self._forecasts:
            self._forecasts[key] = charge_troops(self.state, order)  # type: ignore[arg-type]
        return self._forecasts[key]

    def _expected(
        self,
        a: dict[str, Any],
        t: dict[str, Any],
        edge: str,
        charging: bool,
        imp: bool,
        pair: tuple[Troops, Troops] | None = None,
    ) -> float:
        """Expected hits ``a`` deals ``t`` in a round across ``edge``; ``pair``: the two as the melee
        will see them (``_forecast``), else as their army entries read."""
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
            pair,
        )
        got = self._exp.get(key)
        if got is None:
            ta, tt = (self._troops(a), self._troops(t)) if pair is None else pair
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

    def _charge_value(
        self, c: dict[str, Any], t: dict[str, Any], edge: str, imp: bool, order: Any = None
    ) -> float:
        """What the charge ``order`` of ``c`` at ``t``'s ``edge`` is worth. The dice are those of the
        figures that will touch: for a mixed unit as the engine finds them (``_forecast``); a unit of
        one type is its army entry, whichever figures touch."""
        pair = self._forecast(order) if c.get("mixed") or t.get("mixed") else None
        back_pair = None if pair is None else (pair[1], pair[0])
        # the charge round (charging, impetuous doubling) and the rounds after it weigh alike: a
        # charge that only wins its first round is a melee lost
        dealt = 0.5 * (
            self._expected(c, t, edge, True, imp, pair) + self._expected(c, t, edge, False, False, pair)
        )
        back = self._expected(t, c, "front", False, False, back_pair) * (1.0 if edge == "front" else 0.35)
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
