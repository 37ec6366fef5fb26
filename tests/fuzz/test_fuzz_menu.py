"""Every order the menu offers is one the API accepts: for random valid scenarios within the caps
(``core.limits``), at random points of a random battle, each legal order, sent as the page sends it
(its dict form, through the web's bounds and number checks) or as its text, is accepted by
``apply`` on a copy of the state; and the generator does bounded work (a deadline per decision)."""

from __future__ import annotations

import functools
import random
import time
from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

from shieldwall.core.datafiles import read_toml
from shieldwall.core.errors import DataError
from shieldwall.core.game import Game, State
from shieldwall.io.scenarios import builtin_scenarios, game_from_data
from shieldwall.rulesets.one_hour.profiles import terrain_effects, unit_profiles
from shieldwall.web.bounds import check_json
from shieldwall.web.session import finite_numbers

from .budget import budget

#: the most time one decision's menu may take, with its orders parsed back (seconds, one core)
MENU_SECONDS = 3.0


@st.composite
def one_hour_scenarios(draw: st.DrawFn) -> dict[str, Any]:
    """Units on a grid of 8" x 6" cells (so they do not overlap), a few terrain rectangles."""
    w = draw(st.integers(30, 240))
    d = draw(st.integers(30, 240))
    cells = [(x, y) for x in range(6, w - 5, 8) for y in range(3, d - 3, 6)]
    n_red, n_blue = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    assume(len(cells) >= n_red + n_blue)
    chosen = draw(
        st.lists(st.sampled_from(cells), min_size=n_red + n_blue, max_size=n_red + n_blue, unique=True)
    )
    types = sorted(unit_profiles())
    units = [
        {
            "id": f"u{i}",
            "type": draw(st.sampled_from(types)),
            "x": x + draw(st.floats(-0.5, 0.5)),
            "y": y + draw(st.floats(-0.5, 0.5)),
            "heading": draw(st.sampled_from([0, 90, 180, 270, 45, 135.5])),
        }
        for i, (x, y) in enumerate(chosen)
    ]
    kinds = [k for k, e in terrain_effects().items() if not e.linear]
    terrain = []
    for j in range(draw(st.integers(0, 3))):
        x0, y0 = draw(st.integers(0, w - 6)), draw(st.integers(0, d - 6))
        sw, sd = draw(st.integers(3, 12)), draw(st.integers(3, 12))
        terrain.append(
            {
                "id": f"t{j}",
                "kind": draw(st.sampled_from(kinds)),
                "points": [[x0, y0], [x0 + sw, y0], [x0 + sw, y0 + sd], [x0, y0 + sd]],
            }
        )
    return {
        "ruleset": "one-hour-dark-ages",
        "name": "fuzzed",
        "turns": draw(st.integers(1, 15)),
        "table": {"width": w, "depth": d},
        "terrain": terrain,
        "red": {"name": "Red", "units": units[:n_red]},
        "blue": {"name": "Blue", "home_edge": "north", "units": units[n_red:]},
    }


@functools.cache
def _itd_base(name: str) -> dict[str, Any]:
    return read_toml(builtin_scenarios()[name])


@st.composite
def itd_scenarios(draw: st.DrawFn) -> dict[str, Any]:
    """A built-in into-the-dark scenario with every unit moved a little and turned a little."""
    name = draw(st.sampled_from([n for n in builtin_scenarios() if n.startswith("into-the-dark/")]))
    data = read_toml(builtin_scenarios()[name])
    for side in ("red", "blue"):
        for dep in data[side]["deploy"]:
            dep["x"] += draw(st.floats(-3, 3))
            dep["y"] += draw(st.floats(-2, 2))
            dep["heading"] = dep.get("heading", 0) + draw(st.sampled_from([0, 0, 5, -5, 10]))
    return data


def _load(data: dict[str, Any]) -> Game:
    try:
        return game_from_data(data, "fuzzed.toml")
    except DataError:
        assume(False)
        raise


def _check_menu(state: State) -> None:
    t = time.perf_counter()
    menu = state.legal_orders()
    for o in menu:
        od = o.to_dict()
        check_json(od, "order")  # what the API's body model checks
        finite_numbers(od)  # and the live route
        for spec in (od, str(o)):
            s2 = state.copy()
            order = s2.parse_order(spec)
            finite_numbers(order.to_dict())
            s2.apply(order)
    took = time.perf_counter() - t
    assert took < MENU_SECONDS, f"{len(menu)} orders took {took:.1f} s"


def _walk(game: Game, seed: int, steps: int, checks: int) -> None:
    state = game.new_state(seed)
    rnd = random.Random(seed)
    at = set(rnd.sample(range(steps + 1), min(checks, steps + 1)))
    for i in range(steps + 1):
        if state.is_terminal():
            return
        if i in at:
            _check_menu(state)
        state.apply(rnd.choice(state.legal_orders()))


@budget(0.5)
@given(one_hour_scenarios(), st.integers(0, 2**20), st.integers(0, 80))
def test_every_menu_order_is_accepted_one_hour(data: dict[str, Any], seed: int, steps: int) -> None:
    _walk(_load(data), seed, steps, 4)


@budget(0.25)
@given(itd_scenarios(), st.integers(0, 2**20), st.integers(0, 80))
def test_every_menu_order_is_accepted_into_the_dark(data: dict[str, Any], seed: int, steps: int) -> None:
    _walk(_load(data), seed, steps, 3)
