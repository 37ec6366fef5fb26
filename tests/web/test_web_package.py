"""The built wheel carries every rule system's plugin files (scenarios, data, web piece), and an
install of it (the wheel unpacked: a pure-Python wheel installs by unpacking) serves the web pieces
and the clause tables with their summaries without the checkout's docs/."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from shieldwall import registry
from shieldwall.web import log as L

ROOT = Path(__file__).resolve().parents[2]
#: interpreters that may build the wheel offline: this one, or the system's (setuptools + wheel)
BUILDERS = [sys.executable, "/usr/bin/python3"]
CAN_BUILD = (
    "import importlib.util as u, setuptools.build_meta; "
    "assert u.find_spec('wheel') or u.find_spec('setuptools.command.bdist_wheel')"
)


def _builder() -> str | None:
    for exe in BUILDERS:
        if Path(exe).exists() and subprocess.run([exe, "-c", CAN_BUILD], capture_output=True).returncode == 0:
            return exe
    return None


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built by setuptools' own backend from a copy of the tree (no build/ or
    egg-info left in the checkout)."""
    exe = _builder()
    if exe is None:
        pytest.skip("no interpreter here can build a wheel offline (setuptools with bdist_wheel)")
    tmp = tmp_path_factory.mktemp("wheel")
    tree = tmp / "tree"
    tree.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tree / name)
    shutil.copytree(ROOT / "src", tree / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    out = tmp / "dist"
    out.mkdir()
    r = subprocess.run(
        [exe, "-c", f"import setuptools.build_meta as b; print(b.build_wheel({str(out)!r}))"],
        cwd=tree,
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert r.returncode == 0, r.stderr[-3000:]
    (found,) = out.glob("shieldwall-*.whl")
    return found


def _package_dir(package: str) -> Path:
    return ROOT / "src" / Path(*package.split("."))


def test_the_wheel_has_every_plugins_scenarios_data_and_web_piece(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    systems = registry.systems()
    assert systems
    for rid, rs in systems.items():
        inside = "/".join(rs.package.split("."))
        assert f"{inside}/plugin.py" in names, rid
        scenarios = rs.scenario_files()
        assert scenarios, rid
        for stem in scenarios:
            assert f"{inside}/{rs.scenarios}/{stem}.toml" in names, (rid, stem)
        data = sorted((_package_dir(rs.package) / "data").glob("*.toml"))
        for f in data:
            assert f"{inside}/data/{f.name}" in names, (rid, f.name)
        if rs.web_module:
            folder = (_package_dir(rs.package) / rs.web_module).parent
            files = [f for f in folder.iterdir() if f.is_file()]
            assert f"{inside}/{rs.web_module}" in names, rid
            for f in files:
                assert f"{inside}/{rs.web_module.rpartition('/')[0]}/{f.name}" in names, (rid, f.name)
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "[shieldwall.rulesets]" in text and all(f"{rid} = " in text for rid in systems)
    for page in ("index.html", "app.js", "log.js", "board.js", "reach.js", "api.js", "style.css"):
        assert f"shieldwall/web/static/{page}" in names, page


CHECK = """
import json, sys
import shieldwall
from shieldwall import registry
from shieldwall.web import log as L
from shieldwall.web.app import create_app
from fastapi.testclient import TestClient

out = {"file": shieldwall.__file__, "clauses": {r: L.clauses(r) for r in registry.ids()}, "web": {}}
with TestClient(create_app(sys.argv[1])) as c:
    for r in c.get("/api/rulesets").json():
        if r["web_module"]:
            resp = c.get(r["web_module"])
            out["web"][r["id"]] = [r["web_module"], resp.status_code, resp.text]
        out.setdefault("pages", {})[r["id"]] = c.get("/rules/" + r["id"]).status_code
print(json.dumps(out))
"""


def test_an_install_of_the_wheel_serves_web_pieces_and_clause_summaries_without_docs(
    wheel: Path, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    env = {**os.environ, "PYTHONPATH": str(site)}
    r = subprocess.run(
        [sys.executable, "-c", CHECK, str(tmp_path / "games.sqlite3")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    out: dict[str, Any] = json.loads(r.stdout.strip().splitlines()[-1])
    assert Path(out["file"]).is_relative_to(site)  # the installed copy, not the checkout
    assert not any((p / "docs").exists() for p in Path(out["file"]).parents if p.is_relative_to(tmp_path))
    for rid, rs in registry.systems().items():
        table = {k: list(v) for k, v in L.clauses(rid).items()}
        if rs.clauses:
            assert table and out["clauses"][rid] == table, rid
            assert out["pages"][rid] == 200, rid
            # the clauses have summaries of their own, not just their section headings
            assert sum(section != summary for section, summary in table.values()) > len(table) // 2, rid
        if rs.web_module:
            url, status, text = out["web"][rid]
            assert status == 200 and url == f"/rulesets/{rid}/{rs.web_module.rpartition('/')[2]}"
            assert text == (_package_dir(rs.package) / rs.web_module).read_text(encoding="utf-8"), rid
