"""A unit's kept footprint (``Unit.fp`` and ``FootprintMemo``, issue 16): whatever a unit's pose or
size becomes, the footprint read is the one drawn afresh from it; the memo survives a copy and a
pickle with the same numbers; it prints its numbers, not an address (the checkpoint tests compare
states by their printed fields).

The memo is asked on both paths (it is not a fast path of its own: the same footprint either way);
``Unit.fp`` compares the seven fields it was drawn from as numbers, where it built and compared a
key tuple before."""

from __future__ import annotations

import copy
import pickle
import random

from shieldwall.core.geometry import Footprint, heading_vector
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.into_the_dark.model import FootprintMemo, Unit

#: the fields a footprint is drawn from, and a new value of each (a change the memo must see)
CHANGES = {
    "x": lambda u, r: u.x + r.choice((0.001, -3.5, 1e-9)),
    "y": lambda u, r: u.y + r.choice((0.001, 2.25, -1e-9)),
    "heading": lambda u, r: (u.heading + r.choice((0.5, 90.0, 180.0, 1e-7))) % 360.0,
    "front": lambda u, r: max(1, u.front + r.choice((-2, 2, 1))),
    "figures": lambda u, r: max(1, u.figures + r.choice((-1, -3, 4))),
    "fig_w": lambda u, r: u.fig_w * r.choice((1.5, 0.5, 1.0000001)),
    "rank_d": lambda u, r: u.rank_d * r.choice((2.0, 0.75, 1.0000001)),
}


def _drawn(u: Unit) -> Footprint:
    """The footprint drawn afresh from the unit's fields (``Unit.fp``'s own formula)."""
    fx, fy = heading_vector(u.heading)
    d = u.depth / 2.0
    return Footprint(u.x - fx * d, u.y - fy * d, u.heading, u.front * u.fig_w, u.depth)


def _units() -> list[Unit]:
    out: list[Unit] = []
    for name in ("into-the-dark/senlac", "into-the-dark/wye-fords"):
        out.extend(load_game(name).new_state(3).units.values())
    return out


def test_the_footprint_read_is_the_one_drawn_afresh_after_any_change() -> None:
    """Each of the seven fields changed in turn (and several at once, and changed back), 2,000
    times over both scenarios' units: ``fp`` is the freshly drawn footprint every time, and a read
    with nothing changed answers the very object kept."""
    rng = random.Random(16)
    units = _units()
    for _ in range(2000):
        u = rng.choice(units)
        first = u.fp
        assert u.fp is first  # nothing changed: the kept one
        names = rng.sample(sorted(CHANGES), rng.choice((1, 1, 1, 2, 3)))
        before = {n: getattr(u, n) for n in names}
        for n in names:
            setattr(u, n, CHANGES[n](u, rng))
        assert u.fp == _drawn(u), names
        for n, v in before.items():  # and back again
            setattr(u, n, v)
        assert u.fp == _drawn(u) == first, names


def test_the_memo_holds_the_numbers_the_footprint_was_drawn_from() -> None:
    u = _units()[0]
    fp = u.fp
    m = u._fpc
    assert isinstance(m, FootprintMemo) and m.fp is fp
    assert (m.x, m.y, m.heading, m.front, m.figures, m.fig_w, m.rank_d) == (
        u.x, u.y, u.heading, u.front, u.figures, u.fig_w, u.rank_d,
    )  # fmt: skip


def test_the_memo_survives_copies_and_pickles_and_prints_its_numbers() -> None:
    u = _units()[1]
    fp = u.fp
    for other in (pickle.loads(pickle.dumps(u)), copy.deepcopy(u), u.clone()):
        assert isinstance(other._fpc, FootprintMemo)
        assert other.fp == fp == _drawn(other)
    m = u._fpc
    assert m is not None
    again = pickle.loads(pickle.dumps(m))
    assert repr(again) == repr(m)
    assert repr(m).startswith("FootprintMemo(") and " at 0x" not in repr(m)
    assert repr(u.x) in repr(m) and repr(fp) in repr(m)
