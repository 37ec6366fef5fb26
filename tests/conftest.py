"""Suite-wide settings: the Hypothesis profiles, the browser tests' fixtures (``server``,
``page``, ``touch``, ``two_pages``, ``chromium``, ``stopping_servers``: tests/browser_fixtures.py),
and the ``python_sources`` marker of the tests that patch engine internals (tests/python_sources.py).

``ci``
    no deadline (a shared CI runner's timing says nothing about the code), the failing example's
    reproduction blob printed, the too-slow health check off. Loaded when the environment variable
    ``CI`` is set (to anything but ``false`` or ``0``), as CI runners do.
``dev``
    the default on a developer's machine: a generous one-second deadline per example, so a property
    whose examples suddenly take hundreds of times longer than usual is noticed.

``fuzz``
    the long fuzz run (``tests/fuzz``: 5,000 examples a target, see ``tests/fuzz/budget.py``); for
    the rest of the suite it is ``ci``.

``HYPOTHESIS_PROFILE=ci`` (or ``dev``, ``fuzz``) picks one by name; so does Hypothesis's own
``--hypothesis-profile``, which wins over both. Property tests that play whole battles per example
set ``deadline=None`` themselves: no profile's deadline applies to them. Other tests leave the
deadline to the profile.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, settings
from tests.browser_fixtures import (  # noqa: F401  (fixtures for every test)
    chromium,
    close_shared_chromium,
    page,
    server,
    stopping_servers,
    touch,
    two_pages,
)
from tests.python_sources import configure as python_sources_marker
from tests.python_sources import pytest_pyfunc_call, pytest_runtest_logreport  # noqa: F401  (its hooks)
from tests.xdist_order import long_first

settings.register_profile(
    "ci",
    deadline=None,
    derandomize=False,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=timedelta(seconds=1))
settings.register_profile("fuzz", parent=settings.get_profile("ci"))

PROFILES = ("ci", "dev", "fuzz")


def hypothesis_profile(environ: Mapping[str, str]) -> str:
    """The profile the environment asks for: HYPOTHESIS_PROFILE, else ``ci`` under CI, else ``dev``."""
    named = environ.get("HYPOTHESIS_PROFILE", "").strip()
    if named:
        if named not in PROFILES:
            raise pytest.UsageError(
                f"HYPOTHESIS_PROFILE={named!r} is not a profile of this suite (one of: {', '.join(PROFILES)})"
            )
        return named
    ci = environ.get("CI", "").strip().lower()
    return "ci" if ci not in ("", "0", "false", "no") else "dev"


def pytest_configure(config: pytest.Config) -> None:
    python_sources_marker(config)  # tests/python_sources.py
    # Hypothesis's own --hypothesis-profile has already been loaded by its plugin: keep it
    if config.getoption("--hypothesis-profile", default=None):
        return
    settings.load_profile(hypothesis_profile(os.environ))


@pytest.hookimpl(trylast=True)  # after -k, -m and the other plugins have chosen and ordered the tests
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On pytest-xdist's workers (the README's command: ``--dist worksteal``; a worker's own
    ``dist`` option always reads "no"): each worker's share begins with its longest tests
    and runs its browser tests one after the other (tests/xdist_order.py)."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None:
        return
    browser = {i.nodeid for i in items if uses_browser(i)}
    order = long_first([i.nodeid for i in items], int(workerinput["workercount"]), browser=browser)
    items[:] = [items[i] for i in order]


def uses_browser(item: pytest.Item) -> bool:
    """Whether the test drives Chromium (its fixtures include ``chromium``)."""
    return "chromium" in getattr(item, "fixturenames", ())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After a test's own fixtures are torn down: the shared Chromium is closed unless the next
    test drives it too (tests/browser_fixtures.py)."""
    try:
        return (yield)
    finally:
        if nextitem is None or not uses_browser(nextitem):
            close_shared_chromium()


def pytest_report_header(config: pytest.Config) -> str:
    return f"hypothesis settings profile: {settings.get_current_profile_name()}"
