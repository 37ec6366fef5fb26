"""The turn sequence (``knight-hack:turn.sequence``): the stages of a turn, what each asks, and the
dispatcher from an order to the handler of the pending decision.

A stage's ``enter`` runs the automatic part (rolls, moves) and queues decisions; a queued decision
whose menu is empty (nothing to choose: the rules' default applies) is passed over. When the queue
is empty the next stage is entered; after the rally phase the next turn begins.
"""

from __future__ import annotations

from collections.abc import Callable

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.reference import REFERENCE
from shieldwall.rulesets.knight_hack import deploy as dp
from shieldwall.rulesets.knight_hack import phase_charge as pc
from shieldwall.rulesets.knight_hack import phase_melee as pm
from shieldwall.rulesets.knight_hack import phase_move as pv
from shieldwall.rulesets.knight_hack.board import Ask, Board
from shieldwall.rulesets.knight_hack.choice import CHOICE
from shieldwall.rulesets.knight_hack.clauses import rule
from shieldwall.rulesets.knight_hack.orders import ANSWERS, Order

STAGES: tuple[tuple[str, Callable[[Board], None]], ...] = (
    ("declare", pc.enter_declare),
    ("respond", pc.enter_respond),
    ("fire", pc.enter_fire),
    ("charges", pc.enter_charges),
    ("movement", pv.enter_initiative),
    ("melee", pm.enter_melee),
    ("rally", pm.enter_rally),
)

MENUS: dict[str, Callable[[Board, Ask], list[Order]]] = {
    "deploy": dp.menu,
    "declare": pc.declare_menu,
    "respond": pc.respond_menu,
    "fire-order": pc.fire_order_menu,
    "fire": pc.fire_menu,
    "move-order": pv.move_order_menu,
    "unit": pv.unit_menu,
    "melee": pm.melee_menu,
}

HANDLERS: dict[str, Callable[[Board, Ask, Order], None]] = {
    "deploy": dp.handle_deploy,
    "declare": pc.handle_declare,
    "respond": pc.handle_respond,
    "fire-order": pc.handle_fire_order,
    "fire": pc.handle_fire,
    "move-order": pv.handle_move_order,
    "unit": pv.handle_unit,
    "melee": pm.handle_melee,
}

PROMPTS = {
    "deploy": "place {unit} within your deployment zone",
    "declare": "declare {unit}'s charge (sealed until both sides have declared)",
    "respond": "{unit} is charged: stand, evade, keep or redirect its charge",
    "fire-order": "you won the roll-off: shoot first or let the enemy shoot first",
    "fire": "{unit} may shoot",
    "move-order": "you won the initiative: move first or second",
    "unit": "order {unit} for the movement phase",
    "melee": "choose the next melee to fight",
}


def advance(b: Board) -> None:
    """Run automatic stages until a decision with a choice is pending or the battle is over."""
    while b.result is None:
        while b.queue:
            if has_choice(b, b.queue[0]):
                return
            b.queue.pop(0)
        if b.result is not None:
            return
        b.stage += 1
        if b.stage == len(STAGES):
            b.stage, b.turn = 0, b.turn + 1
        STAGES[b.stage][1](b)


def has_choice(b: Board, ask: Ask) -> bool:
    """Whether ``ask``'s menu is not empty: for the kinds :mod:`.choice` knows, without building
    it; otherwise, and on the reference path (``core.reference``), by building it."""
    quick = CHOICE.get(ask.kind)
    if quick is None or REFERENCE.on:
        return bool(MENUS[ask.kind](b, ask))
    return quick(b, ask)


def apply(b: Board, o: Order) -> None:
    """Apply ``o`` to the pending decision (the handler checks before it changes anything)."""
    if b.result is not None or not b.queue:
        raise IllegalOrder(rule("turn.sequence"), "the battle is over")
    ask = b.queue[0]
    if ANSWERS.get(o.kind) != ask.kind:
        raise IllegalOrder(rule("turn.sequence"), f"{o} does not answer the pending decision ({ask.kind})")
    if ask.unit is not None and o.unit != ask.unit:
        raise IllegalOrder(rule("turn.sequence"), f"the pending decision is about {ask.unit}, not {o.unit}")
    HANDLERS[ask.kind](b, ask, o)
    b.queue.pop(0)
    advance(b)
