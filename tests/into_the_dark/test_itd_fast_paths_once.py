"""Into the Dark big armies, sixth slice (issue 16): what a decision asked of every unit several
times, asked once, compared with the plain computation.

* the plan memo compares the units with its snapshot once a still block (``State.still``: no unit
  moves while the scripted general weighs), not at each of the menu's, ``ends_of_moves``' and the
  look-aheads' questions (``PlanMemo._check``, the block's token ``State.still_token``); a copy's
  plan or a new block compares again;
* the general's footprints kept for a view entry that is the very one of the decision before
  (``reckoning._fps``'s ``seen``: the view memo's own entries, kept while the unit is unchanged);
* the end-of-battle count (``ground.standing``) compiled in the general (``Reckoning._standing``).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.ai.base import bot_seed, make_bot
from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.into_the_dark import menus, moves, plan_memo
from shieldwall.rulesets.into_the_dark.bots import ground, reckoning
from shieldwall.rulesets.into_the_dark.plan_memo import unit_snapshot
from shieldwall.rulesets.into_the_dark.tiling import tiled_game


def _plan(s: Any, u: Any, steps: Any, reference: bool) -> Any:
    try:
        if reference:
            return moves.plan_move_reference(s, u, steps)
        return moves.plan_move(s, u, steps)
    except IllegalOrder as e:
        return str(e)


def _unit_state(per_side: int, seed: int, decisions: int) -> Any:
    """A tiled battle's state at a unit decision after ``decisions`` decisions or more."""
    game = tiled_game(per_side)
    bots = {s: make_bot("scripted", bot_seed(seed, i), game.info.id) for i, s in enumerate(game.info.sides)}
    state = game.new_state(seed)
    n = 0
    while True:
        d = state.decision()
        assert d is not None
        if n >= decisions and d.kind == "unit":
            u = state.units[d.unit]
            if moves.can_move(state, u) is None and moves.remaining(state, u) > 2.0:
                return state
        state.apply(bots[d.side].choose(state))
        n += 1


def _count_refreshes(monkeypatch: Any) -> dict[str, int]:
    """``plan_memo.refresh`` counted (each call is one comparison of the units with the snapshot)."""
    calls = {"n": 0}
    real = plan_memo.refresh

    def counted(units: Any, snap: Any) -> bool:
        calls["n"] += 1
        return real(units, snap)

    monkeypatch.setattr(plan_memo, "refresh", counted)
    return calls


@pytest.mark.python_sources
def test_the_plan_memo_compares_the_units_once_a_still_block(monkeypatch: Any) -> None:
    """In a still block the menu's moves, ``ends_of_moves`` and plans asked again compare the units
    with the snapshot once; a copy's plan makes the next question of the state compare again, and
    a new block too (a unit changed between two blocks is seen). Every plan is the reference's."""
    state = _unit_state(30, 1, 40)
    calls = _count_refreshes(monkeypatch)
    uid = state.pending["unit"]
    u = state.units[uid]
    with state.still():
        offered = menus.UnitMenu(state, u).moves()
        assert offered
        first = calls["n"]
        assert first == 1
        ends = state.ends_of_moves(uid, offered)
        assert ends is not None
        for o in offered:
            assert _plan(state, u, o.steps, False) == _plan(state, u, o.steps, True), o
        assert calls["n"] == first, "the units compared again within the block"
        assert state.plan_memo.snap == unit_snapshot(state.units)
        # a copy (outside the block) moves one of its units and plans: its own snapshot
        c = state.copy()
        cu = c.units[uid]
        cu.used = moves.base_allowance(c, cu) - 0.3
        for o in offered:
            assert _plan(c, cu, o.steps, False) == _plan(c, cu, o.steps, True), o
        after_copy = calls["n"]
        # the state's next plan compares again and answers as the reference
        for o in offered:
            assert _plan(state, u, o.steps, False) == _plan(state, u, o.steps, True), o
        assert calls["n"] == after_copy + 1
    # between two blocks a unit changes: the next block compares and plans afresh
    u.used = moves.base_allowance(state, u) - 0.3
    differed = 0
    with state.still():
        for o in offered:
            want = _plan(state, u, o.steps, True)
            assert _plan(state, u, o.steps, False) == want, o
            differed += isinstance(want, str)
    assert differed > 0


@pytest.mark.python_sources
def test_the_block_token_answers_for_its_own_units_only(monkeypatch: Any) -> None:
    """Within a block the memo skips the comparison only for the units it compared under that
    token: the same token with other units (a copy's) compares them."""
    state = _unit_state(30, 1, 40)
    calls = _count_refreshes(monkeypatch)
    memo = state.plan_memo
    with state.still():
        token = state.still_token
        assert token is not None
        memo._check(state.units, token)
        n = calls["n"]
        memo._check(state.units, token)
        assert calls["n"] == n
        other = {k: u.clone() for k, u in state.units.items()}
        memo._check(other, token)
        assert calls["n"] == n + 1


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_deep_copy_made_in_a_still_block_is_in_no_block(how: str) -> None:
    """A state deep-copied or pickled inside a still block is in none (``State.__getstate__``):
    one of its units moved by hand, its plans are the reference's, not the original's snapshot's
    (with the token kept, a move the reference refuses was answered with the old trace)."""
    import copy
    import pickle

    state = _unit_state(30, 1, 40)
    uid = state.pending["unit"]
    with state.still():
        offered = menus.UnitMenu(state, state.units[uid]).moves()
        assert offered
        c = copy.deepcopy(state) if how == "deepcopy" else pickle.loads(pickle.dumps(state))
        assert c.still_token is None
        cu = c.units[uid]
        cu.used = moves.base_allowance(c, cu) - 0.3
        differed = 0
        for o in offered:
            want = _plan(c, cu, o.steps, True)
            assert _plan(c, cu, o.steps, False) == want, o
            differed += isinstance(want, str)
        assert differed > 0


def test_the_generals_footprints_kept_for_the_same_view_entry() -> None:
    """A view entry that is the very one the footprint was made from keeps it (no numbers
    compared); another entry, even an equal one, is compared; on changed numbers a new one."""
    u = {"x": 10.0, "y": 12.0, "heading": 30.0, "frontage": 6.0, "depth": 2.0}
    before = {"a": reckoning._fp(u)}
    assert reckoning._fps({"a": u}, before, {"a": u})["a"] is before["a"]
    assert reckoning._fps({"a": dict(u)}, before, {"a": u})["a"] is before["a"]
    # the shortcut itself: the very entry keeps the footprint without its numbers compared (a
    # footprint out of step with the entry, which the engine never makes, shows it)
    stale = {"a": reckoning._fp({**u, "x": 99.0})}
    assert reckoning._fps({"a": u}, stale, {"a": u})["a"] is stale["a"]
    assert reckoning._fps({"a": dict(u)}, stale, {"a": u})["a"] == reckoning._fp(u)
    moved = {**u, "x": 11.0}
    got = reckoning._fps({"a": moved}, before, {"a": u})["a"]
    assert got == reckoning._fp(moved) and got != before["a"]


def test_the_generals_footprints_over_a_tiled_battle() -> None:
    """At every decision of a tiled battle (30 a side, 150 decisions) the general's footprints are
    those made afresh from its view, and most are kept through the view entry."""
    game = tiled_game(30)
    bots = {s: make_bot("scripted", bot_seed(2, i), game.info.id) for i, s in enumerate(game.info.sides)}
    state = game.new_state(2)
    kept = made = 0
    for _ in range(150):
        d = state.decision()
        if d is None:
            break
        bot = bots[d.side]
        before = dict(getattr(bot.general, "fps", {}))
        order = bot.choose(state)
        g = bot.general
        for k, v in g.units.items():
            want = reckoning._fp(v)
            assert g.fps[k] == want and g.fps[k].corners() == want.corners(), k
            kept += before.get(k) is g.fps[k]
            made += before.get(k) is not g.fps[k]
        state.apply(order)
    assert kept > 10 * made and made > 50, (kept, made)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["red", "blue"]),
            st.integers(1, 12),
            st.integers(0, 12),
            st.booleans(),
            st.sampled_from(["steady", "routed", "wavering"]),
        ),
        max_size=40,
    ),
    st.sampled_from(["red", "blue"]),
)
def test_the_end_of_battle_count_is_the_plain_one(rows: list[tuple[Any, ...]], me: str) -> None:
    """The general's compiled count (``Reckoning._standing``) is ``ground.standing`` with its
    costs, to the bit: units lost, units worn, level counts, a side with no units."""
    units = [
        {
            "id": f"u{i}",
            "side": s,
            "original": o,
            "figures": min(f, o),
            "removed": r,
            "morale": m,
            "name": f"u{i}",
        }
        for i, (s, o, f, r, m) in enumerate(rows)
    ]
    g = reckoning.Reckoning(None)  # type: ignore[arg-type]
    g.me = me
    g.armies = {}  # (no army entries: each unit costs 4 a figure, ``_cost``)
    assert g._standing(units) == ground.standing(units, g._cost, me)
    # every other unit's entry replaced by another (as the view memo does when a unit changes):
    # its stake is worked out again, the others' kept
    again = [
        dict(u, figures=max(0, u["figures"] - 1), morale="routed" if i % 4 == 0 else u["morale"])
        if i % 2
        else u
        for i, u in enumerate(units)
    ]
    assert g._standing(again) == ground.standing(again, g._cost, me)
    assert g._standing(units) == ground.standing(units, g._cost, me)


def test_the_count_works_out_a_unit_again_only_when_its_entry_is_another() -> None:
    """``Reckoning._standing`` asks a unit's cost (``_stake``) once per view entry: the same entry
    at the next decision is looked up, a new entry (the unit changed) is worked out again."""
    units = [{"id": f"u{i}", "side": "red" if i % 2 else "blue", "original": 6, "figures": 6,
              "removed": False, "morale": "steady", "name": f"u{i}"} for i in range(6)]  # fmt: skip
    g = reckoning.Reckoning(None)  # type: ignore[arg-type]
    g.me, g.armies = "red", {}
    g._standing(units)
    kept = {k: rec for k, (_, rec) in g._stakes.items()}
    assert sorted(kept) == sorted(u["id"] for u in units)
    units[3] = dict(units[3], figures=2)
    assert g._standing(units) == ground.standing(units, g._cost, "red") < 0  # (red worn: behind)
    again = [k for k, (_, rec) in g._stakes.items() if rec is not kept[k]]
    assert again == ["u3"] and g._stakes["u3"][0] is units[3]


def test_the_end_of_battle_count_over_a_tiled_battle() -> None:
    """At every decision of a tiled battle (20 a side) the general's count is the plain one."""
    game = tiled_game(20)
    bots = {s: make_bot("scripted", bot_seed(3, i), game.info.id) for i, s in enumerate(game.info.sides)}
    state = game.new_state(3)
    for _ in range(120):
        d = state.decision()
        if d is None:
            break
        bot = bots[d.side]
        order = bot.choose(state)
        g = bot.general
        units = g.view["units"]
        assert g._standing(units) == ground.standing(units, g._cost, g.me)
        state.apply(order)


def test_the_snapshot_brought_up_to_date_is_a_new_snapshot() -> None:
    """``plan_memo.refresh`` (the snapshot made again only where a unit changed) leaves the very
    snapshot ``unit_snapshot`` makes, and says whether any unit differed: a move, a flag, ``extra``
    changed in place, two units changed, nothing changed."""
    state = _unit_state(20, 2, 10)
    units = state.units
    snap = unit_snapshot(units)
    assert plan_memo.refresh(units, snap) and snap == unit_snapshot(units)
    ids = list(units)
    a, b = units[ids[3]], units[ids[17]]
    for change in (
        lambda: setattr(a, "x", a.x + 0.25),
        lambda: setattr(b, "acted", not b.acted),
        lambda: a.extra.__setitem__("probe", 1),
        lambda: (setattr(a, "used", a.used + 1.0), setattr(b, "heading", b.heading + 5.0)),
    ):
        kept = list(snap)
        change()
        assert not plan_memo.refresh(units, snap)
        assert snap == unit_snapshot(units)
        assert sum(x is not y for x, y in zip(kept, snap, strict=True)) in (1, 2)
        assert plan_memo.refresh(units, snap)
