"""Hypothesis properties of one-hour-dark-ages battles played by random bots from random seeds.

- no unit moves further than rolled (plus the road bonus);
- no two units ever overlap (contact is touching, not overlap);
- a unit's hits only ever fall by a rally;
- the same seed and orders give the same event log.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from shieldwall.core.geometry import CONTACT_TOL
from shieldwall.core.polygons import convex_penetration
from shieldwall.io.scenarios import load_game
from shieldwall.match import play

GAME = load_game(None)
SEEDS = st_.integers(min_value=0, max_value=2**32 - 1)
SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check_invariants(state: object, order: object) -> None:
    st = state
    units = [u for u in st.units.values() if not u.removed]  # type: ignore[attr-defined]
    for i, a in enumerate(units):
        for b in units[i + 1 :]:
            assert convex_penetration(a.fp.corners(), b.fp.corners()) <= CONTACT_TOL + 1e-9, (
                a.id,
                b.id,
                order,
            )


@SETTINGS
@given(seed=SEEDS)
def test_no_unit_moves_further_than_rolled(seed: int) -> None:
    st = play(GAME, seed, "random", "random").state
    for e in st.events:
        if e.kind == "move":
            bonus = 3.0 if e.data["road_bonus"] else 0.0
            assert e.data["distance"] <= e.data["rolled"] + bonus + 1e-6, e
        if e.kind == "charge":
            assert e.data["distance"] <= e.data["rolled"] + float(GAME.params["grey_margin"]) + 1e-6, e


@SETTINGS
@given(seed=SEEDS)
def test_no_overlap_except_contact(seed: int) -> None:
    play(GAME, seed, "random", "scripted", on_order=_check_invariants)


@SETTINGS
@given(seed=SEEDS)
def test_hits_only_fall_by_rally(seed: int) -> None:
    last: dict[str, int] = {}

    def watch(state: object, order: object) -> None:
        evs = state.events  # type: ignore[attr-defined]
        rallied = {e.data["unit"] for e in evs[-40:] if e.kind == "rally"}
        for u in state.units.values():  # type: ignore[attr-defined]
            if u.id in last and u.hits < last[u.id]:
                assert u.id in rallied, (u.id, last[u.id], u.hits, order)
            last[u.id] = u.hits

    play(
        load_game("one-hour-dark-ages/bryn-glas", {"personalities": False}),
        seed,
        "random",
        "random",
        on_order=watch,
    )


@settings(max_examples=5, deadline=None)
@given(seed=SEEDS)
def test_same_seed_same_log(seed: int) -> None:
    a = play(GAME, seed, "random", "scripted").state
    b = play(GAME, seed, "random", "scripted").state
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]
