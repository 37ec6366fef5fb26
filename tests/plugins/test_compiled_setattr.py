"""No compiled module writes a field of a compiled class that watches its writes (issue 16).

One-Hour's ``Unit`` has a ``__setattr__`` that journals every change (an order undone, the state's
caches told). mypyc (2.4.1) honours it in the class's own module (its methods call it) and for
interpreted code (the class's ``tp_setattro``), but a *different* compiled module assigning
``u.charged = True`` writes the C struct's field directly: the journal is skipped, an undone order
leaves the flag set, and the battle changes. It was found on 28 November 2026: compiling One-Hour's
``act_move``, ``act_common``, ``actions`` and ``act_charge`` kept 3 of 30 event hashes; the log of
bryn-glas seed 100 showed a cavalry unit that had charged shooting in the same turn (its
``charged`` set past the journal by ``act_charge``'s ``u.charged = True``, in the generated C
``->_charged = 1``; docs/performance.md, "A write past the journal").

The check reads the sources (``ast``): for every class of a compiled module (``MODULES`` of
``scripts/build_compiled.py``) that defines ``__setattr__``, every *other* compiled module that
imports the class's module may not assign (``=``, ``+=``, ``x: T = ``) an attribute named as one
of the class's fields, except on ``self`` (its own class's field). It is a name check, so it errs
on the safe side: a write to another class's field of the same name is flagged too, to be renamed
or moved. The act modules are compiled since 28 November (eleventh session): their writes go through
the unit's own setters (``Unit.set_fp``, ``Unit.set_charged``, ...), whose ``self.x = v`` in the class's
module calls ``__setattr__``.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"


def _modules() -> list[str]:
    spec = importlib.util.spec_from_file_location("build_compiled", ROOT / "scripts" / "build_compiled.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return list(mod.MODULES)


def _dotted(rel: str) -> str:
    return rel.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def _watched(trees: dict[str, ast.Module]) -> dict[str, set[str]]:
    """Per compiled module, the fields of its classes that define ``__setattr__``."""
    out: dict[str, set[str]] = {}
    for rel, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            if not any(isinstance(b, ast.FunctionDef) and b.name == "__setattr__" for b in node.body):
                continue
            fields = {
                b.target.id
                for b in node.body
                if isinstance(b, ast.AnnAssign) and isinstance(b.target, ast.Name)
            }
            out.setdefault(_dotted(rel), set()).update(fields)
    return out


def _imports(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def hazards(modules: list[str], texts: dict[str, str] | None = None) -> list[str]:
    """``module:line target`` for every write of a watched field from another compiled module
    (``texts``: sources to read in place of some modules' files, for the positive control)."""
    given = texts or {}
    trees = {rel: ast.parse(given.get(rel) or (SRC / rel).read_text(encoding="utf-8")) for rel in modules}
    watched = _watched(trees)
    found: list[str] = []
    for rel, tree in trees.items():
        here = _dotted(rel)
        fields: set[str] = set()
        for owner, names in watched.items():
            if owner != here and owner in _imports(tree):
                fields |= names
        if not fields:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            else:
                continue
            for target in targets:
                for sub in ast.walk(target):
                    if (
                        isinstance(sub, ast.Attribute)
                        and isinstance(sub.ctx, ast.Store)
                        and sub.attr in fields
                        and not (isinstance(sub.value, ast.Name) and sub.value.id == "self")
                    ):
                        found.append(f"{rel}:{node.lineno} {ast.unparse(sub)}")
    return found


def test_no_compiled_module_writes_a_watched_field_past_its_setattr() -> None:
    modules = _modules()
    assert "shieldwall/rulesets/one_hour/model.py" in modules  # the watched class is compiled
    assert hazards(modules) == [], (
        "a compiled module assigns a field of a compiled class with __setattr__ from outside the "
        "class's module: mypyc writes the C field directly and skips __setattr__ (this test's docstring)"
    )


def test_the_check_flags_the_act_modules_writes_that_changed_the_battles() -> None:
    """The positive control: One-Hour's ``act_charge`` and ``act_move`` are compiled, their writes
    made through the unit's own setters (``Unit.set_charged``, ...); put back as the plain writes
    found on 28 November (``u.charged = True``, ``u.activated = True``), they are flagged (and a
    module writing only its own ``self`` fields is not)."""
    charge, move = "shieldwall/rulesets/one_hour/act_charge.py", "shieldwall/rulesets/one_hour/act_move.py"
    modules = _modules()
    assert charge in modules and move in modules
    texts = {
        charge: (SRC / charge).read_text(encoding="utf-8").replace("u.set_charged(True)", "u.charged = True"),
        move: (SRC / move).read_text(encoding="utf-8").replace("u.set_activated(True)", "u.activated = True"),
    }
    assert all(t != (SRC / rel).read_text(encoding="utf-8") for rel, t in texts.items())
    found = hazards(modules, texts)
    assert any(f.startswith(f"{charge}:") and f.endswith(" u.charged") for f in found)
    assert any(f.startswith(f"{move}:") and f.endswith(" u.activated") for f in found)
    assert not any("bots/general.py" in f for f in found)  # its own classes' self.fp
    # without the watched class's module compiled nothing is watched
    assert hazards([m for m in modules if not m.endswith("one_hour/model.py")], texts) == []
