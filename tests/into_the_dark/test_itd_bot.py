"""The into-the-dark scripted general: beats random play, is deterministic, follows the text's
combat preferences."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

from shieldwall.ai.base import make_bot
from shieldwall.io.scenarios import load_game
from shieldwall.match import play
from shieldwall.rulesets.into_the_dark import orders as O
from shieldwall.rulesets.into_the_dark.bots import IntoTheDarkGeneral, ScriptedBot

SCENARIOS = ("into-the-dark/senlac", "into-the-dark/wye-fords")
BATTLES = 200


def _battle(i: int) -> tuple[str, str | None]:
    """Battle ``i`` of the 200: scenarios alternate, and the scripted side alternates every two."""
    scenario = SCENARIOS[i % 2]
    side = "red" if (i // 2) % 2 == 0 else "blue"
    red, blue = ("scripted", "random") if side == "red" else ("random", "scripted")
    r = play(load_game(scenario), 1000 + i, red, blue).state.result()
    assert r is not None
    return side, r.winner


def _workers() -> int:
    """Both cores, also under pytest-xdist: this test is the suite's long pole, and the other
    worker is idle once its files are done (the results do not depend on the worker count)."""
    try:
        return max(1, min(2, len(os.sched_getaffinity(0))))
    except AttributeError:  # pragma: no cover - not Linux
        return 1


@pytest.mark.slow
def test_scripted_beats_random_in_at_least_90_percent_of_200_seeded_battles() -> None:
    w = _workers()
    if w > 1:
        with ProcessPoolExecutor(w) as ex:
            results = list(ex.map(_battle, range(BATTLES), chunksize=10))
    else:
        results = [_battle(i) for i in range(BATTLES)]
    wins = sum(side == winner for side, winner in results)
    by_side = {s: sum(side == winner for side, winner in results if side == s) for s in ("red", "blue")}
    print(f"scripted won {wins} of {BATTLES} (as red {by_side['red']}/100, as blue {by_side['blue']}/100)")
    assert len(results) == BATTLES
    assert wins >= 180, f"scripted won only {wins} of {BATTLES}"


def test_scripted_v_scripted_finishes_and_is_deterministic() -> None:
    game = load_game("into-the-dark/senlac")
    a = play(game, 3, "scripted", "scripted")
    b = play(game, 3, "scripted", "scripted")
    assert a.state.is_terminal()
    assert [str(o) for o in a.orders] == [str(o) for o in b.orders]
    assert [e.to_dict() for e in a.state.events] == [e.to_dict() for e in b.state.events]


def test_the_scripted_bot_plays_the_into_the_dark_general() -> None:
    st = load_game("into-the-dark/wye-fords").new_state(2)
    bot = ScriptedBot(7)
    order = bot.choose(st)
    assert order in st.legal_orders()
    assert isinstance(bot.general, IntoTheDarkGeneral)
    assert bot.general.rng is bot.rng
    assert isinstance(make_bot("scripted", 7, "into-the-dark"), ScriptedBot)


def test_combat_preferences_missile_troops_evade_and_foot_in_shieldwall_stand() -> None:
    """ "Missile troops ... will always want to evade when charged (unless cross trained)"; foot
    prefer to stand (and in shieldwall never give it up to counter-charge)."""
    game = load_game("into-the-dark/senlac")
    gen = IntoTheDarkGeneral(np.random.default_rng(0))  # (a compiled general is built only this way)
    st = game.new_state(1)
    gen._setup(st)
    archers = next(u for u in gen.units.values() if u["role"] == "missile" and u["side"] == gen.me)
    assert gen._react([O.Stand(archers["id"]), O.Evade(archers["id"])], archers) == O.Evade(archers["id"])
    wall = next((u for u in st.view()["units"] if u["shieldwall"]), None)
    assert wall is not None
    gen.me = wall["side"]
    got = gen._react([O.Stand(wall["id"]), O.CounterCharge(wall["id"])], wall)
    assert got == O.Stand(wall["id"])
