"""Helpers for the into-the-dark play tests: small battles built in code, and scripted dice.

Units are placed by the centre of their front edge. The default basing is a custom one of one inch
per figure (two for open order) and one inch per rank (two for mounted), so that distances in the
tests are easy to read ("any convenient base size can be used", troops.basing).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from shieldwall.core.events import Event
from shieldwall.rulesets.into_the_dark.game import IntoTheDarkGame
from shieldwall.rulesets.into_the_dark.state import IntoTheDarkState

RS = "into-the-dark"
BASING = {
    "system": "custom",
    "width_mm": {"C": 25.4, "L": 25.4, "O": 50.8},
    "foot_depth_mm": 25.4,
    "mounted_depth_mm": 50.8,
}


def u(
    uid: str,
    code: str,
    x: float,
    y: float,
    heading: float = 0.0,
    *,
    figures: int = 8,
    frontage: int = 4,
    quality: str = "average",
    type_: str = "melee",
    weapon: str | None = None,
    options: Sequence[str] = (),
    name: str | None = None,
    shieldwall: bool = False,
) -> dict[str, Any]:
    army = {
        "name": name or uid,
        "division": "Main",
        "code": code,
        "quality": quality,
        "type": type_,
        "figures": figures,
        "frontage": frontage,
        "options": list(options),
    }
    if weapon:
        army["weapon"] = weapon
    deploy = {"id": uid, "unit": name or uid, "x": x, "y": y, "heading": heading, "shieldwall": shieldwall}
    return {"army": army, "deploy": deploy}


def scenario(
    red: Iterable[dict[str, Any]],
    blue: Iterable[dict[str, Any]],
    terrain: Iterable[dict[str, Any]] = (),
    options: dict[str, Any] | None = None,
    table: tuple[float, float] = (48.0, 36.0),
    turns: int = 12,
    basing: dict[str, Any] | None = None,
    spare: bool = True,
) -> dict[str, Any]:
    """A scenario mapping. With ``spare`` each side gets a far-away unit in a corner (``rs``, ``bs``)
    so that the engine waits for orders instead of moving on when no other unit can act."""
    red, blue = list(red), list(blue)
    if spare:
        red.append(u("rs", "CPF", 3, 1, 0, figures=4, frontage=4))
        blue.append(u("bs", "CPF", table[0] - 3, table[1] - 1, 180, figures=4, frontage=4))

    def side(units: list[dict[str, Any]], name: str, edge: str) -> dict[str, Any]:
        return {
            "name": name,
            "home_edge": edge,
            "army": {
                "name": f"{name} army",
                "generals": [{"name": f"{name} general", "rating": "average", "division": "Main"}],
                "units": [x["army"] for x in units],
            },
            "deploy": [x["deploy"] for x in units],
        }

    return {
        "ruleset": RS,
        "name": "test",
        "turns": turns,
        "table": {"width": table[0], "depth": table[1]},
        "basing": dict(basing or BASING),
        "options": dict(options or {}),
        "terrain": list(terrain),
        "red": side(red, "Red", "south"),
        "blue": side(blue, "Blue", "north"),
    }


def game(*args: Any, **kw: Any) -> IntoTheDarkGame:
    return IntoTheDarkGame.from_data(scenario(*args, **kw), "test.toml")


class ScriptedDice:
    """A stand-in for the battle's numpy Generator that yields chosen d6 faces, in order.

    ``integers(6)`` / ``integers(6, size=n)`` (morale, control, initiative, rout and evade dice) and
    ``integers(1, 7, size=n)`` (combat pools) both take faces from the script. Raises if the rules
    roll more dice than scripted, so a test notices unexpected rolls.
    """

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)

    def _next(self) -> int:
        if not self.faces:
            raise AssertionError("the rules rolled more dice than the test scripted")
        f = self.faces.pop(0)
        assert 1 <= f <= 6, f
        return f

    def integers(self, low: int, high: int | None = None, size: int | None = None) -> Any:
        if high is None:
            assert low == 6, f"unexpected integers({low})"
            if size is None:
                return self._next() - 1
            return [self._next() - 1 for _ in range(size)]
        assert (low, high) == (1, 7), (low, high)
        if size is None:
            return self._next()
        return [self._next() for _ in range(size)]


def script(st: IntoTheDarkState, faces: Sequence[int]) -> ScriptedDice:
    sd = ScriptedDice(faces)
    st.rng = sd  # type: ignore[assignment]
    return sd


def start(g: IntoTheDarkGame, first: str = "red", seed: int = 0) -> IntoTheDarkState:
    """A new battle, with ``first`` given the initiative of turn 1 (the winner keeps or passes)."""
    st = g.new_state(seed)
    d = st.decision()
    while d is not None and d.kind == "orders":  # Command & Control: no new orders
        st.apply("end")
        d = st.decision()
    assert d is not None and d.kind == "initiative", d
    st.apply("keep" if d.side == first else "pass")
    return st


def events(st: IntoTheDarkState, kind: str, start_at: int = 0) -> list[Event]:
    return [e for e in st.events[start_at:] if e.kind == kind]


def last(st: IntoTheDarkState, kind: str) -> Event:
    for e in reversed(st.events):
        if e.kind == kind:
            return e
    raise AssertionError(f"no {kind} event")


def kind(st: IntoTheDarkState) -> str | None:
    d = st.decision()
    return d.kind if d else None


def end_until(st: IntoTheDarkState, want: str, side: str | None = None, limit: int = 40) -> None:
    """Answer 'end' (or decline / stand / hold) until the pending decision is ``want``."""
    for _ in range(limit):
        d = st.decision()
        assert d is not None, "battle over"
        if d.kind == want and (side is None or d.side == side):
            return
        if d.kind in ("movement", "rally", "fire", "orders"):
            st.apply("end")
        elif d.kind == "opportunity":
            st.apply(f"decline {d.unit}")
        elif d.kind == "react":
            st.apply(f"stand {d.unit}")
        elif d.kind == "unit":
            st.apply(f"hold {d.unit}")
        elif d.kind == "initiative":
            st.apply("keep")
        elif d.kind == "pursue":
            st.apply(f"pursue {d.unit}")
        elif d.kind == "consent":
            st.apply(f"allow {d.unit}")
        elif d.kind == "chase":
            st.apply(f"stop {d.unit}")  # movement.charging.target-runs
        else:
            raise AssertionError(d)
    raise AssertionError(f"never reached {want}")


def play_out(st: IntoTheDarkState, limit: int = 2000) -> None:
    """Finish the battle taking the first legal order at every decision (mostly 'end')."""
    for _ in range(limit):
        if st.is_terminal():
            return
        st.apply(st.legal_orders()[0])
    raise AssertionError("battle did not end")


def next_turn(st: IntoTheDarkState, first: str = "red") -> None:
    """Play on to the next turn's Movement phase with ``first`` moving first."""
    end_until(st, "initiative")
    d = st.decision()
    assert d is not None
    st.apply("keep" if d.side == first else "pass")
    end_until(st, "movement", first)
