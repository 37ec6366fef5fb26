"""An order given as an object names only its kind's fields (``orders._FIELDS``): an unknown or
misspelt field is refused, as the other rule systems refuse it (found by an exploratory test of
the web server: ``{"kind": "activate", "unit": "r1", "zzz": "junk"}`` was accepted, and a
misspelt ``headng`` would have been ignored). Every order the engine writes reads back."""

from __future__ import annotations

import pytest

from shieldwall.core.errors import IllegalOrder
from shieldwall.io.scenarios import builtin_scenarios, load_game
from shieldwall.match import play
from shieldwall.rulesets.one_hour import orders as O


@pytest.mark.parametrize(
    "d",
    [
        {"kind": "activate", "unit": "r1", "zzz": "junk"},
        {"kind": "deploy", "unit": "r1", "x": 1, "y": 2, "headng": 3},
        {"kind": "hold", "unit": "r1", "target": "b1"},
        {"kind": "move", "unit": "r1", "steps": [{"go": [1, 2], "x": 1}]},
        {
            "kind": "charge",
            "unit": "r1",
            "target": "b1",
            "facing": "front",
            "turn": {"turn": 10, "pivt": "front"},
        },
    ],
)
def test_orders_an_unknown_field_is_refused_naming_it(d: dict[str, object]) -> None:
    with pytest.raises(IllegalOrder, match="unknown"):
        O.parse(d)


def test_orders_every_order_the_engine_writes_reads_back() -> None:
    seen: set[str] = set()
    for name in sorted(builtin_scenarios()):
        if not name.startswith("one-hour-dark-ages/"):
            continue
        game = load_game(name)
        for red, blue in (("random", "random"), ("scripted", "random")):
            for o in play(game, 4, red, blue).orders:
                d = o.to_dict()
                assert O.parse(d) == o, d
                seen.add(str(d["kind"]))
    assert {"activate", "move", "hold", "end", "charge"} <= seen
