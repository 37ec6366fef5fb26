"""Big Dark Ages battles for measuring the engine's scaling (issue 16): a built-in scenario's map and
counters tiled to N units a side.

Tile ``k`` is the scenario's map (terrain, fords, bridges, road and water hexsides) and its units
shifted ``k % 4`` maps east and ``k // 4`` maps south, the units' ids suffixed ``-k``; each side
keeps the first units of its list in every tile (as many as the smaller army has), the last tile cut
short at N. Four tiles to a row keep every hex label four digits (CCRR: at most 99 columns and
rows, so 28 tiles). Each army's Point Value and Panic Level grow with its units (PV x N / per tile).
The game is built from the validated scenario with its map and units replaced, so the size caps of
scenario files (40 units a side, a 99-hex map) do not bind: these games exist to measure the
engine, not to be saved as files.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from shieldwall.core.datafiles import read_toml
from shieldwall.core.hexgrid import Hex, from_offset, hexside, to_offset

from .game import DarkAgesGame
from .hexmap import HexMap
from .scenario import build_scenario

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
#: tiles in a row of the tiled map
COLUMNS = 4
#: the most tiles that keep hex labels at four digits
MAX_TILES = 28


def tiled_game(n: int, scenario: str = "tours", turns: int | None = None) -> DarkAgesGame:
    """``scenario`` (a built-in stem) tiled to ``n`` units a side, with ``turns`` Game-Turns when
    given."""
    if n < 1:
        raise ValueError(f"a tiled battle needs at least one unit a side, not {n}")
    file = SCENARIOS / f"{scenario}.toml"
    sc = build_scenario(read_toml(file), str(file))
    sides = list(dict.fromkeys(p.side for p in sc.units))
    per_tile = min(sum(1 for p in sc.units if p.side == s) for s in sides)
    tiles = -(-n // per_tile)
    if tiles > MAX_TILES:
        raise ValueError(f"{n} units a side need {tiles} tiles of {scenario}; at most {MAX_TILES} fit")
    m = sc.map
    across = min(tiles, COLUMNS)
    down = -(-tiles // COLUMNS)

    def shift(h: Hex, k: int) -> Hex:
        c, r = to_offset(h)
        # rows shift by a whole map (an even count for the sample maps' odd-r layout keeps a shape)
        return from_offset(c + (k % COLUMNS) * m.cols, r + (k // COLUMNS) * m.rows)

    ks = range(tiles)
    hm = HexMap(
        f"{m.name} (tiled {tiles}x)",
        m.cols * across,
        m.rows * down,
        frozenset(from_offset(c, r) for c in range(m.cols * across) for r in range(m.rows * down)),
        {shift(h, k): t for k in ks for h, t in m.terrain.items()},
        frozenset(shift(h, k) for k in ks for h in m.ford),
        frozenset(shift(h, k) for k in ks for h in m.bridge),
        frozenset(hexside(shift(h, k), d) for k in ks for h, d in m.road_sides),
        frozenset(hexside(shift(h, k), d) for k in ks for h, d in m.water_sides),
    )
    units = []
    for side in sides:
        own = [p for p in sc.units if p.side == side][:per_tile]
        units += [
            replace(
                p,
                id=f"{p.id}-{k}",
                hex=shift(p.hex, k),
                aboard=None if p.aboard is None else f"{p.aboard}-{k}",
            )
            for k in ks
            for p in own
        ][:n]
    armies = {
        key: a.model_copy(update={"pv": max(2, a.pv * n // per_tile), "pl": max(1, a.pl * n // per_tile)})
        for key, a in sc.spec.army.items()
    }
    name = f"{sc.spec.name} (tiled to {n} a side)"
    spec = sc.spec.model_copy(update={"name": name, "army": armies})
    params = {k: p.default for k, p in DarkAgesGame.parameters.items()}
    params["turns"] = turns if turns is not None else spec.turns
    return DarkAgesGame(replace(sc, spec=spec, map=hm, units=tuple(units)), params)
