"""A battle's save file and its turn-by-turn frames, both rebuilt from the session's orders
(``web.session.Session``): what the save and replay routes answer."""

from __future__ import annotations

from typing import Any

from shieldwall.io.saves import make_save
from shieldwall.visibility import filter_view, secrets_pending
from shieldwall.web.session import ApiError, Session, read_only


def save_data(s: Session, sides: list[str]) -> dict[str, Any]:
    """The battle as a save file (``io.saves``) for ``sides``, refused while it would tell them
    what they may not know yet: the other side's concealed deployment, or the seed."""
    with s.lock:
        if read_only(sides) and not s.finished():
            raise ApiError(409, "a spectator may save the battle once it is over (a save holds its seed)")
        if secrets_pending(s.state, sides):
            raise ApiError(
                409,
                "a save file holds every order, and the other side's concealed deployment is not "
                "revealed yet: save once the cards are turned over",
            )
        if not s.seed_visible(sides):
            raise ApiError(
                409,
                "a save file holds the battle seed, which stays secret between two browsers until the "
                "battle ends",
            )
        orders = [s.state.parse_order(r.order) for r in s.orders]
        data = make_save(s.game, s.rec.seed, orders, s.state, s.rec.overrides)
        data["web"] = {
            "game": s.rec.id,
            "scenario_name": s.rec.scenario_name,
            "mode": s.rec.mode,
            "players": dict(s.rec.players),
        }
        return data


def turn_frames(s: Session, viewers: list[str]) -> list[dict[str, Any]]:
    """The battle turn by turn: for turn 0 (the deployment) and each turn, the events of the
    turn and the view at its end, by replaying the orders from the seed."""
    with s.lock:
        version = s.version
        if s.frames_cache is None or s.frames_cache[0] != version:
            s.frames_cache = (version, _frames(s))
        frames = s.frames_cache[1]
    return [dict(f, view=filter_view(f["view"], viewers)) for f in frames]


def _frames(s: Session) -> list[dict[str, Any]]:
    state = s.game.new_state(s.rec.seed)
    views: dict[int, dict[str, Any]] = {0: state.view()}
    n0 = len(state.events)
    cur = state.events[-1].turn if state.events else 1
    for r in s.orders:
        state.apply(state.parse_order(r.order))
        t = state.events[-1].turn
        if t != cur:
            views[cur] = state.view()
            cur = t
    views[cur] = state.view()
    evs = state.events
    out: list[dict[str, Any]] = []
    for turn in sorted(views):
        if turn == 0:
            a, b = 0, n0
        else:
            idx = [i for i in range(n0, len(evs)) if evs[i].turn == turn]
            a, b = (idx[0], idx[-1] + 1) if idx else (n0, n0)
        out.append(
            {
                "turn": turn,
                "first_event": a,
                "end_event": b,
                "complete": turn != cur or state.is_terminal(),
                "view": views[turn],
            }
        )
    return out
