"""The state's plain data copied without ``copy.deepcopy`` (``plain_copy.plain_deepcopy``, issue 16):
the same copy as ``copy.deepcopy`` gives, at every state copy of seeded battles and on chosen trees."""

from __future__ import annotations

import copy
import math
from collections import OrderedDict, defaultdict
from typing import Any

from shieldwall.ai.base import bot_seed, make_bot
from shieldwall.core.geometry import Footprint
from shieldwall.core.reference import reference_path
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.into_the_dark import plain_copy
from shieldwall.rulesets.into_the_dark.plain_copy import plain_deepcopy
from shieldwall.rulesets.into_the_dark.state import IntoTheDarkState

#: the fields ``IntoTheDarkState.copy`` deep-copies
FIELDS = (
    "pending",
    "charge",
    "declared",
    "fire_received",
    "melee",
    "routed_turn",
    "destroyed_turn",
    "deploy",
    "cards",
    "generals",
)

BATTLES = (
    ("into-the-dark/senlac", 0, {}),
    ("into-the-dark/senlac", 5, {"command_and_control": True}),
    ("into-the-dark/wye-fords", 6, {"deployment": "alternate", "concealed_deployment": True}),
)


def _same(a: Any, b: Any) -> bool:
    """Equal values of the same types all the way down (``==`` alone takes 1 for 1.0 and True),
    dicts with their keys in the same order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return (
            list(a) == list(b)
            and all(_same(k, j) for k, j in zip(a, b, strict=True))
            and all(_same(a[k], b[k]) for k in a)
        )
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


def _containers(x: Any, out: list[Any]) -> list[Any]:
    """The dicts, lists and tuples of ``x``, depth first, each as often as it is reached."""
    if isinstance(x, (dict, list, tuple)):
        out.append(x)
        for v in x.values() if isinstance(x, dict) else x:
            _containers(v, out)
    return out


def _shape(x: Any) -> list[int]:
    """Which earlier container each container of ``x`` is (its first index), in order: the sharing."""
    first: dict[int, int] = {}
    return [first.setdefault(id(c), i) for i, c in enumerate(_containers(x, []))]


def _check(x: Any) -> None:
    got = plain_deepcopy(x)
    ref = copy.deepcopy(x)
    assert _same(got, ref), (x, got, ref)
    assert _shape(got) == _shape(ref), x
    mine = {id(c) for c in _containers(x, []) if not isinstance(c, tuple)}
    theirs = {id(c) for c in _containers(ref, []) if not isinstance(c, tuple)}
    copied = {id(c) for c in _containers(got, []) if not isinstance(c, tuple)}
    assert not copied & mine and not theirs & mine, x  # every dict and list is a new one
    # a tuple is the original where deepcopy gives the original (its items all copied to themselves)
    ts = [c for c in _containers(got, []) if isinstance(c, tuple)]
    rs = [c for c in _containers(ref, []) if isinstance(c, tuple)]
    xs = [c for c in _containers(x, []) if isinstance(c, tuple)]
    assert [t is o for t, o in zip(ts, xs, strict=True)] == [r is o for r, o in zip(rs, xs, strict=True)], x


def test_every_state_copy_copies_its_data_as_deepcopy_does(monkeypatch: Any) -> None:
    """At every copy of the state in seeded battles (also Command & Control, alternate and concealed
    deployment), each field the copy deep-copies is copied as ``copy.deepcopy`` copies it; most are
    copied directly (plain data), not handed to ``deepcopy``."""
    seen = {"plain": 0, "other": 0, "filled": 0}
    original = IntoTheDarkState.copy

    def checked(self: IntoTheDarkState) -> IntoTheDarkState:
        for f in FIELDS:
            x = getattr(self, f)
            _check(x)
            try:
                plain_copy._copy(x, set())
            except plain_copy._NotPlain:
                seen["other"] += 1
            else:
                seen["plain"] += 1
                seen["filled"] += bool(x)
        return original(self)

    monkeypatch.setattr(IntoTheDarkState, "copy", checked)
    for scenario, seed, opts in BATTLES:
        # unsealed (a player's state: every order backed up by a copy; ``match.play`` seals its
        # state and copies once in ``CHECKPOINT_EVERY`` orders), as ``play`` with the same bots
        game = load_game(scenario, opts)
        st = game.new_state(seed)
        bots = {
            s: make_bot("scripted", bot_seed(seed, i), game.info.id) for i, s in enumerate(game.info.sides)
        }
        while not st.is_terminal():
            d = st.decision()
            assert d is not None and not st.sealed
            st.apply(bots[d.side].choose(st))
    assert seen["plain"] > 10_000 and seen["filled"] > 3_000, seen


def test_chosen_trees_are_copied_as_deepcopy_copies_them() -> None:
    """Plain trees, and the cases handed to ``deepcopy``: a container reached twice (its sharing
    kept), subclasses of dict, sets, objects, keys of other types."""
    shared = [1, 2]
    inner = {"a": 1}
    cases: list[Any] = [
        None,
        {},
        [],
        (),
        {"kind": "unit", "side": "red", "unit": None, "data": {"n": 3, "x": 1.5, "ok": True}},
        {"units": ["r1", "b2"], "at": (1.0, 2.0), "deep": [[{"k": [(1, "a"), ("b", 2.0)]}]]},
        {1: "one", 2: ["two"]},
        (["a list in a tuple"], "x"),
        ("atoms", 1, 2.0, None, True),
        {"nan": float("nan"), "neg": -0.0, "big": 10**30},
        {"p": shared, "q": shared},
        [inner, {"again": inner}],
        ((shared,), (shared,)),
        {"od": OrderedDict(a=1)},
        {"dd": defaultdict(list, a=[1])},
        {"set": {1, 2}},
        {"fp": Footprint(1.0, 2.0, 30.0, 4.0, 2.0)},
        {True: "a bool key"},
        {(1, 2): "a tuple key"},
    ]
    for x in cases:
        _check(x)
        with reference_path():
            _check(x)
    got = plain_deepcopy({"p": shared, "q": shared})
    assert got["p"] is got["q"] and got["p"] is not shared
    t = ("atoms", 1)
    assert plain_deepcopy(t) is t and plain_deepcopy({"t": t})["t"] is t
