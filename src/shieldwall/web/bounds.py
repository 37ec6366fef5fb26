"""Bounds on the JSON a request may carry, checked before any of it reaches the engine.

The body itself is capped in bytes (``app.MAX_BODY``, counted as it arrives); inside it, a scenario,
a save, an order or the parameters are JSON values whose nesting, size and numbers are bounded
here. A value out of bounds is a 422 naming the field (pydantic reports the ``ValueError``).
"""

from __future__ import annotations

import math
from typing import Any

#: deepest nesting of objects and lists (a scenario needs 5)
MAX_DEPTH = 16
#: values in one request's JSON (objects, lists, strings, numbers), all levels together
MAX_NODES = 60_000
#: orders in an imported save
MAX_ORDERS = 20_000
#: the largest magnitude of a number (a table is at most a few hundred units wide)
MAX_NUMBER = 1e12
#: a battle seed (a save's ``seed`` and its battle event's ``data.seed``) is the one number that may be
#: larger: the server's seeds have 128 bits
MAX_SEED = 2**128


#: one order: its values (a dict order) and its characters (a text order). The largest order the
#: bots give in any built-in battle has 12 values and 45 characters; a player's move through many
#: way-points needs a few hundred at most. Without a bound one order of 14,500 steps (a 319 KB
#: request) was stored whole, and every answer that lists the orders grew with it.
MAX_ORDER_NODES = 1_000
MAX_ORDER_TEXT = 4_000


def check_json(value: Any, where: str, max_nodes: int = MAX_NODES) -> Any:
    """``value`` unchanged if it is bounded JSON (at most ``max_nodes`` values); else
    ``ValueError`` saying where and why."""
    count = 0
    stack: list[tuple[Any, str, int]] = [(value, where, 0)]
    while stack:
        v, path, depth = stack.pop()
        count += 1
        if count > max_nodes:
            raise ValueError(f"{where}: more than {max_nodes} values")
        if depth > MAX_DEPTH:
            raise ValueError(f"{path}: nested deeper than {MAX_DEPTH} levels")
        if isinstance(v, bool) or v is None or isinstance(v, str):
            continue
        if isinstance(v, int | float):
            if type(v) is int and path.endswith(".seed") and 0 <= v < MAX_SEED:
                continue
            if not math.isfinite(v) or abs(v) > MAX_NUMBER:
                raise ValueError(f"{path}: {v!r} is not a usable number (finite, at most {MAX_NUMBER:g})")
        elif isinstance(v, dict):
            stack.extend((x, f"{path}.{k}", depth + 1) for k, x in v.items())
        elif isinstance(v, list | tuple):
            stack.extend((x, f"{path}[{i}]", depth + 1) for i, x in enumerate(v))
        else:
            raise ValueError(f"{path}: not a JSON value")
    return value
