"""The melee phase and the rally phase (Clarifications 1, 3 and 4).

Each melee is fought up to three rounds this turn (``knight-hack:melee.rounds``): both units roll
one d100 at once (R16), the one inflicting more wins the round and the loser tests to fight on
(``knight-hack:melee.loser-fights-on``); the side that won the movement initiative chooses the
order of the melees (``knight-hack:melee.order``). The rally phase ends the turn (R1).
"""

from __future__ import annotations

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.game import Result
from shieldwall.rulesets.knight_hack.board import Ask, Board, Melee, Unit
from shieldwall.rulesets.knight_hack.clauses import rule
from shieldwall.rulesets.knight_hack.factors import MeleeConditions, Target, melee_target
from shieldwall.rulesets.knight_hack.melee import ROUNDS_PER_TURN, MeleeRound, round_winner
from shieldwall.rulesets.knight_hack.orders import Order
from shieldwall.rulesets.knight_hack.outcomes import apply_fail, take_test


def enter_melee(b: Board) -> None:
    b.phase = "melee"
    for m in b.melees:
        m.fought = False
    _next(b)


def _next(b: Board) -> None:
    left = [m for m in b.melees if not m.fought]
    while len(left) == 1:
        fight(b, left[0])
        left = [m for m in b.melees if not m.fought]
    if left:
        b.queue.append(Ask(b.initiative or b.sides[0], "melee"))


def melee_menu(b: Board, ask: Ask) -> list[Order]:
    return [Order("fight", m.a, m.b) for m in b.melees if not m.fought]


def handle_melee(b: Board, ask: Ask, o: Order) -> None:
    pick = [m for m in b.melees if not m.fought and {m.a, m.b} == {o.unit, o.target}]
    if not pick:
        raise IllegalOrder(rule("melee.order"), f"no melee of {o.unit} and {o.target} is left to fight")
    b.log("melee-chosen", "melee.order", ask.side, a=pick[0].a, b=pick[0].b)
    fight(b, pick[0])
    _next(b)


def _target(b: Board, m: Melee, u: Unit, t: Unit, rnd: int) -> Target:
    faces = m.faces(u.id)
    ranks_w = max((b.tables.weapons[w].ranks_fighting for w in u.weapons), default=1)
    cond = MeleeConditions(
        flank=faces in ("left", "right"),
        rear=faces == "rear",
        disordered=u.status == "disordered",
        target_disordered=t.status == "disordered",
        charging_first_round=(m.charger == u.id or m.both_charged) and rnd == 1,
        fanatic=u.fanatic,
        leader=u.leader,
        extra_ranks=max(0, min(u.ranks, ranks_w) - 1),
    )
    return melee_target(b.tables, u.fighter(), t.fighter(), cond)


def _terms(t: Target) -> list[dict[str, object]]:
    return [{"source": x.source, "value": x.value, "note": x.note} for x in t.terms]


def fight(b: Board, m: Melee) -> None:
    """Up to three rounds of this melee this turn."""
    m.fought = True
    a, d = b.units[m.a], b.units[m.b]
    auto = b.params["auto_casualties"]
    for rnd in range(1, ROUNDS_PER_TURN + 1):
        ta, td = _target(b, m, a, d, rnd), _target(b, m, d, a, rnd)
        mr = MeleeRound(
            ta.situation(d.figures, auto),
            td.situation(a.figures, auto),
            a_rear_open=m.a_faces == "rear" and b.tables.types[d.type].formation == "open",
            b_rear_open=m.b_faces == "rear" and b.tables.types[a.type].formation == "open",
        )
        ra, rd, on_d, on_a = mr.roll(b.rng)
        b.log(
            "melee-round",
            "melee.rounds",
            None,
            round=rnd,
            units=[a.id, d.id],
            faces=[ra, rd],
            targets=[ta.value, td.value],
            automatic=[ta.automatic, td.automatic],
            thresholds=[list(mr.a_roll.thresholds()), list(mr.b_roll.thresholds())],
            terms=[_terms(ta), _terms(td)],
            casualties=[on_d, on_a],
            rear_open=[mr.a_rear_open, mr.b_rear_open],
        )
        d.figures -= on_d
        a.figures -= on_a
        gone = False
        for u in (a, d):
            if u.figures <= 0:
                b.remove(
                    u,
                    "no figures left",
                    "charge.rear-open"
                    if u is d and mr.a_rear_open or u is a and mr.b_rear_open
                    else "casualties.whole-figures",
                )
                gone = True
        if gone:
            for u in (a, d):
                if not u.gone:
                    _victor(b, u)
            return
        w = round_winner(on_d, on_a)
        if w == "draw":
            b.log("melee-draw", "melee.rounds", None, units=[a.id, d.id], round=rnd)
            return
        loser, winner = (d, a) if w == "a" else (a, d)
        b.log("round-won", "melee.rounds", winner.side, unit=winner.id, loser=loser.id, round=rnd)
        if not take_test(b, loser, "melee-loser", "melee.loser-fights-on"):
            apply_fail(b, loser, "melee-loser", "melee.loser-fights-on")
            if not b.in_melee(winner.id):
                _victor(b, winner)
            return
    b.log("melee-continues", "melee.rounds", None, units=[a.id, d.id])


def _victor(b: Board, u: Unit) -> None:
    """A victor with no enemy left in contact rallies (it pursues no one, R22)."""
    if b.in_melee(u.id) or u.status == "routed":
        return
    u.status, u.good_from = "rallying", (b.turn + 2, "movement")
    b.log("rallying", "rally.pursuers", u.side, unit=u.id, cause="pursued", good_from=list(u.good_from))


# --- the rally phase and the end of the turn --------------------------------------------------------


def enter_rally(b: Board) -> None:
    b.phase = "rally"
    for m in b.melees:
        m.charger = None
    for u in b.live():
        if u.status == "rallying" and u.rallied_by(b.turn, "end"):
            u.status, u.good_from = "good", None
            b.log("rallied", "rally.who", u.side, unit=u.id)
        elif u.status == "disordered" and not b.in_melee(u.id):
            u.status = "good"
            b.log("rallied", "charge.disorder-on-contact", u.side, unit=u.id)
    _check_end(b)


def _check_end(b: Board) -> None:
    """The scenario rule: a side that has lost half its points loses; at the turn limit, the side
    that lost fewer points wins (R37)."""
    lost = {s: b.points_lost(s) for s in b.sides}
    total = {
        s: sum(b.points(u) for u in b.units.values() if u.side == s and not u.held_back) for s in b.sides
    }
    broken = [s for s in b.sides if 2 * lost[s] >= total[s]]
    if broken:
        winner = b.other(broken[0]) if len(broken) == 1 else None
        reason = f"{' and '.join(broken)} lost half {'their' if len(broken) > 1 else 'its'} points"
    elif b.turn >= b.params["turns"]:
        a, c = b.sides
        winner = a if lost[a] < lost[c] else c if lost[c] < lost[a] else None
        reason = f"the turn limit ({b.params['turns']}); points lost {lost[a]} to {lost[c]}"
    else:
        return
    b.result = Result(winner, reason, b.turn, units_lost(b))
    b.log("result", "turn.sequence", None, winner=winner, reason=reason, points_lost=lost)


def units_lost(b: Board) -> dict[str, dict[str, int]]:
    """The units each side lost, by troop type (``Result.losses``, ruling R55): as R37 counts a
    lost unit, one removed (destroyed, failed its rout test, left the table routing) or still
    routing, never one held back (R51). The figures lost are not units: each unit's view gives its
    own (``hits``) and the result event the points they cost (``points_lost``)."""
    losses: dict[str, dict[str, int]] = {s: {} for s in b.sides}
    for u in b.units.values():
        if u.lost:
            losses[u.side][u.type] = losses[u.side].get(u.type, 0) + 1
    return losses
