"""setup.deployment, concealed-deployment.dummies (ruling 70): when the deployment zone is so full
that none of the menu's usual spots is free, the menu still offers the places the rules allow (a
finer look over the table), so a bot or a player choosing from the menu is never left with nothing.

Found by the search bot's tests: Senlac, alternate and concealed deployment, seed 1, red's first
card at (36, 36), then random orders from a generator seeded 2: blue's mounted LAM had no order."""

from __future__ import annotations

import numpy as np

from shieldwall.core.game import State
from shieldwall.io.scenarios import load_game


def _stuck_before() -> State:
    g = load_game("into-the-dark/senlac", {"deployment": "alternate", "concealed_deployment": True})
    st = g.new_state(1)
    st.apply(st.parse_order("deploy r1 36 36 180"))
    rng = np.random.default_rng(2)
    for _ in range(13):
        menu = st.legal_orders()
        st.apply(menu[int(rng.integers(len(menu)))])
    return st


def test_setup_deployment_a_full_zone_still_offers_the_places_left() -> None:
    st = _stuck_before()
    d = st.decision()
    assert d is not None and d.kind == "deploy" and d.side == "blue" and d.data["troops"] == "mounted"
    menu = st.legal_orders()
    assert menu, "the usual spots are all taken, but room is left in the zone"
    for order in menu:  # each offered place is one the rules accept
        trial = st.copy()
        trial.apply(order)
        assert trial.decision() != d


def test_setup_deployment_the_battle_goes_on_after_a_full_zone() -> None:
    st = _stuck_before()
    rng = np.random.default_rng(5)
    for _ in range(40):
        d = st.decision()
        if d is None or d.kind != "deploy":
            break
        menu = st.legal_orders()
        assert menu
        st.apply(menu[int(rng.integers(len(menu)))])
    end = st.decision()
    assert end is not None and end.kind != "deploy"
