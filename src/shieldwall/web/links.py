"""OpenAPI links between the game routes: which answer gives the id and the token the next
request needs. They document the API (a created game's ``game.id`` goes in the path, its
``token`` in the ``X-Shieldwall-Token`` header) and let a client such as Schemathesis chain the
calls: start a game, then read it, give orders, undo, save, replay it."""

from __future__ import annotations

from typing import Any

from shieldwall.web.context import TOKEN_HEADER

_GAME = "/api/games/{game_id}"

#: link name -> (path, method) of the target, for the routes of one game
_TARGETS: dict[str, tuple[str, str]] = {
    "GetGame": (_GAME, "get"),
    "GiveOrder": (_GAME + "/orders", "post"),
    "Reach": (_GAME + "/reach/{unit_id}", "get"),
    "Ranges": (_GAME + "/ranges/{unit_id}", "get"),
    "Log": (_GAME + "/log", "get"),
    "Combat": (_GAME + "/combat", "get"),
    "Undo": (_GAME + "/undo", "post"),
    "Save": (_GAME + "/save", "get"),
    "Invite": (_GAME + "/invite", "post"),
    "Join": (_GAME + "/join", "post"),
    "Replay": (_GAME + "/replay", "get"),
    "ReplayTurn": (_GAME + "/replay/{turn}", "get"),
    "Steps": (_GAME + "/steps", "get"),
    "Report": (_GAME + "/report", "get"),
    "Spectate": (_GAME + "/spectate", "post"),
    "Check": (_GAME + "/check", "post"),
}


def _ref(path: str, method: str) -> str:
    """A JSON pointer to an operation of this schema (``~1`` is an escaped ``/``)."""
    return "#/paths/" + path.replace("~", "~0").replace("/", "~1") + "/" + method


def _links(game_id: str, token: str | None, names: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in names:
        path, method = _TARGETS[name]
        params = {"path.game_id": game_id}
        if token is not None and name != "Join":
            params[f"header.{TOKEN_HEADER}"] = token
        out[name] = {"operationRef": _ref(path, method), "parameters": params}
    return out


#: from a created game (``POST /api/games``, ``/import``): its id and your token, to every route
#: of the game (``join`` takes no token: its invitation is in ``invite_url``'s fragment)
CREATED_LINKS = _links("$response.body#/game/id", "$response.body#/token", tuple(_TARGETS))

#: from a joined game: its id (the request's) and the joined side's new token
JOINED_LINKS = _links("$request.path.game_id", "$response.body#/token", ("GetGame", "GiveOrder", "Log"))

#: from an order or an undo: the same game, the same token, to play on or look again
PLAYED_LINKS = _links(
    "$request.path.game_id",
    f"$request.header.{TOKEN_HEADER}",
    ("GetGame", "GiveOrder", "Undo", "Log", "Combat", "Replay", "Steps"),
)


def with_links(
    responses: dict[int | str, dict[str, Any]], code: int, links: dict[str, Any]
) -> dict[int | str, Any]:
    """``responses`` for a route decorator, with ``links`` on its ``code`` answer."""
    return {**responses, code: {**responses.get(code, {}), "links": links}}
