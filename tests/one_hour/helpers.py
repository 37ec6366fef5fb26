"""Helpers for one-hour-dark-ages tests: build small scenarios in code and script the dice."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from shieldwall.core.dice import Die
from shieldwall.rulesets.one_hour import OneHourGame
from shieldwall.rulesets.one_hour.state import OneHourState


def unit(uid: str, type_: str, x: float, y: float, heading: float = 0.0, **kw: Any) -> dict[str, Any]:
    return {"id": uid, "type": type_, "x": x, "y": y, "heading": heading, **kw}


def game(
    red: Sequence[dict[str, Any]],
    blue: Sequence[dict[str, Any]],
    terrain: Iterable[dict[str, Any]] = (),
    options: dict[str, Any] | None = None,
    red_extra: dict[str, Any] | None = None,
    blue_extra: dict[str, Any] | None = None,
    spare: bool = True,
    **top: Any,
) -> OneHourGame:
    """A small battle. With ``spare`` each side also gets an infantry unit in the far east corner
    of its edge (``rs``/``bs``), so that each Movement phase waits for an order instead of the
    engine moving on by itself when no other unit can act."""
    if spare:
        red = [*red, unit("rs", "infantry", 45, 2)]
        blue = [*blue, unit("bs", "infantry", 45, 34, 180)]
    data: dict[str, Any] = {
        "ruleset": "one-hour-dark-ages",
        "name": "test",
        "table": {"width": 48, "depth": 36},
        "options": options or {},
        "terrain": list(terrain),
        "red": {"name": "Red", "units": list(red), **(red_extra or {})},
        "blue": {"name": "Blue", "home_edge": "north", "units": list(blue), **(blue_extra or {})},
        **top,
    }
    return OneHourGame.from_data(data, "test.toml")


class ScriptedDice:
    """A stand-in for the battle's numpy Generator that yields chosen die faces, in order.

    ``faces`` are natural faces of ``die``; each call to ``integers(n)`` returns the index of the
    next face. Raises if the rules roll more dice than scripted (so a test notices extra rolls).
    """

    def __init__(self, die: Die, faces: Sequence[Any]) -> None:
        self.die = die
        self.faces = list(faces)
        self.used = 0

    def _next(self, n: int) -> int:
        if not self.faces:
            raise AssertionError("the rules rolled more dice than the test scripted")
        f = self.faces.pop(0)
        self.used += 1
        if isinstance(f, tuple):  # ("d6", face): a d6 roll (roll-offs) whatever the battle's die
            assert f[0] == "d6" and n == 6, (f, n)
            return int(f[1]) - 1
        if n == len(self.die.faces):
            return self.die.faces.index(f)
        raise AssertionError(f"unexpected integers({n})")

    def integers(self, n: int, size: int | None = None) -> Any:
        if size is None:
            return self._next(n)
        return [self._next(n) for _ in range(size)]


def script(st: OneHourState, faces: Sequence[Any], die: Die | None = None) -> ScriptedDice:
    sd = ScriptedDice(die or st.die, faces)
    st.rng = sd  # type: ignore[assignment]
    return sd


def kinds(st: OneHourState, start: int = 0) -> list[str]:
    return [e.kind for e in st.events[start:]]


def last(st: OneHourState, kind: str) -> Any:
    for e in reversed(st.events):
        if e.kind == kind:
            return e
    raise AssertionError(f"no {kind} event")


def to_move_step(st: OneHourState, uid: str, faces: Sequence[int]) -> None:
    """Activate ``uid`` with scripted movement dice (the state must be at 'activate')."""
    assert st.step == "activate", st.step
    script(st, faces)
    st.apply(f"activate {uid}")
    assert st.step == "move" and st.active == uid, (st.step, st.active)


def end_movement(st: OneHourState) -> None:
    """End the phasing player's Movement phase (if the engine has not already moved on)."""
    side, turn = st.side, st.turn
    while (
        st.side == side and st.turn == turn and st.phase == "movement" and st.step in ("transfer", "activate")
    ):
        st.apply("end")
