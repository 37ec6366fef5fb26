#!/usr/bin/env python3
"""Set-up and run shieldwall on a fresh machine with only Python 3.11+ and the package registries.

    python3 scripts/dev.py battle [ARGS...]   create .venv, install, run an AI-vs-AI battle
    python3 scripts/dev.py test [PYTEST ARGS] create .venv, install, run the checks, then the whole test suite
    python3 scripts/dev.py test --no-lint [PYTEST ARGS]
                                              skip the checks: only pytest (a quick local run)
    python3 scripts/dev.py lint               only the checks
    python3 scripts/dev.py run CMD [ARGS...]  run any shieldwall command in the venv

The checks run in this order, one line each, and the first that fails stops the run with its output
(this is what CI runs, .ci/run; CONTRIBUTING.md explains each):

    ruff check src tests scripts benchmarks
    ruff format --check src tests scripts benchmarks
    mypy                                      strict, on the files pyproject.toml names
    lint-imports                              the import contracts in pyproject.toml

then pytest (both cores by default; pass your own -n to change it).

The venv is (re)installed when pyproject.toml changes. Then the engine's hot modules are compiled
with mypyc (scripts/build_compiled.py; again when their sources change): where that cannot be done
(no C compiler) one line says so and shieldwall runs as pure Python. SHIELDWALL_PURE=1 skips the
build and runs the Python sources. Standard library only.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
#: where the checks' and the tests' Python processes keep their compiled bytecode (and pytest its
#: assertion-rewritten test modules), outside the checkout
PYCACHE = VENV / "pycache"


def run_env() -> dict[str, str]:
    """The environment of the checks and of pytest: this one, with compiled bytecode kept under
    :data:`PYCACHE`, even where ``PYTHONDONTWRITEBYTECODE`` is set (it is there to keep the checkout
    clean, which the prefix does). Without a place to write it, every pytest-xdist worker compiled
    and assertion-rewrote all 600 test modules at every run (collection: 12-13.5 s of CPU a worker
    against 3.8 s with the bytecode kept), and every ``shieldwall`` subprocess compiled the package."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.setdefault("PYTHONPYCACHEPREFIX", str(PYCACHE))
    return env


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
    build_compiled()


def build_compiled() -> None:
    """The optional compiled build of the engine's hot modules (scripts/build_compiled.py; docs/
    performance.md, "mypyc"): made when missing, remade when its sources changed, silent when up to
    date. Where it cannot be made (no C compiler) it prints one line and shieldwall runs as pure
    Python. Skipped under SHIELDWALL_PURE=1 (that process imports the Python sources anyway)."""
    if os.environ.get("SHIELDWALL_PURE", "").strip().lower() not in ("", "0", "false", "no", "off"):
        return
    subprocess.call([str(BIN / "python"), str(ROOT / "scripts" / "build_compiled.py")], cwd=ROOT)


#: the paths ruff looks at
LINTED = ["src", "tests", "scripts", "benchmarks"]


def checks() -> list[tuple[str, list[str]]]:
    """(what the log line says, the command): the static checks, in the order they run."""
    py = str(BIN / "python")
    return [
        (f"ruff check {' '.join(LINTED)}", [py, "-m", "ruff", "check", "--no-fix", *LINTED]),
        (f"ruff format --check {' '.join(LINTED)}", [py, "-m", "ruff", "format", "--check", *LINTED]),
        ("mypy (strict, files from pyproject.toml)", [py, "-m", "mypy"]),
        (
            "lint-imports (import contracts from pyproject.toml)",
            [str(BIN / "lint-imports"), "--no-cache", "--no-logo"],
        ),
        (
            "clause tables (scripts/clause_table.py --check, every rule system)",
            [py, str(ROOT / "scripts" / "clause_table.py"), "--check"],
        ),
    ]


def run_checks() -> int:
    """Run the checks in order; print one line each; stop at the first failure, showing its output."""
    todo = checks()
    for i, (label, command) in enumerate(todo, 1):
        print(f"check {i}/{len(todo)}: {label} ... ", end="", flush=True)
        start = time.monotonic()
        # captured output is not a terminal: give rich-based tools (lint-imports) a log's width
        env = {"COLUMNS": "120", **run_env()}
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)
        took = time.monotonic() - start
        if done.returncode != 0:
            print(f"FAILED ({took:.1f} s)", flush=True)
            sys.stdout.write(done.stdout)
            sys.stdout.write(done.stderr)
            print(
                f"\nstopped: '{label}' failed (exit {done.returncode}); "
                "`python3 scripts/dev.py test --no-lint` runs only the tests",
                flush=True,
            )
            return done.returncode
        print(f"ok ({took:.1f} s)", flush=True)
    return 0


def warm_up(rest: list[str]) -> subprocess.Popen[bytes]:
    """Start a collection of the tests the run will ask for (``pytest --collect-only``), beside the
    checks: it writes the bytecode of the test modules (assertion-rewritten), of shieldwall and of the
    libraries they import under :data:`PYCACHE`, on the core the checks leave idle. Without it, on a
    fresh checkout both pytest-xdist workers compiled all of it at once, each for itself (collection:
    about 7 s more CPU a worker cold than warm; docs/performance.md, "The test suite's time, eighth
    slice"). Its output is dropped: pytest's own run reports any collection error."""
    paths = [a for a in rest if not a.startswith("-") and (ROOT / a.split("::")[0]).exists()]
    command = [str(BIN / "python"), "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *paths]
    out = subprocess.DEVNULL
    return subprocess.Popen(command, cwd=ROOT, env=run_env(), stdout=out, stderr=out)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("battle", "test", "lint", "run"):
        print(__doc__)
        return 2
    ensure_env()
    cmd, rest = argv[0], argv[1:]
    if cmd == "battle":
        return subprocess.call([str(BIN / "shieldwall"), "battle", *rest], cwd=ROOT)
    if cmd == "lint":
        return run_checks()
    if cmd == "test":
        lint = "--no-lint" not in rest
        rest = [a for a in rest if a != "--no-lint"]
        if lint:
            warm = warm_up(rest)
            failed = run_checks()
            if failed:
                warm.kill()
            warm.wait()
            if failed:
                return failed
        # both cores by default (pytest-xdist); pass your own -n to change it. "worksteal", not
        # "loadfile": loadfile keys tests by node id, and Schemathesis's items share theirs (one per
        # API operation), so it ran 6 of tests/web/test_web_schema.py's 79 items
        own_n = any(a == "-n" or a.startswith("-n") for a in rest)
        par = [] if own_n else ["-n", "auto", "--dist", "worksteal"]
        command = [str(BIN / "python"), "-m", "pytest", *par, *rest]
        print(f"tests: pytest {shlex.join(command[3:])}", flush=True)
        return subprocess.call(command, cwd=ROOT, env=run_env())
    return subprocess.call([str(BIN / "shieldwall"), *rest], cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
