"""Deployment by hand in dbm-3.2 (``hand_deployment``, ruling R45): the order of placing
(dbm-3.2:deploy.first), the zone and the rectangles (dbm-3.2:deploy.rectangle), baggage after it
(dbm-3.2:deploy.baggage), the menus and bots, replays. Illustrative sample data (NOT the published
DBM tables)."""

from __future__ import annotations

from pathlib import Path

import pytest

from shieldwall.ai import make_bot
from shieldwall.core.errors import IllegalOrder
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.dbm import hand
from shieldwall.rulesets.dbm.game import PARAMETERS
from shieldwall.rulesets.dbm.state import DbmState

RS = "dbm-3.2"
SCEN = "dbm-3.2/ford-of-ash"
HAND = {"hand_deployment": True}


def _state(seed: int = 1, scen: str = SCEN) -> DbmState:
    st = load_game(scen, HAND).new_state(seed)
    assert isinstance(st, DbmState)
    return st


def _refused(st: DbmState, order: str) -> IllegalOrder:
    with pytest.raises(IllegalOrder) as exc:
        st.copy().apply(order)
    return exc.value


def test_off_by_default_the_seeded_procedure_deploys() -> None:
    assert PARAMETERS["hand_deployment"].default is False
    assert PARAMETERS["hand_deployment"].rule == f"{RS}:deploy.rectangle"
    st = load_game(SCEN).new_state(1)
    assert [str(o) for o in st.legal_orders()] == ["deploy line", "deploy deep"]
    assert "deployment" not in st.view()
    assert _refused(st, "place red2:line@1000,420").rule == f"{RS}:deploy.first"  # type: ignore[arg-type]


def test_deploy_first_the_largest_command_is_placed_first() -> None:
    st = _state()
    d = st.decision()
    assert d is not None and d.kind == "deploy" and d.data == {"command": "red2"} and d.unit == "r-sub"
    assert hand.text_order(st, "red") == ["red2", "red1"]
    err = _refused(st, "place red1:line@1000,420")
    assert err.rule == f"{RS}:deploy.first" and "red places red2 now" in str(err)
    assert _refused(st, "place blue1:line@1000,420").rule == f"{RS}:deploy.first"


def test_deploy_rectangle_wholly_within_the_zone() -> None:
    st = _state()
    assert hand.zone(st, "red") == (0.0, 120.0, 2400.0, 420.0)  # behind the baggage row to 420 p
    assert hand.zone(st, "blue") == (0.0, 1180.0, 2400.0, 1480.0)
    for bad in ("place red2:line@1000,460", "place red2:line@100,420", "place red2:deep@1000,150"):
        err = _refused(st, bad)
        assert err.rule == f"{RS}:deploy.rectangle" and "deployment zone" in str(err), bad
    assert _refused(st, "place red2:wide@1000,420").rule == f"{RS}:deploy.rectangle"
    assert _refused(st, "place red2:line@x,1").rule == f"{RS}:deploy.rectangle"


def test_deploy_rectangle_may_touch_but_not_intersect_another() -> None:
    st = _state()
    st.apply("place red2:line@1000,420")
    box = hand.placed_boxes(st, "red")["red2"]
    assert box == (720.0, 360.0, 1280.0, 420.0)
    err = _refused(st, "place red1:line@1400,420")  # red1 is 400 p wide: x 1200-1600
    assert err.rule == f"{RS}:deploy.rectangle" and "intersect red2's" in str(err)
    st.apply("place red1:line@1480,420")  # x 1280-1680: touching red2's rectangle
    ev = [e for e in st.events if e.kind == "deployed"]
    assert [e.data["command"] for e in ev] == ["red2", "red1"]
    assert ev[1].rule == f"{RS}:deploy.rectangle" and ev[1].data["at"] == [1480.0, 420.0]
    d = st.decision()
    assert d is not None and d.side == "blue" and d.kind == "deploy"


def test_a_placement_that_leaves_no_room_for_the_rest_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # a small zone (x 0-800, y 120-250) to test the rule: red2 in line is 560 p wide, 60 p deep;
    # red1 in line is 400 p wide, 60 p deep
    monkeypatch.setattr(hand, "FRONT_P", 250.0)
    st = _state()
    st.board.width = 800.0
    err = _refused(st, "place red2:line@400,220")  # 30 p in front, 40 p behind, 120 p each side
    assert err.rule == f"{RS}:deploy.rectangle" and "no room" in str(err) and "red1" in str(err)
    st.apply("place red2:line@400,250")  # 70 p behind it: room for red1
    assert [str(o) for o in hand.menu(st)][0].startswith("place red1:line@")


def test_baggage_after_both_sides_have_deployed() -> None:
    st = _state()
    bots = {s: make_bot("scripted", 1, RS) for s in ("red", "blue")}
    given = []
    while (d := st.decision()) is not None and d.kind == "deploy":
        o = bots[d.side].choose(st)
        given.append(str(o))
        st.apply(o)
    assert given == [
        "place red2:deep@1000.0,420.0",  # the seeded procedure's deep places: side by side, touching
        "place red1:deep@1400.0,420.0",
        "place blue2:deep@1120.0,1180.0",
        "place blue1:deep@1400.0,1180.0",
    ]
    d = st.decision()
    assert d is not None and d.kind == "baggage" and d.side == "red"
    st.apply(st.legal_orders()[0])
    assert any(e.kind == "baggage-assigned" and e.rule == f"{RS}:deploy.baggage" for e in st.events)
    assert "deployment" not in st.view()


@pytest.mark.parametrize("bot", ["scripted", "random", "mcts:4"])
def test_bot_v_bot_with_hand_deployment_plays_to_the_end(bot: str) -> None:
    st = _state(seed=3)
    bots = {s: make_bot(bot, 7, RS) for s in ("red", "blue")}
    for _ in range(2000):
        d = st.decision()
        if d is None:
            break
        st.apply(bots[d.side].choose(st))
        if bot.startswith("mcts") and d.kind != "deploy":
            bots = {s: make_bot("scripted", 7, RS) for s in ("red", "blue")}  # mcts for the deployment
    assert st.is_terminal()
    assert sum(1 for e in st.events if e.kind == "deployed") == 4


def test_the_view_gives_zones_the_next_command_and_its_offsets() -> None:
    st = _state()
    dep = st.view()["deployment"]
    assert dep["zones"]["red"] == [0.0, 120.0, 2400.0, 420.0] and dep["waiting"] == ["red2", "red1"]
    nxt = dep["next"]
    assert nxt["command"] == "red2" and nxt["rule"] == f"{RS}:deploy.rectangle"
    line = nxt["layouts"]["line"]
    assert line["suggested"] == [1000.0, 420.0]
    units = {u["id"]: u for u in st.view()["units"]}
    for e in line["elements"]:  # the preview stands at the suggested place
        assert units[e["id"]]["preview"] is True
        assert units[e["id"]]["x"] == pytest.approx(1000.0 + e["dx"])
        assert units[e["id"]]["y"] == pytest.approx(420.0 + e["dy"])


def test_cli_battle_and_replay_with_hand_deployment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from shieldwall.cli import run

    save = tmp_path / "s.json"
    args = ["battle", SCEN, "--seed", "5", "--red", "random", "--variant", "hand_deployment=true"]
    assert run([*args, "--save", str(save)]) == 0
    text = save.read_text()
    assert '"arg": "red2:' in text and '"hand_deployment": "true"' in text
    capsys.readouterr()
    assert run(["replay", str(save)]) == 0
    assert "all identical" in capsys.readouterr().out
