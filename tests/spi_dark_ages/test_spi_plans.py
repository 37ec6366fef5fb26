"""spi-dark-ages's plans for the search bot's own side (``rulesets/spi_dark_ages/plans.py``): the
``hold`` plan is the scripted bot that moves nothing."""

from __future__ import annotations

from shieldwall import registry
from shieldwall.ai.base import make_bot
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.spi_dark_ages.plans import PLANS, HoldBot
from shieldwall.rulesets.spi_dark_ages.state import DarkAgesState


def test_the_hold_plan_moves_nothing_and_attacks_as_the_scripted_bot() -> None:
    assert registry.get("spi-dark-ages").optional("search_plans") is PLANS
    st = load_game("spi-dark-ages/tours").new_state(2)
    assert isinstance(st, DarkAgesState)
    green = st.board.sides[0]
    hold, scripted = HoldBot(1), make_bot("scripted", 2, "spi-dark-ages")
    start = {u.id: u.hex for u in st.board.units.values() if u.side == green}
    moved_by_scripted = allocations = same_elsewhere = 0
    while not st.is_terminal() and st.board.turn <= 4:
        d = st.decision()
        assert d is not None
        if d.side == green:
            order = hold.choose(st)
            if d.kind == "move":
                assert order.kind in ("end", "done"), order  # (no fleet here: nothing must go on)
                moved_by_scripted += scripted.choose(st).kind == "step"
            else:  # allocation and defensive fire: the scripted bot's choices
                assert str(order) == str(scripted.choose(st))
                allocations += order.kind in ("melee", "fire")
                same_elsewhere += 1
        else:
            order = scripted.choose(st)
        st.apply(order)
    # green stood where it deployed, unless the rules moved it (a retreat or a panic flight)
    still = sum(st.board.units[i].hex == h for i, h in start.items())
    assert still >= len(start) - 2 and moved_by_scripted and same_elsewhere
    assert allocations, "tan came to green and green fought"
