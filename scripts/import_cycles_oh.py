"""List the import cycles among the modules of src/shieldwall (standard library only).

Every module under src/shieldwall is parsed with ``ast``; every ``import`` and ``from ... import``
counts, at module level or inside a function, except those under ``if TYPE_CHECKING:`` (they never
run). Relative imports are resolved against the importing module. ``from pkg import name`` is an
import of the module ``pkg.name`` when that is a module, else of ``pkg``. An import of a package's
submodule counts as an import of that submodule only, not of its parent packages (as import-linter
counts them).

The cycles are the strongly connected components of that graph with more than one module (or a
module importing itself). For each one the script prints its modules, the imports inside it with
their line numbers, and one shortest cycle through it.

    python scripts/import_cycles_oh.py                                  # all of shieldwall
    python scripts/import_cycles_oh.py shieldwall.rulesets.one_hour    # components that touch it

The optional argument is a package prefix (``shieldwall.`` may be left off): only the components
with a module inside it are printed. Exit status 1 when one is printed, 0 when none, 2 for
a prefix that names no module.
"""

from __future__ import annotations

import ast
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "src"
TOP = "shieldwall"

#: importer -> imported -> line numbers of the imports
Graph = dict[str, dict[str, list[int]]]


def module_names(root: Path) -> dict[str, Path]:
    """Every module of the top package: dotted name -> file (a package is its ``__init__.py``)."""
    out: dict[str, Path] = {}
    for path in sorted((root / TOP).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _imports(nodes: Iterable[ast.AST]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements in ``nodes`` at any depth, skipping ``if TYPE_CHECKING:`` bodies."""
    for node in nodes:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from _imports(node.orelse)
        else:
            yield from _imports(ast.iter_child_nodes(node))


def _base(name: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a ``from`` import names (``from ..x import y`` -> ``pkg.x``)."""
    if node.level == 0:
        return node.module or ""
    parts = name.split(".")
    if not is_package:
        parts.pop()
    if node.level > 1:
        parts = parts[: len(parts) - (node.level - 1)]
    if node.module:
        parts.append(node.module)
    return ".".join(parts)


def _known(target: str, modules: dict[str, Path]) -> str | None:
    """``target`` or its nearest enclosing module that is a module of the top package."""
    while target:
        if target in modules:
            return target
        target = target.rpartition(".")[0]
    return None


def build_graph(modules: dict[str, Path]) -> Graph:
    graph: Graph = {m: {} for m in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        for node in _imports([tree]):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = _base(name, is_package, node)
                for a in node.names:
                    sub = f"{base}.{a.name}"
                    targets.append(sub if sub in modules else base)
            for target in targets:
                got = _known(target, modules)
                # a module's own name (``from . import x`` resolving to itself) is no import of itself
                if got is not None and (got != name or target == name):
                    lines = graph[name].setdefault(got, [])
                    if node.lineno not in lines:
                        lines.append(node.lineno)
    return graph


def components(graph: Graph) -> list[list[str]]:
    """Strongly connected components (Tarjan, iterative), each sorted, in a stable order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
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
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    advanced = True
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
            if low[v] == index[v]:
                comp: list[str] = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return sorted(out)


def shortest_cycle(graph: Graph, comp: list[str]) -> list[str]:
    """A shortest cycle through the component's first module (breadth-first inside the component)."""
    members = set(comp)
    start = comp[0]
    if start in graph[start]:
        return [start, start]
    prev: dict[str, str] = {}
    queue = deque([start])
    seen = {start}
    while queue:
        v = queue.popleft()
        for w in sorted(graph[v]):
            if w not in members:
                continue
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(prev[path[-1]])
                return [*reversed(path), start]
            if w not in seen:
                seen.add(w)
                prev[w] = v
                queue.append(w)
    return []


def _inside(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def cycles(prefix: str | None = None) -> tuple[Graph, list[list[str]]]:
    graph = build_graph(module_names(ROOT))
    if prefix and not any(_inside(m, prefix) for m in graph):
        raise ValueError(f"no module {prefix} (nor any under it) in {ROOT / TOP}")
    comps = [c for c in components(graph) if len(c) > 1 or c[0] in graph[c[0]]]
    if prefix:
        comps = [c for c in comps if any(_inside(m, prefix) for m in c)]
    return graph, comps


def main(argv: list[str]) -> int:
    if len(argv) > 1:
        print("usage: import_cycles_oh.py [PACKAGE_PREFIX]", file=sys.stderr)
        return 2
    prefix = argv[0] if argv else None
    if prefix and prefix != TOP and not prefix.startswith(TOP + "."):
        prefix = f"{TOP}.{prefix}"
    try:
        graph, comps = cycles(prefix)
    except ValueError as exc:
        print(f"import_cycles_oh.py: {exc}", file=sys.stderr)
        return 2
    where = prefix or TOP
    if not comps:
        print(f"no import cycles in {where}")
        return 0
    print(f"{len(comps)} import cycle(s) in {where}:")
    for n, comp in enumerate(comps, 1):
        print(f"\n[{n}] {len(comp)} modules: {', '.join(comp)}")
        print("    cycle: " + " -> ".join(shortest_cycle(graph, comp)))
        members = set(comp)
        for m in comp:
            for w in sorted(graph[m]):
                if w in members:
                    lines = ", ".join(str(x) for x in graph[m][w])
                    print(f"    {m} -> {w}  (line {lines})")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
