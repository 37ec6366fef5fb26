"""A script or benchmark of the repository (a file, not a package module) loaded as a module, for
its tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load(relative: str) -> ModuleType:
    """The file ``relative`` (to the repository's root) run as a module named after its stem."""
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
