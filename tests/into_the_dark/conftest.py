"""Tests that patch the engine's internals run on the Python sources (issue 16, "mypyc").

A test marked ``python_sources`` replaces a function, constant or method of an engine module to spy
on a fast path or to break it on purpose. On the compiled build (``scripts/build_compiled.py``)
calls between compiled modules are bound when compiled: the patch would not reach them (and a
native class refuses a patched method). Such a test therefore runs, on a compiled build, in a child
pytest process on the ``.py`` sources (``SHIELDWALL_PURE=1``), and passes or fails with it; without
a build (or under ``SHIELDWALL_PURE``) it runs here as usual. The compiled build itself is held to
the Python sources' battles by ``tests/plugins/test_compiled_vs_pure.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import shieldwall
from shieldwall import compiled

#: the tree under test (the child process imports it first)
TREE = str(Path(shieldwall.__file__).resolve().parent.parent)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "python_sources: patches engine internals; on a compiled build runs in a child process on the .py "
        "sources (tests/into_the_dark/conftest.py)",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    if pyfuncitem.get_closest_marker("python_sources") is None or compiled.mode() != "compiled":
        return None
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env[compiled.ENV] = "1"
    env["PYTHONPATH"] = os.pathsep.join([TREE, *filter(None, [os.environ.get("PYTHONPATH")])])
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"]
    done = subprocess.run(
        [*cmd, pyfuncitem.nodeid],
        cwd=pyfuncitem.config.rootpath,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    summary = (done.stdout.strip().splitlines() or [""])[-1]
    if done.returncode == 0 and " passed" not in summary and " skipped" in summary:
        pytest.skip(f"skipped on the Python sources (a child process): {summary}")
    if done.returncode != 0 or " passed" not in summary:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-60:])
        pytest.fail(f"on the Python sources (SHIELDWALL_PURE=1, a child process):\n{tail}", pytrace=False)
    return True
