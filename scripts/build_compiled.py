#!/usr/bin/env python3
"""Compile the engine's hot modules with mypyc, in place (optional; issue 16, docs/performance.md "mypyc").

    .venv/bin/python scripts/build_compiled.py           # build, unless the build is up to date
    .venv/bin/python scripts/build_compiled.py --force   # build even when up to date (or failed before)
    .venv/bin/python scripts/build_compiled.py --check   # exit 0 when up to date, 1 when not
    .venv/bin/python scripts/build_compiled.py --clean   # remove the compiled modules: pure Python

``python3 scripts/dev.py ...`` runs it after installing (a build that is up to date costs a hash of
the sources). The C extensions land beside their ``.py`` files (git-ignored), mypyc's C files, the
compiler's objects and its output in ``build/mypyc/`` (the log: ``build/mypyc/build.log``).
Python imports an extension before a ``.py`` of the same name; ``SHIELDWALL_PURE=1`` (and a
build older than its sources) makes the package import the ``.py`` files instead
(``shieldwall.compiled``).

Where the build cannot be made (no C compiler or Python headers, mypyc missing, a module mypyc
rejects) the script prints one line saying so, removes what it made, remembers the failure for
these sources (no retry on every run: ``--force`` retries) and exits 1: shieldwall runs as pure
Python. Needs mypy (with mypyc, the ``dev`` extra) and setuptools in the running interpreter.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
BUILD = ROOT / "build" / "mypyc"
LOG = BUILD / "build.log"
FAILED = BUILD / "failed.json"

sys.path.insert(0, str(SRC))
from shieldwall import compiled  # noqa: E402  (the manifest's place, the group's name)

#: the modules compiled (paths under src/): where scripted battles spend their time.
#: One-Hour (docs/performance.md, "mypyc, measured"): the first four give the whole gain measured on
#: bryn-glas (compiling menus, act_move, act_common, actions, combat and core/terrain as well added
#: nothing measurable); ``spatial`` was since split in three (line of sight in ``sight``, terrain
#: questions in ``terrain_checks``), all compiled. rulesets/one_hour/model.py: its ``Unit`` a native
#: class, the compiled modules reading its fields directly (its ``__setattr__`` journal kept,
#: compiled; ``clone`` the constructor; ``__reduce__`` for copies and pickles): tried on 26 November
#: and dropped on wall-clock runs at load 16-21 that could not tell (0.87-1.10x), kept on 27
#: November (night) on callgrind's count: 5.0% fewer instructions for 10 bryn-glas battles and a DBM one
#: (docs/performance.md, "Objects read as numbers"); rulesets/one_hour/menus.py (the move menu's
#: candidates, 1.6% fewer instructions there: its calls of the compiled modules become native
#: calls). Not compilable as they
#: stand: core/dice.py (``__radd__ = __add__`` in a Mapping subclass fails at run time) and
#: rulesets/one_hour/state.py (mypyc 2.4.1 crashes on it; it also copies itself through
#: ``__dict__``, which a native class has not).
#: core/reference.py (the reference switch: compiled, ``REFERENCE.on`` is a C static and a field for
#: the compiled modules; docs/performance.md, "Into the Dark at its own size").
#: Into the Dark (docs/performance.md, "Into the Dark, seventh slice: mypyc"), measured on senlac
#: against the build of the first four: its unit model, movement, contacts, terrain grid and spatial
#: checks 1.19x; with the plans, zones of control, charges, memos and the scripted general 1.22-1.31x;
#: with the menus, act_retreat, shooting, act_move, turns and actions 1.32x (1.11x over the set
#: before); plain_copy (the state's copy of its plain data, new for this) 1.02x more; the 25 modules
#: 1.39x (senlac) and 1.41x (wye-fords); spec_traits (an army entry's derived values kept, 27 November)
#: 2.2% fewer instructions on scripted v random battles; fighting, morale_rolls, combat, act_form and
#: move_ends (28 November: 2.3% fewer instructions on senlac; docs/performance.md "Lengths measured
#: only where they are close"). Not compilable as they stand: into_the_dark/morale.py (its situations
#: are made through their ``__dict__`` by situation_values: a native class has none), into_the_dark/army.py
#: (pydantic models: mypyc's C does not build) and into_the_dark/state.py (mypyc 2.4.1 crashes on
#: it, its class kept a Python class: an internal AssertionError at ``self.__dict__.get``). Tests
#: that patch these modules' internals run on the ``.py`` sources (tests/python_sources.py,
#: the ``python_sources`` marker).
#: DBM (docs/performance.md, "DBM: the search's board compiled"): its spatial grid, geometry, close
#: combat, combat scores, group moves (1.22x fewer instructions a searched decision, with the grid's
#: kept answers; ``Grid.near`` alone was a quarter of the time), then its moves, outcome moves, rear
#: support, shooting and aftermath (1.09x more, with ``Element.at`` made directly); then its board,
#: nearest-enemy memos, plan and march memos, menu and turn (1.10x more: "DBM: the board, menus and
#: turn compiled"; the tests that patch them run on DBM's sources, ``python_sources``). Its state
#: (a subclass of the core's abstract ``State``) and bots (subclassed by plans) stay Python.
#: SPI Dark Ages (28 November, eleventh session; docs/performance.md "SPI Dark Ages compiled"): the hex
#: grid (core/hexgrid) and SPI's movement checks, menus and turn, and attack allocation: where its
#: search's playouts spend their time; its board (``Board`` and ``Unit`` native classes, copied and
#: pickled field by field); then its bot and hex map too. One-Hour's act modules (``act_move``,
#: ``act_charge``, ``act_shoot``, ``act_melee``, ``act_common``, ``actions``; same session): their
#: writes of a unit's fields go through the unit's own setters (``Unit.set_fp``, ...: a write from
#: another compiled module would skip ``Unit.__setattr__`` and its journal,
#: tests/plugins/test_compiled_setattr.py); 1.4% fewer instructions on 10 bryn-glas battles. SPI's
#: combat, resolve, fire and morale (the CRT and its strengths, for the search's playouts to the end);
#: its plans (their bot subclasses the compiled scripted bot: an interpreted class may not).
#: Knight Hack (28 November, twelfth session; docs/performance.md "Knight Hack compiled in part"): its
#: geometry, the turn's phases, casualties, melee factors and the scripted bot with its reckoning,
#: the code its battles and its search's playouts to the end run; its board, units and state stay
#: Python (the state copies the board with ``copy.deepcopy``; the units keep a memo in ``__dict__``).
#: A package's ``__init__.py`` (its bot) compiles as the package's module. Its view's unit entries
#: (``unit_view``) and its units' formation (``formation``), thirteenth session: docs/performance.md
#: "Knight Hack's view".
MODULES = [
    "shieldwall/core/geometry.py",
    "shieldwall/core/polygons.py",
    "shieldwall/core/crossings.py",
    "shieldwall/core/geometry_index.py",
    "shieldwall/core/reference.py",
    "shieldwall/rulesets/one_hour/spatial.py",
    "shieldwall/rulesets/one_hour/sight.py",
    "shieldwall/rulesets/one_hour/terrain_checks.py",
    "shieldwall/rulesets/one_hour/bots/general.py",
    "shieldwall/rulesets/one_hour/model.py",
    "shieldwall/rulesets/one_hour/menus.py",
    "shieldwall/rulesets/into_the_dark/model.py",
    "shieldwall/rulesets/into_the_dark/spec_traits.py",
    "shieldwall/rulesets/into_the_dark/movement.py",
    "shieldwall/rulesets/into_the_dark/contacts.py",
    "shieldwall/rulesets/into_the_dark/terrain_grid.py",
    "shieldwall/rulesets/into_the_dark/spatial.py",
    "shieldwall/rulesets/into_the_dark/moves.py",
    "shieldwall/rulesets/into_the_dark/act_zoc.py",
    "shieldwall/rulesets/into_the_dark/charge_plan.py",
    "shieldwall/rulesets/into_the_dark/charging.py",
    "shieldwall/rulesets/into_the_dark/plan_memo.py",
    "shieldwall/rulesets/into_the_dark/view_memo.py",
    "shieldwall/rulesets/into_the_dark/bots/general.py",
    "shieldwall/rulesets/into_the_dark/bots/reckoning.py",
    "shieldwall/rulesets/into_the_dark/bots/nearest.py",
    "shieldwall/rulesets/into_the_dark/menus.py",
    "shieldwall/rulesets/into_the_dark/act_retreat.py",
    "shieldwall/rulesets/into_the_dark/shooting.py",
    "shieldwall/rulesets/into_the_dark/act_move.py",
    "shieldwall/rulesets/into_the_dark/turns.py",
    "shieldwall/rulesets/into_the_dark/actions.py",
    "shieldwall/rulesets/into_the_dark/plain_copy.py",
    "shieldwall/rulesets/into_the_dark/fighting.py",
    "shieldwall/rulesets/into_the_dark/morale_rolls.py",
    "shieldwall/rulesets/into_the_dark/combat.py",
    "shieldwall/rulesets/into_the_dark/act_form.py",
    "shieldwall/rulesets/into_the_dark/move_ends.py",
    "shieldwall/rulesets/dbm/spatial.py",
    "shieldwall/rulesets/dbm/geom.py",
    "shieldwall/rulesets/dbm/melee.py",
    "shieldwall/rulesets/dbm/combat.py",
    "shieldwall/rulesets/dbm/advance.py",
    "shieldwall/rulesets/dbm/moves.py",
    "shieldwall/rulesets/dbm/outmoves.py",
    "shieldwall/rulesets/dbm/support.py",
    "shieldwall/rulesets/dbm/shooting.py",
    "shieldwall/rulesets/dbm/aftermath.py",
    "shieldwall/rulesets/dbm/board.py",
    "shieldwall/rulesets/dbm/nearest.py",
    "shieldwall/rulesets/dbm/plan_memo.py",
    "shieldwall/rulesets/dbm/march_memo.py",
    "shieldwall/rulesets/dbm/menu.py",
    "shieldwall/rulesets/dbm/turn.py",
    "shieldwall/core/hexgrid.py",
    "shieldwall/rulesets/spi_dark_ages/movement.py",
    "shieldwall/rulesets/spi_dark_ages/turn.py",
    "shieldwall/rulesets/spi_dark_ages/alloc.py",
    "shieldwall/rulesets/spi_dark_ages/board.py",
    "shieldwall/rulesets/spi_dark_ages/bots.py",
    "shieldwall/rulesets/spi_dark_ages/hexmap.py",
    "shieldwall/rulesets/one_hour/act_move.py",
    "shieldwall/rulesets/one_hour/act_charge.py",
    "shieldwall/rulesets/one_hour/act_shoot.py",
    "shieldwall/rulesets/one_hour/act_melee.py",
    "shieldwall/rulesets/one_hour/act_common.py",
    "shieldwall/rulesets/one_hour/actions.py",
    "shieldwall/rulesets/spi_dark_ages/combat.py",
    "shieldwall/rulesets/spi_dark_ages/resolve.py",
    "shieldwall/rulesets/spi_dark_ages/fire.py",
    "shieldwall/rulesets/spi_dark_ages/morale.py",
    "shieldwall/rulesets/spi_dark_ages/plans.py",
    "shieldwall/rulesets/knight_hack/geom.py",
    "shieldwall/rulesets/knight_hack/phase_move.py",
    "shieldwall/rulesets/knight_hack/phase_charge.py",
    "shieldwall/rulesets/knight_hack/phase_melee.py",
    "shieldwall/rulesets/knight_hack/turn.py",
    "shieldwall/rulesets/knight_hack/casualties.py",
    "shieldwall/rulesets/knight_hack/factors.py",
    "shieldwall/rulesets/knight_hack/bots/__init__.py",
    "shieldwall/rulesets/knight_hack/bots/reckoning.py",
    "shieldwall/rulesets/knight_hack/unit_view.py",
    "shieldwall/rulesets/knight_hack/formation.py",
]


def _module_file(name: str) -> Path | None:
    base = SRC / Path(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _imports(path: Path) -> set[str]:
    """The shieldwall modules ``path`` imports (at any level, TYPE_CHECKING blocks included)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return {n for n in names if n == "shieldwall" or n.startswith("shieldwall.")}


def sources() -> list[Path]:
    """The compiled modules and every shieldwall module they import, transitively (mypyc compiles
    against their types: a change to any of them makes the build stale)."""
    todo = [SRC / m for m in MODULES]
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in _imports(path):
            parts = name.split(".")
            for i in range(2, len(parts) + 1):  # the package __init__s on the way, and the module
                found = _module_file(".".join(parts[:i]))
                if found is not None and found not in seen:
                    todo.append(found)
    return sorted(seen)


def digests() -> dict[str, str]:
    return {str(p.relative_to(SRC)): compiled.file_digest(p) for p in sources()}


def _outputs(src: Path = SRC) -> list[Path]:
    """Every extension file a build may have left (any interpreter's suffix): the stub of every
    module beside its ``.py`` source, whether or not ``MODULES`` still lists it (a stub left by a
    module taken off the list would be imported in place of the source and fail, its group gone)."""
    out: list[Path] = []
    for path in sorted((src / "shieldwall").rglob("*")):
        if path.suffix in (".so", ".pyd") and path.with_name(path.name.split(".")[0] + ".py").is_file():
            out.append(path)
    stem = compiled.GROUP.rsplit(".", 1)[-1] + "__mypyc"
    out.extend(p for p in (src / "shieldwall").glob(stem + ".*") if p.suffix in (".so", ".pyd"))
    return out


def clean() -> None:
    compiled.MANIFEST.unlink(missing_ok=True)
    for path in _outputs():
        path.unlink()


def built_modules() -> list[str] | None:
    """The modules the build's manifest says were compiled (None without a readable manifest)."""
    try:
        modules = json.loads(compiled.MANIFEST.read_text(encoding="utf-8"))["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return modules if isinstance(modules, list) else None


def up_to_date() -> bool:
    """A build for this interpreter, of these ``MODULES`` (a module added makes it out of date),
    from the sources as they are."""
    return (
        compiled.shared_library() is not None and built_modules() == MODULES and not compiled.stale_sources()
    )


def _parallel_build_ext() -> type:
    """setuptools' ``build_ext`` with the C files of one extension compiled side by side, on every
    core, biggest first (setuptools compiles one file after another; its ``--parallel`` spreads
    extensions, and the group is one extension). Where the compiler lacks distutils' private steps
    used here, the files are compiled the usual way, one by one."""
    from concurrent.futures import ThreadPoolExecutor

    from setuptools.command.build_ext import build_ext

    class ParallelBuildExt(build_ext):  # type: ignore[misc]  # setuptools' classes are untyped
        def build_extensions(self) -> None:
            cc = self.compiler
            steps = ("_setup_compile", "_get_cc_args", "_compile")
            if all(hasattr(cc, step) for step in steps):

                def compile_all(
                    sources: list[str],
                    output_dir: str | None = None,
                    macros: object = None,
                    include_dirs: object = None,
                    debug: int = 0,
                    extra_preargs: object = None,
                    extra_postargs: object = None,
                    depends: object = None,
                ) -> list[str]:
                    macros, objects, extra_postargs, pp_opts, build = cc._setup_compile(
                        output_dir, macros, include_dirs, sources, depends, extra_postargs
                    )
                    cc_args = cc._get_cc_args(pp_opts, debug, extra_preargs)

                    def one(obj: str) -> None:
                        src, ext = build[obj]
                        cc._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

                    order = sorted(
                        (o for o in objects if o in build), key=lambda o: -os.path.getsize(build[o][0])
                    )
                    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
                        list(pool.map(one, order))  # list(): the first failure is raised here
                    return list(objects)

                cc.compile = compile_all
            super().build_extensions()

    return ParallelBuildExt


def _compile_child() -> int:
    """In src/: mypycify the modules and build them in place (output: the log).

    ``multi_file``: one C file a module instead of one for the group (25 MB), so the files compile
    side by side (:func:`_parallel_build_ext`): the build took 290 s in CI with one file, 105 s
    with a file a module on this 2-core machine, and its code runs the same instructions
    (docs/performance.md, "mypyc: one C file a module"). mypyc writes the group's headers beside the
    group's own C file, in a folder named after the package, which the module files' includes do not
    search: that folder is added."""
    from mypyc.build import mypycify
    from setuptools import setup

    ext_modules = mypycify(
        ["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(BUILD / "mypy_cache"), *MODULES],
        opt_level="3",
        target_dir=str(BUILD / "c"),
        group_name=compiled.GROUP,
        multi_file=True,
    )
    headers = str(BUILD / "c" / Path(*compiled.GROUP.split(".")[:-1]))
    for ext in ext_modules:
        ext.include_dirs.append(headers)
    setup(
        name="shieldwall-compiled",
        cmdclass={"build_ext": _parallel_build_ext()},
        packages=[],
        py_modules=[],
        ext_modules=ext_modules,
        script_args=["build_ext", "--inplace", "--build-temp", str(BUILD / "temp")]
        + ["--build-lib", str(BUILD / "lib")],
    )
    return 0


def _loads() -> str:
    """Import the compiled modules in a fresh process: '' when they load compiled, else why not."""
    code = (
        "import importlib, shieldwall.compiled as c\n"
        f"for m in {[m[:-3].replace('/', '.').removesuffix('.__init__') for m in MODULES]!r}: "
        "importlib.import_module(m)\n"
        "print(c.mode(), len(c.compiled_modules()))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != compiled.ENV}
    env["PYTHONPATH"] = str(SRC)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    if done.returncode != 0:
        return (done.stderr.strip().splitlines() or ["no output"])[-1]
    if done.stdout.split() != ["compiled", str(len(MODULES))]:
        return f"the modules did not load compiled ({done.stdout.strip()})"
    return ""


def build(force: bool) -> int:
    now = digests()
    if not force and up_to_date():
        return 0
    if not force and FAILED.is_file():
        try:
            failed_for = json.loads(FAILED.read_text(encoding="utf-8"))
        except ValueError:
            failed_for = None
        if failed_for == now:
            print(
                f"note: the compiled build failed before for these sources ({LOG.relative_to(ROOT)}); "
                "pure Python (scripts/build_compiled.py --force retries)",
                flush=True,
            )
            return 1
    print(f"compiling {len(MODULES)} modules with mypyc (a few minutes) ... ", end="", flush=True)
    start = time.monotonic()
    clean()
    FAILED.unlink(missing_ok=True)
    BUILD.mkdir(parents=True, exist_ok=True)
    with LOG.open("w", encoding="utf-8") as log:
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--compile-child"],
            cwd=SRC,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    why = ""
    if done.returncode != 0:
        lines = [ln for ln in LOG.read_text(encoding="utf-8", errors="replace").splitlines() if ln.strip()]
        errors = [ln for ln in lines if "error" in ln.lower()]
        why = (errors or lines or [f"exit {done.returncode}"])[-1].strip()[:160]
    else:
        manifest = {"modules": MODULES, "sources": now}
        compiled.MANIFEST.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        why = _loads()
    if why:
        clean()
        FAILED.write_text(json.dumps(now, sort_keys=True) + "\n", encoding="utf-8")
        print(
            f"failed: {why} ({LOG.relative_to(ROOT)}); shieldwall runs as pure Python",
            flush=True,
        )
        return 1
    print(
        f"done in {time.monotonic() - start:.0f} s (SHIELDWALL_PURE=1 selects the Python sources)",
        flush=True,
    )
    return 0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    what = ap.add_mutually_exclusive_group()
    what.add_argument("--force", action="store_true", help="build even when up to date or failed before")
    what.add_argument("--check", action="store_true", help="exit 0 when the build is up to date, 1 when not")
    what.add_argument("--clean", action="store_true", help="remove the compiled modules")
    what.add_argument("--compile-child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.compile_child:
        return _compile_child()
    if args.check:
        ok = up_to_date()
        print("the compiled build is up to date" if ok else "the compiled build is missing or stale")
        return 0 if ok else 1
    if args.clean:
        clean()
        return 0
    try:
        import mypyc.build  # noqa: F401
        import setuptools  # noqa: F401
    except ImportError as e:
        print(f"note: no compiled build ({e}); shieldwall runs as pure Python", flush=True)
        return 1
    return build(args.force)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
