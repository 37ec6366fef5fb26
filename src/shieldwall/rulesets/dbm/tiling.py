"""Big DBM battles for measuring the engine's scaling (issue 16): a built-in scenario's orders of
battle tiled to N elements a side.

Tile ``k`` copies each side's commands (element ids suffixed ``-k``; the copies' commands are
sub-generals' and allies as listed, never a second C-in-C) and the scenario's terrain and
fortifications shifted ``k`` table widths east; the table grows to hold them, and each side's
baggage grows with its tiles. Each side keeps as many elements a tile as the smaller army has
(baggage apart), the last tile cut short at N (a command keeps its general first). The game is
built from the validated scenario with its orders of battle, terrain and table width replaced, so
the size caps of scenario files do not bind: these games exist to measure the engine, not to be
saved as files.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from shieldwall.core.datafiles import read_toml

from .game import DbmGame
from .scenario import Scenario, build_scenario
from .schemas import ArmyCommand, OrderOfBattle

SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def _tiled_army(oob: OrderOfBattle, per_tile: int, tiles: int, n: int) -> OrderOfBattle:
    commands: list[ArmyCommand] = []
    left = n
    for k in range(tiles):
        room = min(per_tile, left)
        for cmd in oob.commands:
            if room <= 0:
                break
            # generals first, so that a command cut short keeps its general
            els = sorted(cmd.elements, key=lambda e: not e.general)[:room]
            room -= len(els)
            left -= len(els)
            commands.append(
                cmd.model_copy(
                    update={
                        "name": cmd.name if k == 0 else f"{cmd.name} {k}",
                        "c_in_c": cmd.c_in_c and k == 0,
                        "elements": [e.model_copy(update={"id": f"{e.id}-{k}"}) for e in els],
                    }
                )
            )
    return oob.model_copy(update={"commands": commands, "baggage": oob.baggage * tiles})


def tiled_game(n: int, scenario: str = "ford-of-ash", bounds: int | None = None) -> DbmGame:
    """``scenario`` (a built-in stem) tiled to ``n`` elements a side, with ``bounds`` bounds when
    given."""
    if n < 1:
        raise ValueError(f"a tiled battle needs at least one element a side, not {n}")
    file = SCENARIOS / f"{scenario}.toml"
    sc = build_scenario(read_toml(file), str(file))
    per_tile = min(sum(len(c.elements) for c in oob.commands) for oob in sc.armies.values())
    tiles = -(-n // per_tile)
    width = sc.tables.geometry.table_w_p

    def east(r: Any, k: int) -> Any:
        return r.model_copy(update={"x0": r.x0 + k * width, "x1": r.x1 + k * width})

    name = f"{sc.spec.name} (tiled to {n} a side)"
    spec = sc.spec.model_copy(
        update={
            "name": name,
            "terrain": [east(t, k) for k in range(tiles) for t in sc.spec.terrain],
            "fortifications": [east(f, k) for k in range(tiles) for f in sc.spec.fortifications],
        }
    )
    tables = replace(sc.tables, geometry=sc.tables.geometry.model_copy(update={"table_w_p": width * tiles}))
    armies = {side: _tiled_army(oob, per_tile, tiles, n) for side, oob in sc.armies.items()}
    params = {"bounds": bounds if bounds is not None else spec.bounds}  # as DbmGame.from_data
    return DbmGame(Scenario(spec, tables, armies), params)
