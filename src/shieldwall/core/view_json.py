"""A view's JSON text, with the parts a rule system draws once and shares encoded once (issue 16).

A state's ``view()`` may hold a large list that never changes during a battle and is shared by
every view of it (a hex map's picture: hundreds of polygons). A rule system marks such a list by
making it a :class:`Drawn`; :func:`dumps` then encodes it once per list and splices the text into
the view's, which is ``json.dumps(view, sort_keys=True, default=str)`` exactly (the text OpenSpiel
is given as a state's or an observation's string). On the reference path
(``shieldwall.core.reference``) every view is encoded whole; ``dumps_reference`` is that.
"""

from __future__ import annotations

import json
from typing import Any

from shieldwall.core.reference import REFERENCE

#: the texts of the last Drawn lists encoded: id -> (the list, its JSON text); the list is held so
#: that its id names it while it is here
_TEXTS: dict[int, tuple[Drawn, str]] = {}
#: how many lists' texts are kept (a process plays few maps at a time)
KEPT = 16


class Drawn(list[Any]):
    """A list made once and shared by a state's views, never changed once made (a map's picture).
    JSON, equality, copies and pickles treat it as the list it is."""

    __slots__ = ()


def dumps_reference(view: dict[str, Any]) -> str:
    """The reference: the whole view encoded."""
    return json.dumps(view, sort_keys=True, default=str)


def dumps(view: dict[str, Any]) -> str:
    """``json.dumps(view, sort_keys=True, default=str)``; each :class:`Drawn` value of the view's
    top level is encoded once (while it is among the last :data:`KEPT` encoded)."""
    if REFERENCE.on or not any(type(v) is Drawn for v in view.values()):
        return dumps_reference(view)
    if not all(isinstance(k, str) for k in view):
        return dumps_reference(view)
    parts = []
    for key in sorted(view):
        value = view[key]
        text = _text(value) if type(value) is Drawn else json.dumps(value, sort_keys=True, default=str)
        parts.append(f"{json.dumps(key)}: {text}")
    return "{" + ", ".join(parts) + "}"


def _text(value: Drawn) -> str:
    kept = _TEXTS.get(id(value))
    if kept is not None and kept[0] is value:
        return kept[1]
    text = json.dumps(value, sort_keys=True, default=str)
    if len(_TEXTS) >= KEPT:
        del _TEXTS[next(iter(_TEXTS))]
    _TEXTS[id(value)] = (value, text)
    return text
