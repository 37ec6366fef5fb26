"""The examples of docs/agents.md run, and the docs name the encoding the code uses."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shieldwall.agents import MAX_ACTIONS
from shieldwall.agents.encoding import GLOBAL, UNIT

DOC = Path(__file__).resolve().parents[2] / "docs" / "agents.md"


def _examples() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## Examples") : text.index("## The search bot")]
    return re.findall(r"```python\n(.*?)```", section, re.S)


@pytest.mark.parametrize("index", [0, 1])
def test_the_examples_run(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    blocks = _examples()
    assert len(blocks) == 2
    exec(compile(blocks[index], f"docs/agents.md example {index + 1}", "exec"), {})
    out = capsys.readouterr().out
    assert "reward" in out


def test_the_openspiel_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel")
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## OpenSpiel") : text.index("## Not yet")]
    (block,) = re.findall(r"```python\n(.*?)```", section, re.S)
    exec(compile(block, "docs/agents.md OpenSpiel example", "exec"), {})
    assert capsys.readouterr().out.startswith("returns [")


def test_the_docs_state_the_encoding_sizes() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert f"`{GLOBAL} + max_units * {UNIT}`" in text
    assert f"`max_actions = {MAX_ACTIONS}`" in text
    assert "## Not yet" in text
