"""Big into-the-dark battles for measuring the engine's scaling (issue 16): senlac's units tiled to
N units a side.

Each side's units (senlac's, in turn) stand on a grid of 10" by 5" slots (every senlac unit fits in
one), 24 to a row, the two sides facing each other across a 30" gap on a table 240" wide, with no
terrain (the tiles would cross it). The game is built from the validated scenario with its lists of
units replaced, so the size caps of scenario files (40 units a side) do not apply: these games exist
to measure the engine, not to be saved as files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shieldwall.core.datafiles import read_toml

from . import scenario as _scenario
from .game import IntoTheDarkGame

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
#: slots in a row of a tiled army, and a slot's width and depth (inches)
COLUMNS = 24
SLOT_WIDTH = 10.0
SLOT_DEPTH = 5.0
#: the gap between the two armies' front rows (inches)
GAP = 30.0


def tiled_args(per_side: int, scenario: str = "senlac") -> tuple[Any, Any]:
    """(spec, armies) of ``scenario`` with ``per_side`` units a side, as the module docstring says."""
    if per_side < 1:
        raise ValueError(f"a tiled battle needs at least one unit a side, not {per_side}")
    data = read_toml(SCENARIOS / f"{scenario}.toml")
    data["terrain"] = []
    rows = -(-per_side // COLUMNS)
    depth = 2.0 * (GAP / 2.0 + SLOT_DEPTH * rows + SLOT_DEPTH)
    data["table"] = {"width": COLUMNS * SLOT_WIDTH, "depth": min(240.0, depth)}
    spec, armies = _scenario.build_scenario(data, "<tiled>")
    mid = depth / 2.0
    update: dict[str, Any] = {"table": spec.table.model_copy(update={"depth": depth})}
    for side, sign in (("red", 1.0), ("blue", -1.0)):
        sd = getattr(spec, side)
        src = sd.deploy
        out = []
        for i in range(per_side):
            r, c = divmod(i, COLUMNS)
            out.append(
                src[i % len(src)].model_copy(
                    update={
                        "id": f"{side[0]}{i}",
                        "x": SLOT_WIDTH / 2.0 + SLOT_WIDTH * c,
                        "y": mid + sign * (GAP / 2.0 + SLOT_DEPTH * r),
                        "heading": 180.0 if side == "red" else 0.0,
                        "shieldwall": False,
                    }
                )
            )
        update[side] = sd.model_copy(update={"deploy": out})
    return spec.model_copy(update=update), armies


def tiled_game(per_side: int, scenario: str = "senlac") -> IntoTheDarkGame:
    """The tiled game of ``per_side`` units a side."""
    spec, armies = tiled_args(per_side, scenario)
    return IntoTheDarkGame(spec, armies, None, f"{scenario} (tiled to {per_side} a side)")
