"""The chance of a roll, where the event carries what it takes (``render.report``'s key dice).

An event says how its roll was read in different ways, so the chance is given only when the event
itself settles it:

- an explicit probability (``p``, ``probability`` or ``chance``: a number from 0 to 1);
- groups of dice (``groups``: each with ``dice``, ``need`` and the ``faces`` rolled and ``hits``
  scored): the chance of one die's hit, when the faces and the hits show whether a hit is a roll of
  ``need`` or more, or of ``need`` or less;
- a test of one die (one face, a ``need`` or ``target`` number, and ``passed`` or a ``result`` /
  ``control`` of "passed" / "failed"): the chance to pass, when the face and the outcome show which
  way the test is read.

The die is the event's ``die`` (``"d6"``, ``"d100"``...). A natural roll the rules treat apart is
not counted: the chance is the plain one, and says so by its "about".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["chance"]


def _sides(die: Any) -> int | None:
    if isinstance(die, str) and die.lower().startswith("d") and die[1:].isdigit():
        n = int(die[1:])
        return n if n >= 2 else None
    return None


def _number(v: Any) -> float | None:
    if isinstance(v, bool) or not isinstance(v, int | float):
        return None
    return float(v)


def _p_over(need: float, n: int) -> float:
    return min(max((n - need + 1) / n, 0.0), 1.0)


def _p_under(need: float, n: int) -> float:
    return min(max(need / n, 0.0), 1.0)


def _way(faces: list[int], need: float, hits: int) -> str | None:
    over = sum(1 for f in faces if f >= need)
    under = sum(1 for f in faces if f <= need)
    if over == hits and under != hits:
        return "over"
    if under == hits and over != hits:
        return "under"
    return None


def _groups(data: Mapping[str, Any], n: int) -> str | None:
    parts = []
    for g in data.get("groups") or []:
        if not isinstance(g, Mapping):
            continue
        need, hits, faces = _number(g.get("need")), g.get("hits"), g.get("faces")
        if need is None or not isinstance(hits, int) or not isinstance(faces, list):
            continue
        way = _way([int(f) for f in faces if isinstance(f, int)], need, hits)
        if way is None:
            continue
        p = _p_over(need, n) if way == "over" else _p_under(need, n)
        sign = "+" if way == "over" else " or less"
        n_dice = g.get("dice")
        dice = n_dice if isinstance(n_dice, int) else len(faces)
        label = f"{g.get('label')}: " if g.get("label") else ""
        parts.append(
            f"{label}{int(need)}{sign} about {p:.0%} a die ({dice} dice, {dice * p:.1f} hits expected)"
        )
    return "; ".join(parts) or None


def _passed(data: Mapping[str, Any]) -> bool | None:
    passed = data.get("passed")
    if isinstance(passed, bool):
        return passed
    for key in ("result", "control"):
        v = data.get(key)
        if v in ("passed", "failed"):
            return bool(v == "passed")
    return None


def _test(data: Mapping[str, Any], n: int) -> str | None:
    faces = data.get("faces")
    if not isinstance(faces, list) or len(faces) != 1 or not isinstance(faces[0], int):
        return None
    need = _number(data.get("need", data.get("target")))
    passed = _passed(data)
    if need is None or passed is None:
        return None
    f = faces[0]
    over, under = (f >= need) == passed, (f <= need) == passed
    if over == under:
        return None
    p = _p_over(need, n) if over else _p_under(need, n)
    return f"pass on {int(need)}{'+' if over else ' or less'}: about {p:.0%}"


def chance(data: Mapping[str, Any]) -> str | None:
    """The chance of the roll an event records, in words, or None when the event does not settle
    it (see the module docstring)."""
    for key in ("p", "probability", "chance"):
        p = _number(data.get(key))
        if p is not None and 0.0 <= p <= 1.0:
            return f"{p:.0%}"
    n = _sides(data.get("die"))
    if n is None:
        return None
    return _groups(data, n) or _test(data, n)
