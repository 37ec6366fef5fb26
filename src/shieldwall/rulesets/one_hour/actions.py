"""The order dispatcher of one-hour-dark-ages: which order may be given at which step of the play
sequence, and the handler that carries it out.

``apply_order`` looks the order up in ``ORDERS`` (the step table), checks the step and calls the
order's handler; ``state`` calls it for every order and calls the automatic steps (``melee_step``,
``routs_and_rallies``, ``initiative_roll``) through it too. The names the rules always had here
(``actions.plan_charge``, ``actions.shot_problem``, ...) are imported from the modules below.

The package's modules form layers; each imports only modules of the layers beneath it (imports
under ``if TYPE_CHECKING:`` aside), checked by ``scripts/import_cycles.py``:

1. ``game``: the game, its parameters and scenario; makes states.
2. ``state`` (the play sequence: asks the dispatcher and the menus), ``reach`` (the web page).
3. ``actions``: this dispatcher.
4. ``declared``: Declared Movement; gives its orders back through the ``apply_order`` it is
   passed (a callback, not an import of this module).
5. ``menus``: the legal-order menus, built with the handlers' own checks (``plan_*``, ``*_problem``).
6. The order handlers, independent of each other: ``act_hand_deploy`` (deployment by hand,
   ruling R50), ``act_deploy`` (choices after deployment),
   ``act_move`` (transfers, activation, moves,
   turning to face, Fall Back!), ``act_charge`` (charges), ``act_shoot`` (shooting, Moving Shots),
   ``act_melee`` (melee, routs and rallies, initiative).
7. ``morale``: Force Morale.
8. ``attacks``: what several handlers share: the melee attack, whether a unit may shoot, the end
   of a move (its Moving Shot).
9. ``act_common``: refusals, ownership checks, sight lines, turning limits.
10. The rule modules: ``scenario``, ``spatial``, ``combat``, ``orders``, ``clauses``, ``params``,
    ``model``, ``profiles``, ``plugin`` (none of them imports anything above).

Each handler cites the clause it implements; the events it logs carry the same clause id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
    check_turns,
    sight,
    terrain_clause,
    turns_allowed,
)
from shieldwall.rulesets.one_hour.act_deploy import fight_as
from shieldwall.rulesets.one_hour.act_hand_deploy import deploy
from shieldwall.rulesets.one_hour.act_melee import (
    fight,
    initiative_roll,
    melee_step,
    rally,
    routs_and_rallies,
)
from shieldwall.rulesets.one_hour.act_move import (
    activate,
    allied_must_roll,
    face,
    fall_back,
    fall_back_problem,
    hold,
    move,
    movement_dice,
    plan_face,
    plan_move,
    transfer,
)
from shieldwall.rulesets.one_hour.act_shoot import (
    moving_shot,
    shoot,
    shoot_order,
    skip,
)
from shieldwall.rulesets.one_hour.attacks import (
    after_move,
    melee_attack,
    moving_shot_targets,
    shot_problem,
)
from shieldwall.rulesets.one_hour.declared import fulfil

if TYPE_CHECKING:
    from collections.abc import Callable

    from shieldwall.rulesets.one_hour.state import OneHourState

#: the names this module has always had (the rules themselves live in the modules below)
__all__ = [
    "ORDERS",
    "RS",
    "SIGHT_MEMO_MAX",
    "_active",
    "_enemy",
    "_expect",
    "_own",
    "activate",
    "after_move",
    "allied_must_roll",
    "apply_order",
    "bad",
    "bad_from",
    "charge",
    "deploy",
    "charge_approach",
    "check_turns",
    "face",
    "fall_back",
    "fall_back_problem",
    "fight",
    "fight_as",
    "hold",
    "initiative_roll",
    "melee_attack",
    "melee_step",
    "move",
    "movement_dice",
    "moving_shot",
    "moving_shot_targets",
    "plan_charge",
    "plan_face",
    "plan_move",
    "rally",
    "routs_and_rallies",
    "shoot",
    "shoot_order",
    "shot_problem",
    "sight",
    "skip",
    "terrain_clause",
    "transfer",
    "turns_allowed",
]


def end(st: OneHourState, order: O.End) -> None:
    """``end``: the personalities' transfers, the Movement phase or the Shooting phase is over."""
    if st.step == "transfer":
        st.step = "activate"
    elif st.step == "activate":
        st.enter_phase("shooting")
    else:
        st.enter_phase("melee")


def activate_unit(st: OneHourState, order: O.Activate) -> None:
    """``activate``: the unit rolls its movement (``act_move.activate``); with Declared Movement its
    declared intent is then fulfilled (``declared.fulfil``), its orders given back through here."""
    if activate(st, order) and st.params["declared_movement"]:
        fulfil(st, st.unit(order.unit), order, apply_order)


#: each order: the steps of the play sequence at which it may be given, and its handler
ORDERS: dict[type[O.Order], tuple[tuple[str, ...], Callable[[OneHourState, Any], None]]] = {
    O.End: (("transfer", "activate", "shoot"), end),
    O.Transfer: (("transfer",), transfer),
    O.Activate: (("activate",), activate_unit),
    O.Face: (("activate",), face),
    O.FallBack: (("activate",), fall_back),
    O.Hold: (("move",), hold),
    O.Move: (("move",), move),
    O.Charge: (("move",), charge),
    O.MovingShot: (("move", "after-shot"), moving_shot),
    O.Skip: (("after-shot",), skip),
    O.Shoot: (("shoot",), shoot_order),
    O.Fight: (("melee",), fight),
    O.FightAs: (("fight-as",), fight_as),
    O.Deploy: (("deploy",), deploy),
}


def apply_order(st: OneHourState, order: O.Order) -> None:
    entry = ORDERS.get(type(order))
    if entry is None:
        raise bad("orders", f"unknown order {order!r}")
    steps, handler = entry
    _expect(st, steps, order)
    handler(st, order)
