"""What each one-hour-dark-ages order does, and the automatic steps (melee, routs, initiative).

``apply_order`` dispatches an order to the module of its part of the rules, each of which keeps
the names it always had here (``actions.plan_charge``, ``actions.shot_problem``, ...):

* ``act_common``: refusals (``bad``), ownership checks, memoised sight lines (``sight``);
* ``act_move``: personalities' transfers, activation, movement dice, turning, moves, turning to
  face in melee, Fall Back!;
* ``act_charge``: charges;
* ``act_shoot``: shooting and Moving Shots;
* ``act_melee``: melee, routs and rallies, initiative.

Each function cites the clause it implements; the events it logs carry the same clause id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shieldwall.rulesets.one_hour import orders as O
from shieldwall.rulesets.one_hour.act_charge import (
    charge,
    charge_approach,
    plan_charge,
)
from shieldwall.rulesets.one_hour.act_common import (
    RS,
    SIGHT_MEMO_MAX,
    _active,
    _enemy,
    _expect,
    _own,
    bad,
    bad_from,
    sight,
    terrain_clause,
)
from shieldwall.rulesets.one_hour.act_melee import (
    initiative_roll,
    melee_attack,
    melee_step,
    rally,
    routs_and_rallies,
)
from shieldwall.rulesets.one_hour.act_move import (
    _after_move,
    activate,
    allied_must_roll,
    check_turns,
    face,
    fall_back,
    fall_back_problem,
    move,
    movement_dice,
    plan_face,
    plan_move,
    transfer,
    turns_allowed,
)
from shieldwall.rulesets.one_hour.act_shoot import (
    shoot,
    shot_problem,
)

#: the names this module has always had (the rules themselves now live in the act_* modules)
__all__ = [
    "RS",
    "SIGHT_MEMO_MAX",
    "_active",
    "_after_move",
    "_enemy",
    "_expect",
    "_own",
    "activate",
    "allied_must_roll",
    "apply_order",
    "bad",
    "bad_from",
    "charge",
    "charge_approach",
    "check_turns",
    "face",
    "fall_back",
    "fall_back_problem",
    "initiative_roll",
    "melee_attack",
    "melee_step",
    "move",
    "movement_dice",
    "plan_charge",
    "plan_face",
    "plan_move",
    "rally",
    "routs_and_rallies",
    "shoot",
    "shot_problem",
    "sight",
    "terrain_clause",
    "transfer",
    "turns_allowed",
]

if TYPE_CHECKING:
    from shieldwall.rulesets.one_hour.state import OneHourState


def apply_order(st: OneHourState, order: O.Order) -> None:
    if isinstance(order, O.End):
        _expect(st, ("transfer", "activate", "shoot"), order)
        if st.step == "transfer":
            st.step = "activate"
        elif st.step == "activate":
            st.enter_phase("shooting")
        else:
            st.enter_phase("melee")
    elif isinstance(order, O.Transfer):
        _expect(st, ("transfer",), order)
        transfer(st, order)
    elif isinstance(order, O.Activate):
        _expect(st, ("activate",), order)
        activate(st, order)
    elif isinstance(order, O.Face):
        _expect(st, ("activate",), order)
        face(st, order)
    elif isinstance(order, O.FallBack):
        _expect(st, ("activate",), order)
        fall_back(st, order)
    elif isinstance(order, O.Hold):
        _expect(st, ("move",), order)
        _active(st, order.unit)
        st.log("hold", "movement", unit=order.unit)
        _after_move(st, st.unit(order.unit))
    elif isinstance(order, O.Move):
        _expect(st, ("move",), order)
        move(st, order)
    elif isinstance(order, O.Charge):
        _expect(st, ("move",), order)
        charge(st, order)
    elif isinstance(order, O.MovingShot):
        _expect(st, ("move", "after-shot"), order)
        u = _active(st, order.unit)
        if u.profile.missile != "javelin":
            raise bad("moving-shots", "only Units with javelins may perform a Moving Shot")
        if u.moving_shot:
            raise bad("moving-shots", f"{u.id} has already made its Moving Shot")
        shoot(st, u, _enemy(st, order.target), moving=True)
        if st.step == "after-shot":
            st.finish_activation()
    elif isinstance(order, O.Skip):
        _expect(st, ("after-shot",), order)
        _active(st, order.unit)
        st.finish_activation()
    elif isinstance(order, O.Shoot):
        _expect(st, ("shoot",), order)
        u = _own(st, order.unit)
        shoot(st, u, _enemy(st, order.target), moving=False)
    elif isinstance(order, O.Fight):
        _expect(st, ("melee",), order)
        u = _active(st, order.unit)
        targets = [e for e, f_mine, _ in st.touching(u) if f_mine == "front"]
        t = _enemy(st, order.target)
        if t not in targets:
            raise bad("melee.front-only", f"{t.id} is not in contact with {u.id}'s front facing")
        melee_attack(st, u, t)
        st.melee_queue.pop(0)
        st.active = None
    else:
        raise bad("orders", f"unknown order {order!r}")
