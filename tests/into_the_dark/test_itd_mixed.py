"""Clause tests: units of mixed troop types (troops.unit-organisation): "If different troop types are
mixed in a unit, it moves at the speed of the slowest. When in melee, the figures in contact with the
enemy determine the attack/defence values, or when giving or receiving missile fire the values of the
majority troop type are used." (ruling 76)"""

from __future__ import annotations

from typing import Any

import pytest

from shieldwall.core.errors import DataError
from shieldwall.rulesets.into_the_dark.army import parse_army
from shieldwall.rulesets.into_the_dark.fighting import in_contact, troops
from shieldwall.rulesets.into_the_dark.game import IntoTheDarkGame
from shieldwall.rulesets.into_the_dark.points import unit_cost
from shieldwall.rulesets.into_the_dark.spatial import Touch

from .playkit import RS, end_until, events, scenario, script, start, u


def army(**unit: Any) -> dict[str, Any]:
    base = {
        "name": "u",
        "division": "Main",
        "code": "CAF",
        "quality": "average",
        "type": "melee",
        "figures": 12,
    }
    return {
        "name": "x",
        "generals": [{"name": "g", "rating": "average", "commanding": True, "division": "Main"}],
        "units": [{**base, **unit}],
    }


ARCHERS = {"code": "CPF", "figures": 4, "type": "missile", "weapon": "bow"}


def test_troops_unit_organisation_mixed_unit_in_the_army_format() -> None:
    a = parse_army(army(frontage=6, mixed=[ARCHERS]))
    x = a.units[0]
    assert x.is_mixed and [(p.code, p.figures, p.type) for p in x.parts()] == [
        ("CAF", 8, "melee"),
        ("CPF", 4, "missile"),
    ]


@pytest.mark.parametrize(
    ("mixed", "field", "words"),
    [
        ([{"code": "CPM", "figures": 2}], "mixed[0]", "density and category"),
        ([{"code": "LPF", "figures": 2}], "mixed[0]", "density and category"),
        ([{"code": "CPF", "figures": 12}], "mixed", "leave none"),
        ([{"code": "CPF", "figures": 2, "type": "missile"}], "mixed[0]", "missile weapon"),
    ],
)
def test_troops_unit_organisation_mixed_unit_errors_name_the_field(
    mixed: Any, field: str, words: str
) -> None:
    with pytest.raises(DataError) as e:
        parse_army(army(mixed=mixed))
    assert field in e.value.field and words in e.value.reason
    assert f"{RS}:troops" in e.value.reason


def test_troops_unit_organisation_mixed_unit_points_per_type() -> None:
    row = unit_cost(parse_army(army(mixed=[ARCHERS])).units[0])
    # CAF average 5 x 8 + CPF average missile 4 x 4 + command 30
    assert row.points == 86 and row.code == "CAF+CPF"
    assert any("CPF average missile: 4 x 4 figures" in s.name for s in row.steps)


def _mixed_game(
    code: str = "CAF", mixed: list[dict[str, Any]] | None = None, front: int = 6, by: float = 30.0
) -> Any:
    """A scenario whose red r1 is a mixed unit, given inline in the army format."""
    data = scenario([u("r1", code, 20, 5, figures=12, frontage=front)], [u("b1", "CPF", 20, by, 180)])
    data["red"]["army"]["units"][0]["mixed"] = mixed or [ARCHERS]
    return start(IntoTheDarkGame.from_data(data, "test.toml"), "red")


def test_troops_unit_organisation_mixed_unit_moves_at_the_slowest() -> None:
    """CAF moves 6" but encased foot (CEF) 4" ("Encased"): the mixed unit moves 4"."""
    st = _mixed_game(mixed=[{"code": "CEF", "figures": 2}])
    r1 = st.units["r1"]
    assert r1.allowance == 4 and r1.rout_dice == 2


def test_troops_unit_organisation_mixed_unit_melee_by_the_front_rank_missiles_by_the_majority() -> None:
    # into-the-dark:troops.unit-organisation.mixed-missiles
    # 6 wide: a front rank of 6 CAF; 6 CAF and 6 missile CPF in all: a tie, so CAF (listed first)
    st = _mixed_game(mixed=[{"code": "CPF", "figures": 6, "type": "missile", "weapon": "bow"}])
    r1 = st.units["r1"]
    assert troops(r1).armour == "A"  # melee: the armoured front rank
    assert r1.majority.code == "CAF" and not r1.has_missiles
    r1.lose(1)  # casualties come off the rear rank - the archers: 6 CAF, 5 CPF
    assert r1.majority.code == "CAF"
    # 4 CAF in front of 8 archers: the majority shoots and is shot at as CPF bowmen
    st2 = _mixed_game(mixed=[{"code": "CPF", "figures": 8, "type": "missile", "weapon": "bow"}], front=4)
    r2 = st2.units["r1"]
    assert r2.majority.code == "CPF" and r2.has_missiles and r2.majority.missile_weapon == "foot-bow"
    assert troops(r2, missile=True).armour == "P" and troops(r2).armour == "A"


def test_troops_unit_organisation_mixed_unit_is_shown_with_its_types() -> None:
    st = _mixed_game()
    v = {x["id"]: x for x in st.view()["units"]}["r1"]
    assert v["mixed"] == [
        {"code": "CAF", "figures": 8, "type": "melee", "weapon": None},
        {"code": "CPF", "figures": 4, "type": "missile", "weapon": "bow"},
    ]
    from shieldwall.render.svg import render_svg

    assert "mixed: 8 CAF melee, 4 CPF missile" in render_svg(st.view())


def test_troops_unit_organisation_mixed_unit_fights_with_its_front_rank() -> None:
    """In a melee the mixed unit attacks and is hit with the values of its front rank (CAF: hit on
    5+), though most of its figures behind are protected bowmen (4+)."""
    bows = [{"code": "CPF", "figures": 8, "type": "missile", "weapon": "bow"}]
    st = _mixed_game(mixed=bows, front=4, by=6.0)  # 4 CAF in front of 8 CPF bowmen (the majority)
    script(st, [6] * 80)
    st.apply("charge r1 b1")
    end_until(st, "initiative")
    hits_on_r1 = [e for e in events(st, "melee") if e.data["target"] == "r1"]
    assert hits_on_r1 and hits_on_r1[0].data["groups"][0]["armour"] == 5  # armoured: 5+


def test_troops_unit_organisation_mixed_melee_figures_in_contact_on_each_edge() -> None:
    """ "the figures in contact with the enemy determine the attack/defence values" (ruling 78): on
    the front its front rank, on the rear its rear rank, on a flank the end figure of each rank."""
    bows = [{"code": "CPF", "figures": 8, "type": "missile", "weapon": "bow"}]
    st = _mixed_game(mixed=bows, front=4)  # ranks: 4 CAF, then 4 and 4 CPF bowmen
    r1 = st.units["r1"]
    assert r1.ranks == 3
    w, d = r1.frontage, r1.depth
    front = Touch("b1", "front", "front", 0.0, w, 0.0, w)
    rear = Touch("b1", "rear", "front", 0.0, w, 0.0, w)
    left = Touch("b1", "left", "front", 0.0, d, 0.0, d)
    assert in_contact(r1, front) == [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert in_contact(r1, left) == [(0, 0), (1, 0), (2, 0)]
    assert troops(r1, figs=in_contact(r1, front)).armour == "A"
    assert troops(r1, figs=in_contact(r1, rear)).armour == "P"
    assert troops(r1, figs=in_contact(r1, left)).armour == "P"  # 1 CAF, 2 CPF
    # only the front rank's end figure touching: CAF
    near = Touch("b1", "left", "front", 2.0 * d / 3.0, d, 0.0, d / 3.0)
    assert in_contact(r1, near) == [(0, 0)] and troops(r1, figs=in_contact(r1, near)).armour == "A"
    # a unit of one type is always its own type
    plain = _mixed_game(mixed=None).units["r1"]
    assert troops(plain, figs=[(2, 0)]).armour == troops(plain).armour


def test_troops_unit_organisation_mixed_melee_attacked_in_the_flank_defends_as_its_flank_figures() -> None:
    # r1: 4 CAF in front of 12 CPF bowmen, 4 ranks; b1 (2 ranks of 4) flush against its left flank,
    # where 1 CAF and 3 bowmen stand: they are hit as bowmen (4+), not as the armoured front (5+)
    bows = [{"code": "CPF", "figures": 12, "type": "missile", "weapon": "bow"}]
    data = scenario(
        [u("r1", "CAF", 20, 5, figures=16, frontage=4)],
        [u("b1", "CPF", 0, 0, 90, figures=8, frontage=4)],
    )
    data["red"]["army"]["units"][0]["mixed"] = bows
    # x, y: a unit's front centre; r1 spans x 18..22, y 1..5
    data["blue"]["deploy"][0].update({"x": 18.0, "y": 3.0})
    st = start(IntoTheDarkGame.from_data(data, "test.toml"), "red")
    touch = [x for x in st.touching(st.units["b1"]) if x.other == "r1"]
    assert touch and touch[0].theirs == "left"
    script(st, [6] * 80)
    end_until(st, "initiative")
    hits = [e for e in events(st, "melee") if e.data["target"] == "r1" and e.data.get("groups")]
    assert hits and hits[0].data["groups"][0]["armour"] == 4


def test_troops_unit_organisation_mixed_melee_charge_forecast_uses_the_figures_that_will_touch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The forecast of a charge (what the scripted bot weighs before it charges) rolls with the
    figures the melee will roll with: r1 charges the rear of b1, a mixed unit of 4 armoured CAF in
    front of 8 protected CPF; the CPF of its rear rank touch, so both the melee and the forecast hit
    b1 as protected (4+), not as its armoured front rank (5+) - ruling 78."""
    import numpy as np

    from shieldwall.rulesets.into_the_dark import act_combat
    from shieldwall.rulesets.into_the_dark.bots.general import IntoTheDarkGeneral
    from shieldwall.rulesets.into_the_dark.charging import charge_troops
    from shieldwall.rulesets.into_the_dark.melee_situation import MeleeSituation

    # b1 faces north (away from r1) at y 20, its 3 ranks reaching back to y 17; r1 stands 4" behind
    data = scenario([u("r1", "CPF", 20, 13)], [u("b1", "CAF", 20, 20, 0, figures=12, frontage=4)])
    data["blue"]["army"]["units"][0]["mixed"] = [{"code": "CPF", "figures": 8}]
    st = start(IntoTheDarkGame.from_data(data, "test.toml"), "red")
    b1 = st.units["b1"]
    assert troops(b1).armour == "A"  # its front rank
    st.apply("activate r1")
    order = next(o for o in st.legal_orders() if str(o).startswith("charge r1 b1"))
    got = charge_troops(st, order)
    assert got is not None
    ta, tt = got
    assert tt.armour == "P" and ta == troops(st.units["r1"])  # the bowmen at its rear will touch

    # the bot's forecast of the first round: expected hits of r1 charging b1's rear
    bot = IntoTheDarkGeneral(np.random.default_rng(0))
    bot._setup(st)
    r, b = bot.units["r1"], bot.units["b1"]
    assert bot._edge_after(st, order) == "rear"
    forecast = bot._expected(r, b, "rear", True, False, bot._forecast(order))
    front_rank_forecast = bot._expected(r, b, "rear", True, False, None)
    # the value of the charge the bot weighs reads the figures that will touch
    assert bot._charge_value(r, b, "rear", False, order) > bot._charge_value(r, b, "rear", False) + 0.5

    # the melee: every situation the engine builds, recorded
    built: list[MeleeSituation] = []

    def record(*args: Any, **kw: Any) -> MeleeSituation:
        sit = MeleeSituation(*args, **kw)
        built.append(sit)
        return sit

    monkeypatch.setattr(act_combat, "MeleeSituation", record)
    script(st, [6] * 80)
    st.apply(order)
    end_until(st, "initiative")
    rolled = [s for s in built if s.rear]
    assert len(rolled) == 1
    sit = rolled[0]
    assert (sit.attacker, sit.target) == (ta, tt) and sit.charging and sit.rear == 8
    assert sit.dist() == MeleeSituation(ta, tt, rear=sit.rear, charging=True).dist()
    assert forecast == pytest.approx(float(sit.dist().mean()))
    assert sit.target.hit_on == 4  # protected: 4+
    # read off its front rank (armoured, 5+), the forecast would have been lower
    assert front_rank_forecast < forecast - 0.5
