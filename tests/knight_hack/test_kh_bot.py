"""Issue 22: the scripted bot reckons a charge's odds with the charger's disorder on contact.

A charger that makes contact is disordered until it rallies (knight-hack:charge.disorder-on-contact):
it fights its first round with the charge bonus but disordered, and its object fights a disordered
unit. The bot used to count only the bonus, so it charged where it was even or worse (sample
tables, ILLUSTRATIVE, not the published Knight Hack charts)."""

from __future__ import annotations

from shieldwall.io.scenarios import load_game
from shieldwall.match import play
from shieldwall.rulesets.knight_hack.bots import _charge_edge


def test_a_charge_s_edge_counts_the_charger_s_disorder_on_contact() -> None:
    game = load_game("knight-hack/bourgtheroulde-1124")
    st = game.new_state(1)
    tables = game.scenario.tables  # type: ignore[attr-defined]
    units = {u["id"]: u for u in st.view()["units"]}
    # knights (T 60 against the dismounted knights' 40 undisordered): +10 charging, -15 disordered;
    # the dismounted knights +15 against a disordered unit: even, so not a charge worth making
    assert _charge_edge(tables, units["hugh-knights"], units["dismounted-knights"]) == 0
    # against the reserve knights they are worse off (45 against 65)
    assert _charge_edge(tables, units["hugh-knights"], units["reserve-knights"]) == -20
    # against archers still far better
    assert _charge_edge(tables, units["hugh-knights"], units["archers"]) == 65


def test_the_scripted_rebels_seldom_lose_to_random_play_at_bourgtheroulde() -> None:
    """Seeds 0 to 39, the scripted bot as blue (the rebels) against ``random``: the bot that left
    the charger's disorder out lost 19 of 40 (charging the dismounted knights and the reserve
    knights at even or worse odds); this one loses 4 (seeded: the same every run)."""
    game = load_game("knight-hack/bourgtheroulde-1124")
    lost = 0
    for seed in range(40):
        r = play(game, seed, "random", "scripted").state.result()
        assert r is not None
        lost += r.winner == "red"
    assert lost <= 10, f"scripted lost {lost} of 40 to random as blue"
