"""The steps of the turn the engine takes by itself (turn-sequence.sequence-of-play): rallies
(turn-sequence.rallys, combat.rallying), initiative (turn-sequence.initiative), the phases in order,
the end of a turn and of the battle (turn-sequence.end-of-battle), and the task table.

One of the three dispatch modules (with ``actions`` and ``menus``; the layers are listed in
``actions``): ``run_task`` hands each queued step to its ``act_*`` handler.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from shieldwall.core.errors import IllegalOrder

from . import (
    act_charge,
    act_combat,
    act_command,
    act_contact,
    act_deploy,
    act_generals,
    act_maneuver,
    act_morale,
    act_retreat,
    act_tests,
    act_zoc,
)
from . import orders as O
from .act_rally import rally_auto, rally_choice, rally_router, rout_again
from .charge_plan import plan_charge
from .clauses import cite
from .model import SIDES, other
from .movement import Problem, max_straight, trace
from .moves import about_cost, act_problem, angle_to, apply_trace, base_allowance
from .points import unit_points
from .shooting import has_target

if TYPE_CHECKING:
    from .state import IntoTheDarkState


def bad(clause: str, reason: str) -> IllegalOrder:
    return IllegalOrder(cite(clause), reason)


# --- initiative --------------------------------------------------------------------------------


def initiative(st: IntoTheDarkState) -> None:
    """ "At the beginning of each turn both sides roll dice, the winner decides if he wishes to keep
    or pass the initiative to his opponent ... The winner of last turn's initiative roll receives a -1
    to his roll for each consecutive turn he won the initiative." Ties are rolled again (docs/rulings)."""
    # into-the-dark:turn-sequence.initiative.consecutive
    st.phase = "initiative"
    holder, count = st.streak
    while True:
        faces = st.roll_d6(2)
        mods = {s: (-count if s == holder else 0) for s in SIDES}
        totals = {s: faces[i] + mods[s] for i, s in enumerate(SIDES)}
        winner = None if totals["red"] == totals["blue"] else max(SIDES, key=lambda s: totals[s])
        st.log(
            "initiative-roll",
            "turn-sequence.initiative",
            die="d6",
            faces={s: faces[i] for i, s in enumerate(SIDES)},
            modifiers=mods,
            totals=totals,
            winner=winner,
            consecutive={"side": holder, "wins": count},
        )
        if winner is not None:
            break
    st.streak = (winner, count + 1 if winner == holder else 1)
    st.ask("initiative", winner)


# --- movement phase ----------------------------------------------------------------------------


def move_phase(st: IntoTheDarkState, side: str) -> None:
    if st.phase != "movement" or st.__dict__.get("mover") != side:
        st.phase = "movement"
        st.__dict__["mover"] = side
        st.log("phase", "turn-sequence.movement", side=side, phase_name="movement")
    for u in st.live(side):
        if u.pursuing and not u.acted and not u.routed:
            st.push(("fanatic-pursuit", u.id), ("move-phase", side))
            return
    if any(act_problem(st, u) is None for u in st.live(side)):
        st.ask("movement", side)


def fanatic_pursuit(st: IntoTheDarkState, uid: str) -> None:
    """Task: "A fanatic unit must successfully rally during rally phase to stop chasing after a routed
    unit": in its Movement phase it chases its quarry - a wheel towards it and a straight run, a charge
    if it reaches it (docs/rulings)."""
    u = st.units[uid]
    u.acted = True
    q = st.units.get(u.pursuing or "")
    if q is None or not q.on_table or not q.routed:
        st.log(
            "pursuit-ends",
            "combat.pursuit",
            side=u.side,
            unit=uid,
            reason="the quarry is no longer routing on the table",
        )
        u.pursuing = None
        return
    if st.in_melee(u):
        st.log("pursuit-ends", "combat.pursuit", side=u.side, unit=uid, reason="in melee")
        u.pursuing = None
        return
    ang = angle_to(u, q.fp.centre)
    ang = max(-90.0, min(90.0, round(ang, 2)))
    steps: tuple[O.Step, ...] = (O.Wheel(ang),) if abs(ang) > 0.5 else ()
    world = st.world()
    limit = base_allowance(st, u)
    try:
        plan = plan_charge(u, q, steps, world, about_cost=about_cost(st, u))
        if plan.cost <= limit + 1e-6:
            st.log(
                "pursuit-charge",
                "combat.pursuit",
                side=u.side,
                unit=uid,
                target=q.id,
                steps=[s.text() for s in steps],
            )
            st.charge = {
                "c": u.id,
                "t": q.id,
                "steps": [s.text() for s in steps],
                "impetuous": False,
                "zoc": False,
                "opportunity": False,
                "limit": limit,
                "edge": plan.edge,
                "run": plan.run,
                "reaction": "none",
                "fled": None,
                "stopped": False,
                "start": (u.x, u.y, u.heading),
                "t_start": [list(x) for x in q.fp.corners()],
            }
            st.push(("charge-move",))
            return
    except Problem:
        pass
    try:
        tr = trace(u, steps, world) if steps else None
    except Problem:
        tr = None
        steps = ()
    start = tr.fp if tr is not None else u.fp
    spent = tr.cost if tr is not None else 0.0
    d, tr2 = max_straight(u, start, max(0.0, limit - spent), world, budget=max(0.0, limit - spent))
    if tr is not None:
        apply_trace(st, u, tr, "combat.pursuit")
    if tr2 is not None:
        apply_trace(st, u, tr2, "combat.pursuit")
    st.log("fanatic-pursuit", "combat.pursuit", side=u.side, unit=uid, quarry=q.id, distance=round(d, 3))


# --- fire phase --------------------------------------------------------------------------------


def fire_choice(st: IntoTheDarkState, side: str) -> None:
    if st.phase != "fire":
        st.phase = "fire"
        st.log("phase", "turn-sequence.combat", phase_name="missile fire")
    ordered = {uid for uid, _ in st.fire_orders}
    if any(u.id not in ordered and has_target(st, u) for u in st.live(side)):
        st.ask("fire", side)


def fire_resolve(st: IntoTheDarkState) -> None:
    for uid, _ in st.fire_orders:
        st.units[uid].fired = True
    act_combat.fire_resolve(st)


def melee(st: IntoTheDarkState) -> None:
    st.log("phase", "turn-sequence.combat", phase_name="melee")
    act_combat.melee_phase(st)
    st.declared = {}


def morale_phase(st: IntoTheDarkState) -> None:
    st.phase = "morale"
    st.log("phase", "turn-sequence.morale", phase_name="morale tests")
    st.push(("morale-missile",), ("morale-melee",), ("friends-tests",))


# --- turns -------------------------------------------------------------------------------------


def turn_start(st: IntoTheDarkState) -> None:
    st.phase = "rally"
    for u in st.units.values():
        u.reset_turn()
    st.fire_orders = []
    st.fire_received = {}
    st.melee = {}
    st.routed_turn = []
    st.destroyed_turn = []
    st.tested = set()
    st.driven = {}
    st.log("turn", "turn-sequence.sequence-of-play", number=st.turn)
    first = st.last_first or "red"
    act_command.turn_start(st)
    st.push(
        ("rally-auto",),
        ("rally", first),
        ("rally", other(first)),
        ("orders", first),
        ("orders", other(first)),
        ("initiative",),
    )


def turn_end(st: IntoTheDarkState) -> None:
    for u in st.live():
        if u.fought:
            u.extra["fought_turn"] = st.turn  # maneuvers.break-off: "a round of melee ... the previous turn"
        if u.extra.get("warband_turn") == st.turn and u.fought and not u.disordered:
            u.disordered = True
            u.shieldwall = False
            st.log(
                "disordered",
                "special-troops.warbands",
                side=u.side,
                unit=u.id,
                reason="a warband that charged impetuously and fought",
            )
        if u.rally_disorder and u.disordered:
            if u.moved or u.fired or u.fought:
                st.log(
                    "reorder-failed",
                    "combat.rallying",
                    side=u.side,
                    unit=u.id,
                    reason="it was forced to move, fire or fight",
                )
            else:
                u.disordered = False
                st.log("reordered", "combat.rallying", side=u.side, unit=u.id)
    st.last_first = st.first
    if check_end(st):
        return
    if st.turn >= st.max_turns:
        finish_on_time(st)
        return
    st.turn += 1
    st.push(("turn-start",))


def check_end(st: IntoTheDarkState) -> bool:
    """The text gives no victory conditions (turn-sequence.end-of-battle, docs/rulings): an army with
    no unit left on the table that is not routing has been driven from the field."""
    formed = {s: any(not u.routed and not u.general for u in st.live(s)) for s in SIDES}
    names = st.game.side_names
    if not formed["red"] and not formed["blue"]:
        st.finish(None, "neither army has a formed unit left on the table")
        return True
    for s in SIDES:
        if not formed[s]:
            st.finish(other(s), f"{names[s]} ({s}) has no formed unit left on the table")
            return True
    return False


#: Said in every turn-limit result (the reason the CLI, the narration and the web's result event show):
#: the text gives no victory conditions, so the count is this engine's, not Into the Dark's (ruling 39).
ENGINE_RULE = (
    "decided by the engine's own count, not by the rules (Into the Dark gives no victory conditions)"
)


def finish_on_time(st: IntoTheDarkState) -> None:
    """At the scenario's turn limit, the side that has lost the smaller share of its points (units
    destroyed, gone or routing) wins; with equal shares, the side whose units still in the field have
    lost the smaller share of its points in casualties (each unit's cost pro rata to the figures it
    has lost); equal again is a draw (turn-sequence.end-of-battle, docs/rulings)."""
    share = {}
    for s in SIDES:
        loss = st.losses(s)
        share[s] = loss["points_lost"] / loss["points"] if loss["points"] else 0.0
    if abs(share["red"] - share["blue"]) < 1e-9:
        worn = casualty_shares(st)
        if abs(worn["red"] - worn["blue"]) < 1e-9:
            st.finish(
                None,
                f"turn limit ({st.max_turns}) reached; {ENGINE_RULE}: equal losses ({share['red']:.0%} each) "
                "and equal casualties",
            )
            return
        w = "red" if worn["red"] < worn["blue"] else "blue"
        st.finish(
            w,
            f"turn limit ({st.max_turns}) reached; {ENGINE_RULE}: equal losses ({share['red']:.0%} each); "
            f"casualties cost red {worn['red']:.1%}, blue {worn['blue']:.1%} of their points",
        )
        return
    w = "red" if share["red"] < share["blue"] else "blue"
    st.finish(
        w,
        f"turn limit ({st.max_turns}) reached; {ENGINE_RULE}: share of points lost "
        f"red {share['red']:.0%}, blue {share['blue']:.0%}",
    )


def casualty_shares(st: IntoTheDarkState) -> dict[str, float]:
    """Each side's casualties among its units still in the field (not gone, not routing), as a share
    of its points: a unit's cost times the share of its figures lost."""
    out = {}
    for s in SIDES:
        total = 0.0
        worn = 0.0
        for u in st.units.values():
            if u.side != s or u.general:
                continue
            pts = float(unit_points(u.spec))
            total += pts
            if u.on_table and not u.routed and u.original:
                worn += pts * (u.original - u.figures) / u.original
        out[s] = worn / total if total else 0.0
    return out


# --- the task table ------------------------------------------------------------------------------


_TASKS: dict[str, Callable[..., None]] = {
    "turn-start": turn_start,
    "rally-auto": rally_auto,
    "rally-router": rally_router,
    "rout-again": rout_again,
    "rally": rally_choice,
    "initiative": initiative,
    "move-phase": move_phase,
    "fanatic-pursuit": fanatic_pursuit,
    "zoc": act_zoc.zoc,
    "opportunity": act_zoc.opportunity,
    "charge-react": act_charge.charge_react,
    "charge-tests": act_charge.charge_tests,
    "charge-move": act_contact.charge_move,
    "charge-chase": act_contact.chase_move,
    "fire": fire_choice,
    "fire-resolve": fire_resolve,
    "melee": melee,
    "declare": act_generals.choice,
    "morale": morale_phase,
    "morale-missile": act_morale.morale_missile,
    "morale-melee": act_morale.morale_melee,
    "tests-in-contact": act_morale.tests_in_contact,
    "pursuits": act_morale.pursuits,
    "ask-pursue": act_morale.ask_pursue,
    "pursue": act_morale.pursue,
    "friends-tests": act_morale.friends_tests,
    "test": act_tests.run_test,
    "driven-back": act_retreat.driven_back,
    "rout-start": act_retreat.rout_start,
    "rout-move": act_retreat.rout_move,
    "turn-end": turn_end,
    "deploy-roll": act_deploy.roll_off,
    "orders": act_command.orders_choice,
    "deploy-next": act_deploy.deploy_next,
    "breakoff-pursue": act_maneuver.breakoff_pursue,
    "breakoff-pursued": act_maneuver.breakoff_pursued,
}


#: the tasks that begin a phase after the two Movement phases (``actions._initiative_order``'s
#: sequence): where a look ahead made in a Movement phase stops (``IntoTheDarkState.probe``)
AFTER_MOVEMENT = frozenset({"fire", "fire-resolve", "declare", "melee", "morale", "turn-end"})


def run_task(st: IntoTheDarkState, task: tuple[Any, ...]) -> None:
    _TASKS[task[0]](st, *task[1:])
