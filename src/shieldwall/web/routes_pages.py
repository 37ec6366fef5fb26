"""The pages: the page that plays (``/``, ``/play/{id}``, ``/join/{id}``), the clause tables
(``/rules``, ``/rules/{ruleset}``) and each rule system's web piece (``/rulesets/{ruleset}/{file}``).
None of them is part of the API's schema."""

from __future__ import annotations

import mimetypes
from html import escape

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, Response

from shieldwall import registry
from shieldwall.web import log as L
from shieldwall.web.context import STATIC
from shieldwall.web.session import ApiError

router = APIRouter(include_in_schema=False)

INDEX = STATIC / "index.html"


@router.get("/")
def home() -> FileResponse:
    return FileResponse(INDEX)


@router.get("/play/{game_id}")
def play_page(game_id: str) -> FileResponse:
    return FileResponse(INDEX)


@router.get("/army")
def army_page() -> FileResponse:
    return FileResponse(INDEX)


@router.get("/join/{game_id}")
def join_page(game_id: str) -> FileResponse:
    return FileResponse(INDEX)


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        f"<title>{escape(title)}</title>"
        '<meta name=viewport content="width=device-width,initial-scale=1">'
        f'<link rel=stylesheet href="/static/style.css"></head><body class=rules-page>{body}</body></html>',
        status_code=status,
    )


@router.get("/rules", response_class=HTMLResponse)
def rules_index() -> HTMLResponse:
    """Every rule system with a clause table, linked."""
    items = "".join(
        f'<li><a href="/rules/{escape(rid)}">{escape(rid)}</a> · {escape(rs.title)}</li>'
        for rid, rs in registry.systems().items()
        if L.clauses(rid)
    )
    return _page(
        "clause tables",
        '<h1><a href="/">shieldwall</a> · the clause tables</h1>'
        "<p>Every event of a battle and every refused order names a clause of its rule system.</p>"
        f"<ul>{items or '<li>No rule system has a clause table.</li>'}</ul>",
    )


@router.get("/rules/{ruleset}", response_class=HTMLResponse)
def rules_page(ruleset: str) -> HTMLResponse:
    table = L.clauses(ruleset)
    if not table:
        return HTMLResponse(
            f"<!doctype html><title>not found</title><p>No clause table for {escape(ruleset)}.</p>",
            status_code=404,
        )
    rows = "".join(
        f'<tr id="{escape(k)}"><td><a href="#{escape(k)}"><code>{escape(k)}</code></a></td>'
        f"<td>{escape(v[0])}</td><td>{escape(v[1])}</td></tr>"
        for k, v in table.items()
    )
    return _page(
        f"{ruleset} - clause table",
        f'<h1><a href="/">shieldwall</a> · {escape(ruleset)}: the clauses</h1>'
        "<p>Every event of a battle and every refused order names one of these clauses "
        f"(<code>{escape(ruleset)}:&lt;clause&gt;</code>).</p>"
        f"<table class=clauses><thead><tr><th>clause</th><th>section</th><th>what it says</th></tr>"
        f"</thead><tbody>{rows}</tbody></table>",
    )


@router.get("/rulesets/{ruleset}/{name}")
def ruleset_file(ruleset: str, name: str) -> Response:
    """A file of a rule system's web piece: only the files of the folder its plugin's
    ``web_module`` is in (``RuleSystem.web_file``), never a path."""
    rs = registry.find(ruleset)
    f = None if rs is None else rs.web_file(name)
    if f is None:
        raise ApiError(404, f"no web file {name!r} for the rule system {ruleset!r}")
    if name.endswith((".js", ".mjs")):
        media = "text/javascript"
    else:
        media = mimetypes.guess_type(name)[0] or "application/octet-stream"
    return Response(f.read_bytes(), media_type=media)
