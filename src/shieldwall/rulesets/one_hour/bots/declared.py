"""The scripted general's intents under Declared Movement (optional rule).

With Declared Movement a unit states its intent (``activate U charge E`` or ``activate U toward
X,Y``) before it rolls, and the rules then carry the intent out with the whole distance rolled
(``declared.fulfil``): the general gets no move decision afterwards. So the intent is where its
judgement must go. Each intent is valued by what it is expected to lead to, over the distribution
of the movement roll (the unit's movement dice + 2; the dice are public, the roll is not known):

* a charge: reached when the roll covers the gap (the charge's value, ``_charge_value``), else the
  unit ends the roll's length nearer its target (the place's value, ``_position``); skirmishers
  and cavalry with missiles, which the general keeps at their missiles' range, declare a charge
  that may reach only when it would remove its target at once;
* a move toward a point: the unit turns to it and goes the roll's length, stopping short of an
  enemy in the way (the place's value);
* staying put (no intent: the unit is not activated; a bow that does not move may shoot): the
  value of the place it holds.

The general activates, nearest the enemy first, the units whose best intent is worth more than
staying put, and ends its movement when none is left. Before this the general declared the first
intent of the menu (a charge on the nearest enemy) for every unit, whatever the odds.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from shieldwall.core.dice import Die, pool
from shieldwall.core.geometry import Footprint, bearing, heading_vector
from shieldwall.core.polygons import polygon_distance
from shieldwall.rulesets.one_hour import orders as O
from shieldwall.rulesets.one_hour.profiles import unit_profiles

if TYPE_CHECKING:
    from .general import OneHourGeneral

#: how much better than staying put an intent must be to be declared (values are the general's)
_MARGIN = 0.05
#: ``_charge_value`` of a charge that removes its target at once
_KILL = 8.0
#: a move toward an enemy's place stops this far short of it (it cannot pass through)
_STOP_SHORT = 0.5


#: the movement rolls by (die, dice): a pure function of them
_ROLLS: dict[tuple[Die, int], list[tuple[float, float]]] = {}


def _skirmishing(u: dict[str, Any]) -> bool:
    """Skirmishers and cavalry with missiles: the general keeps them at their missiles' range
    (``_position``)."""
    return u["missile"] is not None and u["category"] in ("skirmishers", "cavalry")


def _rolls(general: OneHourGeneral, u: dict[str, Any]) -> list[tuple[float, float]]:
    """The movement roll's distances with their probabilities: (distance, probability)."""
    key = (general.die, unit_profiles()[u["type"]].move_class)
    got = _ROLLS.get(key)
    if got is None:
        dist = pool(key[0], key[1])
        got = _ROLLS[key] = [(float(v + 2), float(p)) for v, p in sorted(dist.probabilities().items())]
    return got


#: ``_thirds`` of the movement rolls, by the same keys as ``_ROLLS``
_THIRDS: dict[tuple[Die, int], list[tuple[float, float]]] = {}


def _rolls_thirds(general: OneHourGeneral, u: dict[str, Any]) -> list[tuple[float, float]]:
    """``_thirds`` of the unit's movement rolls (``_rolls``), worked out once for each die and class."""
    key = (general.die, unit_profiles()[u["type"]].move_class)
    got = _THIRDS.get(key)
    if got is None:
        got = _THIRDS[key] = _thirds(_rolls(general, u))
    return got


def _thirds(rolls: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The roll's distribution in at most three parts of about a third each (the low, middle and
    high rolls): each part's mean distance with its probability (a third as many places to weigh)."""
    parts: list[list[tuple[float, float]]] = [[], [], []]
    acc = 0.0
    for d, p in rolls:
        mid = acc + p / 2.0
        parts[min(2, int(mid * 3.0))].append((d, p))
        acc += p
    out = []
    for part in parts:
        w = sum(p for _, p in part)
        if w > 0.0:
            out.append((sum(d * p for d, p in part) / w, w))
    return out


def _advanced(fp: Footprint, goal: tuple[float, float], length: float) -> Footprint:
    """``fp`` turned on its centre to face ``goal`` and moved ``length`` toward it."""
    h = bearing(fp.centre, goal)
    dx, dy = heading_vector(h)
    return Footprint(fp.x + dx * length, fp.y + dy * length, h, fp.frontage, fp.depth)


def stay_value(general: OneHourGeneral, u: dict[str, Any]) -> float:
    """The value of the place the unit holds (a bow that does not move may shoot)."""
    value = general._position(u, general.fps[u["id"]])
    if u["missile"] == "bow":
        value += 0.6
    return value


def intent_value(general: OneHourGeneral, o: O.Activate) -> float:
    """The expected value of declaring ``o`` (see the module's docstring)."""
    u = general.units[o.unit]
    fp = general.fps[o.unit]
    rolls = _rolls(general, u)
    if o.charge is not None:
        t = general.units[o.charge]
        tf = general.fps[o.charge]
        gap = polygon_distance(fp.corners(), tf.corners())
        facing = tf.facing_of(fp.front_centre)
        reach = sum(p for d, p in rolls if d >= gap)
        charge = general._charge_value_of(u, t, facing) if reach > 0.0 else 0.0
        if reach > 0.0 and _skirmishing(u) and charge < _KILL:
            return -math.inf  # missile troops that skirmish commit to a charge only to finish a unit
        value = 0.0
        if reach > 0.0:
            value += reach * charge
        if reach < 1.0:
            # short of the target: the unit ends the mean short roll nearer it
            short = sum(d * p for d, p in rolls if d < gap) / (1.0 - reach)
            value += (1.0 - reach) * general._position(u, _advanced(fp, tf.centre, short))
        return value
    assert o.toward is not None
    goal = o.toward
    # an enemy standing at the goal stops the unit short of it
    room = math.inf
    for e in general.enemies:
        ef = general.fps[e["id"]]
        if math.hypot(ef.x - goal[0], ef.y - goal[1]) < 1e-6:
            room = max(0.0, polygon_distance(fp.corners(), ef.corners()) - _STOP_SHORT)
    thirds = _rolls_thirds(general, u)
    return sum(p * general._position(u, _advanced(fp, goal, min(d, room))) for d, p in thirds)


def choose_intent(general: OneHourGeneral, acts: list[O.Activate]) -> O.Activate | None:
    """The intent to declare: for the unit nearest the enemy among those with an intent worth more
    than staying put, its best intent (the first of equals); None when no unit has one."""
    by_unit: dict[str, list[O.Activate]] = {}
    for o in acts:
        by_unit.setdefault(o.unit, []).append(o)
    # nearest the enemy first (the first of equals in the menu's order): the first worth moving
    order = sorted(by_unit, key=lambda uid: general._nearest_gap(general.fps[uid]))
    for uid in order:
        options = by_unit[uid]
        stay = stay_value(general, general.units[uid])
        valued = [(intent_value(general, o), -i, o) for i, o in enumerate(options)]
        value, _, pick = max(valued, key=lambda x: (x[0], x[1]))
        if value > stay + _MARGIN:
            return pick
    return None
