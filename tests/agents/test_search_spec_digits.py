"""The search bot's spec reads numbers written in ASCII digits only, and ``mcts:`` with nothing
after the colon is refused by every host alike (found by an exploratory test of the agent
interfaces: ``mcts:²`` printed a ``ValueError`` traceback from ``int``, ``mcts:٤`` was read as 4,
``g0_1`` as 1.0, and ``mcts:`` was plain ``mcts`` on the command line but refused at the web
table)."""

from __future__ import annotations

import pytest

from shieldwall.ai.base import make_bot
from shieldwall.ai.search_spec import BadBudget, parse
from shieldwall.cli import run


@pytest.mark.parametrize("spec", ["²", "h²", "4:h²", "¹s", "٤", "4:g0_1", "4:gnan", "4:mix0_5", "1_000"])
def test_a_number_in_a_spec_is_ascii_digits(spec: str) -> None:
    with pytest.raises(BadBudget):
        parse(spec)


def test_specs_in_digits_still_parse() -> None:
    assert parse("200").playouts == 200 and parse("0.5s").seconds == 0.5 and parse(".5s").seconds == 0.5
    assert parse("4:g0.02:mix0.7:h40").least_gain == 0.02


def test_nothing_after_the_colon_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(BadBudget, match="nothing after the colon"):
        make_bot("mcts:", 1, "one-hour-dark-ages")
    make_bot("mcts", 1, "one-hour-dark-ages")  # (plain mcts: the rule system's default)
    assert run(["battle", "knight-hack/bourgtheroulde-1124", "--red", "mcts:²", "--blue", "random"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "Traceback" not in err
