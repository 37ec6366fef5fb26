"""Schemathesis against the app's OpenAPI schema: generated requests, valid and not, never a 5xx.

Two passes: one with whatever game ids and tokens Hypothesis makes up (404/403/422 all the way),
and one aimed at a real game with its real token, so that orders, reach, undo, replay... are
fuzzed where they do work.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import schemathesis
    from fastapi.testclient import TestClient
    from schemathesis.checks import not_a_server_error
    from schemathesis.specs.openapi.checks import (
        content_type_conformance,
        response_schema_conformance,
        status_code_conformance,
    )

from shieldwall.web.app import create_app

EXAMPLES = 40

_tmp = Path(tempfile.mkdtemp(prefix="shieldwall-schema-"))
atexit.register(shutil.rmtree, _tmp, ignore_errors=True)
app = create_app(_tmp / "games.sqlite3")
schema = schemathesis.openapi.from_asgi("/openapi.json", app)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    _client = TestClient(app)
_made = _client.post("/api/games", json={"opponent": "random", "seed": 9}).json()
GAME, TOKEN = _made["game"]["id"], _made["token"]

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
    database=None,
)


#: no 5xx, and every answer documented: its status code, content type and body schema. (Not the
#: positive/negative data checks: a schema-valid scenario name may still be unknown, and the
#: second pass below swaps generated game ids for a real one.)
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


def _no_5xx(case: Any) -> None:
    response = case.call()
    assert response.status_code < 500, (case.method, case.formatted_path, response.status_code, response.text)
    case.validate_response(response, checks=CHECKS)


@pytest.mark.slow
@schema.parametrize()
@FUZZ
def test_no_server_errors(case: Any) -> None:
    _no_5xx(case)


@pytest.mark.slow
@schema.parametrize()
@FUZZ
def test_no_server_errors_in_a_real_game(case: Any) -> None:
    if case.path_parameters and "game_id" in case.path_parameters:
        case.path_parameters["game_id"] = GAME
    if (
        case.path_parameters
        and "unit_id" in case.path_parameters
        and len(str(case.path_parameters["unit_id"])) % 2
    ):
        case.path_parameters["unit_id"] = "r1"
    case.headers = {**(case.headers or {}), "X-Shieldwall-Token": TOKEN}
    _no_5xx(case)


_itd = _client.post(
    "/api/games",
    json={
        "ruleset": "into-the-dark",
        "scenario": "into-the-dark/senlac",
        "opponent": "random",
        "seed": 9,
        "overrides": {"deployment": "alternate", "concealed_deployment": True},
    },
).json()
ITD_GAME, ITD_TOKEN = _itd["game"]["id"], _itd["token"]


@pytest.mark.slow
@schema.parametrize()
@FUZZ
def test_no_server_errors_in_an_into_the_dark_game(case: Any) -> None:
    """The same, aimed at an into-the-dark game in its concealed deployment (unit ids of both sides)."""
    if case.path_parameters and "game_id" in case.path_parameters:
        case.path_parameters["game_id"] = ITD_GAME
    if case.path_parameters and "unit_id" in case.path_parameters:
        n = len(str(case.path_parameters["unit_id"]))
        case.path_parameters["unit_id"] = ("r1", "b1", "r3", str(case.path_parameters["unit_id"]))[n % 4]
    case.headers = {**(case.headers or {}), "X-Shieldwall-Token": ITD_TOKEN}
    _no_5xx(case)


_SAVE = _client.get(f"/api/games/{GAME}/save", headers={"X-Shieldwall-Token": TOKEN}).json()
_ITD_SAVE = _client.get(f"/api/games/{ITD_GAME}/save", headers={"X-Shieldwall-Token": ITD_TOKEN}).json()
_SENLAC = _ITD_SAVE["scenario"]


@pytest.mark.slow
@schema.include(method="POST", path_regex="^/api/games(/import)?$").parametrize()
@FUZZ
def test_no_server_errors_with_real_scenarios_and_saves(case: Any) -> None:
    """Creating and importing with the generated fields laid over a real scenario or save (so that
    most of the body is valid and the generated parts reach the rules' validation and replay)."""
    body = case.body if isinstance(case.body, dict) else None
    if body is not None and isinstance(body.get("scenario_data"), dict):
        body["ruleset"] = "into-the-dark"
        body["scenario_data"] = {**_SENLAC, **body["scenario_data"]}
    if body is not None and isinstance(body.get("save"), dict):
        body["save"] = {**_SAVE, **body["save"]}
    _no_5xx(case)


# --- the stateful run: Schemathesis follows the schema's links ----------------------------------

#: examples (scenarios) and steps per scenario of the stateful run; more with
#: SHIELDWALL_STATEFUL_EXAMPLES=500 SHIELDWALL_STATEFUL_STEPS=30 (see test_stateful_game_routes)
STATEFUL_EXAMPLES = int(os.environ.get("SHIELDWALL_STATEFUL_EXAMPLES", "12"))
STATEFUL_STEPS = int(os.environ.get("SHIELDWALL_STATEFUL_STEPS", "10"))
#: a run asked for by hand draws new random sequences each time (the default one is always the same)
LONG_RUN = "SHIELDWALL_STATEFUL_EXAMPLES" in os.environ

#: battles the stateful run starts: both rule systems, every kind of opponent (hotseat and remote
#: open /undo, /invite and /join to a real game)
_STARTS = (
    {"opponent": "random"},
    {"opponent": "hotseat"},
    {"opponent": "remote"},
    {"ruleset": "into-the-dark", "scenario": "into-the-dark/senlac", "opponent": "random"},
    {"ruleset": "into-the-dark", "scenario": "into-the-dark/senlac", "opponent": "hotseat"},
    {"ruleset": "into-the-dark", "scenario": "into-the-dark/senlac", "opponent": "remote"},
)


def _pick(case: Any, n: int) -> int:
    """A choice among ``n`` made from the generated case itself (so Hypothesis drives it)."""
    return (len(repr(case.body)) + len(repr(case.path_parameters)) + len(repr(case.query))) % n


def _steer(case: Any) -> None:
    """Most generated starts become a real battle (a generated body is nearly always refused, and
    then there is no game to follow the links into); most generated orders become one of the
    engine's menu, and most unit ids a unit of the table, so that the game moves on. The rest is
    left as generated: the refusals are tested too."""
    k = _pick(case, 8)
    if case.method == "POST" and case.path == "/api/games" and k:
        seed = case.body.get("seed") if isinstance(case.body, dict) else None
        start = dict(_STARTS[k % len(_STARTS)])
        case.body = {**start, "seed": seed if isinstance(seed, int) and 0 <= seed < 2**62 else k}
        return
    if case.method == "POST" and case.path == "/api/games/import" and k:
        case.body = {"save": (_SAVE, _ITD_SAVE)[k % 2], "opponent": _STARTS[k % 3]["opponent"]}
        return
    game = (case.path_parameters or {}).get("game_id")
    if case.path == "/api/games/{game_id}/join" and k % 2 and game in _INVITES:
        case.body = {"invite": _INVITES[game]}
        return
    token = (case.headers or {}).get("X-Shieldwall-Token")
    if game is None or token is None or not k % 4:
        return
    state = _client.get(f"/api/games/{game}", headers={"X-Shieldwall-Token": token})
    if state.status_code != 200:
        return
    s = state.json()
    if case.path == "/api/games/{game_id}/orders" and s["menu"]:
        case.body = {"order": s["menu"][k % len(s["menu"])]["text"], "version": s["version"]}
    elif case.path == "/api/games/{game_id}/reach/{unit_id}":
        units = [u["id"] for u in s["view"].get("units", []) if isinstance(u, dict) and "id" in u]
        if units:
            case.path_parameters["unit_id"] = units[k % len(units)]
    elif case.path == "/api/games/{game_id}/replay/{turn}":
        case.path_parameters["turn"] = k % 3


_Machine = schema.include(path_regex="^/api/games").as_state_machine()
STATEFUL_SEEN: dict[tuple[str, str, int], int] = {}
#: the calls that failed, kept for the report: when a call fails, Hypothesis replays the sequence
#: to shrink it, and the game's ids and tokens are new each time (and Schemathesis's choice of
#: links learns as it goes), so it may only say "Flaky" and not show the failure itself
STATEFUL_FAILURES: list[str] = []
#: the invitation of each remote game the run started (its invite_url's fragment, which no link
#: can reach into)
_INVITES: dict[str, str] = {}


class _GameRoutes(_Machine):
    def before_call(self, case: Any) -> None:
        _steer(case)

    def after_call(self, response: Any, case: Any) -> None:
        if response.status_code == 201 and (url := response.json().get("invite_url")):
            _INVITES[response.json()["game"]["id"]] = url.partition("#invite=")[2]
        key = (case.method, case.path, response.status_code)
        STATEFUL_SEEN[key] = STATEFUL_SEEN.get(key, 0) + 1

    def call(self, case: Any, **kwargs: Any) -> Any:
        try:
            return super().call(case, **kwargs)
        except Exception as e:  # the app raised instead of answering
            STATEFUL_FAILURES.append(f"{case.method} {case.formatted_path} {case.body!r}: {e!r}")
            raise

    def validate_response(
        self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any
    ) -> None:
        try:
            assert response.status_code < 500, (response.status_code, response.text)
            case.validate_response(response, checks=[not_a_server_error, response_schema_conformance])
        except BaseException as e:
            STATEFUL_FAILURES.append(f"{case.method} {case.formatted_path} {case.body!r}: {e}")
            raise


@pytest.mark.slow
def test_stateful_game_routes() -> None:
    """Stateful: Schemathesis chains the calls by the schema's links (docs/web.md, The API): start
    a game (``POST /api/games`` or ``/import``), then with its id and token read it, order, undo,
    ask reach, log, combat, save, replay, invite and join, and play on from an order's answer. No
    5xx, and every answer conforms to the schema. A few seconds here; a longer run with
    ``SHIELDWALL_STATEFUL_EXAMPLES=500 SHIELDWALL_STATEFUL_STEPS=30`` (random, not derandomized:
    each such run tries new sequences)."""
    STATEFUL_SEEN.clear()
    STATEFUL_FAILURES.clear()
    try:
        run_state_machine_as_test(
            _GameRoutes,
            settings=settings(
                max_examples=STATEFUL_EXAMPLES,
                stateful_step_count=STATEFUL_STEPS,
                deadline=None,
                derandomize=not LONG_RUN,
                suppress_health_check=list(HealthCheck),
                database=None,
            ),
        )
    except BaseException:
        if STATEFUL_FAILURES:
            pytest.fail("the stateful run failed first at:\n" + STATEFUL_FAILURES[0])
        raise
    ok = {(method, path) for (method, path, status), _ in STATEFUL_SEEN.items() if status < 300}
    # the links were followed: games were made, and the routes of a game answered for it (which
    # takes its token: no generated header is one)
    assert ("POST", "/api/games") in ok
    game_routes = {(m, p) for m, p in ok if p.startswith("/api/games/{game_id}")}
    assert len(game_routes) >= 6, STATEFUL_SEEN


def test_links_lead_from_a_created_game_to_its_routes() -> None:
    """The schema's links: a created game's answer leads to every route of the game (its id and
    token from the body); each link names an operation of the schema and its parameters."""
    spec = _client.get("/openapi.json").json()
    paths = spec["paths"]
    links = paths["/api/games"]["post"]["responses"]["201"]["links"]
    targets = set()
    for name, link in links.items():
        pointer = link["operationRef"].removeprefix("#/paths/")
        path, _, method = pointer.rpartition("/")
        path = path.replace("~1", "/").replace("~0", "~")
        op = paths[path][method]
        targets.add((method.upper(), path))
        declared = {f"{p['in']}.{p['name']}" for p in op.get("parameters", [])}
        assert set(link["parameters"]) <= declared, (name, link["parameters"], declared)
        assert link["parameters"]["path.game_id"] == "$response.body#/game/id"
        if name != "Join":
            assert link["parameters"]["header.X-Shieldwall-Token"] == "$response.body#/token"
    assert targets == {
        (m.upper(), p) for p, ops in paths.items() if p.startswith("/api/games/{game_id}") for m in ops
    }
    assert paths["/api/games/import"]["post"]["responses"]["201"]["links"] == links
    assert set(paths["/api/games/{game_id}/orders"]["post"]["responses"]["200"]["links"]) >= {
        "GetGame",
        "GiveOrder",
    }
