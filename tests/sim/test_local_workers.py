"""The local process pool (``sim.backends.run_local``): this process plays batches beside its
workers, the setups reach each worker once, workers are forked or spawned, and the results are
byte-identical whatever the number of workers, the start method or the batch size."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from shieldwall.sim import backends
from shieldwall.sim.runner import Batch, run_batch
from shieldwall.sim.simulate import SimConfig, plan, prepare, run


def _config(scenario: str, workers: int, out: Path | None = None, batch: int | None = None) -> SimConfig:
    return SimConfig(
        scenario,
        battles=7,
        seed=11,
        workers=workers,
        red="random",
        blue="random",
        variants=["dice=d6"],
        out=out,
        batch_size=batch,
    )


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_results_identical_for_1_2_3_workers_forked_or_spawned(
    short_scenario: str, tmp_path: Path, method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(backends, "_start_method", lambda: method)
    got: list[tuple[bytes, list[dict[str, Any]], dict[str, Any]]] = []
    for workers, batch in ((1, None), (2, 1), (3, 2)):
        out = tmp_path / f"{method}-{workers}.parquet"
        d = run(_config(short_scenario, workers, out, batch)).to_dict()
        for k in ("seconds", "battles_per_second", "workers", "out"):
            d.pop(k)
        got.append((out.read_bytes(), pq.read_table(out).to_pylist(), d))
    assert got[0] == got[1] == got[2]


def test_batches_sent_to_workers_carry_a_key_not_the_scenario(short_scenario: str) -> None:
    """What crosses to a worker per batch is the setup's key and the seeds, a few hundred bytes,
    not the scenario data (which went once, when the worker started)."""
    _, setups = prepare(_config(short_scenario, 2))
    b = next(plan(setups, 0, 25, 25))
    keyed = pickle.dumps((backends._run_keyed, b.setup.key, b.items))
    full = pickle.dumps((run_batch, b))
    assert len(keyed) < 1000 < len(full)
    backends._SETUPS.clear()
    backends._start_worker(setups)
    try:
        assert backends._run_keyed(b.setup.key, b.items) == run_batch(b)
    finally:
        backends._SETUPS.clear()


def test_this_process_plays_while_the_workers_start(short_scenario: str) -> None:
    """With 2 workers, some batches are played here (the pool's one process is still starting
    when the first batches are due), and every batch comes back once, in order."""
    _, setups = prepare(_config(short_scenario, 2))
    batches = list(plan(setups, 3, 10, 1))
    played_here: list[Batch] = []
    real = backends.run_batch

    def spy(b: Batch) -> list[dict[str, Any]]:
        played_here.append(b)
        return real(b)

    orig = backends.run_batch
    backends.run_batch = spy  # type: ignore[assignment]
    try:
        rows = list(backends.run_local(iter(batches), 2, setups))
    finally:
        backends.run_batch = orig  # type: ignore[assignment]
    assert rows == [run_batch(b) for b in batches]
    assert 1 <= len(played_here) < len(batches)


def test_a_claimed_batch_is_played_once_by_whoever_claims_it_first() -> None:
    import multiprocessing

    claims = backends._Claims(multiprocessing.get_context("fork"))
    assert claims.claim(1) and not claims.claim(1)
    assert claims.claim(2) and claims.claim(1 + backends._Claims.SLOTS)  # a slot reused by a later number
    backends._CLAIMS = claims
    try:
        assert backends._run_keyed("no such key: never looked up", ((0, 1),), 2) is None
    finally:
        backends._CLAIMS = None


def test_the_last_batches_queued_in_a_slow_worker_are_taken_back(
    short_scenario: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once no batch is left to send, this process plays the batches queued in the pool that its
    (here: slow) worker has not started; the worker skips them (its answer: None); every batch is
    played once and the rows come back in order."""
    import os
    import time
    from concurrent.futures import CancelledError, Future, ProcessPoolExecutor

    monkeypatch.setattr(backends, "_start_method", lambda: "fork")
    _, setups = prepare(_config(short_scenario, 2))
    batches = list(plan(setups, 5, 6, 1))
    log = tmp_path / "played"
    parent = os.getpid()
    real = backends.run_batch
    sent: list[Future[Any]] = []

    def spy(b: Batch) -> list[dict[str, Any]]:
        if os.getpid() != parent:
            time.sleep(1.5)  # the worker: slow
        with log.open("a") as f:
            f.write(f"{os.getpid()} {b.items[0][0]} {b.setup.variant}\n")
        return real(b)

    class Pool(ProcessPoolExecutor):
        def submit(self, *args: Any, **kwargs: Any) -> Future[Any]:
            sent.append(super().submit(*args, **kwargs))
            return sent[-1]

    monkeypatch.setattr(backends, "run_batch", spy)
    monkeypatch.setattr(backends, "ProcessPoolExecutor", Pool)
    rows = list(backends.run_local(iter(batches), 2, setups))
    assert rows == [real(b) for b in batches]
    played = [line.split() for line in log.read_text().splitlines()]
    assert sorted((i, v) for _, i, v in played) == sorted(
        (str(b.items[0][0]), b.setup.variant) for b in batches
    )
    answers = []
    for f in sent:
        try:
            answers.append(f.result())
        except CancelledError:
            answers.append("cancelled")
    assert None in answers, answers  # a batch already queued in the pool was taken back
    assert any(pid != str(parent) for pid, _, _ in played)


def test_a_tapered_plan_has_the_same_battles_and_seeds_in_the_same_order(short_scenario: str) -> None:
    """The default plan on several workers shrinks its last batches (``taper``): the same (index,
    seed) pairs for every variant, in the same order; only the cut between batches moves."""
    _, setups = prepare(_config(short_scenario, 2))

    def pairs(batches: list[Batch]) -> dict[str, list[tuple[int, int]]]:
        out: dict[str, list[tuple[int, int]]] = {}
        for b in batches:
            out.setdefault(b.setup.variant, []).extend(b.items)
        return out

    plain = list(plan(setups, 11, 200, 7))
    tapered = list(plan(setups, 11, 200, 7, 2))
    assert pairs(tapered) == pairs(plain) and len(pairs(plain)["baseline"]) == 200
    sizes = [len(b.items) for b in tapered[:: len(setups)]]
    assert sizes[0] == 7 and sizes[-4:] == [1, 1, 1, 1] and sizes == sorted(sizes, reverse=True)
    assert [b.setup.variant for b in tapered[:2]] == [s.variant for s in setups]


def test_this_process_plays_a_batch_only_once_the_pool_has_started_its_oldest(
    short_scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool's threads hand a batch to its worker only when they get this interpreter's lock;
    this process, busy playing battles, starved them (the worker sat idle until it had played three
    batches). So before it plays a batch itself, the oldest batch sent to the pool has been started
    by the worker (claimed) or is done (``_Claims.await_claim``; the wait is made long here so that a
    loaded machine cannot make the test fail)."""
    import os

    monkeypatch.setattr(backends, "_start_method", lambda: "fork")
    monkeypatch.setattr(backends, "HAND_OVER_TIMEOUT", 60.0)
    made: list[backends._Claims] = []

    class Claims(backends._Claims):
        def __init__(self, ctx: Any) -> None:
            super().__init__(ctx)
            made.append(self)

    monkeypatch.setattr(backends, "_Claims", Claims)
    _, setups = prepare(_config(short_scenario, 2))
    batches = list(plan(setups, 3, 10, 1))
    parent = os.getpid()
    real = backends.run_batch
    seen: list[bool] = []

    def spy(b: Batch) -> list[dict[str, Any]]:
        if os.getpid() == parent:
            seen.append(made[0].claimed(1))
        return real(b)

    monkeypatch.setattr(backends, "run_batch", spy)
    rows = list(backends.run_local(iter(batches), 2, setups))
    assert rows == [real(b) for b in batches]
    assert seen and seen[0], "this process played a batch before the pool's worker started its first"
