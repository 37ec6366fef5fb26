"""The Python engine as the referee of its own fast paths: a battle played on the fast path and on
the reference path (``core.reference``) must give the same event log, event for event (issue 16).

Used by ``benchmarks/bench_fast_vs_reference.py`` (1,000 seeded battles per scenario) and by
``tests/plugins/test_fast_vs_reference.py`` (a few per scenario). Nothing here names a rule system:
the scenarios are every built-in scenario of every registered one (``io.scenarios``).

A battle's *record* is one line per event (its JSON, as the golden files write it), one per order
given and one for the result; optionally, after each order, one line with the legal menu of the
decision that follows (so a menu that differs shows even where the bots would not notice). Its
hash is the SHA-256 of the lines, and two records are compared line by line to name the first
difference.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shieldwall.ai.base import bot_seed, make_bot
from shieldwall.core.game import Game, State
from shieldwall.core.reference import reference_path
from shieldwall.io.scenarios import builtin_scenarios, load_game
from shieldwall.match import decision_limit

#: the bot pairings a sample plays (red, blue), in turn
PAIRS: tuple[tuple[str, str], ...] = (
    ("scripted", "scripted"),
    ("scripted", "random"),
    ("random", "scripted"),
    ("random", "random"),
)


@dataclass(frozen=True)
class Case:
    """One seeded battle: scenario ``<id>/<stem>``, seed, the red and the blue bot."""

    scenario: str
    seed: int
    red: str
    blue: str

    @property
    def label(self) -> str:
        return f"{self.scenario} seed {self.seed} {self.red} v {self.blue}"


@dataclass(frozen=True)
class Record:
    """A battle as played: its lines (module docstring), their hash, the time it took (s, wall
    clock, the play only) and the number of decisions."""

    lines: tuple[str, ...]
    digest: str
    seconds: float
    decisions: int


def scenarios() -> list[str]:
    """Every built-in scenario of every registered rule system (``<id>/<stem>``), in display order."""
    return list(builtin_scenarios())


def cases(
    scenario: str, battles: int, first_seed: int = 0, pairs: Sequence[tuple[str, str]] = PAIRS
) -> list[Case]:
    """``battles`` battles of ``scenario``: seeds ``first_seed``, ``first_seed + 1``, ..., the
    pairings taken in turn."""
    return [Case(scenario, first_seed + i, *pairs[i % len(pairs)]) for i in range(battles)]


def _play(game: Game, case: Case, limit: int | None, menus: list[str] | None) -> tuple[State, list[Any]]:
    """``match.play`` (the same bots, the same seeds), stopped after ``limit`` decisions if given."""
    bots = {
        side: make_bot(name, bot_seed(case.seed, i), game.info.id)
        for i, (side, name) in enumerate(zip(game.info.sides, (case.red, case.blue), strict=True))
    }
    state = game.new_state(case.seed)
    guard = decision_limit(state) if limit is None else limit
    orders: list[Any] = []
    state.seal()  # (as ``match.play``: only orders change it; the reference path backs up every order)
    while not state.is_terminal() and len(orders) < guard:
        d = state.decision()
        assert d is not None
        order = bots[d.side].choose(state)
        state.apply(order)
        orders.append(order)
        if menus is not None and not state.is_terminal():
            menus.append("menu " + " | ".join(str(o) for o in state.legal_orders()))
    state.unseal()
    if limit is None and not state.is_terminal():
        raise RuntimeError(f"{case.label}: battle did not end after {guard} decisions")
    return state, orders


def play_record(
    game: Game, case: Case, reference: bool, menus: bool = False, limit: int | None = None
) -> Record:
    """Play ``case`` on ``game`` (a game of ``case.scenario``) on the fast path, or on the reference
    path (``reference``), to its end or for its first ``limit`` decisions, and record it."""
    menu_lines: list[str] | None = [] if menus else None
    with reference_path(reference):
        t0 = time.perf_counter()
        state, orders = _play(game, case, limit, menu_lines)
        secs = time.perf_counter() - t0
        result = state.result() if state.is_terminal() else "unfinished"
        lines = [json.dumps(e.to_dict(), sort_keys=True, ensure_ascii=False) for e in state.events]
    lines += [f"order {o}" for o in orders]
    lines.append(f"result {result!r}")
    if menu_lines is not None:
        lines += menu_lines
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode())
        h.update(b"\n")
    return Record(tuple(lines), h.hexdigest(), secs, len(orders))


def load_both(scenario: str) -> tuple[Game, Game]:
    """The game of ``scenario`` built on the fast path and on the reference path (building a game
    may itself take fast paths: its deployment checks)."""
    with reference_path(False):
        fast = load_game(scenario)
    with reference_path(True):
        ref = load_game(scenario)
    return fast, ref


def first_difference(fast: Record, ref: Record) -> str | None:
    """Where two records of one battle part (None when their hashes agree): the first line that
    differs, as ``line N: fast <...> / reference <...>``."""
    if fast.digest == ref.digest:
        return None
    for i, (a, b) in enumerate(zip(fast.lines, ref.lines, strict=False)):
        if a != b:
            return f"line {i + 1}: fast {a} / reference {b}"
    n = min(len(fast.lines), len(ref.lines))
    longer, which = (fast.lines, "fast") if len(fast.lines) > n else (ref.lines, "reference")
    return f"line {n + 1}: only the {which} record goes on: {longer[n]}"


@dataclass(frozen=True)
class Verdict:
    """One battle played both ways."""

    case: Case
    fast: Record
    ref: Record

    @property
    def difference(self) -> str | None:
        return first_difference(self.fast, self.ref)


def referee(games: tuple[Game, Game], case: Case, menus: bool = False, limit: int | None = None) -> Verdict:
    """Play ``case`` on the fast path (``games[0]``), then on the reference path (``games[1]``), to
    the end or for ``limit`` decisions, and return both records."""
    return Verdict(
        case,
        play_record(games[0], case, False, menus, limit),
        play_record(games[1], case, True, menus, limit),
    )
