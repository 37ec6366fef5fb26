"""dbm-3.2's plans for the search bot's own side (``rulesets/dbm/plans.py``): each is the scripted
bot with one choice changed."""

from __future__ import annotations

from shieldwall import registry
from shieldwall.ai.base import make_bot
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.dbm.plans import PLANS, AttackBot, HoldBot


def test_the_plans_differ_from_the_scripted_bot_where_they_should() -> None:
    assert registry.get("dbm-3.2").optional("search_plans") is PLANS
    g = load_game("dbm-3.2/ford-of-ash")
    st = g.new_state(0)
    bots = {s: make_bot("scripted", i, g.info.id) for i, s in enumerate(g.info.sides)}
    held = attacked = same_elsewhere = 0
    while not st.is_terminal() and not (held and attacked):
        d = st.decision()
        assert d is not None
        order = bots[d.side].choose(st)
        o = str(order)
        hold, attack = str(HoldBot(1).choose(st)), str(AttackBot(1).choose(st))
        if d.kind == "bound":
            assert hold == "end"  # the hold plan spends no PIPs
            held += o != "end"
            # the attack plan advances wherever the scripted bot would, and where it would not
            if o.startswith("advance"):
                assert attack.startswith(("advance", "march"))
            attacked += o == "end" and attack.startswith("advance")
        else:  # before the battle, the press forward, the baggage: the scripted bot's choices
            assert hold == o and attack == o
            same_elsewhere += 1
        st.apply(order)
    assert held and attacked and same_elsewhere
