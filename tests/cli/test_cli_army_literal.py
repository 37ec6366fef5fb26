"""``army cost`` prints an army's name and units as they are (Rich would read ``[/x]`` as markup,
and crash, and ``:B:`` as an emoji code), for every rule system with army files: the rule systems'
own tables as well as the host's (found by an exploratory test of the command line)."""

from __future__ import annotations

from pathlib import Path

import pytest

from shieldwall.cli import run

ROOT = Path(__file__).resolve().parents[2]
NAME = "Host [/x] :B: [bold]b[/bold]"


@pytest.mark.parametrize(
    "army",
    [
        "src/shieldwall/rulesets/knight_hack/data/sample/armies/rebels-1124.toml",
        "scenarios/into-the-dark/armies/saxon-1066.toml",
    ],
)
def test_army_cost_prints_names_literally(
    army: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = (ROOT / army).read_text(encoding="utf-8").splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("name = "))
    lines[i] = 'name = "Host [/x] :B: [bold]b[/bold]"'
    f = tmp_path / "army.toml"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = run(["army", "cost", str(f)])
    out = capsys.readouterr()
    assert "Traceback" not in out.err and "MarkupError" not in out.err, out.err
    assert code in (0, 2) and NAME in out.out, (code, out.out[-500:], out.err[-500:])
