"""The whole game: Tours, the sequence of play, setup, victory, the scenario file's locked values,
odds, bots, narration, determinism."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from shieldwall.core.datafiles import read_toml
from shieldwall.core.errors import DataError
from shieldwall.core.hexgrid import HILLTOP
from shieldwall.rulesets.spi_dark_ages.bots import ScriptedBot
from shieldwall.rulesets.spi_dark_ages.game import DarkAgesGame
from shieldwall.rulesets.spi_dark_ages.narrate import describe
from shieldwall.rulesets.spi_dark_ages.odds import PLUGIN
from shieldwall.rulesets.spi_dark_ages.scenario import build_scenario

TOURS = Path(__file__).resolve().parents[2] / "src/shieldwall/rulesets/spi_dark_ages/scenarios/tours.toml"


def _tours() -> DarkAgesGame:
    return DarkAgesGame.from_data(read_toml(TOURS), str(TOURS))


def _play(game: DarkAgesGame, seed: int):  # type: ignore[no-untyped-def]
    st = game.new_state(seed)
    bots = {s: ScriptedBot(seed) for s in game.info.sides}
    n = 0
    while not st.is_terminal():
        d = st.decision()
        assert d is not None
        st.apply(bots[d.side].choose(st))
        n += 1
        assert n < 5000
    return st


def test_scenario_pv_pl_tours_carries_the_errata_values_and_a_contradiction_is_refused() -> None:
    sc = build_scenario(read_toml(TOURS), str(TOURS))
    assert (sc.spec.army["franks"].pv, sc.spec.army["franks"].pl) == (55, 22)
    assert (sc.spec.army["arabs"].pv, sc.spec.army["arabs"].pl) == (80, 24)
    assert sc.oob_vp == {"franks": 55, "arabs": 80}
    data = read_toml(TOURS)
    data["army"]["franks"]["pl"] = 20
    with pytest.raises(DataError) as e:
        build_scenario(data, "tours.toml")
    assert "spi-dark-ages:scenario.pv-pl" in str(e.value) and e.value.field == "army.franks"
    data = read_toml(TOURS)
    data["chart"] = "Stamford Bridge"  # ruling A31: the alias names the same line of the chart
    data["army"]["franks"]["name"] = "Anglo-Saxons"
    with pytest.raises(DataError):
        build_scenario(data, "x.toml")


def test_setup_order_first_listed_deploys_first_second_listed_moves_first() -> None:
    st = _tours().new_state(1)
    deploys = [e for e in st.events if e.kind == "deploys"]
    assert deploys[0].side == "green" and deploys[-1].side == "tan"  # Franks (first listed) deploy first
    d = st.decision()
    assert d is not None and d.side == "tan" and d.kind == "move"  # the Arabs move first


def test_setup_turn_and_sequence_and_inventory() -> None:
    st = _play(_tours(), 1)
    turns = [e.data["turn"] for e in st.events if e.kind == "game-turn"]
    assert turns == list(range(1, 11))
    phases = [e.data["phase"] for e in st.events if e.kind == "phase"][:5]  # spi-dark-ages:sequence
    assert phases == ["movement", "allocation", "defensive-fire", "offensive-fire", "melee"]
    for e in st.events:
        if "faces" in e.data:
            assert all(1 <= f <= 6 for f in e.data["faces"])  # one d6
    assert st.game.info.sides == ("green", "tan")
    battle = st.events[0]
    assert battle.rule == "spi-dark-ages:inventory" and "not SPI" in battle.data["label"]


def test_victory_end_after_the_game_turns_with_vp_inflicted() -> None:
    st = _play(_tours(), 2)
    r = st.result()
    assert r is not None and r.reason
    end = st.events[-1]
    assert end.rule == "spi-dark-ages:victory.end"
    inflicted = end.data["vp_inflicted"]
    if r.winner is not None:
        other = "tan" if r.winner == "green" else "green"
        assert inflicted[r.winner] > inflicted[other]


def test_the_same_seed_gives_the_same_battle_and_a_scripted_tours_runs_fast() -> None:
    import time

    g = _tours()
    t = time.perf_counter()
    a = _play(g, 5)
    elapsed = time.perf_counter() - t
    b = _play(g, 5)
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]
    assert elapsed < 5.0


def test_odds_attack_4_against_half_is_8_to_1_exactly() -> None:
    a = PLUGIN.attack("4", "1/2")
    assert "odds 8:1" in a.details[1]
    assert sum(a.probabilities.values()) == 1
    names = [d for d in a.details if d.startswith("value ")]
    assert len(names) == len(a.probabilities)
    fire = PLUGIN.attack("archer", "spear", {"table": "fire", "terrain": "woods"})
    assert "FPS of woods: 3" in " ".join(fire.details)


def test_odds_attack_clear_errors_for_attacks_the_rules_do_not_allow(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from shieldwall.cli import run
    from shieldwall.core.errors import ShieldwallError

    with pytest.raises(ShieldwallError, match="spi-dark-ages:combat.zero-mas"):
        PLUGIN.attack("fleet", "spear")
    with pytest.raises(ShieldwallError, match="no missile strength"):
        PLUGIN.attack("leader", "spear", {"table": "fire"})
    zero = PLUGIN.attack("0", "2")  # a zero attack is a question with an answer: below the table
    assert "odds 0:1" in zero.details[1] and sum(zero.probabilities.values()) == 1
    assert run(["odds", "attack", "spi-dark-ages", "--attacker", "fleet", "--target", "spear"]) != 0
    assert "Traceback" not in capsys.readouterr().err
    assert run(["battle", "spi-dark-ages/tours", "--variant", "turns=0"]) != 0
    assert "turns: must be from 1 to 50, not 0" in capsys.readouterr().err


def test_odds_attack_matches_the_game_s_own_distribution() -> None:
    from shieldwall.rulesets.spi_dark_ages.combat import Attack, outcomes
    from shieldwall.rulesets.spi_dark_ages.tables import sample_charts

    a = PLUGIN.attack("mc:2,hc:3", "spear", {"defender-command": 1})
    c = sample_charts()
    dist = outcomes(c, Attack("melee", Fraction(10), Fraction(8), 1))
    codes = list(c.crt.results)
    assert {codes[k]: p for k, p in a.probabilities.items()} == dist


def test_narration_names_the_events() -> None:
    st = _play(_tours(), 1)
    lines = [describe(e, {}) for e in st.events]
    assert any(line and "Game-Turn" in line for line in lines)
    assert lines[0] is not None and "not SPI" in lines[0]


def test_the_scripted_bot_keeps_its_command_units_stacked() -> None:
    st = _tours().new_state(3)
    bots = {s: ScriptedBot(3) for s in st.game.info.sides}
    lone: set[tuple[int, int, str]] = set()
    phases: set[tuple[int, int, str]] = set()
    for _ in range(1000):
        if st.is_terminal():
            break
        d = st.decision()
        assert d is not None
        if d.kind == "allocate":
            b = st.board  # type: ignore[attr-defined]
            for u in b.units.values():
                if u.on_map and b.is_command(u) and u.side == d.side:
                    phases.add((b.turn, b.player, u.id))
                    if len(b.units_at(u.hex)) == 1:
                        lone.add((b.turn, b.player, u.id))
        st.apply(bots[d.side].choose(st))
    assert phases and len(lone) <= len(phases) // 4


def test_combat_D_hilltop_def_the_tours_franks_hold_the_hill() -> None:
    st = _tours().new_state(1)
    b = st.board  # type: ignore[attr-defined]
    assert any(b.map.elevation(u.hex) == HILLTOP for u in b.units.values() if u.side == "green")


def test_movement_I_and_victory_darius_and_movement_F_no_withdrawal_concession_or_darius_rule() -> None:
    """``spi-dark-ages:movement.I`` and ``spi-dark-ages:victory.darius``: the struck rules have no
    parameter and no order (nor does ``movement.F``'s Withdrawal or Manipular Legion rule)."""
    from shieldwall.rulesets.spi_dark_ages.game import PARAMETERS
    from shieldwall.rulesets.spi_dark_ages.orders import ANSWERS

    words = " ".join([*PARAMETERS, *ANSWERS]).lower()
    for absent in ("withdraw", "manipular", "concession", "darius"):
        assert absent not in words


DORYLAEUM = TOURS.parent / "dorylaeum.toml"


def test_scenario_dorylaeum_half_the_pv_within_15_hexes_of_the_east_edge_rest_on_turn_5() -> None:
    sc = build_scenario(read_toml(DORYLAEUM), str(DORYLAEUM))
    on = [p for p in sc.units if p.army == "crusaders" and not p.enter_turn]
    assert 2 * sum(sc.charts.units[p.type].vp for p in on) >= 60
    assert all(sc.map.edge_distance(p.hex, "east") < 15 for p in on)
    data = read_toml(DORYLAEUM)
    data["army"]["crusaders"]["unit"][0]["at"] = "0909"  # 15 columns from the east edge
    with pytest.raises(DataError) as e:
        build_scenario(data, "d.toml")
    assert "spi-dark-ages:scenario.dorylaeum" in str(e.value)
    data = read_toml(DORYLAEUM)
    late = next(u for u in data["army"]["crusaders"]["unit"] if "enter" in u)
    late["enter"]["turn"] = 4
    with pytest.raises(DataError):
        build_scenario(data, "d.toml")
    data = read_toml(DORYLAEUM)
    moved = next(u for u in data["army"]["crusaders"]["unit"] if "enter" in u and u["type"] == "hc")
    del moved["enter"]
    moved["at"] = "2010"  # more than half the PV set up
    with pytest.raises(DataError):
        build_scenario(data, "d.toml")


def test_reinforcements_enter_at_their_hex_on_their_turn() -> None:
    game = DarkAgesGame.from_data(read_toml(DORYLAEUM), str(DORYLAEUM))
    st = _play(game, 1)
    enters = [e for e in st.events if e.kind == "enters"]
    assert enters and all(e.turn >= 5 and e.data["at"] == "2408" for e in enters)
    assert enters[0].turn == 5 and enters[0].rule == "spi-dark-ages:reinforcements"
    assert [e for e in st.events if e.kind == "due"]


STAMFORD = TOURS.parent / "stamford-bridge.toml"


def test_scenario_pv_pl_stamford_bridge_and_troops_set_up_aboard_fleets() -> None:
    sc = build_scenario(read_toml(STAMFORD), str(STAMFORD))
    a = sc.spec.army["anglo-saxons"]
    assert (a.pv, a.pl, a.pv_source) == (115, 34, "errata")
    assert sc.map.name.startswith("Derwent") and sc.map.bridge
    aboard = [p for p in sc.units if p.aboard == "fleet1"]
    assert len(aboard) == 4  # three combat units and a command unit
    data = read_toml(STAMFORD)
    data["army"]["norwegians"]["unit"].insert(
        [u.get("id") for u in data["army"]["norwegians"]["unit"]].index("n-f1c") + 1,
        {"id": "n-f1d", "type": "spear", "aboard": "fleet1"},
    )
    with pytest.raises(DataError) as e:
        build_scenario(data, "s.toml")
    assert "spi-dark-ages:stacking.C.capacity" in str(e.value)
    data = read_toml(STAMFORD)
    data["army"]["anglo-saxons"]["pl"] = 30
    with pytest.raises(DataError):
        build_scenario(data, "s.toml")


def test_stamford_bridge_plays_with_landings() -> None:
    game = DarkAgesGame.from_data(read_toml(STAMFORD), str(STAMFORD))
    st = _play(game, 0)
    assert st.result() is not None
    assert any(e.kind == "disembarks" and e.rule == "spi-dark-ages:fleets.E" for e in st.events)


@pytest.mark.parametrize(
    ("chart", "army", "pv", "pl"),
    [
        ("Constantinople", "Byzantines", 150, 60),
        ("Balathista", "Byzantines", 160, 64),
        ("Manzikert", "Seljuk Turks", 145, 72),
    ],
)
def test_scenario_pv_pl_every_value_of_the_errata_is_locked_under_its_aliases(
    chart: str, army: str, pv: int, pl: int
) -> None:
    data = read_toml(TOURS)
    data["chart"] = chart
    data["army"]["arabs"]["name"] = army
    data["army"]["arabs"]["pv"], data["army"]["arabs"]["pl"] = pv + 1, pl
    with pytest.raises(DataError) as e:
        build_scenario(data, "x.toml")
    assert f"{pv} / {pl}" in str(e.value)
    data["army"]["arabs"]["pv"] = pv
    build_scenario(data, "x.toml")


@pytest.mark.parametrize("stem", ["tours", "stamford-bridge", "dorylaeum"])
def test_the_scripted_bot_only_gives_legal_orders_in_every_scenario(stem: str) -> None:
    path = TOURS.parent / f"{stem}.toml"
    game = DarkAgesGame.from_data(read_toml(path), str(path))
    for seed in range(12):
        st = _play(game, seed)  # an illegal order would raise
        assert st.result() is not None
