"""Off-table flank marches arriving in battle (dbm-3.2:flank.who, dbm-3.2:flank.both, ruling R38),
with the illustrative sample data (NOT the published DBM tables: ``flank_arrival = [6]``)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from tests.dbm.test_dbm_game import _data

from shieldwall.ai.random_bot import RandomBot
from shieldwall.rulesets.dbm.bots import ScriptedBot
from shieldwall.rulesets.dbm.game import DbmGame
from shieldwall.rulesets.dbm.schemas import GameFile
from shieldwall.rulesets.dbm.state import DbmState


def _game(red_flank: str | None = "right", blue_flank: str | None = None) -> DbmGame:
    g = DbmGame.from_data(_data(), "ford-of-ash.toml")
    for side, flank in (("red", red_flank), ("blue", blue_flank)):
        if flank is None:
            continue
        oob = g.scenario.armies[side]
        cmds = [
            c if c.c_in_c else c.model_copy(update={"flank_march": True, "flank": flank})
            for c in oob.commands
        ]
        g.scenario.armies[side] = oob.model_copy(update={"commands": cmds})
    return g


def _play(g: DbmGame, seed: int, random: bool = False) -> DbmState:
    st = g.new_state(seed)
    bots = (
        {"red": RandomBot(seed), "blue": RandomBot(seed + 1)}
        if random
        else {"red": ScriptedBot(1), "blue": ScriptedBot(2)}
    )
    for _ in range(3000):
        d = st.decision()
        if d is None:
            break
        st.apply(bots[d.side].choose(st))
    return st


def test_flank_march_stays_off_table_then_arrives_on_a_six() -> None:
    g = _game("right")
    st = _play(g, 0)
    ev = st.events
    fm = next(e for e in ev if e.kind == "flank-march")
    assert fm.rule == "dbm-3.2:flank.who" and fm.data["flank"] == "right"
    cmd = fm.data["command"]
    ids = st.commands[cmd].elements
    arrived = [e for e in ev if e.kind == "flank-march-arrives"]
    assert len(arrived) == 1, "seed 0: the flank march arrives once"
    a = arrived[0]
    k = ev.index(a)
    assert a.rule == "dbm-3.2:flank.who" and a.data["ids"] == ids
    # the command's PIP die of that bound showed an arrival score (sample: 6)
    pips = ev[k - 1]
    assert pips.kind == "pip-dice" and pips.data["faces"][pips.data["commands"].index(cmd)] == 6
    # in earlier bounds its die never showed a 6, and no event named its elements
    for e in ev[: k - 1]:
        if e.kind == "pip-dice" and cmd in e.data["commands"] and e.side == "red":
            assert e.data["faces"][e.data["commands"].index(cmd)] != 6
        assert e.data.get("id") not in ids and e.data.get("a") not in ids and e.data.get("b") not in ids
    # it is not offered the baggage (not an on-table command) and, once arrived, it acts
    assert not any(e.kind == "baggage-assigned" and e.data.get("command") == cmd for e in ev)
    later = ev[k + 1 :]
    assert any(e.data.get("command") == cmd or set(e.data.get("ids", ())) & set(ids) for e in later)


def test_flank_march_enters_on_its_table_edge_facing_in() -> None:
    g = _game("right")
    st = g.new_state(0)
    bot = ScriptedBot(1)
    while not any(e.kind == "flank-march-arrives" for e in st.events):
        st.apply(bot.choose(st))
    a = next(e for e in st.events if e.kind == "flank-march-arrives")
    for i in a.data["ids"]:
        fp = st.board.el[i].fp
        assert fp.heading % 360 == 270.0  # facing -x, into the table from the x = width edge
        assert fp.x + fp.depth / 2 == pytest.approx(st.board.width)


def test_flank_both_compares_element_totals() -> None:
    g = _game("left", "right")  # red's left and blue's right are the same (x = 0) table edge
    st = _play(g, 3)
    cmp = [e for e in st.events if e.kind == "flank-march-compare"]
    assert cmp and cmp[0].rule == "dbm-3.2:flank.both"
    assert len(cmp[0].data["elements"]) == 2 and cmp[0].data["larger"] in (*cmp[0].data["commands"], "equal")


def test_random_bots_play_battles_with_flank_marches() -> None:
    for seed in (1, 2):
        st = _play(_game("left", "left"), seed, random=True)
        assert st.is_terminal()


def test_flank_arrival_scores_are_die_faces() -> None:
    base = {
        "bound_limit": 20,
        "vp_scale_max": 10,
        "demoralised_at_fraction": 0.3,
        "army_defeat_fraction": 0.5,
    }
    meta = {"source": "test", "illustrative": True}
    with pytest.raises(ValidationError, match="flank_arrival"):
        GameFile.model_validate({**base, "command_range_p": 400.0, "flank_arrival": [7], "meta": meta})
