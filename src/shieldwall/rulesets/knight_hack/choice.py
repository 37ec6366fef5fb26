"""Whether a queued decision offers a choice, without building its whole menu (issue 16).

The turn engine passes over a decision whose menu is empty (:func:`.turn.advance`), so it asked
for every queued decision's menu only to see whether it was empty, and the bot asked for the
same menu again at once: a third of a search battle's time (its rollouts). For the two
decisions asked most, the answer is known before the menu is built:

* a unit's movement order (``unit``): none for a unit gone or in melee; otherwise its menu
  always holds the unit's first entry (``rout-on`` for a router, a move of 0 for a unit in
  good order or disordered); a hidden or rallying unit's menu is built, its entries checked;
* a charge declaration (``declare``): there is a choice as soon as one enemy it sees passes
  :func:`.geom.check_charge` (then ``hold`` and that charge are offered); a unit that must
  charge gets its whole menu (its only charge may be ruled out).

Every other decision, and the reference path (:mod:`shieldwall.core.reference`), builds the menu.
"""

from __future__ import annotations

from collections.abc import Callable

from shieldwall.rulesets.knight_hack.board import Ask, Board
from shieldwall.rulesets.knight_hack.phase_charge import chargeable, declare_menu
from shieldwall.rulesets.knight_hack.phase_move import unit_menu


def unit_has_choice(b: Board, ask: Ask) -> bool:
    """``bool(unit_menu(b, ask))``."""
    u = b.units[str(ask.unit)]
    if u.gone or b.in_melee(u.id):
        return False
    if u.hidden or u.status == "rallying":
        return bool(unit_menu(b, ask))
    return True


def declare_has_choice(b: Board, ask: Ask) -> bool:
    """``bool(declare_menu(b, ask))``."""
    u = b.units[str(ask.unit)]
    if u.must_charge:
        return bool(declare_menu(b, ask))
    return next(chargeable(b, u), None) is not None


#: decision kind -> whether it offers a choice (the kinds not here: their menu, built)
CHOICE: dict[str, Callable[[Board, Ask], bool]] = {
    "unit": unit_has_choice,
    "declare": declare_has_choice,
}
