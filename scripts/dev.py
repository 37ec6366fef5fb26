#!/usr/bin/env python3
"""Set-up and run shieldwall on a fresh machine with only Python 3.11+ and the package registries.

    python3 scripts/dev.py battle [ARGS...]   create .venv, install, run an AI-vs-AI battle
    python3 scripts/dev.py test [PYTEST ARGS] create .venv, install, run the whole test suite
    python3 scripts/dev.py run CMD [ARGS...]  run any shieldwall command in the venv

The venv is (re)installed when pyproject.toml changes. Standard library only.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")


def ensure_env() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - this script may be started by an older python3
        sys.exit(f"shieldwall needs Python 3.11 or newer (this is {sys.version.split()[0]})")
    if not (BIN / "python").exists():
        print("creating virtual environment .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()[:16]
    stamp = VENV / f".installed-{digest}"
    if not stamp.exists():
        print("installing shieldwall and its pinned dependencies (first run only) ...", flush=True)
        subprocess.check_call([str(BIN / "python"), "-m", "pip", "install", "-q", "--upgrade", "pip"])
        subprocess.check_call([str(BIN / "python"), "-m", "pip", "install", "-q", "-e", f"{ROOT}[dev]"])
        for old in VENV.glob(".installed-*"):
            old.unlink()
        stamp.write_text("ok\n")


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("battle", "test", "run"):
        print(__doc__)
        return 2
    ensure_env()
    cmd, rest = argv[0], argv[1:]
    if cmd == "battle":
        return subprocess.call([str(BIN / "shieldwall"), "battle", *rest], cwd=ROOT)
    if cmd == "test":
        # both cores by default (pytest-xdist); pass your own -n to change it
        par = (
            [] if any(a == "-n" or a.startswith("-n") for a in rest) else ["-n", "auto", "--dist", "loadfile"]
        )
        return subprocess.call([str(BIN / "python"), "-m", "pytest", *par, *rest], cwd=ROOT)
    return subprocess.call([str(BIN / "shieldwall"), *rest], cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
