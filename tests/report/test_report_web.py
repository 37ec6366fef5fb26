"""The web table's Report button: ``GET /api/games/{id}/report`` answers the same standalone page
as ``shieldwall report-battle``, to whoever may save the battle."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

from shieldwall.cli import run
from shieldwall.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def test_the_report_of_a_game_in_the_browser(tmp_path: Path) -> None:
    save_file = tmp_path / "b.json"
    assert run(["battle", "one-hour-dark-ages/bryn-glas", "--seed", "3", "--save", str(save_file)]) == 0
    save = json.loads(save_file.read_text(encoding="utf-8"))
    with TestClient(create_app(tmp_path / "games.sqlite3")) as client:
        r = client.post("/api/games/import", json={"save": save, "side": "red"})
        assert r.status_code == 201, r.text
        gid, token = r.json()["game"]["id"], r.json()["token"]
        page = client.get(f"/api/games/{gid}/report", headers={"X-Shieldwall-Token": token})
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        html = page.text
        assert html.startswith("<!DOCTYPE html>") and 'id="turn-13"' in html and "report-losses" in html
        assert save["result"]["reason"] in html
        # the same page as the command line's, but for the name of its source
        assert run(["report-battle", str(save_file), "-o", str(tmp_path / "b.html")]) == 0
        cli = (tmp_path / "b.html").read_text(encoding="utf-8")
        assert html.replace(f"game {gid}", str(save_file)) == cli
        assert client.get(f"/api/games/{gid}/report").status_code == 403  # no token, no report
