"""Big one-hour-dark-ages battles for measuring the engine's scaling (issue 16): a built-in
scenario tiled side by side to N units a side.

Each tile is the scenario shifted one table width east, its units, personalities and terrain
copied with their ids suffixed ``-k``; the table grows to hold them. The game is built from the validated
one-tile scenario, so the size caps of scenario files (``core.limits``: 40 units a side, a 240"
table) do not apply: these games exist to measure the engine, not to be saved as files.
"""

from __future__ import annotations

from pathlib import Path

from shieldwall.core.datafiles import read_toml
from shieldwall.rulesets.one_hour.game import OneHourGame
from shieldwall.rulesets.one_hour.scenario import build_scenario

SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def tiled_game(n: int, scenario: str = "bryn-glas", turns: int | None = None) -> OneHourGame:
    """``scenario`` (a built-in stem) tiled to ``n`` units a side (the last tile cut short), with
    ``turns`` turns when given."""
    if n < 1:
        raise ValueError(f"a tiled battle needs at least one unit a side, not {n}")
    data = read_toml(SCENARIOS / f"{scenario}.toml")
    if turns is not None:
        data["turns"] = turns
    name = f"{scenario} (tiled to {n} a side)"
    spec = build_scenario(data, name)
    per_tile = min(len(spec.red.units), len(spec.blue.units))
    tiles = -(-n // per_tile)
    width = spec.table.width
    terrain = []
    for k in range(tiles):
        for t in spec.terrain:
            terrain.append(
                t.model_copy(
                    update={
                        "id": f"{t.id}-{k}",
                        "points": [(x + k * width, y) for x, y in t.points],
                        "crest": [(x + k * width, y) for x, y in t.crest],
                        "crossings": [
                            c.model_copy(update={"at": (c.at[0] + k * width, c.at[1])}) for c in t.crossings
                        ],
                    }
                )
            )
    update: dict[str, object] = {
        "name": name,
        "terrain": terrain,
        "table": spec.table.model_copy(update={"width": width * tiles}),
    }
    for side in ("red", "blue"):
        sd = getattr(spec, side)
        units = [
            u.model_copy(update={"id": f"{u.id}-{k}", "x": u.x + k * width})
            for k in range(tiles)
            for u in sd.units[:per_tile]
        ][:n]
        kept = {u.id for u in units}
        personalities = [
            p.model_copy(update={"id": f"{p.id}-{k}", "unit": f"{p.unit}-{k}"})
            for k in range(tiles)
            for p in sd.personalities
            if f"{p.unit}-{k}" in kept
        ]
        update[side] = sd.model_copy(update={"units": units, "personalities": personalities})
    return OneHourGame(spec.model_copy(update=update), None, name)
