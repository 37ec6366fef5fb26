"""``scripts/build_compiled.py`` cleans every extension file a build may have left, including the stub
of a module no longer on its ``MODULES`` list (issue 16). Found on 28 November 2026: taking
``into_the_dark/morale.py`` off the list after a build left ``morale.cpython-311-...so`` beside the
source; the next build's clean did not remove it, and the import of the package failed ("module
'shieldwall._mypyc_group__mypyc' has no attribute 'init_..._morale'") instead of reading the source."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _build_script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "build_compiled_outputs", ROOT / "scripts" / "build_compiled.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_clean_finds_every_stub_beside_a_source_listed_or_not(tmp_path: Path) -> None:
    bc = _build_script()
    pkg = tmp_path / "shieldwall" / "rulesets" / "toy"
    pkg.mkdir(parents=True)
    for name in ("listed.py", "dropped.py", "plain.py", "notes.txt"):
        (pkg / name).write_text("")
    stubs = [pkg / "listed.cpython-311-x86_64-linux-gnu.so", pkg / "dropped.cpython-312-x86_64-linux-gnu.so"]
    other = [pkg / "orphan.cpython-311-x86_64-linux-gnu.so", pkg / "notes.txt"]  # no source of that name
    group = tmp_path / "shieldwall" / "_mypyc_group__mypyc.cpython-311-x86_64-linux-gnu.so"
    for path in (*stubs, *other, group):
        path.write_bytes(b"")
    found = set(bc._outputs(tmp_path))
    assert set(stubs) <= found and group in found
    assert not (set(other) & found)
