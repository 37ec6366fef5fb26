"""Big answers and long work: fractions past Python's int-to-text limit, and progress reports.

* Exact duels of big units have numerators and denominators of thousands of digits (32 pike a
  side: about 5,600; 48: about 16,000), past the 4,300 digits Python will write by default
  (``sys.get_int_max_str_digits``). ``fraction_text`` writes them anyway, in the JSON and the
  tables, for any limit.
* Duels and matchup tables report their progress through an optional ``progress(stage, done,
  total)`` callback; ``shieldwall odds duel`` / ``matrix`` draw it as a progress bar on a terminal.
* A duel too big to solve exactly on this machine (``simultaneous.DUEL_WORK_LIMIT``) is refused with a
  one-line error (1000 v 12 figures used to pass 16 GB of memory).
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
import sys
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
import typer
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from shieldwall import cli_odds, odds
from shieldwall.core.errors import ShieldwallError
from shieldwall.odds import simultaneous
from shieldwall.odds.numbers import fraction_text, int_text
from shieldwall.odds.render import duel_tables
from shieldwall.rulesets.into_the_dark import odds as into_the_dark
from shieldwall.rulesets.one_hour import odds as one_hour

ITD = "into-the-dark"
BIG = ("32 CPF average pike", "32 CUF average warband")  # 0.7 s; denominators of ~5,600 digits


@pytest.fixture
def digit_limit() -> Iterator[None]:
    """Restore Python's int-to-text digit limit after a test changes it."""
    old = sys.get_int_max_str_digits()
    yield
    sys.set_int_max_str_digits(old)


def _plain(n: int) -> str:
    """``str(n)`` with the digit limit lifted (the oracle)."""
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return str(n)
    finally:
        sys.set_int_max_str_digits(old)


EDGES = [
    0,
    1,
    -1,
    10**4299,
    10**4300,
    10**4300 - 1,
    -(10**9000),
    10**12345 + 1,
    3**40000,
    7**20000 * 10**3000,
]


@pytest.mark.parametrize("limit", [640, 4300])
def test_int_text_writes_any_int_at_any_digit_limit(limit: int, digit_limit: None) -> None:
    sys.set_int_max_str_digits(limit)
    for n in EDGES:  # powers of ten and zeros at the split points included (the low half's zeros)
        assert int_text(n) == _plain(n)
    big = Fraction(3**40000, 7**20000 + 2)
    assert fraction_text(big) == f"{_plain(big.numerator)}/{_plain(big.denominator)}"
    assert fraction_text(Fraction(2, 4)) == "1/2"


@given(st.integers(min_value=-(10**30000), max_value=10**30000), st.integers(min_value=0, max_value=9000))
def test_int_text_equals_str_for_random_ints(n: int, shift: int) -> None:
    for m in (n, n * 10**shift, n * 10**shift + 1):
        assert int_text(m) == _plain(m)


def test_huge_duel_odds_render_and_serialise() -> None:
    """A duel whose fractions pass the digit limit: the JSON holds them whole, the table points at
    --json (the regression: both raised ValueError from ``str(int)``)."""
    d = odds.duel(ITD, *BIG, exact=True)
    assert len(_plain(d.first_wins.denominator)) > sys.get_int_max_str_digits()
    obj = json.loads(json.dumps(d.to_json()))
    assert obj["first_wins"] == f"{_plain(d.first_wins.numerator)}/{_plain(d.first_wins.denominator)}"
    assert obj["p_first_wins"] == float(d.first_wins)
    # a turn probability made huge too: the turns table shows the percentage only
    turn = min(d.turns)
    huge = dataclasses.replace(d, turns={**d.turns, turn: d.first_wins}, turns_beyond=d.second_wins)
    buf = io.StringIO()
    console = Console(file=buf, width=120)
    for table in duel_tables(huge):
        console.print(table)
    text = buf.getvalue()
    digits = len(_plain(d.first_wins.denominator))
    assert f"{digits}-digit fraction: --json" in text
    assert f"{float(d.first_wins) * 100:.2f}%" in text


def _collect() -> tuple[list[tuple[str, int, int | None]], Any]:
    calls: list[tuple[str, int, int | None]] = []

    def report(stage: str, done: int, total: int | None) -> None:
        calls.append((stage, done, total))

    return calls, report


@pytest.mark.parametrize("exact", [True, False])
def test_duel_progress_reports_each_diagonal_then_each_turn(exact: bool) -> None:
    """The exact solver and the float64 one (the default) report alike."""
    into_the_dark.PLUGIN.clear_memo()
    calls, report = _collect()
    d = odds.duel(ITD, "12 CAF average", "12 CPF average", progress=report, exact=exact)
    stages = [c[0] for c in calls]
    solving = [c for c in calls if c[0] == "win probabilities"]
    turns = [c for c in calls if c[0] == "turns"]
    # the win probabilities first (a report as each diagonal of the chain starts, 12 + 12 figures
    # down to 2, and one when all are done), then the round distribution, a report per round after
    # the first
    assert stages == ["win probabilities"] * len(solving) + ["turns"] * len(turns)
    assert [done for _, done, _ in solving] == [*range(23), 23]
    assert {total for _, _, total in solving} == {23}
    assert [t for _, t, _ in turns] == list(range(2, d.horizon + 1))
    assert {total for _, _, total in turns} == {None}
    # the same answer as without a callback, and a memoised answer makes no calls
    into_the_dark.PLUGIN.clear_memo()
    assert odds.duel(ITD, "12 CAF average", "12 CPF average", exact=exact) == d
    calls2, report2 = _collect()
    odds.duel(ITD, "12 CAF average", "12 CPF average", progress=report2, exact=exact)
    assert calls2 == []


@pytest.mark.parametrize(("ruleset", "sets"), [(ITD, {"types": "core"}), ("one-hour-dark-ages", {})])
def test_matrix_progress_counts_the_pairings(ruleset: str, sets: dict[str, str]) -> None:
    """One report per cell of the duel grids (a pairing that cannot fight counts as done), the last
    one complete."""
    into_the_dark.PLUGIN.clear_memo()
    one_hour.PLUGIN.clear_memo()
    calls, report = _collect()
    m = odds.matrix(ruleset, sets, progress=report, exact=True)
    cells = sum(len(row) for grid in m.first_wins.values() for row in grid)
    assert calls == [("duels", k, cells) for k in range(1, cells + 1)]


def test_cli_duel_of_big_units_prints_tables_and_json(app: typer.Typer) -> None:
    runner = CliRunner()
    big = ["odds", "duel", ITD, "--first", BIG[0], "--second", BIG[1]]
    r = runner.invoke(app, [*big, "--exact"])
    assert r.exit_code == 0, r.output
    assert "-digit fraction: --json" in r.stdout and "Traceback" not in r.output
    r = runner.invoke(app, [*big, "--json", "--exact"])
    assert r.exit_code == 0
    exact = json.loads(r.stdout)
    assert len(exact["first_wins"]) > 2 * 4300 and abs(exact["p_first_wins"] - 0.5) < 0.5
    # by default in float64: the bound stated in the table and in JSON, and met
    r = runner.invoke(app, big)
    assert r.exit_code == 0 and "float64: every probability within" in r.stdout
    obj = json.loads(runner.invoke(app, [*big, "--json"]).stdout)
    assert obj["exact"] is False and obj["first_wins"] is None and 0 < obj["error_bound"] < 1e-11
    assert exact["exact"] is True and exact["error_bound"] == 0
    first = odds.duel(ITD, *BIG, exact=True).first_wins
    assert abs(obj["p_first_wins"] - float(first)) <= obj["error_bound"]


def test_progress_bar_draws_on_a_terminal_and_clears(monkeypatch: pytest.MonkeyPatch) -> None:
    """``_progress_bar``: nothing before ``PROGRESS_AFTER``; on a terminal a bar per stage; off a
    terminal (pipes, CI logs) nothing at all; disabled: no callback."""
    import rich.console

    real = rich.console.Console
    buf = io.StringIO()
    monkeypatch.setattr(rich.console, "Console", lambda **kw: real(file=buf, force_terminal=True, width=100))
    monkeypatch.setattr(cli_odds, "PROGRESS_AFTER", 0.0)
    with cli_odds._progress_bar(True) as report:
        assert report is not None
        report("win probabilities", 3, 10)
        report("turns", 5, None)
    out = buf.getvalue()
    assert "win probabilities" in out and "3/10" in out and "turns" in out

    buf2 = io.StringIO()
    monkeypatch.setattr(rich.console, "Console", lambda **kw: real(file=buf2, force_terminal=False))
    with cli_odds._progress_bar(True) as report:
        assert report is not None
        report("turns", 5, None)
    assert buf2.getvalue() == ""

    monkeypatch.setattr(cli_odds, "PROGRESS_AFTER", 3600.0)
    buf3 = io.StringIO()
    monkeypatch.setattr(rich.console, "Console", lambda **kw: real(file=buf3, force_terminal=True))
    with cli_odds._progress_bar(True) as report:
        assert report is not None
        report("turns", 5, None)  # too soon: no bar
    assert buf3.getvalue() == ""

    with cli_odds._progress_bar(False) as report:
        assert report is None


def test_cli_progress_flag(app: typer.Typer) -> None:
    runner = CliRunner()
    args = ["odds", "duel", ITD, "--first", "12 CAF average", "--second", "12 CPF average"]
    quiet = runner.invoke(app, [*args, "--no-progress"])
    loud = runner.invoke(app, args)
    assert quiet.exit_code == loud.exit_code == 0
    assert quiet.stdout == loud.stdout and loud.stderr == ""  # no terminal: no bar
    assert "--no-progress" in runner.invoke(app, ["odds", "matrix", "--help"]).stdout


def _work_of(first: str, second: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """The work ``simultaneous_duel`` counts for a duel, read from its refusal at limit 0."""
    monkeypatch.setattr(simultaneous, "DUEL_WORK_LIMIT", 0)
    into_the_dark.PLUGIN.clear_memo()
    with pytest.raises(ShieldwallError, match="too big to solve exactly") as err:
        odds.duel(ITD, first, second, exact=True)
    return int(re.search(r"about ([\d,]+) steps", str(err.value)).group(1).replace(",", ""))  # type: ignore[union-attr]


def test_duel_work_limit_is_exact_at_the_boundary(monkeypatch: pytest.MonkeyPatch) -> None:
    work = _work_of("12 CAF average", "12 CPF average", monkeypatch)
    # the casualty pairs over all states (both sides' outcomes, per figures and shaken flag) times
    # the chain's 12 + 12 diagonals
    assert work % 24 == 0 and work > 2916
    monkeypatch.setattr(simultaneous, "DUEL_WORK_LIMIT", work)
    into_the_dark.PLUGIN.clear_memo()
    assert odds.duel(ITD, "12 CAF average", "12 CPF average", exact=True).first_wins > 0
    monkeypatch.setattr(simultaneous, "DUEL_WORK_LIMIT", work - 1)
    into_the_dark.PLUGIN.clear_memo()
    with pytest.raises(ShieldwallError, match=f"about {work:,} steps"):
        odds.duel(ITD, "12 CAF average", "12 CPF average", exact=True)


def test_duel_of_huge_units_is_refused_quickly_not_run_out_of_memory(app: typer.Typer) -> None:
    """1000 v 12 figures took over 16 GB before it was stopped; now a one-line error, at once. The
    limit's own comparisons: the common formations pass with room to spare."""
    huge = ["odds", "duel", ITD, "--first", "1000 CPF average", "--second", "12 CPF average"]
    r = CliRunner().invoke(app, [*huge, "--exact"])
    assert r.exit_code == 2
    assert r.stderr.startswith("error: a duel of 1000 v 12 figures is too big to solve exactly")
    assert "fewer figures fighting" in r.stderr and "Traceback" not in r.output
    r = CliRunner().invoke(app, huge)  # in float64 too
    assert r.exit_code == 2
    assert r.stderr.startswith("error: a duel of 1000 v 12 figures is too big to solve here")
    assert "fewer figures fighting" in r.stderr and "Traceback" not in r.output
    assert simultaneous.DUEL_WORK_LIMIT >= 100 * 1_555_200  # 24 v 24 (12 wide, 2 deep): 1.6 million
