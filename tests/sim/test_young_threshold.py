"""``run_batch`` plays with the collector's young collections further apart and puts the thresholds
back after, also when a battle fails (docs/performance.md, "Young collections further apart")."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from shieldwall.sim import runner


def _batch() -> runner.Batch:
    # (``run_battle`` is replaced below: the setup is never read)
    return runner.Batch(setup=None, items=((0, 11), (1, 12)))  # type: ignore[arg-type]


def test_a_batch_plays_with_young_collections_further_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, int, int]] = []

    def battle(setup: Any, index: int, seed: int) -> dict[str, Any]:
        seen.append(gc.get_threshold())
        return {"index": index, "seed": seed}

    monkeypatch.setattr(runner, "run_battle", battle)
    kept = gc.get_threshold()
    try:
        gc.set_threshold(700, 9, 8)
        rows = runner.run_batch(_batch())
        assert rows == [{"index": 0, "seed": 11}, {"index": 1, "seed": 12}]
        assert seen == [(runner.YOUNG_THRESHOLD, 9, 8)] * 2
        assert gc.get_threshold() == (700, 9, 8)
    finally:
        gc.set_threshold(*kept)


def test_the_thresholds_come_back_when_a_battle_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def battle(setup: Any, index: int, seed: int) -> dict[str, Any]:
        raise RuntimeError("a battle that fails")

    monkeypatch.setattr(runner, "run_battle", battle)
    kept = gc.get_threshold()
    try:
        gc.set_threshold(650, 10, 10)
        with pytest.raises(RuntimeError):
            runner.run_batch(_batch())
        assert gc.get_threshold() == (650, 10, 10)
    finally:
        gc.set_threshold(*kept)
