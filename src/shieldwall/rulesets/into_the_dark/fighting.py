"""Units at grips in the battle (combat.*): a unit as the combat dice see it (``troops``), its
contacts with enemies, which of its figures are involved in melee and how many may still be shot
at, and the removal of a unit that has lost its last figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from .clauses import cite
from .combat import Troops, fighting_ranks
from .generals import figure_falls
from .model import Unit
from .spatial import Touch, slots_in_contact

if TYPE_CHECKING:
    from .state import IntoTheDarkState


def troops(
    u: Unit, firing: bool = False, missile: bool = False, figs: Sequence[tuple[int, int]] | None = None
) -> Troops:
    """The unit as ``combat.py`` sees it now: for a mixed unit, in melee the type of its figures in
    contact ``figs`` (``in_contact``; its front rank's when not given) and its majority type giving
    or receiving missile fire (troops.unit-organisation, rulings 76 and 78)."""
    spec = u.majority if missile else (u.spec_of(figs) if figs is not None else u.front_spec)
    tr = Troops.from_unit(
        spec,
        shaken=u.morale != "steady",
        disordered=u.disordered,
        in_shieldwall=u.shieldwall and not u.disordered,
        routing=u.routed,
        firing=firing,
        wounded=u.wounded,
    )
    # a champion who lost his mount fights on foot (special-troops.champions)
    return replace(tr, category="F") if u.unhorsed else tr


def in_contact(u: Unit, x: Touch) -> list[tuple[int, int]]:
    """The figures (rank, slot) of ``u`` touching the enemy across ``x`` (seen from ``u``): front
    slots in contact, rear-rank slots, or on a flank the end figure of each rank in contact
    ("the figures in contact with the enemy", ruling 78)."""
    # into-the-dark:troops.unit-organisation.mixed-melee
    slots = slots_in_contact(u, x.mine, x.a0, x.a1)
    if x.mine == "front":
        return [(0, i) for i in slots if i in u.rank_slots(0)]
    if x.mine == "rear":
        return [(u.ranks - 1, i) for i in slots]
    out: list[tuple[int, int]] = []
    for r in slots:
        filled = u.rank_slots(r)
        if len(filled):
            out.append((r, filled[0] if x.mine == "left" else filled[-1]))
    return out


def melee_troops(a: Unit, b: Unit, across: Sequence[Touch]) -> tuple[Troops, Troops]:
    """``a`` striking ``b`` and ``b`` struck, as the melee sees them when ``a`` strikes across the
    touches ``across`` (``a``'s own, with ``b``): a mixed unit with the values of its figures in
    contact there (``in_contact``, rulings 76 and 78), a unit of one type with its own. The melee
    (``act_combat.melee_phase``) and the forecast of a charge (``charging.charge_troops``) both ask
    this."""
    # into-the-dark:troops.unit-organisation.mixed-melee
    if not (a.spec.mixed or b.spec.mixed):
        return troops(a), troops(b)
    mine: list[tuple[int, int]] = []
    theirs: list[tuple[int, int]] = []
    for x in across:
        mine.extend(in_contact(a, x))
        theirs.extend(in_contact(b, seen_from(x, a.id)))
    return troops(a, figs=mine), troops(b, figs=theirs)


def seen_from(x: Touch, me: str) -> Touch:
    """The touch ``x`` of unit ``me`` as the other unit sees it."""
    return Touch(me, x.theirs, x.mine, x.b0, x.b1, x.a0, x.a1)


def contacts(st: IntoTheDarkState, t: Unit) -> list[Touch]:
    """Every contact of ``t`` with an enemy, seen from ``t``'s side: its own touches, and those an
    enemy's edge sees on ``t`` when ``t``'s edges do not (contact is mutual, docs/rulings)."""
    own = st.touching(t)
    seen = {x.other for x in own}
    out = list(own)
    enemies = [e for e in st.live() if e.side != t.side and e.id not in seen and e.on_table]
    for e, touching in zip(enemies, st.touching_each(enemies), strict=True):
        for x in touching:
            if x.other == t.id:
                out.append(Touch(e.id, x.theirs, x.mine, x.b0, x.b1, x.a0, x.a1))
    return out


def involved(st: IntoTheDarkState, t: Unit) -> set[tuple[int, int]]:
    """The figures of ``t`` (rank, slot) involved in melee (combat.target-eligibilities): those in
    contact on any edge, and behind a front in contact the ranks that fight in melee (two; four for
    pikes), whether or not disorder keeps them from fighting this round (docs/rulings)."""
    # into-the-dark:combat.target-eligibilities.troops-in-melee
    out: set[tuple[int, int]] = set()
    ranks = fighting_ranks(melee=True, pike=t.spec.has("pike"))
    for x in contacts(st, t):
        slots = slots_in_contact(t, x.mine, x.a0, x.a1)
        if x.mine == "front":
            for r in range(min(ranks, t.ranks)):
                out.update((r, i) for i in slots if i in t.rank_slots(r))
        elif x.mine == "rear":
            out.update((t.ranks - 1, i) for i in slots)
        else:
            for r in slots:
                filled = t.rank_slots(r)
                if len(filled):
                    out.add((r, filled[0] if x.mine == "left" else filled[-1]))
    return out


def exposed(st: IntoTheDarkState, t: Unit) -> int:
    """ "Troops involved in melee are not eligible targets, although those not involved (a third
    rank, an extended line, etc) are." (combat.target-eligibilities): how many figures of ``t`` may
    be shot at - all of them when it is in no melee."""
    # into-the-dark:combat.target-eligibilities.troops-in-melee
    return t.figures - len(involved(st, t))


def check_destroyed(st: IntoTheDarkState, t: Unit, clause: str) -> None:
    if t.general:
        if t.destroyed:
            # "A general is removed after taking a single hit" (command.generals)
            figure_falls(st, t, f"hit on his own: {cite(clause)}")
        return
    if t.destroyed and not any(r["id"] == t.id for r in st.destroyed_turn):
        st.destroyed_turn.append({"id": t.id, "side": t.side, "corners": [list(p) for p in t.fp.corners()]})
        st.log("destroyed", clause, side=t.side, unit=t.id, reason="every figure lost")
