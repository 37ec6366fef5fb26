#!/usr/bin/env python3
"""Find import cycles among the modules of src/shieldwall (standard library only).

    python scripts/import_cycles.py                                  # every module of shieldwall
    python scripts/import_cycles.py shieldwall.rulesets.into_the_dark  # only cycles inside a package
    python scripts/import_cycles.py --src DIR [PREFIX]               # another source tree
    python scripts/import_cycles.py --type-checking [PREFIX]         # count TYPE_CHECKING imports too

Every ``import`` and ``from ... import`` is counted, wherever it is: at the top of a module, inside
a function or inside ``try``. The one exception is an import under ``if TYPE_CHECKING:`` (or
``if typing.TYPE_CHECKING:``), which never runs (``--type-checking`` counts those too). Imports by
name at run time (``importlib.import_module``, entry points) are not seen. Relative imports are
resolved against the importing module. ``from pkg import name`` counts as an import of ``pkg.name``
when that is a module, otherwise of ``pkg``. Importing ``a.b.c`` also runs ``a/__init__`` and
``a/b/__init__``, but those edges are left out: a package ``__init__`` that imports nothing of its
children cannot close a cycle, and one that does shows its own edges.

With a PREFIX only modules whose dotted name is PREFIX or starts with ``PREFIX.`` are graphed.
Prints each strongly connected component of two or more modules (or one module importing itself),
with the edges inside it, and exits 1 if there is any; exits 0 and says so otherwise.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP = "shieldwall"


def module_names(src: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file under ``src/shieldwall``."""
    found: dict[str, Path] = {}
    for path in sorted((src / TOP).rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _imports(tree: ast.AST, type_checking: bool = False) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import node in ``tree``; those in ``if TYPE_CHECKING:`` blocks only if ``type_checking``."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
            continue
        if not type_checking and isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)  # the else branch does run
            continue
        stack.extend(ast.iter_child_nodes(node))


def _base(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute dotted name a ``from X import ...`` refers to."""
    if node.level == 0:
        return node.module or ""
    parts = module.split(".")
    if not is_package:
        parts.pop()
    if node.level > 1:
        parts = parts[: len(parts) - (node.level - 1)]
    if node.module:
        parts.append(node.module)
    return ".".join(parts)


def edges_of(module: str, path: Path, known: dict[str, Path], type_checking: bool = False) -> set[str]:
    """The shieldwall modules ``module`` (stored at ``path``) imports, at any depth in its code."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    targets: set[str] = set()
    for node in _imports(tree, type_checking):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    targets.add(alias.name)
            continue
        base = _base(module, is_package, node)
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            if sub in known:
                targets.add(sub)
            elif base in known:
                targets.add(base)
    return targets


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative; components in no particular order, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    result: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                result.append(sorted(component))
    return result


def cycles(
    src: Path, prefix: str = "", type_checking: bool = False
) -> tuple[dict[str, set[str]], list[list[str]]]:
    """The import graph (limited to ``prefix``) and its cyclic components, largest first."""
    known = module_names(src)

    def inside(name: str) -> bool:
        return not prefix or name == prefix or name.startswith(prefix + ".")

    graph = {
        name: {t for t in edges_of(name, path, known, type_checking) if inside(t)}
        for name, path in known.items()
        if inside(name)
    }
    found = [c for c in strongly_connected(graph) if len(c) > 1 or c[0] in graph[c[0]]]
    found.sort(key=lambda c: (-len(c), c))
    return graph, found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("prefix", nargs="?", default="", help="only modules under this package")
    parser.add_argument("--src", default=str(ROOT / "src"), help="source root holding shieldwall/")
    parser.add_argument(
        "--type-checking", action="store_true", help="count imports under 'if TYPE_CHECKING:' too"
    )
    args = parser.parse_args(argv)
    src = Path(args.src)
    if not (src / TOP).is_dir():
        print(f"import_cycles: no {TOP}/ package under {src}", file=sys.stderr)
        return 2
    graph, found = cycles(src, args.prefix, args.type_checking)
    if not graph:
        print(f"import_cycles: no module matches {args.prefix!r}", file=sys.stderr)
        return 2
    where = args.prefix or TOP
    if not found:
        print(f"no import cycles among {len(graph)} modules of {where}")
        return 0
    for n, component in enumerate(found, 1):
        members = set(component)
        print(f"cycle {n}: {len(component)} modules")
        for name in component:
            inner = sorted(graph[name] & members)
            print(f"  {name} -> {', '.join(inner)}")
    print(f"{len(found)} import cycle(s) among {len(graph)} modules of {where}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
