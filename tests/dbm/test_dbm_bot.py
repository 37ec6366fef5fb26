"""The scripted bot spends PIPs sensibly (issue 19: "march, line up, attack where factors favour it,
protect the general"), one test each for marching and for attacking only where the factors
favour it (issue 22: the close combat's outcomes, not the base factors alone); lining up is
tests/dbm/test_dbm_adjustments.py::test_move_lineup_shift_shown_on_the_table (a scripted advance
that makes the one line-up shift) and protecting the general is
tests/dbm/test_dbm_menu.py::test_scripted_bot_protects_the_c_in_c_from_a_bad_combat (ruling R44).
Illustrative sample data (NOT the published DBM tables)."""

from __future__ import annotations

from typing import Any

from tests.dbm.test_dbm_game import _data

from shieldwall.rulesets.dbm.bots import ScriptedBot
from shieldwall.rulesets.dbm.game import DbmGame
from shieldwall.rulesets.dbm.tables import Tables


def _unit(uid: str, side: str, code: str, command: str, x: float, y: float) -> dict[str, Any]:
    return {"id": uid, "side": side, "type": code, "command": command, "x": x, "y": y, "name": code}


def test_scripted_bot_marches_while_the_enemy_is_far() -> None:
    """March first: whenever a march is on the menu (only while the enemy is far: march.rules keeps
    a march 200 p off known enemy) the bot marches, and each side's first bound opens with one."""
    marches = 0
    for seed in range(4):
        st = DbmGame.from_data(_data(), "ford-of-ash.toml").new_state(seed)
        bots = {"red": ScriptedBot(1), "blue": ScriptedBot(2)}
        first: dict[str, str] = {}
        while not st.is_terminal():
            d = st.decision()
            assert d is not None
            o = bots[d.side].choose(st)
            if d.kind == "bound":
                legal = [str(x) for x in st.legal_orders()]
                if any(t.startswith("march ") for t in legal):
                    assert str(o).startswith("march "), (seed, legal, o)
                first.setdefault(d.side, str(o))
            n = len(st.events)
            st.apply(o)
            if str(o).startswith("march "):
                marches += 1
                assert any(e.kind == "march" for e in st.events[n:])
        assert first["red"].startswith("march ") and first["blue"].startswith("march "), first
    assert marches >= 8


def test_scripted_bot_attacks_only_where_the_factors_favour_it(tables: Tables) -> None:
    """Attack where factors favour it: a command advances when its elements' close combats against
    their nearest enemies favour it, summed over the 36 dice pairs (2 a pair for a kill, 1 for
    beating them otherwise, negative for the reverse; the sample, grade O: Bd against Hd +39 an
    element; Ps against Kn kill in 1, beat them in 9 and are beaten in 21: -10)."""
    blades = [_unit("b1", "red", "Bd", "red1", 0, 0), _unit("b2", "red", "Bd", "red1", 80, 0)]
    horde = [_unit("h1", "blue", "Hd", "blue1", 0, 300), _unit("h2", "blue", "Hd", "blue1", 80, 300)]
    psiloi = [_unit("p1", "red", "Ps", "red2", 600, 0)]
    knights = [_unit("k1", "blue", "Kn", "blue2", 600, 300)]
    units = {u["id"]: u for u in blades + horde + psiloi + knights}
    assert ScriptedBot._favoured(tables, units, "red", "red1")  # 2 x 39 > 0
    assert not ScriptedBot._favoured(tables, units, "red", "red2")  # 2 x 1 + 9 - 21 < 0
    assert ScriptedBot._favoured(tables, units, "blue", "blue2")  # -2 x 1 + 21 - 9 > 0
    # and in play: every advance the bot orders is favoured; some unfavoured ones are declined
    declined = advanced = 0
    for seed in range(4):
        st = DbmGame.from_data(_data(), "ford-of-ash.toml").new_state(seed)
        bots = {"red": ScriptedBot(1), "blue": ScriptedBot(2)}
        while not st.is_terminal():
            d = st.decision()
            assert d is not None
            o = bots[d.side].choose(st)
            if d.kind == "bound":
                view = {u["id"]: u for u in st.view()["units"]}
                offered = [x.arg for x in st.legal_orders() if x.kind == "advance"]
                if o.kind == "advance":
                    assert ScriptedBot._favoured(st.tables, view, d.side, o.arg)
                    advanced += 1
                declined += sum(
                    1 for c in offered if c != o.arg and not ScriptedBot._favoured(st.tables, view, d.side, c)
                )
            st.apply(o)
    assert advanced >= 4 and declined >= 1, (advanced, declined)


def test_scripted_bot_weighs_the_combat_outcomes_not_the_base_factors_alone(tables: Tables) -> None:
    """Issue 22: blades and warband advancing on knights. Their base factors are at least the
    knights' (Bd 5 v mounted, Wb 3, Kn 3 v foot), so the bot used to advance them; but in the 36
    dice pairs of the close combat the knights destroy the blades in 15 and lose in 2, and the
    warband in 21 against 1 (a beaten Bd or Wb is destroyed by knights). The knights advancing
    on them are favoured."""
    blades = [_unit("b1", "blue", "Bd", "blue1", 0, 300), _unit("b2", "blue", "Bd", "blue1", 80, 300)]
    warband = [_unit("w1", "blue", "Wb", "blue2", 600, 300)]
    knights = [_unit("k1", "red", "Kn", "red1", 0, 0), _unit("k2", "red", "Kn", "red1", 80, 0)]
    knights2 = [_unit("k3", "red", "Kn", "red2", 600, 0)]
    for u in blades + warband + knights + knights2:
        u["grade"] = "O"
    units = {u["id"]: u for u in blades + warband + knights + knights2}
    assert not ScriptedBot._favoured(tables, units, "blue", "blue1")
    assert not ScriptedBot._favoured(tables, units, "blue", "blue2")
    assert ScriptedBot._favoured(tables, units, "red", "red1")
    assert ScriptedBot._favoured(tables, units, "red", "red2")
