"""The recorded event-log hashes of seeded battles (``benchmarks/event_hashes.json``: 30 One-Hour
battles; ``benchmarks/itd_event_hashes.json``: 16 Into the Dark battles with the optional rules,
five with their menus hashed) still match: the speed work's fast paths play exactly the battles the
code played when the hashes were recorded. The scripts are run as a user runs them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _check(script: str, hashes: str) -> None:
    r = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / script), "--check", str(ROOT / "benchmarks" / hashes)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "battles identical" in r.stdout


def test_one_hour_battles_match_their_recorded_hashes() -> None:
    _check("event_hashes.py", "event_hashes.json")


@pytest.mark.slow
def test_into_the_dark_battles_match_their_recorded_hashes() -> None:
    _check("itd_event_hashes.py", "itd_event_hashes.json")
