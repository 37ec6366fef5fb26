"""Fuzzing the data files: scenarios (both rule systems), army files and save files, generated
and mutated from the real built-in files. Only the project's own errors may come out, each naming
the file and the field; a scenario that loads starts a battle whose first decisions work."""

from __future__ import annotations

import functools
import random
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from shieldwall import registry
from shieldwall.core.datafiles import read_toml
from shieldwall.core.errors import DataError, ShieldwallError
from shieldwall.io.saves import make_save, replay
from shieldwall.io.scenarios import builtin_scenarios, game_from_data, load_game
from shieldwall.match import play
from shieldwall.rulesets.into_the_dark.army import load_army, parse_army

from .budget import budget
from .strategies import JSON, mutated

#: random decisions played from a scenario that loads
DECISIONS = 25

ARMIES = sorted(
    (Path(__file__).resolve().parents[2] / "scenarios" / "into-the-dark" / "armies").glob("*.toml")
)


@functools.cache
def _scenarios() -> dict[str, dict[str, Any]]:
    return {name: read_toml(p) for name, p in builtin_scenarios().items()}


@functools.cache
def _saves() -> list[dict[str, Any]]:
    out = []
    for rid in registry.ids():
        if rid not in ("one-hour-dark-ages", "into-the-dark"):
            continue
        name = next(n for n in _scenarios() if n.startswith(rid + "/"))
        game = game_from_data(_scenarios()[name], name)
        played = play(game, 3, "random", "random")
        out.append(make_save(game, 3, played.orders[:80], played.state, {}))
    return out


def _only_our_errors(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except DataError as exc:
        assert exc.file and exc.reason, exc
        return None
    except ShieldwallError as exc:
        assert str(exc), exc
        return None


def _load_and_start(data: Any) -> None:
    game = _only_our_errors(game_from_data, data, "fuzz.toml")
    if game is None:
        return
    state = game.new_state(1)
    rnd = random.Random(1)
    for _ in range(DECISIONS):  # the first decisions of a scenario that loads
        if state.is_terminal():
            break
        orders = state.legal_orders()
        assert orders, "a decision with no legal order"
        state.apply(rnd.choice(orders))


@budget()
@given(st.data())
def test_fuzz_mutated_builtin_scenarios(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(_scenarios())))
    _load_and_start(data.draw(mutated(_scenarios()[name], 6)))


@budget(0.5)
@given(JSON)
def test_fuzz_garbage_scenarios(data: Any) -> None:
    _only_our_errors(game_from_data, data, "fuzz.toml")


@budget()
@given(st.data())
def test_fuzz_mutated_army_files(data: st.DataObject) -> None:
    army = data.draw(st.sampled_from(ARMIES))
    _only_our_errors(parse_army, data.draw(mutated(read_toml(army))), army.name)


@budget()
@given(st.data())
def test_fuzz_mutated_saves(data: st.DataObject) -> None:
    save = data.draw(st.sampled_from(_saves()))
    sv = data.draw(mutated({k: v for k, v in save.items() if k != "events"}))
    if (
        not isinstance(sv, dict)
        or not isinstance(sv.get("scenario"), dict)
        or not isinstance(sv.get("orders"), list)
    ):
        return  # read_save refuses these before replay (tests/cli)
    _only_our_errors(replay, sv, "fuzz.json", False)


@functools.cache
def _texts() -> dict[str, str]:
    files = {n: p for n, p in builtin_scenarios().items()} | {a.name: a for a in ARMIES}
    return {n: Path(p).read_text(encoding="utf-8") for n, p in files.items()}


@budget()
@given(st.data())
def test_fuzz_mutated_toml_text(data: st.DataObject) -> None:
    """The files as text, edited a few characters at a time, read as a scenario or an army file."""
    name = data.draw(st.sampled_from(sorted(_texts())))
    text = _texts()[name]
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 8))
        text = (
            text[:i]
            + data.draw(st.sampled_from(["", "0", "-", "9e99", "nan", "inf", '"', "[", "]", "=", "\n", "x"]))
            + text[i + cut :]
        )
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "fuzz.toml"
        f.write_text(text, encoding="utf-8")
        if name.endswith(".toml"):
            _only_our_errors(load_army, f)
        else:
            game = _only_our_errors(load_game, f)
            if game is not None:
                _load_and_start(game.source_data)
