"""Every registered rule system's ``progress`` hook (its point of the game, ``shieldwall.plugin``;
the search bot aligns the playouts it compares with it, ``shieldwall.ai.playout``): over seeded
battles of every built-in scenario, a tuple of ints that never decreases, the same on a second
call, the state untouched, and that moves on as the turns do."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shieldwall import registry
from shieldwall.ai.base import make_bot
from shieldwall.io.scenarios import builtin_scenarios, load_game

#: decisions played in each battle at most
DECISIONS = 400

HOOKED = [rid for rid in registry.ids() if registry.get(rid).progress is not None]
CASES = [(name, {}) for name in builtin_scenarios() if name.split("/")[0] in HOOKED]
#: and the pre-battle phases the default scenarios do not play
CASES += [
    ("one-hour-dark-ages/bryn-glas", {"hand_deployment": True}),
    ("knight-hack/bourgtheroulde-1124", {"hand_deployment": True}),
    ("dbm-3.2/ash-burh", {"hand_deployment": True}),
    ("into-the-dark/senlac", {"deployment": "alternate"}),
    ("into-the-dark/wye-fords", {"deployment": "alternate", "concealed_deployment": True}),
]


def test_every_built_in_rule_system_has_a_progress_hook() -> None:
    assert {"one-hour-dark-ages", "into-the-dark", "knight-hack", "spi-dark-ages", "dbm-3.2"} <= set(HOOKED)


@pytest.mark.parametrize(("name", "variant"), CASES)
def test_the_point_of_the_game_never_goes_back(name: str, variant: dict[str, Any]) -> None:
    game = load_game(name, variant)
    rid = game.info.id
    progress = registry.get(rid).load("progress")
    st = game.new_state(5)
    sides = game.info.sides
    bots = {s: make_bot("scripted" if i == 0 else "random", 3 + i, rid) for i, s in enumerate(sides)}
    last = tuple(progress(st))
    seen = {last}
    for n in range(DECISIONS):
        if st.is_terminal():
            break
        before = json.dumps(st.view(), sort_keys=True, default=str)
        here = progress(st)
        assert isinstance(here, tuple) and all(type(x) is int for x in here)
        assert progress(st) == here
        assert json.dumps(st.view(), sort_keys=True, default=str) == before
        assert here >= last, f"{name}: decision {n}: the point of the game went back from {last} to {here}"
        last = here
        seen.add(here)
        d = st.decision()
        assert d is not None
        st.apply(bots[d.side].choose(st))
    assert tuple(progress(st)) >= last
    assert len(seen) >= 3  # the battle went through several phases
