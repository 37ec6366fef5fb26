"""Generals in play (command.*, Command & Control): whether the optional rules are on, the general
of a unit's division, whether a unit is free of preferences and orders, the rating of a general
leading it, and what its division's orders allow when it is charged. Read-only: the command
actions, new orders and declarations that change ``st.generals`` are ``act_command`` and
``act_generals``; what a unit under orders may do in its own Movement phase is ``act_obey``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .model import Unit

if TYPE_CHECKING:
    from .state import IntoTheDarkState


def on(st: IntoTheDarkState) -> bool:
    return bool(st.params["command_and_control"])


def general_of(st: IntoTheDarkState, u: Unit) -> dict[str, Any] | None:
    for g in st.generals.values():
        if g["side"] == u.side and g["division"] == u.spec.division:
            return g
    return None


def key_of_figure(st: IntoTheDarkState, u: Unit) -> str | None:
    """The key (``red-g1``) of the general whose figure ``u`` is, or None."""
    for k, g in st.generals.items():
        if g.get("figure") == u.id:
            return k
    return None


def figure(st: IntoTheDarkState, g: dict[str, Any]) -> Unit | None:
    """A general's own figure (command.generals)."""
    # into-the-dark:command.generals.figure
    return st.units.get(g.get("figure") or "")


def fall(st: IntoTheDarkState, name: str, how: str) -> None:
    """ "A general is removed after taking a single hit" (command.generals): he no longer leads,
    has no command actions and gives or receives no new orders; his figure is removed."""
    # into-the-dark:command.generals.caught-alone
    g = st.generals[name]
    if g.get("fallen"):
        return
    g["fallen"] = True
    g["leading"] = False
    g["actions"] = 0
    g["next_orders"] = None
    f = figure(st, g)
    if f is not None and not f.destroyed:
        f.figures = 0
        f.destroyed = True
    st.log("general-falls", "command.generals", side=g["side"], general=name, unit=g["with"], how=how)


def figure_falls(st: IntoTheDarkState, u: Unit, how: str) -> None:
    """The general whose figure ``u`` is has been hit on his own (command.generals)."""
    # into-the-dark:command.generals.caught-alone
    k = key_of_figure(st, u)
    if k is not None:
        fall(st, k, how)


def free(st: IntoTheDarkState, u: Unit) -> bool:
    """Free of preferences and orders: led by a general who has joined it, or ordered this turn. A
    general's own figure obeys no orders but his own (command.generals)."""
    if not on(st) or u.general:
        return True
    g = general_of(st, u)
    if g is None:
        return True
    return (g["leading"] and g["with"] == u.id) or u.id in g["commanded"]


def leading_rating(st: IntoTheDarkState, u: Unit) -> int:
    """The rating of a general who has joined and leads ``u`` (command.general-leading), else 0."""
    if not on(st):
        return 0
    for g in st.generals.values():
        if g["leading"] and g["with"] == u.id and g["side"] == u.side:
            return int(g["rating"])
    return 0


def unit_orders_of(st: IntoTheDarkState, u: Unit) -> str:
    g = general_of(st, u)
    return str(g["orders"]) if g is not None else "attack"


def reaction_allowed(st: IntoTheDarkState, t: Unit, charger: Unit, reaction: str) -> bool:
    """Orders and preferences when charged (command.orders, command.combat-preferences)."""
    # into-the-dark:command.orders.reactions
    if free(st, t):
        return True
    orders = unit_orders_of(st, t)
    if orders == "fall-back":
        if t.has_missiles and t.spec.type == "missile":
            return reaction == "evade"  # "Missile troops must evade."
        return not reaction.startswith("countercharge")
    if orders == "hold" and not t.mounted:
        return not reaction.startswith("countercharge")  # "Foot will not counter charge unless ordered to."
    if orders == "attack" and t.spec.type != "missile":
        # "Both mounted and foot will counter charge if charged ... (foot will hold if charged by mounted)"
        if not t.mounted and charger.mounted:
            return reaction == "stand"
        return reaction.startswith("countercharge") or reaction == "evade"
    return True
