"""The optional compiled build of the engine's hot modules, and the switch back to the Python sources.

``scripts/build_compiled.py`` compiles the modules where battles spend their time with mypyc into
C extensions placed beside their ``.py`` files (``python3 scripts/dev.py ...`` runs it after
installing; docs/performance.md, "mypyc"). Python imports an extension before a ``.py`` of the
same name, so once built the compiled modules are used by default. The ``.py`` files stay the
source of truth and play byte-identical battles (tests/plugins/test_compiled_vs_pure.py).

The Python sources are imported instead (this module installs an import hook, from the package's
``__init__``, before any other shieldwall module is imported) when

* the environment variable ``SHIELDWALL_PURE`` is set (to anything but ``0``/``false``/``no``/
  ``off``/empty): both paths can be tested on one machine, and worker processes inherit it;
* the build is stale: a source it was compiled from (a compiled module or a shieldwall module one
  imports) has changed since (the build's manifest keeps their SHA-256), so an edit of the ``.py``
  is never hidden behind an old extension.

``SHIELDWALL_PURE_PACKAGES`` (comma-separated packages, e.g. ``shieldwall.rulesets.<a rule system>``)
imports only those packages' modules from their sources and keeps the rest of the build: the
tests that patch a rule system's internals run so (the ``python_sources`` marker of the tests), on
the compiled geometry beneath (``mode()`` is then ``"mixed: ..."``).

Where nothing was compiled (no C compiler, or the build never ran) nothing is installed and the
package is plain Python. ``mode()`` says which path this process runs.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, SOURCE_SUFFIXES, FileFinder, ModuleSpec, SourceFileLoader
from pathlib import Path
from types import ModuleType

#: the environment variable that selects the Python sources over a compiled build
ENV = "SHIELDWALL_PURE"
#: the environment variable naming the packages imported from their sources, the rest compiled
PACKAGES_ENV = "SHIELDWALL_PURE_PACKAGES"
#: the package directory (src/shieldwall)
PACKAGE_DIR = Path(__file__).resolve().parent
#: mypyc's group name: its shared library is ``shieldwall/_mypyc_group__mypyc<suffix>``
GROUP = "shieldwall._mypyc_group"
#: the build's manifest, written last by scripts/build_compiled.py: the compiled modules and the
#: SHA-256 of every source they were compiled from
MANIFEST = PACKAGE_DIR / "_compiled.json"

_mode = "pure: nothing compiled"


def pure_requested() -> bool:
    """Whether ``SHIELDWALL_PURE`` asks for the Python sources."""
    return os.environ.get(ENV, "").strip().lower() not in ("", "0", "false", "no", "off")


def pure_packages() -> tuple[str, ...]:
    """The packages ``SHIELDWALL_PURE_PACKAGES`` names (each a ``shieldwall.`` package; others are
    ignored)."""
    names = (n.strip().rstrip(".") for n in os.environ.get(PACKAGES_ENV, "").split(","))
    return tuple(n for n in names if n.startswith("shieldwall."))


def shared_library() -> Path | None:
    """The build's shared library for this interpreter, if there is one."""
    stem = GROUP.rsplit(".", 1)[-1] + "__mypyc"
    for suffix in EXTENSION_SUFFIXES:
        path = PACKAGE_DIR / (stem + suffix)
        if path.is_file():
            return path
    return None


def file_digest(path: Path) -> str:
    import hashlib  # (here: only a process with a compiled build needs it)

    return hashlib.sha256(path.read_bytes()).hexdigest()


def stale_sources(manifest: Path = MANIFEST) -> list[str]:
    """The sources (paths relative to the package's parent) that changed since the build, or
    ``["<manifest>"]`` when the manifest is missing or unreadable."""
    import json  # (here: only a process with a compiled build needs it)

    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
        sources: dict[str, str] = data["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return [manifest.name]
    root = PACKAGE_DIR.parent
    changed = []
    for rel, digest in sorted(sources.items()):
        path = root / rel
        try:
            same = file_digest(path) == digest
        except OSError:
            same = False
        if not same:
            changed.append(rel)
    return changed


class SourceFinder:
    """Finds shieldwall's modules as ``.py`` sources only (never an extension module): a meta path
    finder (``importlib.abc.MetaPathFinder``'s protocol; not its subclass, whose import costs more
    than the rest of this module). With ``packages``, only those packages' modules (the others
    are left to the usual finders: the build's)."""

    def __init__(self, packages: tuple[str, ...] = ()) -> None:
        self._finders: dict[str, FileFinder] = {}
        self._packages = packages

    def takes(self, name: str) -> bool:
        """Whether the module or package ``name`` is one this finder imports from its sources."""
        return not self._packages or any(name == p or name.startswith(p + ".") for p in self._packages)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith("shieldwall.") or path is None:
            return None
        if not self.takes(fullname):
            return None
        for entry in path:
            finder = self._finders.get(entry)
            if finder is None:
                finder = self._finders[entry] = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES))
            spec = finder.find_spec(fullname, target)
            if spec is not None and spec.loader is not None:
                return spec
        return None


def install() -> str:
    """Choose this process's path (once, from the package's ``__init__``) and return ``mode()``."""
    global _mode
    if any(isinstance(f, SourceFinder) for f in sys.meta_path):
        return _mode
    if shared_library() is None:
        _mode = "pure: nothing compiled"
        return _mode
    packages: tuple[str, ...] = ()
    if pure_requested():
        _mode = f"pure: {ENV} is set"
    else:
        changed = stale_sources()
        if changed:
            _mode = "pure: the compiled build is stale (" + ", ".join(changed[:3]) + " changed)"
        elif packages := pure_packages():
            named = ", ".join(packages)
            _mode = f"mixed: {named} from the Python sources ({PACKAGES_ENV}), the rest compiled"
        else:
            _mode = "compiled"
            return _mode
    sys.meta_path.insert(0, SourceFinder(packages))
    return _mode


def from_sources(package: str) -> bool:
    """Whether this process imports ``package``'s modules from their ``.py`` sources."""
    finder = next((f for f in sys.meta_path if isinstance(f, SourceFinder)), None)
    if finder is None:
        return _mode != "compiled"
    return finder.takes(package)


def mode() -> str:
    """``"compiled"``, ``"pure: <why>"``, or ``"mixed: <the packages from their sources>"``."""
    return _mode


def compiled_modules() -> list[str]:
    """The shieldwall modules this process has imported as compiled extensions (mypyc's shared
    library aside)."""
    suffixes = tuple(EXTENSION_SUFFIXES)
    return sorted(
        name
        for name, mod in list(sys.modules.items())
        if name.startswith("shieldwall.")
        and not name.endswith("__mypyc")
        and str(getattr(mod, "__file__", "") or "").endswith(suffixes)
    )
