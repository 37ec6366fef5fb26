"""Slice 3: combat factors, grading, rear support, mitigation and outcomes (clause tests T3-T10,
T13-T15 of the inventory; base factors from the illustrative sample, NOT the published tables)."""

from __future__ import annotations

import pytest

from shieldwall.rulesets.dbm.combat import Fighter, score_pair
from shieldwall.rulesets.dbm.grades import effective_grade
from shieldwall.rulesets.dbm.outcomes import outcome
from shieldwall.rulesets.dbm.support import Rank, may_support, support_blocked
from shieldwall.rulesets.dbm.tables import Tables


def res(t: Tables, loser: Fighter, winner: Fighter, kind: str = "cc", grade: str | None = None) -> str:
    wg = winner.grade
    lg = grade or effective_grade(
        loser.code, loser.grade, kind, loser.frontal, winner.code, wg, loser.double_base_required
    )
    return str(outcome(t, loser, lg, loser.ranks, winner, wg, "beaten", kind)["result"])


def test_out_bd_destroyed_by_warband(tables: Tables) -> None:  # T3
    assert res(tables, Fighter("Bd", "O"), Fighter("Wb", "O")) == "destroyed"


def test_out_bd_supported_against_knights(tables: Tables) -> None:  # T4
    kn = Fighter("Kn", "O")
    assert res(tables, Fighter("Bd", "O"), kn) == "destroyed"
    assert res(tables, Fighter("Bd", "O", ranks=(Rank("Bd", "O"),)), kn) == "recoil"
    assert res(tables, Fighter("Bd", "O", ranks=(Rank("Bd", "I"),)), kn) == "destroyed"
    assert res(tables, Fighter("Bd", "O"), Fighter("Kn", "O", going="rough")) == "recoil"  # not good going


def test_out_sp_v_elephants_second_rank(tables: Tables) -> None:  # T5
    el = Fighter("El", "O")
    assert res(tables, Fighter("Sp", "O", ranks=(Rank("Sp", "O"),)), el) == "recoil"
    assert res(tables, Fighter("Sp", "O", ranks=(Rank("Sp", "I"),)), el) == "destroyed"
    assert res(tables, Fighter("Sp", "O"), Fighter("Wb", "O")) == "destroyed"
    assert res(tables, Fighter("Sp", "O"), Fighter("Bd", "O")) == "recoil"


def test_out_pk_v_elephants_x_front(tables: Tables) -> None:
    el = Fighter("El", "O")
    assert res(tables, Fighter("Pk", "X", ranks=(Rank("Pk", "I"),)), el) == "recoil"
    assert res(tables, Fighter("Pk", "O", ranks=(Rank("Pk", "I"),)), el) == "destroyed"
    assert res(tables, Fighter("Pk", "O"), Fighter("Kn", "O")) == "destroyed"


def test_out_kn_rows(tables: Tables) -> None:  # T6
    kn = Fighter("Kn", "O")
    assert res(tables, kn, Fighter("LH", "O")) == "destroyed"
    moved = Fighter("Kn", "O", moved_into_contact_this_bound=True)
    assert res(tables, moved, Fighter("Bw", "S")) == "destroyed"
    assert res(tables, kn, Fighter("Bw", "S")) == "recoil"  # did not contact it this bound
    assert res(tables, moved, Fighter("Bw", "O")) == "recoil"
    assert res(tables, Fighter("Kn", "O", going="difficult"), Fighter("Sp", "O")) == "destroyed"


def test_out_hd_rows(tables: Tables) -> None:  # T7
    assert res(tables, Fighter("Hd", "I"), Fighter("Sp", "O")) == "destroyed"
    assert res(tables, Fighter("Hd", "O"), Fighter("Sp", "O")) == "recoil"
    assert res(tables, Fighter("Hd", "O"), Fighter("Wb", "O")) == "destroyed"
    assert res(tables, Fighter("Hd", "I"), Fighter("Bw", "O"), kind="shooting") == "none"  # ruling R8


def test_out_wb_support_three_ranks(tables: Tables) -> None:  # T8
    three = (Rank("Wb", "O"), Rank("Wb", "O"), Rank("Wb", "O"))
    kn = Fighter("Kn", "O")
    assert res(tables, Fighter("Wb", "O", ranks=three), kn) == "recoil"
    assert res(tables, Fighter("Wb", "O", ranks=three[:2]), kn) == "destroyed"  # the sample's base row


@pytest.mark.parametrize(
    ("kind", "frontal", "opp", "want"),
    [
        ("cc", True, ("Sp", "O"), "S"),
        ("cc", True, ("Kn", "O"), "I"),
        ("cc", True, ("Kn", "X"), "O"),
        ("cc", True, ("Wb", "O"), "I"),
        ("shooting", True, ("Bw", "O"), "S"),
        ("shooting", True, ("Art", "O"), "O"),
        ("cc", False, ("Sp", "O"), "O"),
    ],
)
def test_troops_kn_x_effective_grade(kind: str, frontal: bool, opp: tuple[str, str], want: str) -> None:  # T9
    assert effective_grade("Kn", "X", kind, frontal, opp[0], opp[1]) == want


def test_troops_bd_x_effective_grade_and_support() -> None:  # T10
    assert effective_grade("Bd", "X", "cc", True, "Kn", "O") == "S"
    assert effective_grade("Bd", "X", "cc", True, "Cm", "S") == "S"
    assert effective_grade("Bd", "X", "cc", True, "Sp", "O") == "F"
    assert effective_grade("Bd", "X", "cc", True, "Sp", "O", double_base_required=True) == "O"
    assert not may_support("Bd", "X", Rank("Bd", "O"))
    assert not may_support("Bd", "O", Rank("Bd", "X"))
    assert may_support("Bd", "X", Rank("Bd", "X"))


def test_troops_bd_x_supported_by_bd_x_recoils_v_knights(tables: Tables) -> None:
    bdx = Fighter("Bd", "X", ranks=(Rank("Bd", "X"),))
    assert res(tables, bdx, Fighter("Kn", "O")) == "recoil"


def _cc(t: Tables, a: Fighter, b: Fighter, da: int, db: int) -> tuple[int, int]:
    r = score_pair(t, a, b, "cc", da, db)
    return r["a"].total, r["b"].total


def test_rs_pikes_ranks_and_fourth_rank(tables: Tables) -> None:  # T13
    pk2 = (Rank("Pk", "O"), Rank("Pk", "O"))
    bd = Fighter("Bd", "O")
    base_pk, base_bd = tables.base("Pk").v_foot, tables.base("Bd").v_foot
    assert _cc(tables, Fighter("Pk", "O", ranks=pk2), bd, 1, 1) == (1 + base_pk + 2, 1 + base_bd)
    pk3 = (*pk2, Rank("Pk", "O"))
    assert _cc(tables, Fighter("Pk", "O", ranks=pk3), bd, 1, 1) == (1 + base_pk + 2, 1 + base_bd - 1)
    rough = (Rank("Pk", "O", going="rough"),) * 3
    a, b = _cc(tables, Fighter("Pk", "O", ranks=rough, going="rough"), bd, 1, 1)
    assert b == 1 + base_bd  # no -1 for the 4th rank in rough going
    assert a == 1 + base_pk - 2  # and no rank factors; tf.rough -2 for pikes in rough going
    el = Fighter("El", "O")
    assert _cc(tables, Fighter("Pk", "O", ranks=pk3), el, 1, 1)[0] == 1 + tables.base("Pk").v_mounted


def test_rs_pikes_x(tables: Tables) -> None:
    bd = Fighter("Bd", "O")
    pkx = Fighter("Pk", "X", ranks=(Rank("Pk", "I"), Rank("Pk", "X")))
    assert _cc(tables, pkx, bd, 1, 1)[0] == 1 + tables.base("Pk").v_foot + 2
    # the 4th rank -1 does not apply against Pk(X)
    pkx4 = Fighter("Pk", "X", ranks=(Rank("Pk", "X"),) * 3)
    assert _cc(tables, pkx4, bd, 1, 1)[1] == 1 + tables.base("Bd").v_foot


def test_rs_spears(tables: Tables) -> None:
    bd = Fighter("Bd", "O")
    sp = Fighter("Sp", "O", ranks=(Rank("Sp", "O"),))
    assert _cc(tables, sp, bd, 1, 1)[0] == 1 + tables.base("Sp").v_foot + 1
    assert (
        _cc(tables, Fighter("Sp", "O", ranks=(Rank("Sp", "I"),)), bd, 1, 1)[0] == 1 + tables.base("Sp").v_foot
    )
    assert not may_support("Sp", "S", Rank("Sp", "O"))  # Sp(O) cannot support Sp(S)
    assert _cc(tables, sp, Fighter("El", "O"), 1, 1)[0] == 1 + tables.base("Sp").v_mounted  # not v El


def test_rs_psiloi(tables: Tables) -> None:
    ps = Fighter("Ps", "O", ranks=(Rank("Ps", "O"),))
    assert _cc(tables, ps, Fighter("LH", "O"), 1, 1)[0] == 1 + tables.base("Ps").v_mounted + 1
    assert _cc(tables, ps, Fighter("Bd", "O"), 1, 1)[0] == 1 + tables.base("Ps").v_foot  # not v skirmishers


def test_rs_general_blocked(tables: Tables) -> None:
    assert support_blocked("Sp", "O", "difficult", False, False, False, False, False)
    assert support_blocked("Sp", "O", "good", False, True, False, False, False)  # shot at
    assert not support_blocked("Cv", "O", "good", False, True, False, False, False)
    assert not support_blocked("Kn", "I", "good", False, True, False, False, False)
    assert support_blocked("Sp", "O", "good", True, False, False, False, False)
    assert support_blocked("Sp", "O", "good", False, False, True, False, False)
    assert support_blocked("Sp", "O", "good", False, False, False, True, False)  # ruling R17
    assert support_blocked("Sp", "O", "good", False, False, False, False, True)  # chariots
    sp = Fighter("Sp", "O", ranks=(Rank("Sp", "O", command="c2"),))
    assert _cc(tables, sp, Fighter("Bd", "O"), 1, 1)[0] == 1 + tables.base("Sp").v_foot  # other command


def test_mrs_cavalry_second_rank(tables: Tables) -> None:  # T14
    cv = Fighter("Cv", "O", ranks=(Rank("Cv", "O"),))
    bd = Fighter("Bd", "O")
    r = score_pair(tables, bd, cv, "cc", 7 - tables.base("Bd").v_mounted, 5 - tables.base("Cv").v_foot)
    assert (r["a"].total, r["b"].total) == (6, 5)
    assert any(s["rule"] == "dbm-3.2:mrs" for s in r["a"].steps)
    el = Fighter("El", "O")
    r = score_pair(tables, el, cv, "cc", 7 - tables.base("El").v_mounted, 5 - tables.base("Cv").v_mounted)
    assert (r["a"].total, r["b"].total) == (7, 5)
    art = Fighter("Art", "O")  # "any troop-type except elephants or artillery"
    r = score_pair(tables, art, cv, "cc", 7 - tables.base("Art").v_mounted, 5 - tables.base("Cv").v_foot)
    assert (r["a"].total, r["b"].total) == (7, 5)
    assert not any(s["rule"] == "dbm-3.2:mrs" for s in r["a"].steps)


def test_mrs_can_turn_a_win_into_a_tie(tables: Tables) -> None:  # ruling R4
    cv = Fighter("Cv", "O", ranks=(Rank("Cv", "O"),))
    bd = Fighter("Bd", "O")
    r = score_pair(tables, bd, cv, "cc", 6 - tables.base("Bd").v_mounted, 5 - tables.base("Cv").v_foot)
    assert (r["a"].total, r["b"].total) == (5, 5) and r["result"] is None


def test_mrs_psiloi_behind_foot_and_cavalry(tables: Tables) -> None:
    sp = Fighter("Sp", "O", ranks=(Rank("Ps", "O", weapon="bow"),), ps_support_permitted=True)
    wb = Fighter("Wb", "O")
    r = score_pair(tables, wb, sp, "cc", 6, 1)
    assert any("(c)" in s["what"] for s in r["a"].steps)
    sp_no = Fighter("Sp", "O", ranks=(Rank("Ps", "O", weapon="bow"),))
    assert not any(s["rule"] == "dbm-3.2:mrs" for s in score_pair(tables, wb, sp_no, "cc", 6, 1)["a"].steps)
    cv = Fighter("Cv", "O", ranks=(Rank("Ps", "I"),), ps_support_permitted=True)
    r = score_pair(tables, Fighter("Kn", "X"), cv, "cc", 6, 1)
    assert any("(b)" in s["what"] for s in r["a"].steps)
    cv_o = Fighter("Cv", "O", ranks=(Rank("Ps", "O"),), ps_support_permitted=True)  # literal (S) or (I): R3
    assert not any(
        "(b)" in s["what"] for s in score_pair(tables, Fighter("Cv", "O"), cv_o, "cc", 6, 1)["a"].steps
    )


def test_grade_vs_f(tables: Tables) -> None:  # T15
    bdf = Fighter("Bd", "F")
    bd = Fighter("Bd", "O")
    v = tables.base("Bd").v_foot
    assert _cc(tables, bd, bdf, 7 - v, 5 - v) == (8, 5)
    assert _cc(tables, bd, bdf, 6 - v, 5 - v) == (6, 5)
    art = Fighter("Art", "O")
    va = tables.base("Art").v_foot
    assert score_pair(tables, art, bdf, "cc", 7 - va, 5 - tables.base("Bd").v_foot)["a"].total == 7


def test_tf_demoralised(tables: Tables) -> None:
    v = tables.base("Bd").v_foot
    assert _cc(tables, Fighter("Bd", "O", demoralised_command=True), Fighter("Bd", "O"), 1, 1)[0] == 1 + v - 2
    assert (
        _cc(tables, Fighter("Bd", "O", demoralised_command=True, general=True), Fighter("Bd", "O"), 1, 1)[0]
        == 1 + v + 1
    )


def test_tf_rough(tables: Tables) -> None:
    v = tables.base("Bd").v_foot
    assert _cc(tables, Fighter("Bd", "O", going="rough"), Fighter("Sp", "O"), 1, 1)[0] == 1 + v - 2
    assert (
        _cc(tables, Fighter("Bd", "O", going="rough"), Fighter("Kn", "O"), 1, 1)[0]
        == 1 + tables.base("Bd").v_mounted
    )
    w = tables.base("Wb").v_foot
    assert _cc(tables, Fighter("Wb", "O", going="difficult"), Fighter("Sp", "O"), 1, 1)[0] == 1 + w - 1
    s = tables.base("Sp").v_foot
    assert _cc(tables, Fighter("Sp", "O", crossing_river=True), Fighter("Bd", "O"), 1, 1)[0] == 1 + s - 2
    assert (
        _cc(tables, Fighter("Hd", "S", going="rough"), Fighter("Bd", "O"), 1, 1)[0]
        == 1 + tables.base("Hd").v_foot
    )


def test_factor_bw_cm_in_combat(tables: Tables) -> None:
    bw = Fighter("Bw", "O")
    assert score_pair(tables, bw, Fighter("Kn", "O"), "shooting", 0, 0)["a"].total == 4
    assert score_pair(tables, bw, Fighter("Bw", "O"), "shooting", 0, 0)["a"].total == 3
    assert score_pair(tables, bw, Fighter("Sp", "O"), "cc", 0, 0)["a"].total == 2
    assert score_pair(tables, bw, Fighter("Sp", "O"), "shooting", 0, 0)["a"].total == 2  # v other foot
    assert (
        score_pair(tables, Fighter("Art", "O"), bw, "shooting", 0, 0)["b"].total == tables.base("Bw").shot_at
    )
    assert score_pair(tables, bw, Fighter("Bw", "O"), "shooting", 0, 0)["b"].total == 3  # shot at by bowmen
    assert score_pair(tables, Fighter("Cm", "O"), Fighter("Shp", "O"), "cc", 0, 0)["a"].total == 3
