"""The bound's menu computed for one order (menu.one_option) answers as the full menu does
(menu.all_options), and the scripted bot's choice through it is the choice it made from the full
menu (dbm-3.2:pip.march-extra: an order is on the menu when its command's PIPs pay for it).
Illustrative sample data (NOT the published DBM tables)."""

from __future__ import annotations

from typing import Any

from tests.dbm.test_dbm_game import _data

from shieldwall.ai.random_bot import RandomBot
from shieldwall.rulesets.dbm.bots import ScriptedBot
from shieldwall.rulesets.dbm.game import DbmGame
from shieldwall.rulesets.dbm.menu import all_options, candidates, one_option
from shieldwall.rulesets.dbm.state import DbmState


def _full_menu_choice(bot: ScriptedBot, state: DbmState) -> Any:
    """The scripted bot's bound choice as it was made from the whole menu."""
    orders = state.legal_orders()
    view = state.view()
    units = {u["id"]: u for u in view["units"]}
    side = state.side
    held = bot._holding(view, side)
    orders = [
        o
        for o in orders
        if not (o.kind == "move" and o.arg in held)
        and not (o.kind in ("advance", "march") and any(units[h]["command"] == o.arg for h in held))
    ]
    for o in orders:
        if o.kind == "march":
            return o
    for o in orders:
        if o.kind == "dismount" and bot._dismount_pays(state, state.tables, units, o.arg):
            return o
    for o in orders:
        if (
            o.kind == "advance"
            and bot._favoured(state.tables, units, side, o.arg)
            and not bot._general_in_bad_combat(state, bot._c_in_c(state, side), str(o))
        ):
            return o
    for o in orders:
        if (
            o.kind == "move"
            and not units[o.arg]["name"].endswith("general")
            and bot._near_enemy(units, o.arg, side)
        ):
            return o
    return next(o for o in orders if o.kind == "end")


def test_pip_march_extra_one_option_answers_as_the_full_menu() -> None:
    checked = 0
    for seed in range(3):
        st = DbmGame.from_data(_data(), "ford-of-ash.toml").new_state(seed)
        bots = {"red": RandomBot(seed), "blue": RandomBot(seed + 3)}
        for _ in range(400):
            d = st.decision()
            if d is None:
                break
            if d.kind == "bound" and st.bound is not None:
                full = all_options(st.bound, st)
                texts = candidates(st.bound, st)
                assert set(full) <= set(texts)
                assert [t for t in texts if t in full] == list(full)  # the menu's order
                for t in [*texts, "move nobody", "advance nobody", "end", "press r-gen"]:
                    assert one_option(st.bound, st, t) == full.get(t), t
                    checked += 1
            st.apply(bots[d.side].choose(st))
    assert checked > 200


def test_scripted_bot_chooses_as_from_the_full_menu() -> None:
    compared = 0
    for seed in range(4):
        st = DbmGame.from_data(_data(), "ford-of-ash.toml").new_state(seed)
        bots = {"red": ScriptedBot(1), "blue": ScriptedBot(2)}
        while not st.is_terminal():
            d = st.decision()
            assert d is not None
            o = bots[d.side].choose(st)
            if d.kind == "bound":
                ref = st.copy()
                assert o == _full_menu_choice(bots[d.side], ref)
                assert o in st.legal_orders()
                compared += 1
            st.apply(o)
    assert compared > 20


def test_scripted_bot_protects_the_c_in_c_from_a_bad_combat() -> None:
    """Ruling R44: blue's C-in-C, Bd(S), would meet red knights front to front if blue1 advanced
    (blades beaten by knights are destroyed: dbm-3.2:out.bd); the bot moves other elements."""
    st = DbmGame.from_data(_data(), "ford-of-ash.toml").new_state(1)
    bots = {"red": ScriptedBot(1), "blue": ScriptedBot(2)}
    declined = 0
    while not st.is_terminal():
        d = st.decision()
        assert d is not None
        o = bots[d.side].choose(st)
        if d.kind == "bound" and d.side == "blue" and "advance blue1" in [str(x) for x in st.legal_orders()]:
            cinc = ScriptedBot._c_in_c(st, "blue")
            assert cinc == "b-gen"
            if ScriptedBot._general_in_bad_combat(st, cinc, "advance blue1"):
                plan = st.bound.option(st, "advance blue1")[2]  # type: ignore[union-attr,index]
                assert ("b-gen", "r-kn2", "front-to-front") in plan.contacts
                assert str(o) != "advance blue1"
                declined += 1
        st.apply(o)
    assert declined >= 1
    # with the general's element out of it, the C-in-C survives this battle
    assert not any(e.kind == "destroyed" and e.data["id"] == "b-gen" for e in st.events)
