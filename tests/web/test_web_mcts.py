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
    "name",
    [
        "mcts:1s",
        "mcts:99999",
        "mcts:lots",
        "mcts:",
        "random:3",
        "mcts:4:mix2",
        "mcts:1s:mix0.5",
        "mcts:4:mixx",
    ],
)
def test_budgets_the_table_refuses(client: Any, small: Callable[..., Any], name: str) -> None:
    r = client.post("/api/games", json={"scenario_data": small(), "seed": 3, "opponent": name})
    assert r.status_code == 422 and "opponent must be" in r.text and "mcts:N" in r.text


@pytest.mark.parametrize(
    ("name", "bot"), [("mcts:4:mix0.5", "bot:mcts:4:mix0.5"), ("mcts:mix0", "bot:mcts:mix0")]
)
def test_a_search_bot_with_an_opponent_model(
    client: Any, small: Callable[..., Any], name: str, bot: str
) -> None:
    """The table takes the search's opponent model too (mcts:N:mixP), and the game replays."""
    body = {"scenario_data": small(), "seed": 3, "side": "blue", "opponent": name}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    st = r.json()["game"]
    assert st["players"] == {"red": bot, "blue": "human"}
    again = client.post("/api/games", json=body).json()["game"]
    assert again["version"] == st["version"] and again["view"] == st["view"]
