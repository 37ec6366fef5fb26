"""Orders as actions and views as observations, the same for every rule system.

Actions
    ``Discrete(max_actions)``: action ``i`` is entry ``i`` of the acting side's legal menu,
    ``state.legal_orders()``, in the rule system's own order. The action mask has a 1 for each entry
    of the menu and a 0 elsewhere (all zeros for a side that is not deciding). A menu longer than
    ``max_actions`` is cut: only its first ``max_actions`` entries can be chosen (the deciding
    side's info gives the whole menu's ``menu_length``) and a ``MenuCut`` warning is issued once
    per environment.

Observations
    ``Dict(observation=Box, action_mask=Box)``, PettingZoo's convention for masked games:

    ``observation``, ``float32`` in ``[-1, 1]``, of length ``GLOBAL + max_units * UNIT``:

    * ``GLOBAL`` numbers: the turn over the turn limit (``view["turn"] / view["max_turns"]``, 0 if
      the view has none), 1 if this side is deciding now, the menu's length over ``max_actions``;
    * then one row of ``UNIT`` numbers per unit the side may see (the view filtered by
      :mod:`shieldwall.visibility`, exactly what the web page shows that side), in the view's
      order, padded with zero rows: present (1), the side's own (1) or another's (0), ``x`` and
      ``y`` over the table's width and depth (clipped to ``[0, 1]``; 0 without a table), the sine
      and cosine of the heading, hits over the hit limit (clipped), off the table (``removed``,
      ``gone`` or ``destroyed``: 1), the unit the decision is about (1).

    ``max_units`` defaults to the number of units in the scenario's opening view; units beyond it
    are left out of the observation.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
from gymnasium import spaces

from shieldwall.core.game import State
from shieldwall.core.reference import REFERENCE
from shieldwall.visibility import filter_view, view_for

#: the numbers before the unit rows
GLOBAL = 3
#: the numbers of one unit row
UNIT = 9
#: the default cap on a menu's length: the longest seen in 12 battles of every built-in scenario
#: (seeds 0 to 3, random and scripted bots; 28 November 2026) has 144 entries (SPI's Stamford
#: Bridge, a Movement Phase's whole menu of steps; Dorylaeum 91, Tours 77, Llanbadarn Fawr 43,
#: every other scenario 20 or fewer). At 64, as before, SPI's first menus were cut and their last
#: entry, ``end``, could not be chosen: an agent could not end a Movement Phase.
MAX_ACTIONS = 256


class MenuCut(UserWarning):
    """A legal menu longer than the action space: its tail cannot be chosen."""


class Encoding:
    """The action and observation encoding of one scenario (module docstring)."""

    def __init__(self, opening: State, max_actions: int = MAX_ACTIONS, max_units: int | None = None) -> None:
        if max_actions < 1:
            raise ValueError(f"max_actions must be at least 1, got {max_actions}")
        units = opening.view().get("units") or []
        self.max_actions = max_actions
        self.max_units = max(1, len(units)) if max_units is None else max_units
        if self.max_units < 1:
            raise ValueError(f"max_units must be at least 1, got {self.max_units}")
        size = GLOBAL + self.max_units * UNIT
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-1.0, 1.0, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (max_actions,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(max_actions)
        self._warned = False

    def menu(self, state: State) -> list[Any]:
        """The legal menu, cut to the action space (with a warning the first time it is cut)."""
        orders = list(state.legal_orders())
        if len(orders) > self.max_actions:
            if not self._warned:
                self._warned = True
                warnings.warn(
                    f"a legal menu of {len(orders)} orders is longer than the action space "
                    f"({self.max_actions}); its last {len(orders) - self.max_actions} cannot be chosen "
                    "(raise max_actions)",
                    MenuCut,
                    stacklevel=3,
                )
            orders = orders[: self.max_actions]
        return orders

    def features(self, state: State, side: str, menu: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The ``observation`` numbers of ``side``; ``menu`` is its menu's length (0 if not deciding)."""
        view = observed(state, side)
        d = state.decision()
        out = np.zeros(GLOBAL + self.max_units * UNIT, np.float32)
        max_turns = _num(view.get("max_turns"))
        out[0] = _clip(_num(view.get("turn")) / max_turns, 0.0, 1.0) if max_turns > 0 else 0.0
        out[1] = 1.0 if d is not None and d.side == side else 0.0
        out[2] = min(menu, self.max_actions) / self.max_actions
        raw_table = view.get("table")
        table: dict[str, Any] = raw_table if isinstance(raw_table, dict) else {}
        width, depth = _num(table.get("width")), _num(table.get("depth"))
        active = d.unit if d is not None else None
        units = [u for u in view.get("units") or [] if isinstance(u, dict)]
        for i, u in enumerate(units[: self.max_units]):
            row = out[GLOBAL + i * UNIT : GLOBAL + (i + 1) * UNIT]
            heading = math.radians(_num(u.get("heading")))
            max_hits = _num(u.get("max_hits"))
            row[0] = 1.0
            row[1] = 1.0 if u.get("side") == side else 0.0
            row[2] = _clip(_num(u.get("x")) / width, 0.0, 1.0) if width > 0 else 0.0
            row[3] = _clip(_num(u.get("y")) / depth, 0.0, 1.0) if depth > 0 else 0.0
            row[4] = math.sin(heading)
            row[5] = math.cos(heading)
            row[6] = _clip(_num(u.get("hits")) / max_hits, 0.0, 1.0) if max_hits > 0 else 0.0
            row[7] = 1.0 if any(u.get(k) for k in ("removed", "gone", "destroyed")) else 0.0
            row[8] = 1.0 if active is not None and u.get("id") == active else 0.0
        return out

    def menu_length(self, state: State, side: str) -> int:
        """The length of ``side``'s whole menu: 0 unless it is deciding."""
        d = state.decision()
        return len(state.legal_orders()) if d is not None and d.side == side else 0

    def observe(self, state: State, side: str, menu: int | None = None) -> dict[str, np.ndarray[Any, Any]]:
        """The observation of ``side`` (module docstring); ``menu`` as :meth:`menu_length` (computed
        when None)."""
        n = self.menu_length(state, side) if menu is None else menu
        mask = np.zeros(self.max_actions, np.int8)
        mask[: min(n, self.max_actions)] = 1
        return {"observation": self.features(state, side, n), "action_mask": mask}

    def order(self, state: State, action: Any) -> Any:
        """The order that ``action`` names in ``state``'s menu (``ValueError`` if it names none)."""
        index = action_index(action)
        orders = self.menu(state)
        if not 0 <= index < len(orders):
            raise ValueError(
                f"action {index} is not in the legal menu (entries 0 to {len(orders) - 1}); "
                "choose an action the action mask allows"
            )
        return orders[index]


def action_index(action: Any) -> int:
    """``action`` as a menu index: a Python or numpy integer (not a bool), or a ``ValueError``
    saying so. ``int()`` took 0.7, 1.5, ``"0"`` and ``True`` for entries of the menu, and raised
    ``OverflowError`` for infinity."""
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise ValueError(f"an action is a menu index (an integer), got {action!r}")
    return int(action)


def battle_seed(seed: Any, where: str = "seed") -> int | None:
    """A seed as the environments take it: None, or a whole number from 0 to 2**63 - 1 (the
    battle's seed; numpy's and the search's errors did not name it)."""
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"{where} is a whole number, 0 or more, got {seed!r}")
    if not 0 <= int(seed) < 2**63:
        raise ValueError(f"{where} is a whole number from 0 to 2**63 - 1, got {seed!r}")
    return int(seed)


def observed(state: State, side: str) -> dict[str, Any]:
    """What :meth:`Encoder.features` reads of ``side``'s view: the state's own ``observed_for(side)``
    when it offers one (its view's ``turn``, ``max_turns``, ``table`` and, of each unit, the keys
    the numbers read and the visibility keys, without the rest of the view: the cheap path, issue
    16), else (and on the reference path, ``core.reference``) the whole view,
    ``visibility.view_for``. Either is filtered for ``side`` the same way."""
    own = getattr(state, "observed_for", None)
    if callable(own) and not REFERENCE.on:
        part: dict[str, Any] = own(side)
        return filter_view(part, [side])
    return view_for(state, [side])


def _num(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0.0
    v = float(value)
    return v if math.isfinite(v) else 0.0


def _clip(v: float, lo: float, hi: float) -> float:
    return lo if v < lo else hi if v > hi else v
