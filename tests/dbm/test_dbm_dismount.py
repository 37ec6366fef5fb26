"""Dismounting played in battles (ruling R39; dbm-3.2:group.limits: single elements only), with
the illustrative sample data (NOT the published DBM tables: r-kn3 may dismount as Bd(O))."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.dbm.test_dbm_game import _data, _play

from shieldwall.ai.random_bot import RandomBot
from shieldwall.core.errors import DataError
from shieldwall.rulesets.dbm.bots import ScriptedBot
from shieldwall.rulesets.dbm.game import DbmGame
from shieldwall.rulesets.dbm.narrate import describe
from shieldwall.rulesets.dbm.scenario import build_scenario
from shieldwall.rulesets.dbm.schemas import DismountAs
from shieldwall.rulesets.dbm.state import DbmState


def test_scripted_bot_dismounts_near_enemy_foot_in_a_battle() -> None:
    st = next(s for s in (_play(seed) for seed in range(40)) if any(e.kind == "dismount" for e in s.events))
    ev = st.events
    d = next(e for e in ev if e.kind == "dismount")
    assert d.rule == "dbm-3.2:group.limits" and d.data == {"id": "r-kn3", "from": "Kn(O)", "to": "Bd(O)"}
    k = ev.index(d)
    paid = ev[k + 1]
    assert paid.kind == "pips-spent" and paid.data["order"] == "dismount r-kn3" and paid.data["pips"] == 1
    assert describe(d) == "r-kn3 dismounts: Kn(O) becomes Bd(O)"
    # afterwards it fights as blades
    later = [e for e in ev[k:] if e.kind == "close-combat" and "r-kn3" in (e.data["a"], e.data["b"])]
    for cc in later:
        steps = cc.data["steps"]["r-kn3"]
        assert any("base factor" in s["what"] for s in steps)
    if "r-kn3" in st.board.el:
        assert st.board.el["r-kn3"].code == "Bd"


def _before_dismount(first: int) -> DbmState:
    """The first scripted battle, from seed ``first`` on, about to dismount r-kn3."""
    for seed in range(first, first + 40):
        st = DbmGame.from_data(_data(), "ford-of-ash.toml").new_state(seed)
        bots = {"red": ScriptedBot(1), "blue": ScriptedBot(2)}
        while not st.is_terminal():
            d = st.decision()
            assert d is not None
            o = bots[d.side].choose(st)
            if str(o) == "dismount r-kn3":
                return st
            st.apply(o)
    raise AssertionError("no scripted battle dismounted r-kn3")


def test_dismount_keeps_the_front_edge_and_is_a_single_element_order() -> None:
    st = _before_dismount(1)
    e = st.board.el["r-kn3"]
    front = e.fp.y + e.fp.depth / 2 if e.fp.heading % 360 == 0 else e.fp.y - e.fp.depth / 2
    assert "dismount r-kn3" in [str(o) for o in st.legal_orders()]
    assert not any(str(o).startswith("dismount r-kn1") for o in st.legal_orders())  # no dismount entry
    st.apply("dismount r-kn3")
    f = st.board.el["r-kn3"]
    assert f.code == "Bd" and f.grade == "O" and f.fp.depth == st.tables.depth("Bd")
    assert f.fp.y + f.fp.depth / 2 == pytest.approx(front)
    assert "dismount r-kn3" not in [str(o) for o in st.legal_orders()]  # once, and it has moved
    assert not any(str(o) == "move r-kn3" for o in st.legal_orders())


def test_random_bots_play_dismounting() -> None:
    seen = 0
    for seed in range(6):
        st = DbmGame.from_data(_data(), "ford-of-ash.toml").new_state(seed)
        bots = {"red": RandomBot(seed), "blue": RandomBot(seed + 50)}
        for _ in range(3000):
            d = st.decision()
            if d is None:
                break
            st.apply(bots[d.side].choose(st))
        assert st.is_terminal()
        seen += sum(e.kind == "dismount" for e in st.events)
    assert seen > 0


def test_dismount_data_errors_name_file_and_field(monkeypatch: pytest.MonkeyPatch) -> None:
    from shieldwall.rulesets.dbm import scenario as sc_mod

    real = sc_mod.load_order_of_battle

    def foot_dismount(node: Any, name: str | None = None) -> Any:
        oob = real(node, name)
        cmds = []
        for c in oob.commands:
            els = [
                el.model_copy(update={"dismount": DismountAs(code="Bd", grade="O")})
                if el.code == "Sp"
                else el
                for el in c.elements
            ]
            cmds.append(c.model_copy(update={"elements": els}))
        return oob.model_copy(update={"commands": cmds})

    monkeypatch.setattr(sc_mod, "load_order_of_battle", foot_dismount)
    with pytest.raises(DataError, match=r"r-sp1\.dismount") as err:
        build_scenario(_data(), "ford-of-ash.toml")
    assert "only a mounted element dismounts" in str(err.value)


def test_exchange_riderless_mounts_left_and_removed_by_an_enemy_move() -> None:
    from shieldwall.rulesets.dbm.advance import apply_plan, plan_advance
    from shieldwall.rulesets.dbm.elements import make
    from shieldwall.rulesets.dbm.riderless import mounts_contacted, positions

    st = _before_dismount(1)
    st.leaves_mounts = frozenset({"r-kn3"})  # the order of battle's dismount = { ..., mounts = true }
    kn = st.board.el["r-kn3"].fp
    ev = st.apply("dismount r-kn3")
    m = next(e for e in ev if e.kind == "riderless-mounts")
    assert m.rule == "dbm-3.2:exchange.riderless" and m.data == {"id": "r-kn3-mounts", "of": "r-kn3"}
    (view,) = st.view()["riderless"]
    assert view["side"] == "red" and view["depth"] == pytest.approx(kn.depth - st.tables.depth("Bd"))
    # the rear of the knights' base, behind the blades
    foot = st.board.el["r-kn3"].fp
    assert view["y"] + view["depth"] / 2 == pytest.approx(foot.y - foot.depth / 2)
    assert describe(m) == "r-kn3 leaves riderless mounts (r-kn3-mounts)"
    # an enemy element moving straight at them is not stopped (no permitted contact needed) and
    # removes them as it passes
    _, fp = st.mounts["r-kn3-mounts"]
    x = make(st.tables, "x", "blue", "Cv", "O", fp.x, fp.y - 200.0, 0.0)  # behind them, facing them
    st.board.put(x)
    before = positions(st)
    reach = (foot.y - foot.depth / 2 - 2.0) - (x.fp.y + x.fp.depth / 2)  # onto the mounts, short of r-kn3
    plan = plan_advance(st.board, ["x"], reach)
    assert plan.dist == pytest.approx(reach)  # not stopped by the mounts
    assert all(t not in ("r-kn3-mounts", "r-kn3") for _, t, _ in plan.contacts)  # no contact with them
    apply_plan(st.board, plan)
    gone = mounts_contacted(st, before)
    assert gone == [
        {"kind": "mounts-removed", "id": "r-kn3-mounts", "by": "x", "rule": "dbm-3.2:exchange.riderless"}
    ]
    assert st.mounts == {} and st.view()["riderless"] == []


def test_exchange_riderless_mounts_in_random_battles() -> None:
    seen = 0
    for seed in range(6):
        st = DbmGame.from_data(_data(), "ford-of-ash.toml").new_state(seed)
        st.leaves_mounts = frozenset({"r-kn3"})
        bots = {"red": RandomBot(seed), "blue": RandomBot(seed + 5)}
        for _ in range(3000):
            d = st.decision()
            if d is None:
                break
            st.apply(bots[d.side].choose(st))
        assert st.is_terminal()
        left = [e for e in st.events if e.kind == "riderless-mounts"]
        seen += len(left)
        for e in st.events:
            if e.kind == "mounts-removed":
                assert e.rule == "dbm-3.2:exchange.riderless"
                assert any(x.kind == "riderless-mounts" and x.data["id"] == e.data["id"] for x in left)
    assert seen > 0


def test_exchange_riderless_mounts_field_is_optional_data() -> None:
    assert DismountAs(code="Bd", grade="O").mounts is False
    assert DismountAs(code="Bd", grade="O", mounts=True).mounts is True


def test_a_dismounted_loss_is_booked_under_its_listed_type_so_simulate_runs() -> None:
    """`shieldwall simulate dbm-3.2/ford-of-ash` stopped at battle 6 (seed 22: "a red Bd was lost but
    the army has none"): r-kn3 dismounted as Bd(O) and was lost. The result's losses by type book it
    as the Kn it was listed as (ruling R39), so every lost type is one of simulate's loss columns."""
    from shieldwall.io.scenarios import load_game
    from shieldwall.sim.runner import loss_columns

    known = {(s, t) for _, s, t in loss_columns([load_game("dbm-3.2/ford-of-ash")])}
    st = _play(22)
    assert any(e.kind == "dismount" and e.data["id"] == "r-kn3" for e in st.events)
    assert any(e.kind == "destroyed" and e.data["id"] == "r-kn3" for e in st.events)
    res = st.result()
    assert res is not None
    assert {(s, t) for s, types in res.losses.items() for t, n in types.items() if n} <= known
    assert res.losses["red"]["Kn"] >= 1 and "Bd" not in res.losses["red"]


def test_simulate_plays_the_battle_with_a_dismounted_loss(capsys: pytest.CaptureFixture[str]) -> None:
    """The same battle through `shieldwall simulate` (seed 0 draws battle 6 with seed 22); the
    summary carries the sample data's label."""
    from shieldwall.cli import run

    cmd = ["simulate", "dbm-3.2/ford-of-ash", "-n", "8", "--workers", "1", "--json", "--no-progress"]
    code = run(cmd)
    cap = capsys.readouterr()
    assert code == 0, cap.err[-2000:]
    out = json.loads(cap.out)
    assert out["battles"] == 8 and set(out["mean_losses"]["red"]) == {"Bge", "Bw", "Cv", "Kn", "Ps", "Sp"}
    assert out["data_label"] == "illustrative data: not the published DBM tables"  # labelled here too
