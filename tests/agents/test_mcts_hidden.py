"""The search bot and hidden information: the plugins' ``determinize`` hooks (Into the Dark's
concealed deployment, Knight Hack's ambushers) and the search's independence from the hidden truth."""

from __future__ import annotations

import numpy as np
import pytest

from shieldwall import registry
from shieldwall.ai import mcts
from shieldwall.ai.base import make_bot
from shieldwall.ai.mcts import MCTSBot, fresh_dice
from shieldwall.core.game import State
from shieldwall.core.geometry import CONTACT_TOL
from shieldwall.core.polygons import convex_penetration
from shieldwall.io.scenarios import load_game
from shieldwall.visibility import view_for

CONCEALED = {"deployment": "alternate", "concealed_deployment": True}
AMBUSH = "knight-hack/bourgtheroulde-1124-ambush"


def _det(state: State, side: str, seed: int) -> State:
    hook = registry.get(state.game.info.id).load("determinize")
    out: State = hook(state, side, np.random.default_rng(seed))
    return out


def _concealed_pair() -> tuple[State, State]:
    """Two concealed deployments of Senlac that differ only in which red unit lies under red's
    first card (r1 or r2, both foot, same place): blue sees the same."""
    game = load_game("into-the-dark/senlac", CONCEALED)
    a, b = game.new_state(1), game.new_state(1)
    assert a.decision().side == "red"  # type: ignore[union-attr]
    a.apply("deploy r1 36 36 180")
    b.apply("deploy r2 36 36 180")
    assert a.decision().side == b.decision().side == "blue"  # type: ignore[union-attr]
    return a, b


def _ambush_pair() -> tuple[State, State]:
    """Two Knight Hack battles that differ only in where red's hidden javelinmen lie."""
    game = load_game(AMBUSH)
    a = game.new_state(3)
    b = a.copy()
    jav = b.board.units["javelinmen"]  # type: ignore[attr-defined]
    assert jav.hidden
    jav.x, jav.y, jav.heading = 40.0, 6.0, 0.0
    return a, b


def _blue_decision(state: State) -> State:
    """Play scripted orders until blue decides (knight-hack: the charge phase asks red first)."""
    bots = {s: make_bot("scripted", 1, state.game.info.id) for s in state.game.info.sides}
    while state.decision() is not None and state.decision().side != "blue":  # type: ignore[union-attr]
        state.apply(bots[state.decision().side].choose(state))  # type: ignore[union-attr]
    return state


def test_both_built_in_hidden_information_systems_have_the_hook() -> None:
    assert registry.get("into-the-dark").determinize is not None
    assert registry.get("knight-hack").determinize is not None
    assert registry.get("one-hour-dark-ages").determinize is None


@pytest.mark.parametrize("pair", [_concealed_pair, _ambush_pair])
def test_determinized_states_depend_only_on_what_the_side_sees(pair: object) -> None:
    a, b = pair()  # type: ignore[operator]
    assert a.view() != b.view()  # the hidden truth differs
    assert view_for(a, ["blue"]) == view_for(b, ["blue"])  # blue sees the same
    for seed in range(4):
        da, db = _det(a, "blue", seed), _det(b, "blue", seed)
        assert da.view() == db.view()  # the same battle drawn from either truth
        assert view_for(da, ["blue"]) == view_for(a, ["blue"])  # consistent with the view
        assert [str(o) for o in da.legal_orders()] == [str(o) for o in a.legal_orders()]
    assert len({str(_det(a, "blue", s).view()) for s in range(8)}) > 1  # it does draw
    assert a.view() != _det(a, "blue", 0).view() or b.view() != _det(b, "blue", 0).view()


def test_the_concealed_deal_is_legal_and_plays_on() -> None:
    a, _ = _concealed_pair()
    for seed in range(3):
        d = _det(a, "blue", seed)
        st = d  # a red card holds one red foot unit or none; the rest of red waits to be placed
        cards = st.cards  # type: ignore[attr-defined]
        held = [c["unit"] for c in cards.values() if c["side"] == "red"]
        assert len(held) == 1 and held[0] in st.units and not st.units[held[0]].mounted  # type: ignore[attr-defined]
        waiting = [u for u in st.units.values() if u.side == "red" and not u.deployed]  # type: ignore[attr-defined]
        assert (
            held[0] not in {u.id for u in waiting}
            and len(waiting)
            == sum(
                1
                for u in st.units.values()
                if u.side == "red"  # type: ignore[attr-defined]
            )
            - 1
        )
        bots = {s: make_bot("scripted", seed, "into-the-dark") for s in ("red", "blue")}
        while not d.is_terminal() and d.view().get("turn", 1) < 2:
            d.apply(bots[d.decision().side].choose(d))  # type: ignore[union-attr]
        assert not d.cards  # type: ignore[attr-defined]  # deployment over, the cards revealed
    assert _det(a, "red", 0).cards == a.cards  # type: ignore[attr-defined]  # its own cards are kept


def test_the_ambushers_lie_hidden_on_their_half_clear_of_everyone() -> None:
    a, _ = _ambush_pair()
    for seed in range(5):
        d = _det(a, "blue", seed)
        board = d.board  # type: ignore[attr-defined]
        jav = board.units["javelinmen"]
        assert jav.hidden and 0.0 <= jav.y <= board.depth / 2.0
        assert (jav.x, jav.y) != (7.0, 19.0)
        for u in board.units.values():
            if u.id != jav.id:
                assert convex_penetration(jav.footprint().corners(), u.footprint().corners()) <= CONTACT_TOL
        rng = np.random.default_rng(seed)
        for _ in range(40):
            if d.is_terminal():
                break
            menu = d.legal_orders()
            d.apply(menu[int(rng.integers(len(menu)))])
    assert _det(a, "red", 0).view() == a.view()  # red's own ambusher is known to red


@pytest.mark.parametrize("pair", [_concealed_pair, _ambush_pair])
def test_mcts_decides_alike_whatever_the_hidden_truth(pair: object, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = pair()  # type: ignore[operator]
    a, b = _blue_decision(a), _blue_decision(b)
    assert view_for(a, ["blue"]) == view_for(b, ["blue"])
    seen: list[dict[str, object]] = []

    def spy(sim: State, seed: int) -> None:  # every playout's starting battle, as the search has it
        seen.append(sim.view())
        fresh_dice(sim, seed)

    monkeypatch.setattr(mcts, "fresh_dice", spy)
    for seed in (1, 2):
        # the duel at the 10-decision horizon, whatever the rule system's default options
        one = make_bot("mcts:12:h10:duel", seed, a.game.info.id)
        two = make_bot("mcts:12:h10:duel", seed, a.game.info.id)
        seen.clear()
        first = str(one.choose(a))
        from_a = list(seen)
        seen.clear()
        assert first == str(two.choose(b))
        assert from_a == seen and len(seen) == 13  # the prior's battle and the 12 playouts' are the same
        assert any(v != a.view() for v in seen)  # drawn, not the hidden truth
        assert isinstance(one, MCTSBot) and isinstance(two, MCTSBot) and one._determinize is not None
        assert one.last_root is not None and two.last_root is not None
        assert _stats(one.last_root) == _stats(two.last_root)  # the whole search, not only its choice


def _stats(node: object) -> object:
    """A search tree as plain data: each order's visits and summed values, recursively."""
    return {t: (c.visits, c.value, _stats(c)) for t, c in node.children.items()}  # type: ignore[attr-defined]


def test_fresh_dice_reach_a_board_generator() -> None:
    s = load_game(AMBUSH).new_state(1)
    before = s.board.rng.bit_generator.state  # type: ignore[attr-defined]
    c = s.copy()
    fresh_dice(c, 7)
    assert c.board.rng.bit_generator.state != before  # type: ignore[attr-defined]
    assert s.board.rng.bit_generator.state == before  # type: ignore[attr-defined]
