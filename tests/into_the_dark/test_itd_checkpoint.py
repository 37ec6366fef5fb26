"""A sealed Into the Dark state undoes a failed order from a checkpoint (issue 16).

``IntoTheDarkState.apply`` used to copy the whole state before every order, as the backup an order
that fails part way is undone from. A sealed state (``State.seal``: a battle loop's, a playout's;
nothing changes it but ``apply``) keeps one copy every ``CHECKPOINT_EVERY`` orders instead and, when
an order fails, replays the orders since that copy on it. These tests make an order fail after it
has changed the state (a wrapper of ``apply_order`` that plays the next order, changes a unit and
raises), at every distance from a checkpoint, and check that the state is the one before the order,
that the battle then goes on exactly as one in which nothing failed, and that unsealing, copies and
pickles drop the checkpoint.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
from typing import Any

import pytest

from shieldwall.ai.base import bot_seed, make_bot
from shieldwall.core.errors import IllegalOrder
from shieldwall.io.scenarios import load_game
from shieldwall.match import play
from shieldwall.rulesets.into_the_dark import state as S
from shieldwall.rulesets.into_the_dark.clauses import cite

SCENARIO = "into-the-dark/senlac"
SEED = 4


class Fails:
    """An order that the patched ``apply_order`` plays as ``inner`` and then refuses."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner


def _failing(real: Any) -> Any:
    def apply_order(st: S.IntoTheDarkState, order: Any) -> None:
        if isinstance(order, Fails):
            real(st, order.inner)  # the state changes ...
            st._advance()
            u = next(iter(st.units.values()))
            u.morale = "routed"  # ... and a unit by hand, in place
            raise IllegalOrder(cite("turn-sequence.end-of-battle"), "refused part way (test)")
        real(st, order)

    return apply_order


def _snapshot(st: S.IntoTheDarkState) -> str:
    units = [[repr(getattr(u, f.name)) for f in dataclasses.fields(u)] for u in st.units.values()]
    rest = {  # (not the memos, shared with the copies: their keys decide)
        k: repr(v)
        for k, v in sorted(vars(st).items())
        if not k.startswith("_") and k not in ("units", "plan_memo", "view_memo", "zone_reaches", "sealed")
    }
    return json.dumps(
        [st.view(), [e.to_dict() for e in st.events], units, rest, st.rng.bit_generator.state],
        sort_keys=True,
        default=repr,
    )


def _bots(game: Any) -> dict[str, Any]:
    return {s: make_bot("scripted", bot_seed(SEED, i), game.info.id) for i, s in enumerate(game.info.sides)}


def _play_on(st: S.IntoTheDarkState, bots: dict[str, Any], n: int | None = None) -> list[Any]:
    orders = []
    while not st.is_terminal() and (n is None or len(orders) < n):
        d = st.decision()
        assert d is not None
        o = bots[d.side].choose(st)
        st.apply(o)
        orders.append(o)
    return orders


@pytest.mark.parametrize(
    "played", [0, 1, S.CHECKPOINT_EVERY - 1, S.CHECKPOINT_EVERY, 2 * S.CHECKPOINT_EVERY + 5]
)
def test_sealed_order_failing_part_way_is_undone_and_the_battle_goes_on_the_same(
    played: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = load_game(SCENARIO)
    whole = play(game, SEED, "scripted", "scripted")  # nothing fails in it
    monkeypatch.setattr(S, "apply_order", _failing(S.apply_order))
    st = game.new_state(SEED)
    st.seal()
    bots = _bots(game)
    _play_on(st, bots, played)
    assert st._undo is not None or played == 0
    before = _snapshot(st)
    d = st.decision()
    assert d is not None
    nxt = whole.orders[played]
    with pytest.raises(IllegalOrder, match="refused part way"):
        st.apply(Fails(nxt))
    assert _snapshot(st) == before
    assert st._undo is None  # (replayed into the state: the next order takes a new one)
    assert st.sealed
    _play_on(st, bots)
    assert [e.to_dict() for e in st.events] == [e.to_dict() for e in whole.state.events]


def test_sealed_and_unsealed_battles_are_the_same_battle() -> None:
    game = load_game(SCENARIO)
    sealed = play(game, SEED, "scripted", "scripted").state  # ``match.play`` seals its state
    st = game.new_state(SEED)
    assert not st.sealed
    _play_on(st, _bots(game))
    assert [e.to_dict() for e in st.events] == [e.to_dict() for e in sealed.events]
    assert not sealed.sealed and sealed._undo is None  # unsealed when the battle ends


def test_unsealed_state_keeps_a_hand_edit_when_an_order_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """After ``unseal`` the state may be edited by hand: a failed order then restores the edited
    state from the full backup, not the battle replayed from a checkpoint without the edit."""
    game = load_game(SCENARIO)
    whole = play(game, SEED, "scripted", "scripted")
    monkeypatch.setattr(S, "apply_order", _failing(S.apply_order))
    st = game.new_state(SEED)
    st.seal()
    _play_on(st, _bots(game), 10)
    st.unseal()
    assert st._undo is None
    u = next(iter(st.units.values()))
    u.wounds += 1  # by hand
    before = _snapshot(st)
    with pytest.raises(IllegalOrder):
        st.apply(Fails(whole.orders[10]))
    assert _snapshot(st) == before


def test_copies_and_pickles_take_no_checkpoint() -> None:
    game = load_game(SCENARIO)
    st = game.new_state(SEED)
    st.seal()
    _play_on(st, _bots(game), 5)
    assert st._undo is not None and len(st._undo[1]) == 5
    c = st.copy()
    assert not c.sealed and c._undo is None  # (its player seals it)
    p = pickle.loads(pickle.dumps(st))
    assert not p.sealed and p._undo is None and "_undo" not in vars(p)
    assert _snapshot(p) == _snapshot(st)
