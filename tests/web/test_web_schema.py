"""Schemathesis against the app's OpenAPI schema: generated requests, valid and not, never a 5xx.

Two passes: one with whatever game ids and tokens Hypothesis makes up (404/403/422 all the way),
and one aimed at a real game with its real token, so that orders, reach, undo, replay... are
fuzzed where they do work.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

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
_SENLAC = _client.get(f"/api/games/{ITD_GAME}/save", headers={"X-Shieldwall-Token": ITD_TOKEN}).json()[
    "scenario"
]


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
