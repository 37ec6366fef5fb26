"""The scripted bot's reckoning: a charge's odds, a shot's worth, and when to seek battle.

Everything here reads the public view (a unit is the dict of ``State.view()["units"]``) and the
game's tables, and counts as the rules count: the melee target number
(``knight-hack:casualties.target``) with its modifiers, the casualties one roll inflicts
(``knight-hack:casualties.multiple``), the morale level (``knight-hack:morale.level``) and the
scenario's victory rule (ruling R37: a side that has lost half its points loses; at the turn limit
the side that lost fewer points wins, equal is a draw).
"""

from __future__ import annotations

import math
from typing import Any

from shieldwall.core.geometry import Footprint, bearing, heading_vector

from ..casualties import AutoMode, CasualtySituation
from ..factors import Fighter, MeleeConditions, melee_target
from ..formation import RANK_DEPTH
from ..geom import line_blocked
from ..morale import MoraleState, morale_level
from ..tables import Tables

Unit = dict[str, Any]

#: seek battle when behind: the battle has this many turns left, this one counted, or fewer
LATE_TURNS = 2
#: keep a lead: the battle has this many turns left, this one counted, or fewer
LEAD_TURNS = 5


def fighter(u: Unit) -> Fighter:
    return Fighter(u["type"], u["class"], u["figures"], tuple(u["weapons"]))


def footprint(u: Unit) -> Footprint:
    return Footprint(u["x"], u["y"], u["heading"], u["frontage"], u["depth"])


def charge_line_blocked(units: dict[str, Unit], u: Unit, t: Unit) -> bool:
    """Whether a friend of ``u`` or a router stands in its charge line short of ``t`` (ruling R38: the
    charge passes through no one), so that the charge would make no contact."""
    others = [
        footprint(o)
        for o in units.values()
        if not o["removed"]
        and o["id"] not in (u["id"], t["id"])
        and (o["side"] == u["side"] or o["status"] == "routed")
    ]
    return line_blocked(footprint(u), footprint(t), others)


def evade_cornered(tables: Tables, u: Unit, chargers: list[Unit], table: dict[str, float]) -> bool:
    """Whether ``u``'s evade (ruling R43: directly away from its nearest charger, its type's evade
    move) would be cut short by the table's edge, so that it is cornered and can be caught (R52)."""
    if not chargers:
        return False
    c = min(chargers, key=lambda c: (math.dist((c["x"], c["y"]), (u["x"], u["y"])), c["id"]))
    h = bearing((c["x"], c["y"]), (u["x"], u["y"])) % 360.0
    d = float(tables.types[u["type"]].evade_move or 0.0)
    vx, vy = heading_vector(h)
    fp = Footprint(u["x"] + vx * d, u["y"] + vy * d, h, u["frontage"], u["depth"])
    w, dp = table["width"], table["depth"]
    return not all(0 <= x <= w and 0 <= y <= dp for x, y in fp.corners())


def charge_edge(tables: Tables, u: Unit, t: Unit) -> int:
    """The charger u's target number against t in the first round of the melee its charge makes,
    minus t's against u. A charger that makes contact is disordered until it rallies
    (knight-hack:charge.disorder-on-contact): it gets the charge bonus but fights disordered, and
    t fights it as a disordered target."""
    mine = melee_target(
        tables, fighter(u), fighter(t), MeleeConditions(charging_first_round=True, disordered=True)
    )
    theirs = melee_target(tables, fighter(t), fighter(u), MeleeConditions(target_disordered=True))
    return mine.value - theirs.value


def extra_ranks(tables: Tables, u: Unit) -> int:
    """u's ranks fighting behind its front (the melee's rank-beyond-first), as ``phase_melee``
    counts them: its ranks, at most its weapons' ``ranks_fighting``, less the front one."""
    ranks = max(1, round(float(u["depth"]) / RANK_DEPTH))
    fighting = max((tables.weapons[w].ranks_fighting for w in u["weapons"]), default=1)
    return int(max(0, min(ranks, fighting) - 1))


def facing_hit(u: Unit, t: Unit) -> str:
    """The facing of t that u's charge strikes ("front", "left", "right" or "rear"). The charger
    wheels on the centre of its front to face t's centre (ruling R38), so its front centre keeps to
    the line to t's centre, and the melee fights the facing of t beyond which that point lies
    (``geom.contact_facing``)."""
    front = Footprint(u["x"], u["y"], u["heading"], u["frontage"], u["depth"]).front_centre
    return Footprint(t["x"], t["y"], t["heading"], t["frontage"], t["depth"]).facing_of(front)


def casualties(target: int, automatic: int, figures: int, auto: AutoMode) -> list[float]:
    """P(0), P(1), P(2), P(3) casualties from one roll at ``target``: T, T/2, T/4 for one, two,
    three (knight-hack:casualties.multiple), the chart's automatic ones (casualties.automatic), at
    most the figures left (casualties.whole-figures)."""
    sit = CasualtySituation(target, automatic, figures, auto)
    p = [0.0] * 4
    for r in range(1, 101):
        p[sit.outcome(r)] += 0.01
    return p


def rout_chance(tables: Tables, u: Unit, lost: int, disordered: bool, flanked: bool) -> float:
    """The chance u fails a morale test after losing ``lost`` more figures (knight-hack:morale.level;
    a melee's loser that fails routs). Its leader is not in the view: not counted."""
    st = MoraleState(u["muster"], u["muster"] - u["figures"] + lost, disordered=disordered, flanked=flanked)
    level, _ = morale_level(tables, u["type"], u["class"], st)
    return 1.0 - min(100, max(0, level)) / 100


def cost(tables: Tables, u: Unit) -> int:
    """u's cost per figure (ruling R37 counts the cost of the figures lost)."""
    return tables.types[u["type"]].cost_per_figure[u["class"]]


def charge_value(tables: Tables, u: Unit, t: Unit, auto: AutoMode = "floor") -> float:
    """What u's charge on t is worth in points (ruling R37: the cost of the figures lost, a routed
    unit's whole cost) over the first round of its melee: the points of the casualties each side
    inflicts, and the round's loser (fewer casualties inflicted, ``knight-hack:melee.rounds``)
    routing if it fails its test. The target numbers are the melee's
    (``knight-hack:casualties.target``): the charge bonus, the charger disordered on contact
    (``knight-hack:charge.disorder-on-contact``), the flank or rear bonus when u's line strikes t's
    flank or rear (:func:`facing_hit`), t's disorder if it is disordered already, and both units'
    ranks fighting behind their front."""
    face = facing_hit(u, t)
    t_dis = bool(t["disordered"])
    mine = melee_target(
        tables,
        fighter(u),
        fighter(t),
        MeleeConditions(
            flank=face in ("left", "right"),
            rear=face == "rear",
            charging_first_round=True,
            disordered=True,
            target_disordered=t_dis,
            extra_ranks=extra_ranks(tables, u),
        ),
    )
    theirs = melee_target(
        tables,
        fighter(t),
        fighter(u),
        MeleeConditions(target_disordered=True, disordered=t_dis, extra_ranks=extra_ranks(tables, t)),
    )
    on_t = casualties(mine.value, mine.automatic, t["figures"], auto)
    on_u = casualties(theirs.value, theirs.automatic, u["figures"], auto)
    cu, ct = cost(tables, u), cost(tables, t)
    value = 0.0
    for a, pa in enumerate(on_t):
        for b, pb in enumerate(on_u):
            # a float from the start (compiled, an int ``v`` refuses the float added below; the same
            # value: the points are small whole numbers, exact as floats)
            v = float(a * ct - b * cu)
            if a > b:
                v += rout_chance(tables, t, a, t_dis, face != "front") * (t["figures"] - a) * ct
            elif b > a:
                v -= rout_chance(tables, u, b, True, False) * (u["figures"] - b) * cu
            value += pa * pb * v
    return value


def shot_value(tables: Tables, u: Unit, t: Unit, auto: AutoMode = "floor") -> float:
    """The points u's shot at t takes off on average: t's cost per figure times the casualties the
    roll inflicts (:func:`casualties`, as ``phase_charge.handle_fire`` rolls them)."""
    cond = MeleeConditions(disordered=u["disordered"], target_disordered=t["disordered"])
    target = melee_target(tables, fighter(u), fighter(t), cond).value
    # the sum written out: compiled, ``sum`` of floats was typed an int (``float | Literal[0]``);
    # the same additions in the same order, from 0.0 where ``sum`` starts from 0 (0 + 0.0 == 0.0)
    expected = 0.0
    for n, p in enumerate(casualties(target, 0, t["figures"], auto)):
        expected += n * p
    return float(cost(tables, t)) * expected


def behind_at_the_end(view: dict[str, Any], side: str | None, turns: int) -> bool:
    """Whether ``side`` must seek battle (ruling R37: at the turn limit the side that lost fewer
    points wins): the limit is near (this turn and the next :data:`LATE_TURNS` - 1) and the side
    has lost more points than the enemy. Waiting, it loses; a charge at any odds can do no worse
    (a loss is a loss however large), so it makes the best one there is. Only in the last two turns
    (:data:`LATE_TURNS`; it was 3): earlier an enemy that attacks may still lose points to it.

    Measured and not done (docs/agents.md, Bourgthéroulde, 200 battles as the rebels against
    ``random``): charging also when level near the limit at a :func:`charge_value` of 0 or more
    (a draw is not a win) made 11 more scripted mirrors decisive of 200 but lost 24 to ``random``
    instead of 18; charging whenever the side had 1.25 times the enemy's points on the table lost
    21 of seeds 0 to 99 instead of 11."""
    return _lead(view, side) < 0 and turns - view["turn"] < LATE_TURNS


def ahead_at_the_end(view: dict[str, Any], side: str | None, turns: int) -> bool:
    """Whether ``side`` should keep its lead (ruling R37: at the turn limit the side that lost fewer
    points wins): it has lost fewer points than the enemy with :data:`LEAD_TURNS` turns left or
    fewer (this one counted). Standing still it wins unless the enemy comes and wins points back;
    a charge or an advance can only give the enemy the chance, so it makes neither.

    Measured (docs/agents.md, issue 22, 1,200 battles against ``random`` on each of two seed sets,
    with :data:`LATE_TURNS` 2 and the archers shooting for points): lost 154 and 176, against 170
    and 191 before."""
    return _lead(view, side) > 0 and turns - view["turn"] < LEAD_TURNS


def _lead(view: dict[str, Any], side: str | None) -> int:
    """The enemy's points lost less ``side``'s (R37's count): above 0, ``side`` is ahead."""
    lost = view["points_lost"]
    if side is None or side not in lost:
        return 0
    other = next(s for s in lost if s != side)
    return int(lost[other] - lost[side])
