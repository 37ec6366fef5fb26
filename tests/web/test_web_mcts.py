"""The search bot on the web table: listed among the bots, playable with a playout budget."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


def test_the_search_bot_is_listed(client: Any) -> None:
    assert "mcts" in client.get("/api/bots").json()


def test_a_game_against_the_search_bot(client: Any, small: Callable[..., Any]) -> None:
    body = {"scenario_data": small(), "seed": 3, "side": "blue", "opponent": "mcts:4"}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    st = r.json()["game"]
    assert st["players"] == {"red": "bot:mcts:4", "blue": "human"}
    # red (the bot) has played its first turn by the search: blue decides now
    assert st["decision"]["side"] == "blue" and st["version"] > 0
    again = client.post("/api/games", json=body).json()["game"]
    assert again["version"] == st["version"] and again["view"] == st["view"]  # it replays


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("mcts:1s", "not a time budget"),
        ("mcts:99999", "at most 2000 playouts"),
        ("mcts:201:hend", "mcts:200:hend at most"),
        ("mcts:1000:h40", "rollout horizon at most 20000"),
        ("mcts:lots", "neither a number of playouts"),
        ("mcts:", "nothing after the colon"),
        ("mcts:4:mix2", "mixP with P from 0 to 1"),
        ("mcts:1s:mix0.5", "not a time budget"),
        ("mcts:4:mixx", "is not a number"),
        ("mcts:4:sh:duel", "root search twice"),
        ("mcts:4:h0", "at least 1"),
        ("mcts:1s:sh", "needs a number of playouts"),
    ],
)
def test_search_specs_the_table_refuses(client: Any, small: Callable[..., Any], name: str, why: str) -> None:
    """The table parses the search bot's spec with the command line's grammar and refuses, naming
    the field, a spec that does not parse or that asks more search than the server gives."""
    r = client.post("/api/games", json={"scenario_data": small(), "seed": 3, "opponent": name})
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert detail.startswith(f"opponent {name!r}: ") and why in detail, detail


def test_a_name_that_is_no_bot_is_refused_with_the_bots(client: Any, small: Callable[..., Any]) -> None:
    r = client.post("/api/games", json={"scenario_data": small(), "seed": 3, "opponent": "random:3"})
    assert r.status_code == 422 and "opponent must be" in r.text and "mcts:N" in r.text


@pytest.mark.parametrize(
    ("name", "bot"),
    [
        ("mcts:4:mix0.5", "bot:mcts:4:mix0.5"),
        ("mcts:mix0", "bot:mcts:mix0"),
        ("mcts:4:hend:sh", "bot:mcts:4:hend:sh"),
        ("mcts:h3:4", "bot:mcts:h3:4"),
    ],
)
def test_a_search_bot_with_an_opponent_model(
    client: Any, small: Callable[..., Any], name: str, bot: str
) -> None:
    """The table takes the command line's spec grammar (the opponent model mcts:N:mixP, the
    horizon and the halving: mcts:N:hend:sh), within its bounds, and the game replays."""
    body = {"scenario_data": small(), "seed": 3, "side": "blue", "opponent": name}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    st = r.json()["game"]
    assert st["players"] == {"red": bot, "blue": "human"}
    again = client.post("/api/games", json=body).json()["game"]
    assert again["version"] == st["version"] and again["view"] == st["view"]


def test_the_table_bounds_plain_mcts_and_the_rule_system_s_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bound holds for what the rule system's default options ask too (``search_options``), and a
    spec at the bound is taken (the check only: no battle is played with it)."""
    import dataclasses

    from shieldwall import registry
    from shieldwall.web.table_bots import bot_problem

    rid = "one-hour-dark-ages"
    assert bot_problem("mcts:200:hend", rid) is None
    # at the bound: 2000 playouts of 10 decisions (the rule system's default horizon is 24)
    assert bot_problem("mcts:2000:h10", rid) is None
    assert bot_problem("mcts:2000", rid) is not None
    assert bot_problem("scripted", rid) is None
    assert bot_problem("nobody", rid) == ""
    real = registry.get

    def get(name: str) -> registry.RuleSystem:
        rs = real(name)
        return dataclasses.replace(rs, search_options="300:hend") if name == rid else rs

    monkeypatch.setattr(registry, "get", get)
    problem = bot_problem("mcts", rid)
    assert problem is not None and problem.startswith("opponent 'mcts': too much search")
    assert bot_problem("mcts:20", rid) is None  # the user's budget over the default's


def test_each_rule_system_s_default_search_is_listed_with_it(client: Any) -> None:
    """The lobby shows the default search a plain ``mcts`` plays with (``RuleSystem.search_options``)."""
    from shieldwall import registry

    listed = {r["id"]: r["search_options"] for r in client.get("/api/rulesets").json()}
    assert listed == {rid: rs.search_options for rid, rs in registry.systems().items()}
    assert any(listed.values())  # the built-in systems declare theirs
