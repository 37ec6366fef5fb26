"""The compiled build plays the battles the Python sources play, byte for byte (issue 16).

``scripts/build_compiled.py`` compiles the engine's hot modules with mypyc (``shieldwall.compiled``);
``SHIELDWALL_PURE=1`` makes a process import their ``.py`` sources instead. Here two fresh processes,
one each way, play the same seeded battles and write their records (``sim.referee``: every event as
JSON, every order, the result, and after every order the legal menu): per built-in scenario of every
rule system the first ``DECISIONS`` decisions of a scripted v scripted battle, and whole battles
(``WHOLE``: bryn-glas, senlac and wye-fords, ford-of-ash and ash-burh, tours and stamford-bridge,
Bourgtheroulde and its ambush, whose engines are compiled in part too). The records must be identical.

Without a compiled build (no C compiler, or the build not run) the comparison is skipped, saying
so, unless ``SHIELDWALL_REQUIRE_COMPILED`` is set (CI sets it: there the build must exist).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

import shieldwall
from shieldwall import compiled
from shieldwall.sim import referee as R

#: decisions of each scenario's battle compared (whole battles for WHOLE)
DECISIONS = 40
#: whole battles compared: (scenario, seed, red, blue)
WHOLE = [
    ("one-hour-dark-ages/bryn-glas", 0, "scripted", "scripted"),
    ("one-hour-dark-ages/bryn-glas", 1, "scripted", "scripted"),
    ("one-hour-dark-ages/bryn-glas", 2, "scripted", "random"),
    ("into-the-dark/senlac", 0, "scripted", "scripted"),
    ("into-the-dark/wye-fords", 1, "scripted", "random"),
    ("dbm-3.2/ford-of-ash", 0, "scripted", "scripted"),
    ("dbm-3.2/ash-burh", 1, "scripted", "random"),
    ("spi-dark-ages/tours", 0, "scripted", "scripted"),
    ("spi-dark-ages/stamford-bridge", 1, "scripted", "random"),
    ("knight-hack/bourgtheroulde-1124", 0, "scripted", "scripted"),
    ("knight-hack/bourgtheroulde-1124-ambush", 1, "random", "scripted"),
]
#: the tree under test (the child processes import it first)
TREE = str(Path(shieldwall.__file__).resolve().parent.parent)

CHILD = """
import json, sys
from shieldwall import compiled
from shieldwall.sim import referee as R
decisions, whole = json.loads(sys.argv[2])
out = {}
for scenario in R.scenarios():
    game = R.load_game(scenario)
    rec = R.play_record(game, R.Case(scenario, 0, "scripted", "scripted"), False, menus=True, limit=decisions)
    out[scenario] = rec.lines
for scenario, seed, red, blue in whole:
    rec = R.play_record(R.load_game(scenario), R.Case(scenario, seed, red, blue), False)
    out[f"{scenario} seed {seed} {red} v {blue}"] = rec.lines
mods = compiled.compiled_modules()
json.dump({"mode": compiled.mode(), "compiled": mods, "records": out}, open(sys.argv[1], "w"))
"""


def _play(tmp: Path, pure: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k not in (compiled.ENV, "SHIELDWALL_REFERENCE")}
    env["PYTHONPATH"] = TREE
    if pure:
        env[compiled.ENV] = "1"
    out = tmp / ("pure.json" if pure else "compiled.json")
    args = [str(out), json.dumps([DECISIONS, WHOLE])]
    subprocess.run([sys.executable, "-c", CHILD, *args], check=True, env=env, cwd=tmp, timeout=600)
    data: dict[str, object] = json.loads(out.read_text(encoding="utf-8"))
    return data


def _first_difference(a: list[str], b: list[str]) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"line {i + 1}: compiled {x[:300]} / pure {y[:300]}"
    return f"the records have {len(a)} and {len(b)} lines"


def test_the_compiled_build_plays_the_battles_the_python_sources_play(tmp_path: Path) -> None:
    if compiled.shared_library() is None or compiled.stale_sources():
        why = "no compiled build" if compiled.shared_library() is None else "the compiled build is stale"
        if os.environ.get("SHIELDWALL_REQUIRE_COMPILED"):
            pytest.fail(f"{why}, and SHIELDWALL_REQUIRE_COMPILED is set (run scripts/build_compiled.py)")
        pytest.skip(f"{why} (scripts/build_compiled.py): only the Python sources to test")
    fast = _play(tmp_path, pure=False)
    pure = _play(tmp_path, pure=True)
    assert fast["mode"] == "compiled" and fast["compiled"], fast["mode"]
    assert str(pure["mode"]).startswith("pure") and pure["compiled"] == [], pure["mode"]
    a = fast["records"]
    b = pure["records"]
    assert isinstance(a, dict) and isinstance(b, dict)
    assert set(a) == set(b) == set(R.scenarios()) | {f"{s} seed {n} {r} v {u}" for s, n, r, u in WHOLE}
    differ = [f"{k}: {_first_difference(a[k], b[k])}" for k in sorted(a) if a[k] != b[k]]
    assert not differ, "the compiled build parts from the Python sources:\n" + "\n".join(differ)
    assert all(len(v) > DECISIONS for v in a.values())


def test_shieldwall_pure_imports_the_python_sources(tmp_path: Path) -> None:
    """With ``SHIELDWALL_PURE=1`` no shieldwall module is an extension (with a build or without)."""
    code = (
        "import shieldwall.compiled as c, shieldwall.core.geometry as g\n"
        "import shieldwall.sim.referee\n"
        "print(c.mode()); print(g.__file__); print(c.compiled_modules())\n"
    )
    env = {**os.environ, "PYTHONPATH": TREE, compiled.ENV: "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, env=env, cwd=tmp_path, capture_output=True, text=True
    ).stdout.splitlines()
    assert out[0].startswith("pure: "), out
    assert out[1].endswith("geometry.py") and out[2] == "[]", out


def test_shieldwall_pure_packages_imports_those_packages_from_their_sources_only(tmp_path: Path) -> None:
    """With ``SHIELDWALL_PURE_PACKAGES`` naming into_the_dark, its modules are the ``.py`` sources
    (the tests that patch them run so: tests/python_sources.py) and the rest of the build
    stays compiled; ``from_sources`` says which; the battle is the compiled one's."""
    code = (
        "import hashlib, json, shieldwall.compiled as c, shieldwall.core.geometry as g\n"
        "import shieldwall.rulesets.into_the_dark.movement as m\n"
        "from shieldwall.io.scenarios import load_game\n"
        "from shieldwall.match import play\n"
        "b = play(load_game('into-the-dark/senlac'), 3, 'scripted', 'random')\n"
        "print(c.mode()); print(g.__file__); print(m.__file__)\n"
        "print(c.from_sources('shieldwall.rulesets.into_the_dark'), c.from_sources('shieldwall.core'))\n"
        "print(hashlib.sha256(json.dumps([e.to_dict() for e in b.state.events]).encode()).hexdigest())\n"
    )
    base = {k: v for k, v in os.environ.items() if k not in (compiled.ENV, compiled.PACKAGES_ENV)}
    runs = []
    for extra in ({}, {compiled.PACKAGES_ENV: "shieldwall.rulesets.into_the_dark"}):
        env = {**base, "PYTHONPATH": TREE, **extra}
        done = subprocess.run(
            [sys.executable, "-c", code], check=True, env=env, cwd=tmp_path, capture_output=True, text=True
        )
        runs.append(done.stdout.splitlines())
    whole, mixed = runs
    assert mixed[2].endswith("movement.py"), mixed
    assert mixed[4] == whole[4], "the same battle whichever modules are compiled"
    if compiled.shared_library() is None or compiled.stale_sources():
        assert mixed[0].startswith("pure: ") and mixed[3] == "True True", mixed
        return
    assert mixed[0].startswith("mixed: shieldwall.rulesets.into_the_dark"), mixed
    assert not mixed[1].endswith(".py"), "the core's geometry stays compiled"
    assert mixed[3] == "True False", mixed
    assert whole[0] == "compiled" and whole[3] == "False False", whole


def test_a_changed_source_makes_the_build_stale(tmp_path: Path) -> None:
    src = tmp_path / "shieldwall_src.py"
    src.write_text("x = 1\n", encoding="utf-8")
    manifest = tmp_path / "_compiled.json"
    rel = os.path.relpath(src, compiled.PACKAGE_DIR.parent)
    manifest.write_text(json.dumps({"sources": {rel: compiled.file_digest(src)}}), encoding="utf-8")
    assert compiled.stale_sources(manifest) == []
    src.write_text("x = 2\n", encoding="utf-8")
    assert compiled.stale_sources(manifest) == [rel]
    assert compiled.stale_sources(tmp_path / "missing.json") == ["missing.json"]


def test_footprints_copy_and_pickle_on_either_path() -> None:
    """A compiled frozen dataclass refuses the field-by-field state ``copy``/``pickle`` restore;
    ``Footprint.__reduce__`` rebuilds it through its constructor (checked on whichever path this
    process runs: compiled in CI's main run, the sources under ``SHIELDWALL_PURE=1``)."""
    import copy
    import pickle

    from shieldwall.core.geometry import Footprint

    fp = Footprint(1.0, 2.5, 33.3, 4.0, 5.0)
    for how, other in (
        ("pickle", pickle.loads(pickle.dumps(fp))),
        ("deepcopy", copy.deepcopy({"fp": fp})["fp"]),
        ("copy", copy.copy(fp)),
    ):
        assert other == fp and other is not fp, how
        assert other.corners() == fp.corners() and other.radius == fp.radius, how


def test_a_footprint_is_made_alike_on_either_path() -> None:
    """``Footprint.__init__`` is written out (compiled it stores the frozen fields natively, plain
    Python through ``object``): on whichever path this process runs, its fields, corners and radii
    are the plain arithmetic's, it stays frozen, and ``dataclasses.replace`` makes it anew."""
    import dataclasses

    from shieldwall.core.geometry import Footprint, heading_vector

    for x, y, h, w, d in (
        (1.0, 2.5, 33.3, 4.0, 5.0),
        (0.0, 0.0, -90.0, 8.0, 2.0),
        (3.25, 7.5, 180.0, 2.0, 2.0),
    ):
        fp = Footprint(x, y, h, w, d)
        assert (fp.x, fp.y, fp.heading, fp.frontage, fp.depth) == (x, y, h, w, d)
        fx, fy = heading_vector(h)
        rx, ry = fy, -fx
        hd, hw = d / 2.0, w / 2.0
        assert fp.corners() == (
            (x + fx * hd - rx * hw, y + fy * hd - ry * hw),
            (x + fx * hd + rx * hw, y + fy * hd + ry * hw),
            (x - fx * hd + rx * hw, y - fy * hd + ry * hw),
            (x - fx * hd - rx * hw, y - fy * hd - ry * hw),
        )
        assert fp.radius == 0.5 * math.hypot(w, d) and fp._inradius == 0.5 * min(w, d)
        with pytest.raises(dataclasses.FrozenInstanceError):
            fp.x = 9.0  # type: ignore[misc]
        moved = dataclasses.replace(fp, x=x + 1.0)
        assert moved == fp.moved(1.0, 0.0) and moved.corners() == fp.moved(1.0, 0.0).corners()
        assert hash(fp) == hash(Footprint(x, y, h, w, d)) and repr(fp).startswith("Footprint(x=")


def test_a_compiled_bot_copies_and_pickles_and_chooses_as_before() -> None:
    """The compiled general (a native class) is copied and pickled through ``__reduce__``; the copy
    chooses what the original chooses (on whichever path this process runs)."""
    import copy
    import pickle

    from shieldwall.ai.base import make_bot

    game = R.load_game("one-hour-dark-ages/bryn-glas")
    state = game.new_state(3)
    bot = make_bot("scripted", 3, game.info.id)
    for _ in range(30):  # the general has built its views of the units
        state.apply(bot.choose(state))
    expected = str(copy.deepcopy(bot).choose(copy.deepcopy(state)))
    for how, other in (
        ("deepcopy", copy.deepcopy(bot)),
        ("pickle", pickle.loads(pickle.dumps(bot))),
        ("copy", copy.copy(bot)),
    ):
        assert str(other.choose(copy.deepcopy(state))) == expected, how


def test_a_changed_module_list_makes_the_build_out_of_date(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``scripts/build_compiled.py`` rebuilds when ``MODULES`` is not the list the build's manifest
    names (a module added to the list is built, though no source of the old build changed)."""
    import importlib.util

    script = Path(TREE).parent / "scripts" / "build_compiled.py"
    spec = importlib.util.spec_from_file_location("build_compiled_under_test", script)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    manifest = tmp_path / "_compiled.json"
    monkeypatch.setattr(compiled, "MANIFEST", manifest)
    monkeypatch.setattr(compiled, "shared_library", lambda: tmp_path / "lib.so")
    monkeypatch.setattr(compiled, "stale_sources", lambda: [])
    manifest.write_text(json.dumps({"modules": mod.MODULES, "sources": {}}), encoding="utf-8")
    assert mod.up_to_date()
    manifest.write_text(json.dumps({"modules": mod.MODULES[:-1], "sources": {}}), encoding="utf-8")
    assert not mod.up_to_date()
    manifest.write_text("{", encoding="utf-8")
    assert not mod.up_to_date()
