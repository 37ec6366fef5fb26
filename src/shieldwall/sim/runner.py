"""Playing one simulated battle into one small row (no event log leaves the worker).

A ``Setup`` is everything the battles of one rule variant share: the scenario *data* (not a path,
so a Ray worker on another machine needs no copy of the file), the parameter overrides, the bots
and the loss columns. A ``Batch`` is a setup plus a run of ``(index, seed)`` pairs; ``run_batch``
is a pure function of it, which is what makes results independent of where and in which process
a batch runs. Games are built once per process and setup, and cached.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from shieldwall import collector
from shieldwall.core.game import Game

#: The value of ``winner`` in a row when the battle is drawn.
DRAW = "draw"


@dataclass(frozen=True)
class Setup:
    """What every battle of one variant shares."""

    scenario_file: str
    scenario_data: Mapping[str, Any]
    overrides: Mapping[str, Any]
    variant: str
    red: str
    blue: str
    sides: tuple[str, ...]
    #: (column, side, unit type) of each per-type loss column
    loss_columns: tuple[tuple[str, str, str], ...]
    key: str = field(default="", compare=False)

    def with_key(self) -> Setup:
        """This setup with ``key``: a digest of the scenario data and overrides (the game cache key)."""
        blob = json.dumps(
            [self.scenario_file, self.scenario_data, dict(self.overrides)], sort_keys=True, default=str
        )
        digest = hashlib.sha256(blob.encode()).hexdigest()[:24]
        return Setup(
            self.scenario_file,
            self.scenario_data,
            self.overrides,
            self.variant,
            self.red,
            self.blue,
            self.sides,
            self.loss_columns,
            digest,
        )


@dataclass(frozen=True)
class Batch:
    """A setup and the battles to play with it: ``(index, seed)`` pairs."""

    setup: Setup
    items: tuple[tuple[int, int], ...]


_GAMES: OrderedDict[str, Game] = OrderedDict()
_CACHE_SIZE = 8


def game_for(setup: Setup) -> Game:
    """The game of a setup, built once per process (a small LRU cache)."""
    from shieldwall.io.scenarios import game_from_data

    key = setup.key or setup.with_key().key
    game = _GAMES.get(key)
    if game is None:
        game = game_from_data(setup.scenario_data, setup.scenario_file, setup.overrides)
        _GAMES[key] = game
        while len(_GAMES) > _CACHE_SIZE:
            _GAMES.popitem(last=False)
    else:
        _GAMES.move_to_end(key)
    return game


def column_name(side: str, unit_type: str) -> str:
    """The Parquet column of losses of one unit type on one side, e.g. ``lost_blue_cavalry_javelins``."""
    return f"lost_{side}_" + re.sub(r"[^0-9A-Za-z]+", "_", unit_type).strip("_").lower()


def loss_columns(games: Sequence[Game]) -> tuple[tuple[str, str, str], ...]:
    """One loss column per side and unit type any of the games may book a loss under
    (``Game.unit_types``), sorted."""
    pairs: set[tuple[str, str]] = set()
    for g in games:
        for side, types in g.unit_types().items():
            pairs.update((side, t) for t in types)
    sides = list(games[0].info.sides) if games else []
    ordered = sorted(pairs, key=lambda p: (sides.index(p[0]) if p[0] in sides else len(sides), p[1]))
    return tuple((column_name(s, t), s, t) for s, t in ordered)


def run_battle(setup: Setup, index: int, seed: int) -> dict[str, Any]:
    """Play battle ``index`` with ``seed`` and return its row (the event log is dropped here)."""
    from shieldwall.match import play

    game = game_for(setup)
    played = play(game, seed, setup.red, setup.blue)
    st = played.state
    res = st.result()
    if res is None:  # pragma: no cover - play() only returns finished battles
        raise RuntimeError(f"battle {index} (seed {seed}) did not finish")
    row: dict[str, Any] = {
        "variant": setup.variant,
        "battle": index,
        "seed": seed,
        "winner": res.winner if res.winner is not None else DRAW,
        "reason": res.reason,
        "turns": res.turns,
        "decisions": len(played.orders),
        "events": len(st.events),
    }
    for side in setup.sides:
        row[f"lost_{side}"] = sum(res.losses.get(side, {}).values())
    known = {(s, t) for _, s, t in setup.loss_columns}
    for col, side, utype in setup.loss_columns:
        row[col] = int(res.losses.get(side, {}).get(utype, 0))
    for side, types in res.losses.items():
        for utype, n in types.items():
            if n and (side, utype) not in known:
                raise RuntimeError(f"battle {index}: a {side} {utype} was lost but the army has none")
    return row


def run_batch(batch: Batch) -> list[dict[str, Any]]:
    """Play every battle of a batch, in order, with the collector's young collections further
    apart (``collector.battles``: docs/performance.md, "Young collections further apart"); the
    thresholds are put back after."""
    with collector.battles():
        return [run_battle(batch.setup, i, s) for i, s in batch.items]
