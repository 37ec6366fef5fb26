"""Slice 2: recoil, push-back, destruction of elements behind, flee and pursue (sample data)."""

from __future__ import annotations

from shieldwall.core.geometry import Footprint
from shieldwall.rulesets.dbm.board import Board
from shieldwall.rulesets.dbm.elements import Element, make
from shieldwall.rulesets.dbm.geom import ahead
from shieldwall.rulesets.dbm.outmoves import behind, can_push, destroy, flee, pursue, pursuers, recoil
from shieldwall.rulesets.dbm.tables import Tables

X, Y = 1200.0, 800.0


def mk(
    t: Tables, eid: str, side: str, code: str, grade: str, x: float, y: float, h: float = 0.0, **kw: object
) -> Element:
    return make(t, eid, side, code, grade, X + x, Y + y, h, **kw)


def kinds(ev: list[dict[str, object]]) -> list[tuple[object, object]]:
    return [(e["kind"], e["id"]) for e in ev]


def test_recoil_friends_pushes_back_a_friend_behind(tables: Tables) -> None:
    a = mk(tables, "a", "red", "Bd", "O", 0, 0)
    b = mk(tables, "b", "red", "Bd", "O", 0, -30)  # in contact behind
    brd = Board(tables, [a, b])
    ev = recoil(brd, "a")
    assert ("recoil", "a") in kinds(ev) and ("pushed-back", "b") in kinds(ev)
    assert abs(brd.el["a"].fp.y - (Y - 40)) < 1e-6 and abs(brd.el["b"].fp.y - (Y - 70)) < 1e-6
    assert all(e["rule"].startswith("dbm-3.2:recoil.") for e in ev)  # type: ignore[union-attr]


def test_recoil_friends_psiloi_pass_through(tables: Tables) -> None:
    ps = mk(tables, "p", "red", "Ps", "O", 0, 0)
    sp = mk(tables, "s", "red", "Sp", "O", 0, -40)
    brd = Board(tables, [ps, sp])
    recoil(brd, "p")
    assert brd.el["s"].fp.y == Y - 40  # not pushed
    assert brd.el["p"].fp.y + 20 <= brd.el["s"].fp.y - 15 + 1e-6  # ended behind the spears


def test_recoil_pushback_blocked_by_elephants_destroys_the_recoiler(tables: Tables) -> None:
    assert not can_push(mk(tables, "a", "red", "Bd", "O", 0, 0), mk(tables, "e", "red", "El", "O", 0, 0))
    a = mk(tables, "a", "red", "Bd", "O", 0, 0)
    e = mk(tables, "e", "red", "El", "O", 0, -85)  # elephants 30 p behind: cannot be pushed
    brd = Board(tables, [a, e])
    ev = recoil(brd, "a")
    assert ("destroyed", "a") in kinds(ev) and "a" not in brd.el
    assert "e" in brd.el  # 30 p behind a's starting rear edge: not less than min(30, 80)
    a2 = mk(tables, "a", "red", "Bd", "O", 0, 0)
    ev = recoil(Board(tables, [a2, e.at(e.fp.moved(0, 5))]), "a")  # 25 p: less, destroyed too
    assert ("destroyed", "e") in kinds(ev)


def test_recoil_pushback_chain_blocked_by_enemy_rear_edge(tables: Tables) -> None:
    a = mk(tables, "a", "red", "Bd", "O", 0, 0)
    b = mk(tables, "b", "red", "Bd", "O", 0, -30)
    en = mk(tables, "x", "blue", "Sp", "O", 0, -75, 180)  # enemy facing away, rear edge 15 p behind b
    brd = Board(tables, [a, b, en])
    ev = recoil(brd, "a")
    assert ("destroyed", "a") in kinds(ev)  # the recoiling element is destroyed
    assert ("destroyed", "x") in kinds(ev)  # enemy met on its rear edge by an edge
    pushed = [e for e in ev if e["kind"] == "pushed-back"]
    assert not pushed or pushed[0]["paces"] == 15  # moved back only as far as the obstruction
    assert all(e["cc"] is False for e in ev if e["id"] == "x")
    # b, pushed but still less than a's depth behind a's starting rear edge, dies with it
    assert ("destroyed", "b") in kinds(ev)


def test_recoil_pushback_enemy_psiloi_flee(tables: Tables) -> None:
    a = mk(tables, "a", "red", "Bd", "O", 0, 0)
    b = mk(tables, "b", "red", "Bd", "O", 0, -30)
    ps = mk(tables, "p", "blue", "Ps", "O", 0, -100, 90)  # side edge towards the pushed element
    brd = Board(tables, [a, b, ps])
    ev = recoil(brd, "a")
    assert ("flee", "p") in kinds(ev) and "a" in brd.el


def test_recoil_pushback_pushed_off_the_table_is_lost(tables: Tables) -> None:
    a = make(tables, "a", "red", "Bd", "O", 500, 60, 0)
    b = make(tables, "b", "red", "Bd", "O", 500, 30, 0)  # its rear edge 15 p from the table edge
    brd = Board(tables, [a, b])
    ev = recoil(brd, "a")
    assert ("lost", "b") in kinds(ev) and "a" in brd.el  # the recoiler did not cross the edge


def test_destroy_behind_less_than_depth(tables: Tables) -> None:  # and Fig 11's F
    e = mk(tables, "e", "red", "Pk", "O", 0, 0)
    f = mk(tables, "f", "red", "Pk", "O", 0, -30)  # touching behind
    g = mk(tables, "g", "red", "Pk", "O", 0, -60)
    brd = Board(tables, [e, f, g])
    ev = destroy(brd, "e")
    assert kinds(ev) == [("destroyed", "e"), ("destroyed", "f")]
    assert all(x["rule"] == "dbm-3.2:destroy.behind" for x in ev)


def test_destroy_behind_exactly_at_the_threshold_survives(tables: Tables) -> None:  # ruling R21
    e = mk(tables, "e", "red", "Pk", "O", 0, 0)
    f = mk(tables, "f", "red", "Pk", "O", 0, -60)  # its front 30 p behind: min(30, 80) = 30, not less
    f2 = mk(tables, "f2", "red", "Pk", "O", 100, -59)  # not directly behind
    brd = Board(tables, [e, f, f2])
    assert behind(brd, e, e.fp) == []
    g = mk(tables, "g", "red", "Pk", "O", 0, -59.5)  # 29.5 p: less
    assert [x.id for x in behind(Board(tables, [e, g]), e, e.fp)] == ["g"]


def test_destroy_behind_less_than_one_base_width_if_this_is_less(tables: Tables) -> None:
    """dbm-3.2:destroy.behind: "less than the destroyed element's base depth ..., or less than one
    base width if this is less". The sample's bases are at most 1 BW deep, so a deeper base (user
    data may give one) shows the width limit: 120 p deep, BW 80 p, friends 79 p behind are destroyed
    and friends 85 p behind (less than its depth, not less than BW) are not."""
    e = mk(tables, "e", "red", "Pk", "O", 0, 0)
    deep = Footprint(e.fp.x, e.fp.y, e.fp.heading, e.fp.frontage, 120.0)  # rear edge 60 p behind
    assert tables.bw == 80.0
    near = mk(tables, "n", "red", "Pk", "O", 0, -60 - 79 - 15)
    far = mk(tables, "f", "red", "Pk", "O", 0, -60 - 85 - 15)
    assert [x.id for x in behind(Board(tables, [e, near]), e, deep)] == ["n"]
    assert behind(Board(tables, [e, far]), e, deep) == []


def test_destroy_behind_exceptions_and_supporting_psiloi(tables: Tables) -> None:
    art = mk(tables, "a", "red", "Art", "O", 0, 0)
    sp = mk(tables, "s", "red", "Sp", "O", 0, -35)
    assert kinds(destroy(Board(tables, [art, sp]), "a")) == [("destroyed", "a")]  # front is artillery
    bd = mk(tables, "b", "red", "Bd", "O", 0, 0)
    bge = mk(tables, "g", "red", "Bge", "O", 0, -55)
    assert kinds(destroy(Board(tables, [bd, bge]), "b")) == [("destroyed", "b")]  # baggage behind
    ps = mk(tables, "p", "red", "Ps", "O", 300, 0)
    ev = destroy(Board(tables, [bd, ps]), "b", supporting_ps=["p"])
    assert ("destroyed", "p") in kinds(ev)


def test_basing_double_loss_survivor_stays(tables: Tables) -> None:
    a = mk(tables, "a", "red", "Bd", "O", 0, 0, double_with="b")
    b = mk(tables, "b", "red", "Bd", "O", 0, -30, double_with="a")
    brd = Board(tables, [a, b])
    ev = destroy(brd, "a", cc=False)
    assert ("double-base-split", "b") in kinds(ev) and brd.el["b"].fp.y == Y - 30


def test_flee_skirm_press_perpendicular_to_enemy_front(tables: Tables) -> None:
    ps = mk(tables, "p", "blue", "Ps", "O", 0, 0, 45)
    en = mk(tables, "x", "red", "Bd", "O", 0, -100, 0)  # enemy facing north
    brd = Board(tables, [ps, en])
    ev = flee(brd, "p", away_from=en, press_forward=True)
    assert ev[0]["rule"] == "dbm-3.2:flee.skirm-press" and ev[0]["heading"] == 0.0
    assert brd.el["p"].fp.y > Y and abs(brd.el["p"].fp.x - X) < 1e-6


def test_pursue_ranks_same_type_follow(tables: Tables) -> None:
    a = mk(tables, "a", "red", "Wb", "O", 0, 0)
    b = mk(tables, "b", "red", "Wb", "O", 0, -30)
    c = mk(tables, "c", "red", "Bd", "O", 0, -60)  # different type, no support function: stays
    brd = Board(tables, [a, b, c])
    assert [p.id for p in pursuers(brd, a)] == ["a", "b"]
    ev = pursue(brd, "a")
    assert [e["id"] for e in ev] == ["a", "b"] and brd.el["c"].fp.y == Y - 60
    assert brd.el["a"].fp == ahead(a.fp, tables.movement.type["Wb"].pursue)


def test_river_wading_outcome_moves_in_the_stream_ignore_its_flow() -> None:
    """dbm-3.2:river.wading: land elements recoiling, pushed back, fleeing or pursuing in or into a
    river ignore the direction of flow. Ford of Ash has a stream across the table (y 780-820 p);
    in played battles, every such move of an element touching the stream before or after it goes
    straight along the element's own facing (straight back, or straight ahead for a pursuit and
    for a flee after its turn), with no drift along the stream."""
    from tests.dbm.test_dbm_game import _data

    from shieldwall.ai.random_bot import RandomBot
    from shieldwall.rulesets.dbm.bots import ScriptedBot
    from shieldwall.rulesets.dbm.game import DbmGame

    def in_stream(f: Footprint) -> bool:
        ys = [p[1] for p in f.corners()]
        return min(ys) < 820.0 and max(ys) > 780.0

    checked = 0
    for seed in range(12):
        st = DbmGame.from_data(_data(), "ford-of-ash.toml").new_state(seed)
        kind = ScriptedBot if seed % 2 else RandomBot
        bots = {"red": kind(seed), "blue": kind(seed + 100)}
        while not st.is_terminal():
            d = st.decision()
            assert d is not None
            before = {i: e.fp for i, e in st.board.el.items()}
            n = len(st.events)
            st.apply(bots[d.side].choose(st))
            for ev in st.events[n:]:
                if ev.kind not in ("recoil", "pushed-back", "flee", "pursue"):
                    continue
                eid = str(ev.data["id"])
                if eid not in before or eid not in st.board.el:
                    continue
                a, b = before[eid], st.board.el[eid].fp
                if not (in_stream(a) or in_stream(b)) or (a.x, a.y) == (b.x, b.y):
                    continue
                fx, fy = b.forward
                dx, dy = b.x - a.x, b.y - a.y
                assert abs(dx * fy - dy * fx) < 1e-6, (seed, ev.kind, eid, a, b)  # along its facing
                if ev.kind != "flee":
                    assert abs((a.heading - b.heading) % 360.0) < 1e-6
                checked += 1
    assert checked >= 3, checked
