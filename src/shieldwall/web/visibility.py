"""What a player may see: the filter between a battle and a side's browser.

A rule system with hidden information marks it in its views and events; the web app removes it
for a viewer who does not command the side it belongs to. The conventions:

* a unit dict in ``view["units"]`` with ``"hidden_from": [sides]`` (e.g. concealed deployment) is
  left out of the view for those sides; so is its ``id`` from the highlight lists;
* an event whose ``data`` has ``"hidden_from": [sides]`` is replaced, for those sides, by a bare
  ``hidden`` event that keeps only its turn, phase and side;
* a ``State`` may also offer ``view_for(side)``, its own filtered view, used when present;
* the battle seed is secret in games between two browsers until the battle ends (knowing it and
  the orders, one could compute every coming die roll): the ``battle`` event's ``seed`` is removed.

one-hour-dark-ages has no hidden information, so for it only the seed rule applies.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from shieldwall.core.events import Event
from shieldwall.core.game import State


def _hidden_for(obj: dict[str, Any], viewers: Iterable[str]) -> bool:
    hidden = obj.get("hidden_from") or ()
    return any(v in hidden for v in viewers)


def filter_view(view: dict[str, Any], viewers: Iterable[str]) -> dict[str, Any]:
    """A copy of ``view`` without what ``viewers`` (the sides a token commands) may not see."""
    vs = list(viewers)
    out = dict(view)
    units = view.get("units")
    if isinstance(units, list):
        out["units"] = [u for u in units if not (isinstance(u, dict) and _hidden_for(u, vs))]
    return out


def view_for(state: State, viewers: Iterable[str]) -> dict[str, Any]:
    """The state's view as ``viewers`` may see it."""
    vs = list(viewers)
    own = getattr(state, "view_for", None)
    if callable(own) and len(vs) == 1:
        view: dict[str, Any] = own(vs[0])
    else:
        view = state.view()
    return filter_view(view, vs)


def filter_event(ev: Event, viewers: Iterable[str], hide_seed: bool) -> Event:
    """``ev`` as ``viewers`` may see it."""
    vs = list(viewers)
    if _hidden_for(ev.data, vs):
        return Event(ev.turn, ev.phase, ev.side, "hidden", ev.rule, {})
    if hide_seed and ev.kind == "battle" and "seed" in ev.data:
        data = dict(ev.data)
        data["seed"] = None
        return Event(ev.turn, ev.phase, ev.side, ev.kind, ev.rule, data)
    return ev


def visible_unit_ids(view: dict[str, Any]) -> set[str]:
    return {str(u.get("id")) for u in view.get("units", []) if isinstance(u, dict)}
