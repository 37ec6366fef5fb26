"""Determinization of hidden ambushers (the plugin's ``determinize`` hook, used by the search bot).

A unit lying hidden in ambush (the ambush rules: rulings R26 and R49) is not seen by
the other side: it knows the ambusher's side has such a unit (the order of battle), not where it
lies nor which way it faces. :func:`determinize` returns a copy of the battle in which every
ambusher hidden from ``side`` lies somewhere else: a random place on its own half of the table
(between its home edge and the centre line), facing one of the four edges, wholly on the table and
clear of every unit ``side`` sees and of the ambushers placed before it (in the order of their ids).
A hidden unit never moves until it springs (R49), so the place is all there is to resample. The
viewer's memory is not used: an enemy move that crossed the place without meeting anyone is not
taken to rule it out (a simplification of what "consistent with the view" could mean).

The draw comes from ``rng`` alone and measures only against the units ``side`` sees, so two battles
that differ only in where the ambushers lie give the same determinized battle. If no clear place
turns up in ``TRIES`` draws, the ambusher stands on the last place drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from shieldwall.core.geometry import CONTACT_TOL, Footprint
from shieldwall.core.polygons import convex_penetration

if TYPE_CHECKING:
    from shieldwall.core.game import State

    from .board import Board, Unit
    from .state import KnightHackState

#: draws of a place before the last one is kept
TRIES = 64
HEADINGS = (0.0, 90.0, 180.0, 270.0)


def _on_table(b: Board, fp: Footprint) -> bool:
    return all(0.0 <= x <= b.width and 0.0 <= y <= b.depth for x, y in fp.corners())


def _clear(fp: Footprint, others: list[Footprint]) -> bool:
    mine = fp.corners()
    return all(convex_penetration(mine, o.corners()) <= CONTACT_TOL for o in others)


def _place(b: Board, u: Unit, others: list[Footprint], rng: np.random.Generator) -> None:
    """Stand ``u`` on a random clear place on its own half of the table."""
    half = b.depth / 2.0
    low, high = (0.0, half) if b.edges[u.side] == "south" else (half, b.depth)
    for _ in range(TRIES):
        u.x = float(rng.uniform(0.0, b.width))
        u.y = float(rng.uniform(low, high))
        u.heading = HEADINGS[int(rng.integers(len(HEADINGS)))]
        fp = u.footprint()
        if _on_table(b, fp) and _clear(fp, others):
            return


def determinize(state: State, side: str, rng: np.random.Generator) -> State:
    """A copy of ``state`` with the ambushers hidden from ``side`` placed anew (module docstring)."""
    st: KnightHackState = state.copy()  # type: ignore[assignment]
    b = st.board
    hidden = sorted((u for u in b.units.values() if u.unseen_by(side) and not u.gone), key=lambda u: u.id)
    if not hidden:
        return st
    ids = {u.id for u in hidden}
    others = [u.footprint() for u in b.units.values() if not u.gone and u.id not in ids]
    for u in hidden:
        _place(b, u, others, rng)
        others.append(u.footprint())
    return st
