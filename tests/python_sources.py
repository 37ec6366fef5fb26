"""Tests that patch the engine's internals run on the Python sources (issue 16, "mypyc").

A test marked ``python_sources`` replaces a function, constant or method of an engine module to spy
on a fast path or to break it on purpose. On the compiled build (``scripts/build_compiled.py``)
calls between compiled modules are bound when compiled: the patch would not reach them (and a
native class refuses a patched method). Such a test therefore runs, on a compiled build, in a child
pytest process on the ``.py`` sources of the rule system it patches (``SHIELDWALL_PURE_PACKAGES``:
the marker's arguments, by default the rule system of the test's directory, ``tests/<id>/`` ->
``shieldwall.rulesets.<id>``; the rest, the core's geometry, stays compiled: no test patches it),
and passes or fails with it; without a build (or when those packages come from their sources
already) it runs here as usual. ``tests/conftest.py`` registers the hooks. The compiled build
itself is held to the Python sources' battles by ``tests/plugins/test_compiled_vs_pure.py``.

One child runs them all: the first such test to run starts a child with the marked tests this
process is to run from it on (its share of the collection under pytest-xdist: ``tests/xdist_order.share``),
which writes each test's outcome to a file (``REPORT``, read back here); each test then passes,
fails (with its own report) or skips as it did in the child. A child per test cost a Python start,
pytest's, the collection and the imports each time (docs/performance.md, "The test suite's time,
eighth slice"). A test the child did not report (it crashed) fails with the child's output.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from tests.xdist_order import share

import shieldwall
from shieldwall import compiled

#: the tree under test (the child process imports it first)
TREE = str(Path(shieldwall.__file__).resolve().parent.parent)
#: the environment variable naming the file a child writes its tests' outcomes to (JSON lines)
REPORT = "SHIELDWALL_PYTHON_SOURCES_REPORT"
MARK = "python_sources"


@dataclass(frozen=True)
class Outcome:
    """A test's result in the child: ``passed``, ``failed`` or ``skipped``, with its report's text."""

    outcome: str
    text: str = ""


#: node id -> its outcome in a child of this process (a test is run in a child once)
_RESULTS: dict[str, Outcome] = {}


def configure(config: pytest.Config) -> None:
    """Declare the marker (from ``tests/conftest.py``'s ``pytest_configure``)."""
    config.addinivalue_line(
        "markers",
        "python_sources(*packages): patches engine internals; on a compiled build runs in a child process on "
        "the packages' .py sources (default: the rule system of tests/<id>/; tests/python_sources.py)",
    )


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """In a child (``REPORT`` set): each phase's outcome of each test, appended to the file."""
    path = os.environ.get(REPORT)
    if not path or (report.when != "call" and report.passed):
        return
    text = report.longreprtext if not report.passed else ""
    if report.skipped and isinstance(report.longrepr, tuple):
        text = str(report.longrepr[2])
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps({"nodeid": report.nodeid, "outcome": report.outcome, "text": text}) + "\n")


def batch(item: pytest.Item) -> list[pytest.Item]:
    """The marked tests from ``item`` on that this process is to run and has not run in a child:
    those after it in its share of the collection under pytest-xdist (worksteal runs a share from
    its start and another worker takes from its end), after it in the collection otherwise."""
    items = item.session.items
    workers = int(getattr(item.config, "workerinput", {}).get("workercount", 1))
    index = next((n for n, i in enumerate(items) if i is item), None)
    if index is None:
        return [item]
    end = share(index, len(items), workers)[1]
    rest = [i for i in items[index + 1 : end] if i.get_closest_marker(MARK) and i.nodeid not in _RESULTS]
    return [item, *rest]


def default_package(item: pytest.Item) -> str:
    """The rule system of the test's directory: ``tests/<id>/...`` -> ``shieldwall.rulesets.<id>``."""
    try:
        top = Path(item.path).relative_to(Path(item.config.rootpath) / "tests").parts[0]
    except (ValueError, IndexError):
        top = ""
    if not top or not (compiled.PACKAGE_DIR / "rulesets" / top / "__init__.py").is_file():
        raise pytest.UsageError(
            f"{item.nodeid}: mark it python_sources(<package>): tests/{top} is no rule system's"
        )
    return f"shieldwall.rulesets.{top}"


def packages(items: list[pytest.Item]) -> list[str]:
    """The packages the tests ``items`` patch (their markers' arguments, else their directory's)."""
    found: set[str] = set()
    for i in items:
        mark = i.get_closest_marker(MARK)
        found.update((mark.args if mark is not None else ()) or (default_package(i),))
    return sorted(found)


def run_in_child(items: list[pytest.Item]) -> str:
    """Run ``items`` in one child pytest on the ``.py`` sources of the packages they patch; record
    their outcomes; the child's output's tail (for a test it did not report)."""
    config = items[0].config
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_") and k != compiled.ENV}
    env[compiled.PACKAGES_ENV] = ",".join(packages(items))
    env["PYTHONPATH"] = os.pathsep.join([TREE, *filter(None, [os.environ.get("PYTHONPATH")])])
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "outcomes.jsonl"
        env[REPORT] = str(report)
        # Schemathesis's pytest plugin (for tests/web) is the largest import of a pytest start
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"]
        cmd += ["-p", "no:schemathesis"]
        done = subprocess.run(
            [*cmd, *(i.nodeid for i in items)],
            cwd=config.rootpath,
            env=env,
            capture_output=True,
            text=True,
            timeout=900 * len(items),
        )
        lines = report.read_text(encoding="utf-8").splitlines() if report.exists() else []
    found: dict[str, list[Outcome]] = {}
    for line in lines:
        row = json.loads(line)
        found.setdefault(row["nodeid"], []).append(Outcome(row["outcome"], row["text"]))
    for i in items:
        phases = found.get(i.nodeid)
        if phases:
            failed = [p for p in phases if p.outcome == "failed"]
            skipped = [p for p in phases if p.outcome == "skipped"]
            _RESULTS[i.nodeid] = failed[0] if failed else skipped[0] if skipped else phases[0]
    return "\n".join((done.stdout + done.stderr).splitlines()[-60:])


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    if pyfuncitem.get_closest_marker(MARK) is None or all(map(compiled.from_sources, packages([pyfuncitem]))):
        return None
    tail = ""
    if pyfuncitem.nodeid not in _RESULTS:
        tail = run_in_child(batch(pyfuncitem))
    result = _RESULTS.get(pyfuncitem.nodeid)
    where = f"on the Python sources of {', '.join(packages([pyfuncitem]))} (a child process)"
    if result is None:
        pytest.fail(f"{where}: the child reported no outcome for this test:\n{tail}", pytrace=False)
    if result.outcome == "skipped":
        pytest.skip(f"skipped {where}: {result.text}")
    if result.outcome != "passed":
        pytest.fail(f"{where}:\n{result.text}", pytrace=False)
    return True
