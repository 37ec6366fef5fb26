"""What a player may see: the filter between a battle and a side's browser or agent.

A rule system with hidden information marks it in its views and events; the web app and the agent
environments (``shieldwall.agents``) remove it for a viewer who does not command the side it
belongs to. The conventions:

* a unit dict in ``view["units"]`` with ``"hidden_from": [sides]`` (e.g. concealed deployment) is
  left out of the view for those sides; so is its ``id`` from the highlight lists;
* an event whose ``data`` has ``"hidden_from": [sides]`` is replaced, for those sides, by a bare
  ``hidden`` event that keeps only its turn, phase and side;
* a hidden event cites the rule system only, not the clause of what it hides (a clause such as
  "dummy cards" would tell what the hidden event was);
* a ``State`` may also offer ``view_for(side)``, its own filtered view, and ``event_for(event,
  side)``, an event as that side may read it; both are used when present (for a token of one side);
* a unit not yet deployed (``"deployed": false``: waiting to be placed in an alternate deployment)
  is left out for a viewer of another side (as hidden units are, for a hotseat token of both):
  otherwise the units that vanish from the list while cards go down would tell which card holds
  which unit (and which cards are dummies);
* a reach answer (``filter_reach``) keeps only units the viewer sees, and a reason that names a
  unit hidden from the viewer is replaced by words that do not;
* the text of an order the other side gave (a bot's reply) is withheld when an event it caused is
  hidden from the viewer (``order_text``);
* the battle seed is secret in games between two browsers until the battle ends (knowing it and
  the orders, one could compute every coming die roll): the ``battle`` event's ``seed`` is removed.

A rule system without hidden information needs nothing of this: for it only the seed rule
applies. One with a concealed deployment (units under face-down cards, with dummy cards: the card's
place is seen, not what it is) marks its units and events and may offer ``view_for``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, overload

from shieldwall.core.events import Event
from shieldwall.core.game import State


def _hidden_for(obj: dict[str, Any], viewers: Iterable[str]) -> bool:
    hidden = obj.get("hidden_from") or ()
    return any(v in hidden for v in viewers)


def _unseen(u: Any, viewers: list[str]) -> bool:
    if not isinstance(u, dict):
        return False
    if _hidden_for(u, viewers):
        return True
    return u.get("deployed") is False and any(v != u.get("side") for v in viewers)


def filter_view(view: dict[str, Any], viewers: Iterable[str]) -> dict[str, Any]:
    """A copy of ``view`` without what ``viewers`` (the sides a token commands) may not see."""
    vs = list(viewers)
    out = dict(view)
    units = view.get("units")
    if isinstance(units, list):
        out["units"] = [u for u in units if not _unseen(u, vs)]
    return out


def hidden_unit_ids(state: State, viewers: Iterable[str]) -> set[str]:
    """Ids of the units ``viewers`` may not see now."""
    return hidden_in_view(state.view(), viewers)


def hidden_in_view(view: dict[str, Any], viewers: Iterable[str]) -> set[str]:
    """Ids of the units of ``view`` (a state's whole ``view()``) that ``viewers`` may not see."""
    vs = list(viewers)
    return {str(u.get("id")) for u in view.get("units", []) if _unseen(u, vs)}


def _names_any(text: str, ids: set[str]) -> bool:
    words = set(re.findall(r"[A-Za-z0-9_-]+", text))
    return any(i in words for i in ids)


def filter_reach(reach: dict[str, Any], seen: set[str], hidden: set[str]) -> dict[str, Any]:
    """A reach answer as a viewer who sees the units ``seen`` (and not ``hidden``) may have it."""
    out = dict(reach)

    def why(d: Any) -> dict[str, Any]:
        res: dict[str, Any] = {}
        for k, v in (d or {}).items():
            if k not in seen:
                continue
            if isinstance(v, dict) and hidden and _names_any(str(v.get("reason", "")), hidden):
                v = {**v, "reason": "something you cannot see is in the way"}
            res[k] = v
        return res

    out["charges"] = [c for c in reach.get("charges") or [] if c.get("target") in seen]
    out["charge_why_not"] = why(reach.get("charge_why_not"))
    sh = reach.get("shooting")
    if isinstance(sh, dict):
        sh = dict(sh)
        sh["targets"] = [t for t in sh.get("targets") or [] if t in seen]
        sh["orders"] = {k: v for k, v in (sh.get("orders") or {}).items() if k in seen}
        sh["why_not"] = why(sh.get("why_not"))
        out["shooting"] = sh
    hl = dict(reach.get("highlight") or {})
    hl["charge_targets"] = [t for t in hl.get("charge_targets", []) if t in seen]
    hl["shoot_targets"] = [t for t in hl.get("shoot_targets", []) if t in seen]
    out["highlight"] = hl
    return out


def order_text(text: str, events: Iterable[Event], viewers: Iterable[str]) -> str:
    """The words of an order another side gave, or a placeholder if what it did is hidden from
    ``viewers`` (a bot's concealed deployment: which unit went under which card)."""
    vs = list(viewers)
    if any(_hidden_for(ev.data, vs) for ev in events):
        return "(an order hidden from you)"
    return text


def view_for(state: State, viewers: Iterable[str]) -> dict[str, Any]:
    """The state's view as ``viewers`` may see it."""
    vs = list(viewers)
    own = getattr(state, "view_for", None)
    if callable(own) and len(vs) == 1:
        view: dict[str, Any] = own(vs[0])
    else:
        view = state.view()
    return filter_view(view, vs)


EventFor = Callable[[Event, str], Event]


def event_reader(state: State, viewers: Iterable[str]) -> EventFor | None:
    """The state's own ``event_for(event, side)`` for a token of one side, or None."""
    own = getattr(state, "event_for", None)
    return own if callable(own) and len(list(viewers)) == 1 else None


def filter_event(ev: Event, viewers: Iterable[str], hide_seed: bool, own: EventFor | None = None) -> Event:
    """``ev`` as ``viewers`` may see it (``own``: the state's ``event_for``, see ``event_reader``)."""
    vs = list(viewers)
    if _hidden_for(ev.data, vs):
        return Event(ev.turn, ev.phase, ev.side, "hidden", ev.rule.partition(":")[0], {})
    if own is not None:
        ev = own(ev, vs[0])
    if hide_seed and ev.kind == "battle" and "seed" in ev.data:
        data = dict(ev.data)
        data["seed"] = None
        return Event(ev.turn, ev.phase, ev.side, ev.kind, ev.rule, data)
    return ev


class FilteredEvents(Sequence[Event]):
    """A battle's events as ``viewers`` may see them (``filter_event``), filtered when read."""

    def __init__(
        self, events: Sequence[Event], viewers: Iterable[str], hide_seed: bool, own: EventFor | None = None
    ) -> None:
        self._events = events
        self._viewers = list(viewers)
        self._hide_seed = hide_seed
        self._own = own

    def __len__(self) -> int:
        return len(self._events)

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        if isinstance(index, slice):
            return [filter_event(ev, self._viewers, self._hide_seed, self._own) for ev in self._events[index]]
        return filter_event(self._events[index], self._viewers, self._hide_seed, self._own)


def visible_unit_ids(view: dict[str, Any]) -> set[str]:
    return {str(u.get("id")) for u in view.get("units", []) if isinstance(u, dict)}


def secrets_pending(state: State, viewers: Iterable[str]) -> bool:
    """Whether the battle holds something ``viewers`` may not know yet: a unit hidden from them,
    or another side's face-down card (a dummy card hides no unit, but that it is a dummy is secret)."""
    vs = list(viewers)
    view = state.view()
    if any(_hidden_for(u, vs) for u in view.get("units", []) if isinstance(u, dict)):
        return True
    return any(isinstance(c, dict) and any(v != c.get("side") for v in vs) for c in view.get("cards") or [])
