"""The Python engine stays the referee (issue 16): every scenario of every registered rule system,
played on the fast paths and on their references (``core.reference``), gives the same record.

The CI sample: per scenario, the first ``DECISIONS`` decisions of two seeded battles (scripted v
scripted with the legal menu hashed after every order, random v scripted), about 25 s in all on a
loaded 2-core machine. The full run (1,000 battles per scenario, to the end) is
``benchmarks/bench_fast_vs_reference.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from functools import cache

import pytest

from shieldwall.core import reference
from shieldwall.core.game import Game
from shieldwall.core.geometry import Footprint
from shieldwall.core.geometry_index import FootprintIndex
from shieldwall.core.reference import REFERENCE, reference_on, reference_path
from shieldwall.sim import referee as R

#: decisions of each battle compared in CI (the whole battle in the benchmark)
DECISIONS = 40


@cache
def _games(scenario: str) -> tuple[Game, Game]:
    return R.load_both(scenario)


@pytest.mark.parametrize("scenario", R.scenarios())
def test_fast_paths_play_the_battles_their_references_play(scenario: str) -> None:
    games = _games(scenario)
    for case, menus in (
        (R.Case(scenario, 0, "scripted", "scripted"), True),
        (R.Case(scenario, 1, "random", "scripted"), False),
    ):
        v = R.referee(games, case, menus=menus, limit=DECISIONS)
        assert v.difference is None, f"{case.label}: the fast path parts from its reference at {v.difference}"
        assert v.fast.decisions == v.ref.decisions > 0


def test_every_registered_rule_system_has_a_scenario_in_the_sample() -> None:
    from shieldwall import registry

    ids = {s.split("/", 1)[0] for s in R.scenarios()}
    assert ids == {rid for rid, rs in registry.systems().items() if rs.scenario_files()}


def test_the_switch_is_set_back_after_its_block_even_on_an_error() -> None:
    before = reference_on()
    with reference_path():
        assert REFERENCE.on
        with reference_path(False):
            assert not reference_on()
        assert reference_on()
    assert reference_on() is before
    with pytest.raises(RuntimeError), reference_path():
        raise RuntimeError("boom")
    assert reference_on() is before


def test_the_environment_variable_turns_the_reference_on_for_a_process() -> None:
    code = "from shieldwall.core.reference import REFERENCE; print(REFERENCE.on)"
    for value, want in (("1", "True"), ("yes", "True"), ("0", "False"), ("", "False"), ("off", "False")):
        env = {**os.environ, reference.ENV: value}
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        assert out.stdout.strip() == want, value


class _P:
    def __init__(self, x: float, y: float) -> None:
        self.fp = Footprint(x, y, 0.0, 2.0, 1.0)


def test_a_grid_on_the_reference_path_answers_with_every_piece() -> None:
    pieces = FootprintIndex([_P(10.0 * i, 0.0) for i in range(40)])
    near = pieces.near(0.0, 0.0, 3.0)
    assert 0 < len(near) < len(pieces)
    with reference_path():
        assert list(pieces.near(0.0, 0.0, 3.0)) == list(pieces)


def test_records_that_part_name_their_first_differing_line() -> None:
    a = R.Record(("x", "y", "z"), "a", 0.0, 3)
    b = R.Record(("x", "q", "z"), "b", 0.0, 3)
    assert R.first_difference(a, b) == "line 2: fast y / reference q"
    c = R.Record(("x", "y"), "c", 0.0, 2)
    assert R.first_difference(a, c) == "line 3: only the fast record goes on: z"
    assert R.first_difference(a, R.Record(("other",), "a", 0.0, 1)) is None  # (hashes agree)
