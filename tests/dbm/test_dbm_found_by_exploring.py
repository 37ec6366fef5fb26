"""Findings of an exploratory test of the DBM command line (armies, scenarios, odds): each test
failed before its fix. The data are the illustrative sample, NOT the published DBM tables."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from shieldwall.core.errors import DataError, ShieldwallError
from shieldwall.rulesets.dbm.bots import ScriptedBot
from shieldwall.rulesets.dbm.cli import army_cost
from shieldwall.rulesets.dbm.game import DbmGame
from shieldwall.rulesets.dbm.odds import PLUGIN as ODDS
from shieldwall.rulesets.dbm.state import DbmState
from shieldwall.rulesets.dbm.tables import load_order_of_battle

PKG = resources.files("shieldwall.rulesets.dbm")
NORSE = PKG / "data" / "sample" / "armies" / "norse-irish.toml"
SCEN = PKG / "scenarios" / "ford-of-ash.toml"


def _army(tmp_path: Path, old: str, new: str) -> Path:
    """The norse-irish sample order of battle with ``old`` replaced by ``new``, as a file."""
    text = NORSE.read_text(encoding="utf-8")
    assert old in text
    p = tmp_path / "army.toml"
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    return p


# --- finding 1: a huge baggage count -------------------------------------------------------------


def test_size_baggage_count_is_bounded_in_the_schema(tmp_path: Path) -> None:
    """`baggage = 100000000` built (and costed) one element each and hung `army cost`: no army has
    more than 8 baggage elements (dbm-3.2:size.baggage), so the file is refused on loading, naming
    the field and the clause. Counts up to 8 load and are judged by the cost check as before."""
    from shieldwall.rulesets.dbm.schemas import MAX_BAGGAGE

    for n in (9, 100_000_000):
        with pytest.raises(DataError, match=r"baggage: .*at most 8.*dbm-3\.2:size\.baggage") as exc:
            load_order_of_battle(_army(tmp_path, "baggage = 6", f"baggage = {n}"))
        assert exc.value.field == "baggage"
    assert MAX_BAGGAGE == 8
    eight = _army(tmp_path, "baggage = 6", "baggage = 8")
    assert load_order_of_battle(eight).baggage == 8
    with pytest.raises(ShieldwallError, match="needs 6 baggage elements, has 8"):
        army_cost(eight)


# --- finding 3: duplicate element ids, strings for booleans ----------------------------------------


def test_order_of_battle_refuses_a_duplicate_element_id(tmp_path: Path) -> None:
    """Two elements with one id were costed as valid (and would replace each other on the table)."""
    p = _army(tmp_path, 'id = "b-bd2"', 'id = "b-bd1"')
    with pytest.raises(DataError, match=r"element id 'b-bd1' is used twice") as exc:
        army_cost(p, False, True)
    assert exc.value.field == "commands"
    # across commands too
    p = _army(tmp_path, 'id = "b-wb1"', 'id = "b-gen"')
    with pytest.raises(DataError, match=r"'b-gen' is used twice \(commands\[0\]\.elements\[0\] and "):
        load_order_of_battle(p)


@pytest.mark.parametrize("value", ['"no"', '"false"', "0", '"yes"', "1"])
def test_order_of_battle_flags_are_true_or_false(tmp_path: Path, value: str) -> None:
    """`regular = "no"` was read as False (and "yes", 1 as True): a flag is a TOML boolean."""
    p = _army(tmp_path, "regular = false, general = true", f"regular = {value}, general = true")
    with pytest.raises(DataError, match="valid boolean") as exc:
        load_order_of_battle(p)
    assert exc.value.field == "commands[0].elements[0].regular"
    p = _army(tmp_path, "baggage_mobile = false", f"baggage_mobile = {value}")
    with pytest.raises(DataError, match="valid boolean"):
        load_order_of_battle(p)


# --- finding 2: the same order of battle on both sides ---------------------------------------------


def _scenario(**armies: str) -> dict[str, Any]:
    d = tomllib.loads(SCEN.read_text(encoding="utf-8"))
    d["armies"] = {**d["armies"], **armies}
    return d


def _deployed(g: DbmGame) -> DbmState:
    st = g.new_state(3)
    bots = {"red": ScriptedBot(1), "blue": ScriptedBot(2)}
    while st.phase != "bound":
        d = st.decision()
        assert d is not None
        st.apply(bots[d.side].choose(st))
    return st


def test_mirror_match_element_ids_distinct_per_side() -> None:
    """Ruling R50: norse-irish against norse-irish put blue's elements over red's (the same ids), so
    red fought with its baggage alone. Each side's ids are now prefixed with the side when the
    armies share one; every element of both armies is on the table, and the battle plays out."""
    g = DbmGame.from_data(_scenario(red="norse-irish", blue="norse-irish"), "mirror.toml")
    ids = {s: [e.id for c in g.scenario.armies[s].commands for e in c.elements] for s in ("red", "blue")}
    assert ids["red"][0] == "red-b-gen" and ids["blue"][0] == "blue-b-gen"
    assert not set(ids["red"]) & set(ids["blue"])
    st = _deployed(g)
    for side in ("red", "blue"):
        on_table = {e.id for e in st.board.el.values() if e.side == side and e.code != "Bge"}
        assert on_table == set(ids[side]), side
        assert sum(1 for e in st.board.el.values() if e.side == side and e.code == "Bge") == 6
    bots = {"red": ScriptedBot(1), "blue": ScriptedBot(2)}
    for _ in range(3000):
        if st.is_terminal():
            break
        d = st.decision()
        assert d is not None
        st.apply(bots[d.side].choose(st))
    assert st.is_terminal() and st.result() is not None


def test_armies_with_distinct_ids_keep_them() -> None:
    """Ruling R50: only armies that share an id are renamed; Ford of Ash is played as it always was."""
    g = DbmGame.from_data(_scenario(), "ford-of-ash.toml")
    assert g.scenario.armies["red"].commands[0].elements[0].id == "r-gen"
    assert g.scenario.armies["blue"].commands[0].elements[0].id == "b-gen"
    # frankish and frankish-boats share their ids: renamed as a mirror
    g = DbmGame.from_data(_scenario(red="frankish", blue="frankish-boats"), "f.toml")
    assert g.scenario.armies["blue"].commands[0].elements[0].id == "blue-r-gen"


# --- findings 4 and 5: odds with kind=shooting and overlaps ----------------------------------------


def test_shoot_who_odds_refuse_an_attacker_that_cannot_shoot() -> None:
    """`odds attack --attacker 'Bd(O)' --set kind=shooting` gave a distribution: blades (and
    baggage, Bts(O), Wb...) do not shoot (dbm-3.2:shoot.who)."""
    for spec in ("Bd(O)", "Bge(O)", "Bts(O)", "WWg(I)", "El(O)", "Bd(O)+gen"):
        with pytest.raises(ShieldwallError, match=r"cannot shoot \(dbm-3\.2:shoot\.who"):
            ODDS.attack(spec, "Bd(O)", {"kind": "shooting"})
    for spec in ("Bw(O)", "Art(O)", "El(X)", "Bts(S)", "WWg(O)"):
        assert sum(ODDS.attack(spec, "Bd(O)", {"kind": "shooting"}).probabilities.values()) == 1
    ODDS.attack("Bd(O)", "Bd(O)", {"kind": "cc"})  # close combat is asked of anybody


def test_odds_shooting_only_the_target_suffers() -> None:
    """Ruling R33: a shooter that loses suffers nothing in battles; the odds said Bw(O) shooting at
    Sp(O) was destroyed a quarter of the time."""
    r = ODDS.attack("Bw(O)", "Sp(O)", {"kind": "shooting"})
    assert min(r.probabilities) >= 0 and any("ruling R33" in d for d in r.details)
    cc = ODDS.attack("Bw(O)", "Sp(O)")
    assert min(cc.probabilities) < 0  # in close combat the attacker can lose


def test_cc_overlap_odds_only_in_close_combat() -> None:
    """`--set overlaps=N` with kind=shooting was accepted and did nothing: overlaps count only in
    close combat (dbm-3.2:cc.overlap)."""
    for ask in (lambda: ODDS.attack("Bw(O)", "Bd(O)", {"kind": "shooting", "overlaps": 1}),
                lambda: ODDS.matrix({"kind": "shooting", "overlaps": 2})):  # fmt: skip
        with pytest.raises(
            ShieldwallError, match=r"overlaps count only in close combat \(dbm-3\.2:cc\.overlap"
        ):
            ask()


def test_odds_matrix_honours_kind_and_overlaps() -> None:
    """`odds matrix dbm-3.2 --set kind=shooting` / `--set overlaps=2` were the default matrix (it
    always asked a close combat without overlaps) while the JSON echoed the settings. Each cell is
    now `odds attack` of its row on its column with the same settings; a row that cannot shoot is
    empty in a shooting matrix."""
    base = ODDS.matrix()
    for sets in ({"kind": "shooting"}, {"overlaps": 2}, {"going": "rough", "overlaps": 1}):
        m = ODDS.matrix(sets)
        assert m.mean_hits != base.mean_hits and m.settings == {**base.settings, **sets}
        for i, row in enumerate(m.types):
            for j, col in enumerate(m.types):
                cell = m.mean_hits["front"][i][j]
                if sets.get("kind") == "shooting" and row not in ("Bw(O)",):
                    assert cell is None and m.first_wins["front"][i][j] is None, row
                    continue
                r = ODDS.attack(row, col, sets)
                assert cell == r.dist.mean(), (sets, row, col)
                assert m.first_wins["front"][i][j] == r.probabilities.get(2, 0)
    shooting = ODDS.matrix({"kind": "shooting"})
    assert any("shoot.who" in n for n in shooting.notes) and any("R33" in n for n in shooting.notes)
    assert any("overlapped by 2" in n for n in ODDS.matrix({"overlaps": 2}).notes)
    assert base.notes == ODDS.matrix({"kind": "cc", "overlaps": 0}).notes
