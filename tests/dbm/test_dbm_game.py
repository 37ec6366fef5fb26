"""Slice 5: the playable game (scenario, phases, bounds), the scripted bot, odds, narration and the
``dbm-army cost`` command. The scenario and data are illustrative, NOT the published DBM tables."""

from __future__ import annotations

import copy
import json
import pickle
import tomllib
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shieldwall.core.errors import DataError, IllegalOrder, ShieldwallError
from shieldwall.rulesets.dbm.bots import ScriptedBot
from shieldwall.rulesets.dbm.game import DbmGame
from shieldwall.rulesets.dbm.narrate import describe
from shieldwall.rulesets.dbm.odds import PLUGIN as ODDS
from shieldwall.rulesets.dbm.odds import SpecError
from shieldwall.rulesets.dbm.state import DbmState

SCEN = resources.files("shieldwall.rulesets.dbm") / "scenarios" / "ford-of-ash.toml"


def _data(**kw: object) -> dict[str, object]:
    d = tomllib.loads(SCEN.read_text(encoding="utf-8"))
    d.update(kw)
    return d


def _play(seed: int, **kw: object) -> DbmState:
    g = DbmGame.from_data(_data(**kw), "ford-of-ash.toml")
    st = g.new_state(seed)
    bots = {"red": ScriptedBot(1), "blue": ScriptedBot(2)}
    for _ in range(2000):
        if st.is_terminal():
            break
        d = st.decision()
        assert d is not None
        st.apply(bots[d.side].choose(st))
    return st


def test_a_scripted_battle_ends_and_is_deterministic() -> None:
    a, b = _play(4), _play(4)
    assert a.is_terminal() and a.result() is not None
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]
    assert a.events[0].data["data"] == "illustrative data: not the published DBM tables"
    assert all(e.rule.startswith("dbm-3.2:") for e in a.events)
    kinds = Counter(e.kind for e in a.events)
    assert kinds["pip-dice"] >= 2 and kinds["deployed"] == 4 and kinds["baggage-assigned"] == 2


def test_deploy_first_largest_command_and_rectangles() -> None:
    st = _play(1)
    orders = [e for e in st.events if e.kind == "deploy-order"]
    assert orders[0].data["order"] == ["red2", "red1"]  # 7 elements before 5
    assert orders[0].rule == "dbm-3.2:deploy.first"
    assert {e.rule for e in st.events if e.kind == "deployed"} == {"dbm-3.2:deploy.rectangle"}


def test_terrain_procedure_phase_seeded_and_logged() -> None:
    g = DbmGame.from_data(_data(terrain_procedure="dbm"), "f.toml")
    st = g.new_state(5)
    d = st.decision()
    assert d is not None and d.kind == "terrain" and d.side == "red"
    assert [str(o) for o in st.legal_orders()] == [
        "terrain none",
        "terrain road",
        "terrain river",
        "terrain road-hills-2",
        "terrain road-hills-3",
    ]
    ev = st.apply("terrain river")
    assert any(e.kind == "die" for e in ev)
    st2 = g.new_state(5)
    assert [e.to_dict() for e in st2.apply("terrain river")] == [e.to_dict() for e in ev]
    d = st.decision()
    assert d is not None and d.kind == "terrain" and d.side == "blue"  # now the defender's features


def _no_wood(**kw: object) -> dict[str, object]:
    """ford-of-ash by the procedure without its scenario wood, so the defender's compulsory wood is
    not yet present and is his to place (dbm-3.2:terrain.def-total)."""
    d = _data(**kw)
    terrain = d["terrain"]
    assert isinstance(terrain, list)
    return {**d, "terrain": [t for t in terrain if t["kind"] != "wood"]}


def _terrain_orders(st: DbmState) -> list[str]:
    return [str(o) for o in st.legal_orders()]


def test_terrain_procedure_played_by_the_defender_and_the_invader() -> None:
    """The whole procedure is the players' (terrain.invader, .def-total, .def-phases, .inv-area,
    .position): the invader's option; the defender's compulsory feature placed for him, counting
    half, then his own choices until 2-3 feature equivalents; then, if the invader placed nothing,
    his area features up to 1.5 FE. Each feature is diced into position and logged."""
    g = DbmGame.from_data(_no_wood(terrain_procedure="dbm"), "f.toml")
    # the invader takes a road: the defender places, then deployment (no invader area step)
    st = g.new_state(3)
    st.apply("terrain road")
    d = st.decision()
    assert d is not None and d.side == "blue" and "defender" in d.prompt
    mine = [e for e in st.events if e.kind == "terrain-placed" and e.data["by"] == "defender"]
    assert [(e.data["what"], e.side, e.rule) for e in mine] == [("wood", "blue", "dbm-3.2:terrain.position")]
    assert st.terrain_steps.defender_fe == 0.5  # the list's compulsory wood counts half
    assert "terrain done" not in _terrain_orders(st)  # fewer than 2 FE
    with pytest.raises(IllegalOrder) as err:
        st.apply("terrain done")
    assert err.value.rule == "dbm-3.2:terrain.def-total"
    st.apply("terrain brush")
    st.apply("terrain hill-gentle")
    assert st.terrain_steps.defender_fe == 2.5 and "terrain done" in _terrain_orders(st)
    assert "terrain brush" not in _terrain_orders(st) and "terrain wood" in _terrain_orders(
        st
    )  # 3 FE at most
    st.apply("terrain done")
    d = st.decision()
    assert d is not None and d.kind == "deploy"
    done = st.events[-1]
    assert done.kind == "terrain-done" and done.data == {"invader": "road", "defender_fe": 2.5}
    placed = [e for e in st.events if e.kind == "terrain-placed" and e.data["by"] == "defender"]
    assert [e.data["what"] for e in placed] == ["wood", "brush", "hill-gentle"]
    assert all(e.data["position_die"] in range(1, 7) for e in placed)
    assert [describe(e) for e in placed][1] == "defender places brush"
    assert [t["kind"] for t in st.view()["terrain"]][-3:] == ["wood", "brush", "hill-gentle"]
    # the invader places nothing: after the defender, his area features (terrain.inv-area)
    st = g.new_state(3)
    for o in ("terrain none", "terrain brush", "terrain hill-gentle", "terrain done"):
        st.apply(o)
    d = st.decision()
    assert d is not None and d.side == "red" and "area features" in d.prompt
    assert _terrain_orders(st) == ["terrain wood", "terrain brush", "terrain hill-gentle", "terrain done"]
    st.apply("terrain wood")
    assert _terrain_orders(st) == ["terrain done"]  # 1 FE placed, another would pass 1.5
    with pytest.raises(IllegalOrder) as err:
        st.apply("terrain brush")
    assert err.value.rule == "dbm-3.2:terrain.inv-area"
    st.apply("terrain done")
    assert st.events[-1].data == {"invader": "none", "defender_fe": 2.5, "invader_area_fe": 1.0}
    inv = [e for e in st.events if e.kind == "terrain-placed" and e.data["by"] == "invader"]
    assert [(e.data["what"], e.rule) for e in inv][-1] == ("wood", "dbm-3.2:terrain.inv-area")


def test_terrain_def_river_played_by_the_defender() -> None:
    """dbm-3.2:terrain.def-river and .def-phases in play: the defender may try one river before his
    optional area features: a 6 to place it (it is not compulsory for his list), then the zone die
    puts it in a quarter of the table depth counted from his own edge (1 nearest him ... 6 nearest
    the invader), from one short edge to the other; a failed die refuses it and it is not offered
    again. Blue defends, his rear edge at y = 1600; zones are 400 p deep."""
    g = DbmGame.from_data(_no_wood(terrain_procedure="dbm"), "f.toml")
    for seed, zone_die, y_mid in ((4, 6, 200.0), (6, 3, 1000.0)):
        st = g.new_state(seed)
        st.apply("terrain road")
        assert "terrain river" in _terrain_orders(st)
        n = len(st.events)
        st.apply("terrain river")
        faces = [e.data["face"] for e in st.events[n:] if e.kind == "die"]
        assert faces == [6, zone_die]
        placed = st.events[-1]
        assert placed.kind == "terrain-placed" and placed.rule == "dbm-3.2:terrain.def-river"
        river = st.terrain[-1]
        assert river["kind"] == "river" and (river["x0"], river["x1"]) == (0.0, 2400.0)
        assert (river["y0"] + river["y1"]) / 2 == y_mid
        assert st.terrain_steps.defender_fe == 1.5 and "terrain river" not in _terrain_orders(st)
    st = g.new_state(0)
    st.apply("terrain road")
    st.apply("terrain river")
    assert st.events[-1].kind == "terrain-refused" and st.events[-1].rule == "dbm-3.2:terrain.def-river"
    assert describe(st.events[-1]) == "no river: the dice refused it"
    assert "terrain river" not in _terrain_orders(st) and st.terrain_steps.defender_fe == 0.5
    # after an optional area feature, the river's turn has passed (terrain.def-phases)
    st = g.new_state(4)
    st.apply("terrain road")
    st.apply("terrain brush")
    assert "terrain river" not in _terrain_orders(st)


def test_terrain_procedure_played_by_bots_to_the_end() -> None:
    """Scripted and random bots play the procedure through for both sides (seeded, replayable)."""
    from shieldwall.ai.random_bot import RandomBot

    g = DbmGame.from_data(_data(terrain_procedure="dbm"), "f.toml")
    for seed in range(6):
        runs = []
        for _ in range(2):
            st = g.new_state(seed)
            kind = RandomBot if seed % 2 else ScriptedBot
            bots = {"red": kind(seed), "blue": kind(seed + 1)}
            while st.phase == "terrain":
                d = st.decision()
                assert d is not None
                st.apply(bots[d.side].choose(st))
            assert 2 <= st.terrain_steps.defender_fe <= 3 and st.terrain_steps.invader_fe <= 1.5
            runs.append([e.to_dict() for e in st.events])
        assert runs[0] == runs[1]


def test_illegal_orders_name_a_clause_and_change_nothing() -> None:
    st = DbmGame.from_data(_data(), "f.toml").new_state(1)
    before = json.dumps(st.view(), sort_keys=True)
    for bad in ("march red1", "advance", "fly away now", {"kind": "move", "unit": "x"}):
        with pytest.raises(IllegalOrder) as e:
            st.apply(bad)
        assert e.value.rule.startswith("dbm-3.2:")
    assert json.dumps(st.view(), sort_keys=True) == before


def test_pip_march_extra_paid_in_play() -> None:
    st = _play(3)
    marches = [e for e in st.events if e.kind == "march"]
    assert marches and all(e.data["pips"] >= 1 for e in marches)
    spent = [e for e in st.events if e.kind == "pips-spent"]
    assert all(e.rule == "dbm-3.2:pip.march-extra" for e in spent)


def test_loss_ee_booked_and_result() -> None:
    st = _play(2)
    res = st.result()
    assert res is not None
    lost = sum(c.lost_ee for c in st.commands.values())
    assert lost > 0 or res.winner is None


def test_copy_is_independent() -> None:
    st = DbmGame.from_data(_data(), "f.toml").new_state(7)
    c = st.copy()
    snap = json.dumps(st.view(), sort_keys=True)
    for _ in range(40):
        if c.is_terminal():
            break
        c.apply(c.legal_orders()[0])
    assert json.dumps(st.view(), sort_keys=True) == snap


def test_a_state_mid_bound_deep_copied_or_pickled_plays_on_as_the_original() -> None:
    """``copy.deepcopy`` and ``pickle`` of a state in the middle of a bound (its board, bound and
    memos compiled on a build: ``Board.__reduce__``, ``Bound``'s default side) give a state that
    plays on as the original does, event for event; the scripted bot deep-copied chooses alike."""
    st = DbmGame.from_data(_data(), "f.toml").new_state(5)
    bots = {s: ScriptedBot(i) for i, s in enumerate(("red", "blue"))}
    while st.bound is None or len(st.board.plan_memo) + len(st.board.engaged_memo) == 0:
        d = st.decision()
        assert d is not None and not st.is_terminal()
        st.apply(bots[d.side].choose(st))
    twins = [copy.deepcopy(st), pickle.loads(pickle.dumps(st))]
    assert all(t.board is not st.board and t.bound is not st.bound for t in twins)
    assert all(t.board.el.keys() == st.board.el.keys() and t.board.forts == st.board.forts for t in twins)
    copied_bots = copy.deepcopy(bots)
    for _ in range(30):
        if st.is_terminal():
            break
        side = st.decision().side  # type: ignore[union-attr]
        o = bots[side].choose(st)
        assert copied_bots[side].choose(twins[0]) == o
        for s in (st, *twins):
            s.apply(o)
    assert all(t.events == st.events for t in twins)


def _attrs(x: object) -> dict[str, object]:
    """An object's attributes: ``vars``, or for a compiled class (mypyc's, no ``__dict__``) the
    attributes its class lists (``__mypyc_attrs__``)."""
    names = getattr(type(x), "__mypyc_attrs__", None)
    if names is None:
        return dict(vars(x))
    return {n: getattr(x, n) for n in names if not n.startswith("__")}


def test_a_bound_copied_has_what_a_deep_copy_has_and_shares_no_container() -> None:
    """``Bound.copy`` (the state's copy of its bound, in place of a deep copy): every attribute
    the bound has, equal to a deep copy's, each set, dict and list its own; and a state copied in
    the middle of a bound (its menus kept) plays on as the original does."""
    st = DbmGame.from_data(_data(), "f.toml").new_state(3)
    bots = {s: ScriptedBot(i) for i, s in enumerate(("red", "blue"))}
    checked = 0
    while not st.is_terminal() and checked < 12:
        d = st.decision()
        assert d is not None
        if st.bound is not None:
            st.legal_orders()  # the menu memos filled, as a search's copy finds them
            b = st.bound
            got, deep = b.copy(), copy.deepcopy(b)
            assert _attrs(got).keys() == _attrs(b).keys() and len(_attrs(b)) >= 10
            assert _attrs(got) == _attrs(deep)
            for name, value in _attrs(b).items():
                if isinstance(value, (set, dict, list)):
                    assert _attrs(got)[name] is not value, name
            assert got.after is not b.after and got.after.fought is not b.after.fought
            twin = st.copy()
            assert twin.bound is not None and twin.bound is not st.bound
            for _ in range(6):
                if st.is_terminal():
                    break
                o = bots[st.decision().side].choose(st)  # type: ignore[union-attr]
                assert str(o) in {str(x) for x in twin.legal_orders()}
                st.apply(o)
                twin.apply(o)
            assert twin.events == st.events
            checked += 1
            continue
        st.apply(bots[d.side].choose(st))
    assert checked >= 3


def test_scenario_errors_name_file_and_field() -> None:
    with pytest.raises(DataError, match=r"f.toml: armies.blue"):
        DbmGame.from_data(_data(armies={"red": "frankish", "blue": "nobody"}), "f.toml")
    with pytest.raises(DataError, match=r"terrain\[0\].kind"):
        DbmGame.from_data(_data(terrain=[{"kind": "lava", "x0": 0, "y0": 0, "x1": 1, "y1": 1}]), "f.toml")
    with pytest.raises(DataError, match="unknown field"):
        DbmGame.from_data(_data(colour="red"), "f.toml")


def test_fig_11_odds_who_kills_whom() -> None:
    r = ODDS.attack("Bd(O)", "Pk(O)/Pk(O)/Pk(O)/Pk(O)", {"overlaps": 2})
    p = r.probabilities
    assert sum(p.values()) == 1 and p.get(2, 0) > 0  # the doubled pikes of Fig 11b can die
    assert "illustrative data: not the published DBM tables" in r.details
    with pytest.raises(SpecError):
        ODDS.parse_spec("Zz(O)")
    m = ODDS.matrix()
    i, j = m.types.index("Kn(O)"), m.types.index("Bd(O)")
    assert m.first_wins["front"][i][j] is not None and m.first_wins["front"][i][j] > 0


def test_odds_matrix_lists_setting_and_its_label_in_the_text() -> None:
    """`odds matrix dbm-3.2 --set lists=A:B` accepts the sample's list pairs (it refused every value:
    "valid choices: " and nothing), names them when wrong, and the text output carries the
    illustrative-data label, as the JSON's notes do."""
    from rich.console import Console

    from shieldwall.core.errors import UnknownName
    from shieldwall.odds.render import matrix_tables

    m = ODDS.matrix({"lists": "norse-irish-illustrative:frankish-illustrative"})
    assert m.types[0] == "Bd(S)" and "Kn(O)" in m.types
    assert ODDS.matrix(["lists=frankish-illustrative:frankish-illustrative"]).types[0] == "Kn(O)"
    with pytest.raises(UnknownName, match="frankish-illustrative:norse-irish-illustrative"):
        ODDS.matrix({"lists": "foo:bar"})
    console = Console(width=200, record=True)
    for t in matrix_tables(m):
        console.print(t)
    assert "illustrative data: not the published DBM tables" in console.export_text()


def test_narration_has_a_line_for_combat() -> None:
    st = _play(2)
    lines = [describe(e) for e in st.events]
    assert any(ln and " v " in ln for ln in lines)
    assert lines[0] and "illustrative data" in lines[0]


def test_dbm_army_cost_command(tmp_path: Path) -> None:
    import typer

    from shieldwall.rulesets.dbm.cli import register

    app = typer.Typer()
    register(app)
    r = CliRunner().invoke(app, ["dbm-army", "cost", "frankish"])
    assert r.exit_code == 0, r.output
    assert "illustrative data" in r.output and "total 130.5 AP" in r.output
    bad = tmp_path / "a.toml"
    text = (
        resources.files("shieldwall.rulesets.dbm") / "data" / "sample" / "armies" / "frankish.toml"
    ).read_text()
    bad.write_text(text.replace("baggage = 6", "baggage = 8"))
    r = CliRunner().invoke(app, ["dbm-army", "cost", str(bad), "--json"])
    assert r.exit_code == 2
    out = r.output[: r.output.rindex("}") + 1]
    assert json.loads(out)["problems"][0]["rule"] == "dbm-3.2:size.baggage"
    assert "error:" in r.output and "dbm-3.2:size.baggage" in r.output.splitlines()[-1]
    r = CliRunner().invoke(app, ["dbm-army", "cost", "nobody"])
    assert r.exit_code == 2


def test_drawing_bases_in_paces() -> None:
    from shieldwall.render.svg import render_svg
    from shieldwall.rulesets.dbm.drawing import DRAWING

    st = DbmGame.from_data(_data(), "f.toml").new_state(1)
    bot = ScriptedBot(1)
    for _ in range(4):
        st.apply(bot.choose(st))
    view = st.view()
    assert view["table"]["unit"] == "pace" and view["units"][0]["frontage"] == 80.0
    stream = DRAWING.terrain(view, view["terrain"][-1])
    assert stream["kind"] == "river" and stream["points"] == [[0.0, 800.0], [2400.0, 800.0]]
    svg = render_svg(view, scale=0.5)
    assert 'data-unit="r-gen"' in svg and "terrain-hill" in svg


def test_size_baggage_through_the_host_army_cost_command(tmp_path: Path) -> None:
    """``shieldwall army cost FILE`` finds dbm-3.2 by the file's ``ruleset`` key (plugin army_cost)."""
    from shieldwall.rulesets.dbm.cli import army_cost

    src = resources.files("shieldwall.rulesets.dbm") / "data" / "sample" / "armies" / "norse-irish.toml"
    good = tmp_path / "ni.toml"
    good.write_text(src.read_text())
    army_cost(good, False, True)  # validates
    bad = tmp_path / "bad.toml"
    bad.write_text(src.read_text().replace("baggage = 6", "baggage = 7"))
    with pytest.raises(ShieldwallError, match="dbm-3.2:size.baggage"):
        army_cost(bad)
    with pytest.raises(DataError):
        army_cost(tmp_path / "nothing.toml", False, True) if (tmp_path / "nothing.toml").write_text(
            "x = 1"
        ) else None


def _with_ally(nation: str | None) -> DbmGame:
    """ford-of-ash with blue's sub-general's command an ally (its general irregular, Wb(O))."""
    g = DbmGame.from_data(_data(), "ford-of-ash.toml")
    oob = g.scenario.armies["blue"]
    cmds = [c if c.c_in_c else c.model_copy(update={"ally": True, "nation": nation}) for c in oob.commands]
    g.scenario.armies["blue"] = oob.model_copy(update={"commands": cmds})
    return g


def test_ally_unreliable_b_in_play_compares_the_army_lists_nation() -> None:
    """dbm-3.2:ally.unreliable-b: an irregular ally changes sides if it is "of a different nation to
    the main army". The main army's nation is its list's (`nation = "Norse-Irish"`), and an ally
    without a nation is of it: neither changes sides (the engine compared the order of battle's
    name, "Blue: Norse-Irish (illustrative)", so an ally stating the list's nation flipped). An ally
    of another nation does, once the other command is demoralised, and blue is then beaten."""
    assert _with_ally(None).scenario.tables.lists["norse-irish-illustrative"].nation == "Norse-Irish"
    for nation, flips in ((None, False), ("Norse-Irish", False), ("Picts", True)):
        st = _with_ally(nation).new_state(2)
        bots = {"red": ScriptedBot(1), "blue": ScriptedBot(2)}
        while not st.is_terminal():
            d = st.decision()
            assert d is not None
            st.apply(bots[d.side].choose(st))
        ev = [e for e in st.events if e.kind == "ally-changes-sides"]
        assert bool(ev) == flips, nation
        assert any(e.kind == "demoralised" and e.data["command"] == "blue1" for e in st.events), nation
        if flips:
            assert ev[0].data == {"command": "blue2", "from": "blue", "to": "red"}
            assert ev[0].rule == "dbm-3.2:ally.unreliable-b" and st.commands["blue2"].side == "red"
            res = st.result()
            assert res is not None and res.winner == "red"
