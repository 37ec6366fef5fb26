"""The view's unit entries made by the compiled ``unit_view`` (issue 16, docs/performance.md "Knight
Hack's view") are the entries the state made itself before: the same keys in the same order, the
same values. The oracle below is that code, kept here: the board's units read through their own
properties, ``hidden_from`` and ``deployed`` merged in after. Checked at every order of battles on
both maps, with hand deployment too (ruling R51: ``deployed``) and on the ambush map (``hidden_from``
while the battle lasts)."""

from __future__ import annotations

from typing import Any

import pytest

from shieldwall.io.scenarios import load_game
from shieldwall.match import play
from shieldwall.rulesets.knight_hack import deploy
from shieldwall.rulesets.knight_hack.formation import depth_of, ranks_of, width_of
from shieldwall.rulesets.knight_hack.unit_view import unit_entries


def _oracle(b: Any) -> list[dict[str, Any]]:
    def hidden(u: Any) -> dict[str, Any]:
        return {"hidden_from": [b.other(u.side)]} if u.hidden and b.result is None else {}

    def waiting(u: Any) -> dict[str, Any]:
        return {"deployed": u.id not in deploy.waiting(b)} if b.deploy_left else {}

    return [
        {
            "id": u.id,
            "side": u.side,
            "name": u.name,
            "type": u.type,
            "class": u.cls,
            "x": round(u.x, 4),
            "y": round(u.y, 4),
            "heading": round(u.heading, 4),
            "frontage": u.width,
            "depth": u.depth,
            "weapons": list(u.weapons),
            "figures": max(0, u.figures),
            "muster": u.muster,
            "hits": u.muster - max(0, u.figures),
            "max_hits": u.muster,
            "status": u.status,
            "disordered": u.status == "disordered",
            "removed": u.gone,
            "in_melee": b.in_melee(u.id),
            "must_charge": u.must_charge,
            "hidden": u.hidden,
        }
        | hidden(u)
        | waiting(u)
        for u in b.units.values()
    ]


@pytest.mark.parametrize("name", ["bourgtheroulde-1124", "bourgtheroulde-1124-ambush"])
@pytest.mark.parametrize("options", [{}, {"hand_deployment": True}])
def test_the_view_s_units_are_the_entries_the_state_made(name: str, options: dict[str, Any]) -> None:
    game = load_game(name, options)
    seen = {"orders": 0, "hidden_from": 0, "deployed": 0}

    def check(state: Any, order: Any) -> None:
        got, want = unit_entries(state.board), _oracle(state.board)
        assert [list(e) for e in got] == [list(e) for e in want]  # the keys, in order
        assert got == want
        assert [type(v) for e in got for v in e.values()] == [type(v) for e in want for v in e.values()]
        seen["orders"] += 1
        seen["hidden_from"] += sum("hidden_from" in e for e in got)
        seen["deployed"] += sum("deployed" in e for e in got)

    for seed, (red, blue) in enumerate(
        [("scripted", "scripted"), ("random", "scripted"), ("scripted", "random")]
    ):
        play(game, seed, red, blue, on_order=check)
    assert seen["orders"] > 100
    if "ambush" in name:
        assert seen["hidden_from"] > 0
    if options:
        assert seen["deployed"] > 0


def test_the_formation_is_the_rules_count() -> None:
    """Ranks of the frontage (at least one), the front rank's width and the ranks' depth (R34:
    an inch a figure, an inch a rank), with fewer figures than the frontage and none left."""
    assert [ranks_of(6, n) for n in (12, 13, 6, 3, 0)] == [2, 3, 1, 1, 1]
    assert [width_of(6, n) for n in (12, 3, 0)] == [6.0, 3.0, 0.0]
    assert [depth_of(6, n) for n in (12, 13, 3)] == [2.0, 3.0, 1.0]
