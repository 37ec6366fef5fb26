"""The view of each unit, kept while the unit stays as it was (issue 16, "Fast core").

``State.view()`` describes every unit (``IntoTheDarkState._unit_view``: some 45 entries, read
from the unit's fields, its army entry, its contacts, the units joined to it and the face-down
cards), and the scripted general asks for it at every decision, and for one unit after every
look-ahead (``view_of``). Between two decisions most units do not change. A unit's view is a pure
function of its fields (its army entry included), whether it is in melee, the units joined to it
(their ids, whether each is destroyed or a general) and whether a face-down card hides it.

``ViewMemo`` keeps, per unit, the last view made and the key it was made from (those inputs:
every field of the unit but ``extra``, which the view does not read, and its footprint cache); a
view asked for with the same key is the kept one, copied (a fresh dict, fresh lists: a caller may
change what it is given). The memo is shared by a state and its copies (the key decides, not the
object). On the reference path every view is made afresh.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .contacts import Contacts
from .model import Unit

#: the entries of a unit's view that hold lists (copied with the view)
_LISTS = ("faced", "champions", "generals", "hidden_from")


def fresh(v: dict[str, Any]) -> dict[str, Any]:
    """A copy of the view ``v`` sharing nothing mutable with it."""
    out = v.copy()
    for k in _LISTS:
        out[k] = list(v[k])
    out["mixed"] = [dict(m) for m in v["mixed"]]
    return out


class ViewMemo:
    """The last view of each unit and its key (module docstring)."""

    __slots__ = ("kept",)

    def __init__(self) -> None:
        self.kept: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {}

    def view(
        self, u: Unit, in_melee: bool, joined: list[Unit], hidden: bool, make: Callable[[], dict[str, Any]]
    ) -> dict[str, Any]:
        """The view of ``u`` (``make()`` when the unit, its contacts, the units joined to it or its
        card differ from the kept view's)."""
        key = (u.state_fields(), in_melee, tuple((c.id, c.destroyed, c.general) for c in joined), hidden)
        got = self.kept.get(u.id)
        if got is not None and got[0] == key:
            return fresh(got[1])
        v = make()
        self.kept[u.id] = (key, fresh(v))
        return v

    def views(
        self,
        units: dict[str, Unit],
        contacts: Contacts,
        hidden: set[str | None],
        make: Callable[[Unit, bool, list[Unit]], dict[str, Any]],
        shared: bool = False,
    ) -> list[dict[str, Any]]:
        """The view of every unit, in the state's order (``State.view()["units"]``; the loop
        compiled, as the scripted general asks for it at every decision: issue 16): for each,
        ``view(u, in_melee, joined, hidden, lambda: make(u, in_melee, joined))`` with ``in_melee``
        from the contacts (synced by the caller), ``joined`` the units joined to it in the state's
        order, ``hidden`` whether its id is among the face-down cards' units (``hidden``).
        ``shared``: the views answered are the kept ones themselves, not copies (``State.shared_view``:
        for a caller that reads them and changes none)."""
        joined: dict[str, list[Unit]] = {}
        for x in units.values():
            if x.joined is not None:
                joined.setdefault(x.joined, []).append(x)
        kept = self.kept
        out: list[dict[str, Any]] = []
        for u in units.values():
            js = joined.get(u.id)
            if js is None:
                js = []
            in_melee = u.on_table and bool(contacts.touching(u, units))
            hid = u.id in hidden
            jt = tuple((c.id, c.destroyed, c.general) for c in js)
            got = kept.get(u.id)
            if got is not None:
                k = got[0]  # (the key compared part by part: ``Unit.same_fields``, nothing built)
                if k[1] == in_melee and k[3] == hid and k[2] == jt and u.same_fields(k[0]):
                    out.append(got[1] if shared else fresh(got[1]))
                    continue
            key = (u.state_fields(), in_melee, jt, hid)
            v = make(u, in_melee, js)
            kept[u.id] = (key, v if shared else fresh(v))
            out.append(v)
        return out
