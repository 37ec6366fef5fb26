"""Save files: scenario + parameters + seed + orders (+ the event log, to verify a replay).

A save is JSON::

    {"format": "shieldwall-save/1", "ruleset": ..., "scenario": {...the scenario data...},
     "overrides": {...}, "seed": N, "orders": [order dicts], "events": [event dicts],
     "result": {...} | null}

``replay`` re-applies every order to a new state from the same seed and checks that every event
is identical; any difference raises ``ReplayMismatch``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from shieldwall.core.datafiles import read_text
from shieldwall.core.errors import DataError, IllegalOrder, ReplayMismatch
from shieldwall.core.game import Game, State
from shieldwall.io.scenarios import game_from_data

FORMAT = "shieldwall-save/1"


def make_save(
    game: Game,
    seed: int | None,
    orders: Sequence[Any],
    state: State | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": game.info.id,
        "scenario": getattr(game, "source_data", {}),
        "overrides": dict(overrides or {}),
        "seed": seed,
        "orders": [o.to_dict() for o in orders],
    }
    if state is not None:
        data["events"] = [e.to_dict() for e in state.events]
        r = state.result()
        data["result"] = r.to_dict() if r else None
    return data


def write_save(path: str | Path, save: Mapping[str, Any]) -> None:
    p = Path(path)
    tmp = p.with_suffix(p.suffix + ".tmp")
    tmp.write_text(json.dumps(save, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    try:
        tmp.replace(p)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise


#: the largest save file read (a long battle's save with its events is a few megabytes)
MAX_SAVE_BYTES = 64_000_000


def read_save(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    try:
        data = json.loads(read_text(p, MAX_SAVE_BYTES))
    except FileNotFoundError:
        raise DataError(str(p), "", "file not found") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise DataError(str(p), "", f"not a readable JSON save file: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DataError(str(p), "format", f"not a shieldwall save file (expected format {FORMAT!r})")
    for key, typ in (("scenario", dict), ("orders", list)):
        if not isinstance(data.get(key), typ):
            raise DataError(str(p), key, f"missing or not a {typ.__name__}")
    _check_seed(data.get("seed"), str(p))
    return data


def _check_seed(seed: Any, file: str) -> None:
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise DataError(file, "seed", "must be an integer")
    if seed is not None and seed < 0:
        raise DataError(file, "seed", f"must be 0 or more, not {seed}")


def replay(save: Mapping[str, Any], file: str = "<save>", verify: bool = True) -> State:
    """Re-run a save: apply each order in turn; with ``verify`` check every saved event, and the
    saved result against the one replayed."""
    seed = save.get("seed")
    if seed is None:
        # (a battle without its seed would roll other dice: its orders would be refused or mean
        # something else, and the refusal would name an order, not the missing seed)
        raise DataError(file, "seed", "missing: a battle replays only from the seed it was played with")
    _check_seed(seed, file)
    overrides = save.get("overrides")
    if overrides is not None and not isinstance(overrides, Mapping):
        raise DataError(
            file, "overrides", f"must be a table of rule parameters, not {type(overrides).__name__}"
        )
    game = game_from_data(save["scenario"], file, overrides or {})
    state = game.new_state(seed)
    for i, od in enumerate(save["orders"]):
        try:
            state.apply(state.parse_order(od))
        except IllegalOrder as exc:
            raise DataError(file, f"orders[{i}]", f"order {od!r} is not legal on replay: {exc}") from None
    if verify and "events" in save:
        got = [e.to_dict() for e in state.events]
        want = list(save["events"])
        for i, (a, b) in enumerate(zip(want, got, strict=False)):
            if _canon(a) != _canon(b):
                raise ReplayMismatch(i, a, b)
        if len(got) != len(want):
            i = min(len(got), len(want))
            raise ReplayMismatch(i, want[i] if i < len(want) else None, got[i] if i < len(got) else None)
    if verify and "result" in save:
        # who won, why and when (not the tally of losses, which a rule system may count anew: Knight
        # Hack's were figures before 28 November 2026, units since, with every event the same)
        r = state.result()
        replayed = None if r is None else {k: r.to_dict()[k] for k in _RESULT_KEYS}
        saved = save["result"]
        if saved is not None and not isinstance(saved, Mapping):
            raise DataError(file, "result", f"must be a table or null, not {type(saved).__name__}")
        kept = None if saved is None else {k: saved.get(k) for k in _RESULT_KEYS}
        if _canon(kept) != _canon(replayed):
            raise DataError(file, "result", f"the saved result {kept!r} is not the replayed one {replayed!r}")
    return state


#: the parts of a saved result ``replay`` checks
_RESULT_KEYS = ("winner", "reason", "turns")


def _canon(x: Any) -> str:
    return json.dumps(x, sort_keys=True, ensure_ascii=False)
