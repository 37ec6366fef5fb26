"""Where batches run: in this process, in a local process pool, or on a Ray cluster.

Every backend takes an iterable of ``Batch`` and yields each batch's rows **in the order the
batches were given**, whatever order they finish in, so a simulation's output never depends on
the backend or the number of workers. Only a bounded window of batches is in flight at once
(``WINDOW_PER_WORKER`` per worker): the batches are produced lazily and results are streamed, so
memory stays flat however many battles are played.

Local workers: with ``N`` workers, this process plays batches too, beside ``N - 1`` pool
processes (it would otherwise only wait): it starts at once, while the others are still starting,
so short runs gain too, and when a worker falls behind (a busy machine) this process takes back
the batches it has not started. Every batch sent to the pool is claimed by whoever starts it first
(a shared table of claims, ``_Claims``): once no batch is left to send, this process takes back
even a batch already queued in a worker's pipe, which the worker then skips, so a run's last
batches do not wait behind each other on one worker while this process is idle. Before it plays a
batch itself, this process lets a worker start the oldest batch sent to it (``_Claims.await_claim``:
the pool's threads here need the interpreter's lock to hand it over). The setups (the
scenario data) go to each process once, when it starts, and each process builds its games then; a
batch sent to it is only a setup key, its ``(index, seed)`` pairs and its number. The processes
are forked when this process runs no other thread (they start at once, with the games this process
has built), and spawned otherwise.
"""

from __future__ import annotations

import gc
import itertools
import multiprocessing
import time
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from shieldwall.sim.runner import Batch, Setup, run_batch

BACKENDS = ("local", "ray")
#: batches kept in flight per worker (enough to hide scheduling latency, few enough to stay small)
WINDOW_PER_WORKER = 3
#: how long this process waits for a worker to start the oldest batch sent to it before playing one
#: itself (``_Claims.await_claim``): ample for a forked worker, short against a spawned one's start
HAND_OVER_TIMEOUT = 0.25


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        import os

        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, multiprocessing.cpu_count())


def run_batches(
    batches: Iterable[Batch],
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    setups: Sequence[Setup] = (),
) -> Iterator[list[dict[str, Any]]]:
    """Rows of each batch, in order. ``workers`` defaults to all cores (local) or the cluster's CPUs.
    ``setups``: the setups the batches use, if known (local workers receive them once, at start)."""
    if backend == "local":
        return run_local(batches, workers or default_workers(), setups)
    if backend == "ray":
        return run_ray(batches, workers, address)
    from shieldwall.core.errors import UnknownName

    raise UnknownName("backend", backend, list(BACKENDS))


#: a worker process's setups, by key (``_start_worker``)
_SETUPS: dict[str, Setup] = {}


class _Claims:
    """Who plays each batch sent to a pool: the first process to claim its number (numbers count
    from 1; slot ``number % SLOTS`` holds the last number claimed there: the batches in flight are
    far fewer than the slots)."""

    SLOTS = 4096

    def __init__(self, ctx: Any) -> None:
        self.table = ctx.Array("q", self.SLOTS)  # zeros, with a lock

    def claim(self, number: int) -> bool:
        """True the first time ``number`` is claimed, in any process; False after."""
        with self.table.get_lock():
            slot = number % self.SLOTS
            if self.table[slot] == number:
                return False
            self.table[slot] = number
            return True

    def claimed(self, number: int) -> bool:
        """Whether ``number`` has been claimed (a worker has started it), without claiming it."""
        return bool(self.table[number % self.SLOTS] == number)

    def await_claim(self, number: int, future: Future[Any]) -> None:
        """Wait, at most ``HAND_OVER_TIMEOUT`` seconds, until a worker has started batch ``number`` (or it is
        done). The pool's threads in this process hand a batch to a worker only when they get the
        interpreter's lock; a process busy playing battles starved them: the worker sat idle until
        this process had played three batches (``docs/performance.md``). Sleeping here lets them."""
        deadline = time.monotonic() + HAND_OVER_TIMEOUT
        while not (future.done() or self.claimed(number)) and time.monotonic() < deadline:
            time.sleep(0.0005)


#: the claims shared with this process's pool (``_start_worker``), if it is a pool's worker
_CLAIMS: _Claims | None = None


def _start_method() -> str:
    """``fork`` where it is safe and available (no other Python thread in this process), else
    ``spawn``."""
    import threading

    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return "fork"
    return "spawn"


def _start_worker(setups: Sequence[Setup], claims: _Claims | None = None) -> None:
    """A worker process's initializer: keep the setups (and the pool's claims) and build their
    games now."""
    from shieldwall.sim.runner import game_for

    global _CLAIMS
    _CLAIMS = claims
    for s in setups:
        _SETUPS[s.key] = s
        game_for(s)


def _start_pool_worker(setups: Sequence[Setup], claims: _Claims) -> None:
    """A pool process's initializer: ``_start_worker``, then its modules and games, which live as
    long as the process, moved out of the collector's sight (``gc.freeze``: 3-4% of a battle's CPU
    time on bryn-glas, senlac and ford-of-ash, docs/performance.md "simulate's workers")."""
    _start_worker(setups, claims)
    gc.collect()
    gc.freeze()


def _run_keyed(key: str, items: tuple[tuple[int, int], ...], number: int = 0) -> list[dict[str, Any]] | None:
    """A batch whose setup the worker received when it started; None (not played) when batch
    ``number`` was claimed first by the process that sent it."""
    if number and _CLAIMS is not None and not _CLAIMS.claim(number):
        return None
    return run_batch(Batch(_SETUPS[key], items))


def _run_claimed(batch: Batch, number: int) -> list[dict[str, Any]] | None:
    """A batch with its setup (one the worker did not receive at start), claimed like ``_run_keyed``."""
    if _CLAIMS is not None and not _CLAIMS.claim(number):
        return None
    return run_batch(batch)


def run_local(
    batches: Iterable[Batch], workers: int, setups: Sequence[Setup] = ()
) -> Iterator[list[dict[str, Any]]]:
    """One worker: in this process. More: this process and ``workers - 1`` pool processes (a
    ``ProcessPoolExecutor``): whenever the oldest batch in flight is not finished, this process
    plays a batch itself: the oldest one no worker has started yet (cancelled in the pool), else
    the next one, and once none is left to send, one already queued in the pool (module
    docstring)."""
    if workers <= 1:
        for b in batches:
            yield run_batch(b)
        return
    keyed = [s if s.key else s.with_key() for s in setups]
    shipped = {s.key for s in keyed}
    ctx = multiprocessing.get_context(_start_method())
    if ctx.get_start_method() == "fork":
        _start_worker(keyed)  # built here once: the forked processes start with them
    claims = _Claims(ctx)
    ex = ProcessPoolExecutor(
        max_workers=workers - 1,
        mp_context=ctx,
        initializer=_start_pool_worker,
        initargs=(tuple(keyed), claims),
    )
    numbers = itertools.count(1)

    def submit(b: Batch) -> tuple[Future[list[dict[str, Any]] | None], int]:
        number = next(numbers)
        if b.setup.key in shipped:
            return ex.submit(_run_keyed, b.setup.key, b.items, number), number
        return ex.submit(_run_claimed, b, number), number

    try:
        # in batch order: [future, batch, number] (sent to the pool) or [rows, None, 0] (played here)
        window: deque[list[Any]] = deque()
        in_flight = 0  # futures in the window
        # this process is one of the workers: its share of the window is the batches it has played
        # while the oldest was still being played elsewhere
        limit = (workers - 1) * WINDOW_PER_WORKER
        ahead = WINDOW_PER_WORKER
        it = iter(batches)
        exhausted = False

        def take() -> Batch | None:
            nonlocal exhausted
            b = next(it, None) if not exhausted else None
            exhausted = b is None
            return b

        def take_back(entry: list[Any]) -> bool:
            """Play a batch sent to the pool here, if no worker has started it."""
            nonlocal in_flight
            if entry[1] is None or not (entry[0].cancel() or (exhausted and claims.claim(entry[2]))):
                return False
            entry[0], entry[1], entry[2] = run_batch(entry[1]), None, 0
            in_flight -= 1
            return True

        def play_here() -> bool:
            """Play a batch here while the oldest is played elsewhere: the oldest one no worker
            has started (taken back from the pool: one not yet handed to the pool's queue, or once
            no batch is left to send, one a worker has not claimed), else the next one. False:
            none to play."""
            claims.await_claim(window[0][2], window[0][0])
            if any(take_back(entry) for entry in itertools.islice(window, 1, None)):
                return True
            here = take()
            if here is None:
                return False
            window.append([run_batch(here), None, 0])
            return True

        while True:
            while in_flight < limit and not exhausted:
                nxt = take()
                if nxt is not None:
                    future, number = submit(nxt)
                    window.append([future, nxt, number])
                    in_flight += 1
            if not window:
                break
            head, batch, _ = window[0]
            if batch is not None:  # played elsewhere
                # the bound on batches played ahead here keeps the window small; once none is
                # left to send, what remains is to take back queued ones, bound or not
                if not head.done() and (len(window) - in_flight < ahead or exhausted) and play_here():
                    continue
                window.popleft()
                in_flight -= 1
                yield head.result()
            else:
                window.popleft()
                yield head
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
