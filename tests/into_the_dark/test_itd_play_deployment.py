"""Clause tests: alternate deployment (setup.deployment) and Concealed Deployment
(concealed-deployment.playing-cards, concealed-deployment.dummies) with hidden information."""

from __future__ import annotations

from typing import Any

import pytest

from shieldwall.core.errors import DataError, IllegalOrder
from shieldwall.rulesets.into_the_dark.extra_orders import Deploy
from shieldwall.rulesets.into_the_dark.game import IntoTheDarkGame
from shieldwall.visibility import filter_event, view_for

from .playkit import RS, scenario, u

ALT = {"deployment": "alternate"}


def units() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    red = [u("r1", "CPF", 20, 5), u("r2", "LPM", 30, 5), u("r3", "CPF", 40, 5)]
    blue = [u("b1", "CPF", 20, 31, 180), u("b2", "LPM", 30, 31, 180)]
    return red, blue


def make(options: dict[str, Any], **side: Any) -> IntoTheDarkGame:
    red, blue = units()
    data = scenario(red, blue, options=options, table=(60.0, 36.0), spare=False)
    for s in ("red", "blue"):
        data[s].update(side)
    return IntoTheDarkGame.from_data(data, "test.toml")


def test_setup_deployment_low_roller_places_foot_first_then_mounted_alternating() -> None:
    st = make(ALT).new_state(0)
    assert all(not x.on_table for x in st.units.values())
    d = st.decision()
    assert d is not None and d.kind == "deploy"
    roll = next(e for e in st.events if e.kind == "deploy-roll")
    assert roll.rule == f"{RS}:setup.deployment"
    first = roll.data["first"]
    assert roll.data["faces"][first] < roll.data["faces"]["blue" if first == "red" else "red"]
    assert d.side == first and d.data["troops"] == "foot"
    order: list[tuple[str, str]] = []
    while (d := st.decision()) is not None and d.kind == "deploy":
        o = st.legal_orders()[0]
        assert isinstance(o, Deploy)
        order.append((d.side, st.units[o.unit].code))
        st.apply(o)
    # foot first (alternating, red's leftover foot unit after), then the mounted
    kinds = [c[-1] for _, c in order]
    assert kinds == ["F", "F", "F", "M", "M"]
    foot_sides = [s for s, c in order if c.endswith("F")]
    assert foot_sides[:2] == [first, "blue" if first == "red" else "red"]
    assert foot_sides[2] == "red"  # "he places the leftover units now"
    assert any(e.kind == "deployment" for e in st.events)


def test_setup_deployment_zone_quarter_and_twelve_inches_from_sides() -> None:
    st = make(ALT).new_state(0)
    d = st.decision()
    assert d is not None
    uid = "r1" if d.side == "red" else "b1"
    y_far = 20 if d.side == "red" else 16
    with pytest.raises(IllegalOrder) as e:
        st.apply(f"deploy {uid} 30 {y_far} {0 if d.side == 'red' else 180}")
    assert e.value.rule == f"{RS}:setup.deployment" and "1/4" in e.value.reason
    y_ok = 8 if d.side == "red" else 28
    with pytest.raises(IllegalOrder) as e:
        st.apply(f"deploy {uid} 13 {y_ok} {0 if d.side == 'red' else 180}")  # 2 figures from x=11
    assert '12"' in e.value.reason
    st.apply(f"deploy {uid} 30 {y_ok} {0 if d.side == 'red' else 180}")
    with pytest.raises(IllegalOrder):
        st.apply("deploy r2 30 8 0")  # mounted wait for the foot


def test_concealed_deployment_playing_cards_hidden_until_revealed() -> None:
    g = make({**ALT, "concealed_deployment": True})
    st = g.new_state(0)
    while (d := st.decision()) is not None and d.kind == "deploy":
        st.apply(st.legal_orders()[0])
        if d.side == "red" and st.cards:
            break
    placed = next(e for e in st.events if e.kind == "deploy")
    side = placed.side
    assert side is not None
    foe = "blue" if side == "red" else "red"
    assert placed.data["hidden_from"] == [foe]
    assert filter_event(placed, [foe], False).kind == "hidden"
    card = next(e for e in st.events if e.kind == "card-placed")
    assert card.rule == f"{RS}:concealed-deployment.playing-cards" and "unit" not in card.data
    v = view_for(st, [foe])
    assert placed.data["unit"] not in {x["id"] for x in v["units"]}
    assert card.data["card"] in {c["id"] for c in v["cards"]}
    assert placed.data["unit"] in {x["id"] for x in st.view_for(side)["units"]}
    while (d := st.decision()) is not None and d.kind == "deploy":
        st.apply(st.legal_orders()[0])
    rev = next(e for e in st.events if e.kind == "reveal")
    assert rev.rule == f"{RS}:concealed-deployment.playing-cards"
    assert not st.cards and all(not x["hidden_from"] for x in st.view()["units"])


def test_concealed_deployment_dummies_take_space_then_vanish() -> None:
    with pytest.raises(DataError) as e:
        make({**ALT, "concealed_deployment": True}, dummies=1)
    assert "concealed-deployment.dummies" in str(e.value)
    g = make({**ALT, "concealed_deployment": True}, dummies=1, card_width=4.0, card_depth=2.0)
    st = g.new_state(0)
    seen = set()
    while (d := st.decision()) is not None and d.kind == "deploy":
        o = st.legal_orders()
        seen |= {x.unit for x in o if isinstance(x, Deploy)}
        st.apply(o[-1])
    assert {"red-dummy-1", "blue-dummy-1"} <= seen
    rev = next(e for e in st.events if e.kind == "reveal")
    assert len(rev.data["dummies"]) == 2
    dep = [e for e in st.events if e.kind == "deploy" and e.data["dummy"]]
    assert dep and all(e.rule == f"{RS}:concealed-deployment.dummies" for e in dep)


def test_concealed_deployment_needs_alternate_deployment() -> None:
    with pytest.raises(DataError) as e:
        make({"concealed_deployment": True})
    assert "concealed-deployment.playing-cards" in str(e.value)


def test_setup_deployment_same_seed_same_log() -> None:
    def run() -> list[Any]:
        st = make({**ALT, "concealed_deployment": True}).new_state(11)
        while (d := st.decision()) is not None and d.kind == "deploy":
            st.apply(st.legal_orders()[-1])
        return [e.to_dict() for e in st.events]

    assert run() == run()


def test_concealed_deployment_tells_the_other_side_nothing_of_its_dummies() -> None:
    """Ordering one of the other side's dummy cards answers as for an id that names nothing (no
    count of the dummies), and that side's cards are seen all of one size (no dummy by its size)."""
    g = make({**ALT, "concealed_deployment": True}, dummies=1, card_width=3.0, card_depth=1.0)
    st = g.new_state(0)
    while (d := st.decision()) is not None and d.kind == "deploy" and len(st.cards) < 3:
        mine = [o for o in st.legal_orders() if "dummy" in str(o)] or st.legal_orders()
        st.apply(mine[0])
    d = st.decision()
    assert d is not None and d.kind == "deploy"
    foe = "blue" if d.side == "red" else "red"
    reasons = set()
    for uid in (f"{foe}-dummy-1", f"{foe}-dummy-5", "nobody"):
        with pytest.raises(IllegalOrder) as e:
            st.apply(f"deploy {uid} 30 8 0")
        reasons.add(e.value.reason.replace(uid, "X"))
    assert len(reasons) == 1, reasons
    theirs = [c for c in st.view()["cards"] if c["side"] == foe]
    assert len({(c["frontage"], c["depth"]) for c in theirs}) == 2  # a dummy and a unit's card
    seen = [c for c in st.view_for(d.side)["cards"] if c["side"] == foe]
    assert len(seen) == len(theirs) and len({(c["frontage"], c["depth"]) for c in seen}) == 1
    placed = [st.event_for(e, d.side) for e in st.events if e.kind == "card-placed" and e.side == foe]
    assert len({(e.data["width"], e.data["depth"]) for e in placed}) == 1


def test_concealed_deployment_dummies_placing_next_to_a_card_answers_alike_for_dummy_and_unit() -> None:
    """Placing a unit next to one of the other side's face-down cards is judged by the card as that
    side is shown it (all of one size), never by what lies under it: the same offsets from a dummy
    card (smaller than a unit here) and from a unit's card get the same answers, accepted or refused
    with the same words (docs/rulings 70). Blue deploys from the west edge so that the two deployment
    zones share a corner where red can stand next to blue's cards."""
    red = [u(f"r{i}", "CPF", 150 + 10 * i, 5, figures=4) for i in (1, 2, 3)]  # 4" x 1"
    blue = [u("b1", "CPF", 30, 100, 90)]  # 4" x 2"
    data = scenario(
        red, blue, options={**ALT, "concealed_deployment": True}, table=(200.0, 200.0), spare=False
    )
    data["blue"].update(home_edge="west", dummies=1, card_width=2.0, card_depth=1.0)
    st = IntoTheDarkGame.from_data(data, "test.toml").new_state(0)
    plan = {"red": ["r1 150 5 0", "r2 170 5 0"], "blue": ["blue-dummy-1 30 22 90", "b1 30 40 90"]}
    while (d := st.decision()) is not None and d.kind == "deploy" and (d.side == "blue" or plan["blue"]):
        st.apply(f"deploy {plan[d.side].pop(0)}")
    assert d is not None and d.kind == "deploy" and d.side == "red" and not plan["blue"]
    true = {k: c["fp"][3:] for k, c in st.cards.items() if c["side"] == "blue"}
    assert sorted(true.values()) == [(2.0, 1.0), (4.0, 2.0)]  # a dummy card and a unit's card
    answers: dict[str, list[str]] = {}
    for card in (c for c in st.view_for("red")["cards"] if c["side"] == "blue"):
        got = answers.setdefault(card["id"], [])
        for i in range(-12, 13):
            for j in range(-12, 13):
                probe = st.copy()
                try:
                    probe.apply(f"deploy r3 {card['x'] + i / 2} {card['y'] + j / 2} 0")
                    got.append("accepted")
                except IllegalOrder as e:
                    got.append(f"{e.rule}: {e.reason}")
    first, second = answers.values()
    assert first == second
    assert "accepted" in first and any("overlap" in a for a in first)


def test_concealed_deployment_dummies_own_cards_take_the_room_they_are_shown() -> None:
    """A side's own face-down cards take the room the other side is shown (its card envelope),
    not their true room: two small cards of one side may not stand so close that their shown
    rectangles overlap, or the other side would see overlapping cards and know that one of them
    holds something smaller than shown, a dummy (docs/rulings 70, revised)."""
    red = [u(f"r{i}", "CPF", 150 + 10 * i, 5, figures=4) for i in (1, 2)]  # 4" x 1"
    blue = [u("b1", "CPF", 30, 100, 90)]  # 4" x 2": blue's envelope is 4" x 2"
    data = scenario(
        red, blue, options={**ALT, "concealed_deployment": True}, table=(200.0, 200.0), spare=False
    )
    data["blue"].update(home_edge="west", dummies=1, card_width=2.0, card_depth=1.0)
    st = IntoTheDarkGame.from_data(data, "test.toml").new_state(0)
    # the dummy (2" x 1", facing east) at x=30; b1's card 1.5" further back would clear the
    # dummy's true 1" depth but not its shown 2" depth
    while (d := st.decision()) is not None and d.kind == "deploy" and d.side == "red":
        st.apply("deploy r1 150 5 0")
    st.apply("deploy blue-dummy-1 30 22 90")
    while (d := st.decision()) is not None and d.side == "red":
        st.apply("deploy r2 170 5 0")
    with pytest.raises(IllegalOrder) as e:
        st.copy().apply("deploy b1 28.5 22 90")
    assert e.value.rule == "into-the-dark:setup.deployment" and "overlap" in e.value.reason
    st.apply("deploy b1 27.5 22 90")  # 2" behind the dummy's front edge: the shown rooms just touch
    shown = [c for c in st.view_for("red")["cards"] if c["side"] == "blue"]
    assert len(shown) == 2 and all((c["frontage"], c["depth"]) == (4.0, 2.0) for c in shown)
