"""Where batches run: in this process, in a local process pool, or on a Ray cluster.

Every backend takes an iterable of ``Batch`` and yields each batch's rows **in the order the
batches were given**, whatever order they finish in, so a simulation's output never depends on
the backend or the number of workers. Only a bounded window of batches is in flight at once
(``WINDOW_PER_WORKER`` per worker): the batches are produced lazily and results are streamed, so
memory stays flat however many battles are played.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from shieldwall.sim.runner import Batch, Setup, run_batch

BACKENDS = ("local", "ray")
#: batches kept in flight per worker (enough to hide scheduling latency, few enough to stay small)
WINDOW_PER_WORKER = 3


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        import os

        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, multiprocessing.cpu_count())


def run_batches(
    batches: Iterable[Batch], backend: str = "local", workers: int | None = None, address: str | None = None
) -> Iterator[list[dict[str, Any]]]:
    """Rows of each batch, in order. ``workers`` defaults to all cores (local) or the cluster's CPUs."""
    if backend == "local":
        return run_local(batches, workers or default_workers())
    if backend == "ray":
        return run_ray(batches, workers, address)
    from shieldwall.core.errors import UnknownName

    raise UnknownName("backend", backend, list(BACKENDS))


def run_local(batches: Iterable[Batch], workers: int) -> Iterator[list[dict[str, Any]]]:
    """One worker: in this process. More: a ``ProcessPoolExecutor`` of fresh (spawned) processes."""
    if workers <= 1:
        for b in batches:
            yield run_batch(b)
        return
    ctx = multiprocessing.get_context("spawn")
    ex = ProcessPoolExecutor(max_workers=workers, mp_context=ctx)
    try:
        window: deque[Future[list[dict[str, Any]]]] = deque()
        it = iter(batches)
        limit = workers * WINDOW_PER_WORKER
        for b in it:
            window.append(ex.submit(run_batch, b))
            if len(window) >= limit:
                break
        while window:
            rows = window.popleft().result()
            for b in it:
                window.append(ex.submit(run_batch, b))
                break
            yield rows
    finally:
        ex.shutdown(wait=True, cancel_futures=True)


def _run_items(setup: Setup, items: Sequence[tuple[int, int]]) -> list[dict[str, Any]]:
    """The Ray task: the setup arrives once per worker through the object store."""
    return run_batch(Batch(setup, tuple(items)))


def run_ray(
    batches: Iterable[Batch], workers: int | None = None, address: str | None = None
) -> Iterator[list[dict[str, Any]]]:
    """Run the batches as Ray tasks.

    ``address`` joins an existing cluster (``"auto"`` or ``"host:port"``); without it a local Ray
    instance is started with ``workers`` CPUs (default: all cores) and shut down at the end. A Ray
    instance already initialised in this process is used as it is and left running.
    """
    import ray

    started = False
    if not ray.is_initialized():
        opts: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address:
            ray.init(address=address, **opts)
        else:
            ray.init(num_cpus=workers or default_workers(), **opts)
        started = True
    try:
        task = ray.remote(num_cpus=1)(_run_items)
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        capacity = workers or max(1, int(resources.get("CPU", 1)))
        limit = capacity * WINDOW_PER_WORKER
        setup_refs: dict[str, Any] = {}

        def submit(b: Batch) -> Any:
            key = b.setup.key or b.setup.with_key().key
            ref = setup_refs.get(key)
            if ref is None:
                ref = setup_refs[key] = ray.put(b.setup)
            return task.remote(ref, list(b.items))

        window: deque[Any] = deque()
        it = iter(batches)
        for b in it:
            window.append(submit(b))
            if len(window) >= limit:
                break
        while window:
            rows: list[dict[str, Any]] = ray.get(window.popleft())
            for b in it:
                window.append(submit(b))
                break
            yield rows
    finally:
        if started:
            ray.shutdown()
