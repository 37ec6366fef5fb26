"""No import circles: every shieldwall module's imports (those inside functions too) form no cycle,
so each package reads as layers (``scripts/import_cycles.py``; import-linter checks the layers)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "import_cycles.py"


def test_no_import_cycles_in_shieldwall() -> None:
    p = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "no import cycles" in p.stdout


def test_the_checker_finds_a_cycle(tmp_path: Path) -> None:
    """The checker is not blind: two modules importing each other (one inside a function) are a cycle."""
    pkg = tmp_path / "shieldwall"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "a.py").write_text("from shieldwall import b\n", encoding="utf-8")
    (pkg / "b.py").write_text("def f():\n    from shieldwall.a import x\n", encoding="utf-8")
    p = subprocess.run(
        [sys.executable, str(SCRIPT), "--src", str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert p.returncode == 1, p.stdout + p.stderr
    assert "shieldwall.a" in p.stdout and "shieldwall.b" in p.stdout
