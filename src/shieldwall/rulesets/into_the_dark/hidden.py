"""Determinization of a concealed deployment (the plugin's ``determinize`` hook, used by the search bot).

While the armies go down as face-down cards (concealed-deployment.playing-cards, with the side's
dummy cards: concealed-deployment.dummies), a side sees where each of the other side's cards lies
(all of one size, ruling 70) and in which stage it went down (foot, dummies included, or mounted:
the ``deploy-roll`` events say so), not what lies under it. :func:`determinize` returns a copy of
the battle in which the other sides' cards are dealt again: in each stage, the cards of that stage
take a random choice of the side's items of that stage (its units not yet revealed, and with the
foot its dummy cards), preferring an assignment in which every unit may stand where its card lies
(``terrain_effect``: deep water is never a place to deploy); the items that get no card are those
still waiting to be placed. The side's own cards, and everything after the reveal, stay as they are.

What it reads of the truth: only which stage each card went down in, the card's front edge and the
side's items, all of which the viewer knows; the draw comes from ``rng`` alone, so two battles that
differ only in what lies under the other side's cards give the same determinized battle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from shieldwall.core.geometry import heading_vector

from .act_deploy import dummy_ids, footprint_of
from .model import SIDES
from .movement import terrain_effect

if TYPE_CHECKING:
    from shieldwall.core.game import State

    from .state import IntoTheDarkState

#: passes of the random deal that look for an assignment in which every unit may stand on its card
DEALS = 8


def _stage(st: IntoTheDarkState, card: dict[str, Any]) -> str:
    """The stage a card went down in (the viewer knows it: foot, dummies included, then mounted)."""
    if card["dummy"] is not None:
        return "foot"
    return "mounted" if st.units[card["unit"]].mounted else "foot"


def _front(card: dict[str, Any]) -> tuple[float, float, float]:
    """The card's front edge centre and heading: the place the deploy order named."""
    cx, cy, heading, _, depth = card["fp"]
    fx, fy = heading_vector(heading)
    return cx + fx * depth / 2.0, cy + fy * depth / 2.0, heading


def _fits(st: IntoTheDarkState, item: str, at: tuple[float, float, float]) -> bool:
    if item not in st.units:
        return True  # a dummy card goes anywhere a card may
    factor, _, _ = terrain_effect(st.units[item], footprint_of(st, item, *at), st.terrain, swim=False)
    return factor is not None


def _deal(
    st: IntoTheDarkState, places: list[tuple[float, float, float]], items: list[str], rng: np.random.Generator
) -> list[str]:
    """Items for the places, in order: a random deal, the first of ``DEALS`` in which every unit
    fits its place (else the last one dealt)."""
    chosen: list[str] = []
    for _ in range(DEALS):
        order = [items[int(i)] for i in rng.permutation(len(items))]
        chosen, fits = [], True
        for at in places:
            k = next((j for j, it in enumerate(order) if _fits(st, it, at)), None)
            if k is None:
                fits, k = False, 0
            chosen.append(order.pop(k))
        if fits:
            break
    return chosen


def determinize(state: State, side: str, rng: np.random.Generator) -> State:
    """A copy of ``state`` with the other sides' face-down cards dealt again (module docstring)."""
    st: IntoTheDarkState = state.copy()  # type: ignore[assignment]
    if not st.cards:
        return st
    start = {u.id: u for u in st.game.initial_units}
    for owner in SIDES:
        if owner == side:
            continue
        for stage in ("foot", "mounted"):
            keys = [k for k, c in st.cards.items() if c["side"] == owner and _stage(st, c) == stage]
            if not keys:
                continue
            items = sorted(
                u.id
                for u in st.units.values()
                if u.side == owner and not u.gone and u.mounted == (stage == "mounted")
            )
            if stage == "foot":
                items += dummy_ids(st, owner)
            places = [_front(st.cards[k]) for k in keys]
            dealt = _deal(st, places, items, rng)
            for uid in items:  # every unit of the stage waits to be placed, until dealt a card
                if uid in st.units:
                    u, first = st.units[uid], start[uid]
                    u.x, u.y, u.heading, u.deployed = first.x, first.y, first.heading, False
            for k, at, item in zip(keys, places, dealt, strict=True):
                card = st.cards[k]
                fp = footprint_of(st, item, *at)
                card["fp"] = (fp.x, fp.y, fp.heading, fp.frontage, fp.depth)
                card["unit"], card["dummy"] = (item, None) if item in st.units else (None, item)
                if item in st.units:
                    u = st.units[item]
                    u.x, u.y, u.heading, u.deployed = at[0], at[1], at[2], True
    return st
