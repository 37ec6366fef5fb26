"""``collector.battles``: battles are played with the collector's young collections further apart,
and the thresholds are put back after, also when a battle fails (docs/performance.md, "Young
collections further apart"); ``run_batch`` and ``match.play`` play inside it."""

from __future__ import annotations

import gc
import threading
from typing import Any

import pytest

from shieldwall import collector
from shieldwall.ai.base import bot_seed, make_bot
from shieldwall.io.scenarios import load_game
from shieldwall.match import play
from shieldwall.sim import runner


@pytest.fixture(autouse=True)
def _thresholds_kept() -> Any:
    kept = gc.get_threshold()
    yield
    gc.set_threshold(*kept)


def _batch() -> runner.Batch:
    # (``run_battle`` is replaced below: the setup is never read)
    return runner.Batch(setup=None, items=((0, 11), (1, 12)))  # type: ignore[arg-type]


def test_a_batch_plays_with_young_collections_further_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, int, int]] = []

    def battle(setup: Any, index: int, seed: int) -> dict[str, Any]:
        seen.append(gc.get_threshold())
        return {"index": index, "seed": seed}

    monkeypatch.setattr(runner, "run_battle", battle)
    gc.set_threshold(700, 9, 8)
    rows = runner.run_batch(_batch())
    assert rows == [{"index": 0, "seed": 11}, {"index": 1, "seed": 12}]
    assert seen == [(collector.YOUNG_THRESHOLD, 9, 8)] * 2
    assert gc.get_threshold() == (700, 9, 8)


def test_the_thresholds_come_back_when_a_battle_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def battle(setup: Any, index: int, seed: int) -> dict[str, Any]:
        raise RuntimeError("a battle that fails")

    monkeypatch.setattr(runner, "run_battle", battle)
    gc.set_threshold(650, 10, 10)
    with pytest.raises(RuntimeError):
        runner.run_batch(_batch())
    assert gc.get_threshold() == (650, 10, 10)


def test_nested_blocks_keep_the_outermost_settings_and_put_them_back_once() -> None:
    gc.set_threshold(500, 7, 6)
    with collector.battles():
        assert gc.get_threshold() == (collector.YOUNG_THRESHOLD, 7, 6)
        with collector.battles():
            assert gc.get_threshold() == (collector.YOUNG_THRESHOLD, 7, 6)
        # the inner block put nothing back: the outer one still holds
        assert gc.get_threshold() == (collector.YOUNG_THRESHOLD, 7, 6)
    assert gc.get_threshold() == (500, 7, 6)


def test_threads_share_the_outermost_block() -> None:
    gc.set_threshold(600, 10, 10)
    inside = threading.Barrier(4)
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            with collector.battles():
                inside.wait(timeout=10)
                assert gc.get_threshold()[0] == collector.YOUNG_THRESHOLD
                inside.wait(timeout=10)
        except BaseException as exc:  # (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not errors
    assert gc.get_threshold() == (600, 10, 10)


def test_play_runs_inside_the_block_and_the_battle_is_the_same() -> None:
    game = load_game("one-hour-dark-ages/bryn-glas")
    seen: list[int] = []
    gc.set_threshold(700, 10, 10)
    a = play(game, 5, on_order=lambda st, o: seen.append(gc.get_threshold()[0]))
    assert seen and set(seen) == {collector.YOUNG_THRESHOLD}
    assert gc.get_threshold() == (700, 10, 10)
    # the same battle with the collector as CPython sets it, run directly
    gc.disable()
    try:
        state = game.new_state(5)
        bots = {
            side: make_bot("scripted", bot_seed(5, i), game.info.id) for i, side in enumerate(game.info.sides)
        }
        while not state.is_terminal():
            d = state.decision()
            assert d is not None
            state.apply(bots[d.side].choose(state))
    finally:
        gc.enable()
    assert [str(e) for e in a.state.events] == [str(e) for e in state.events]
