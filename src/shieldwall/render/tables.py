"""Terminal tables that fit the terminal: no text is ever cut short.

``rich`` shortens a cell that cannot fit its column to ``nam…``; a name cut that way (a scenario,
a variant, a unit type) is a name a player cannot type. ``fit_table`` makes a table fit
``console.width`` (``COLUMNS``, else the terminal's width) this way instead:

* the *key* columns (the names one types or looks up: the first column unless told otherwise)
  are never wrapped or cut: they are as wide as their longest cell;
* every other column wraps its words, and folds a word longer than the column onto the next line
  rather than cut it (``overflow="fold"``), headers included;
* a table wider than the terminal drops its vertical rules and edge padding (one space between
  columns instead of three), which is often enough to keep every word whole.

Generic: it knows no rule system, and a rule system's own commands may use it too
(``shieldwall.render`` is a host helper the rule-system packages may import).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

#: the narrowest a non-key column gets when the table is too narrow for whole words
MIN_FOLDED = 6


def fit_table(table: Table, console: Console, keys: Sequence[int] = (0,)) -> Table:
    """``table`` changed in place to fit ``console.width`` without cutting any text (see above).

    A table that fits as it is stays as it is (but never shortens a cell). Otherwise, when the key
    columns whole and every other column's longest word fit side by side, the columns are given
    those widths and the room left is shared among the others in proportion to what they lack, so
    words wrap between lines and none is folded; only a terminal too narrow even for that folds."""
    wide = console.options.update(width=10_000)
    for col in table.columns:
        col.overflow = "fold"
        col.no_wrap = False
    if Measurement.get(console, wide, table).maximum <= console.width:
        return table
    table.box = box.SIMPLE_HEAD
    table.show_edge = False
    table.pad_edge = False
    table.padding = (0, 1)
    table.collapse_padding = True
    lo: list[int] = []
    hi: list[int] = []
    for i, col in enumerate(table.columns):
        cells = [c for c in (*col.cells, col.header, col.footer) if c not in (None, "")]
        m = [Measurement.get(console, wide, c) for c in cells]
        top = max((x.maximum for x in m), default=1)
        hi.append(top)
        lo.append(top if i in keys else max((x.minimum for x in m), default=1))
    # the rules and padding between columns: the table's width with every column one cell wide
    saved = [col.width for col in table.columns]
    for col in table.columns:
        col.width = 1
    overhead = Measurement.get(console, wide, table).maximum - len(table.columns)
    room = console.width - overhead
    if sum(lo) > room:
        # too narrow for every word whole: keep the key columns whole if the others can still
        # have a few characters each (their long words fold); else rich wraps and folds all
        keyw = sum(lo[i] for i in keys if i < len(lo))
        others = [i for i in range(len(lo)) if i not in keys]
        if others and keyw + MIN_FOLDED * len(others) <= room:
            # the columns with the shortest longest words keep their words whole while the rest
            # can still have MIN_FOLDED each; the room left is shared among those that fold, in
            # proportion to their longest words
            left = room - keyw
            folding = sorted(others, key=lambda i: lo[i])
            while folding and lo[folding[0]] + MIN_FOLDED * (len(folding) - 1) <= left:
                i = folding.pop(0)
                left -= lo[i]
            want = sum(lo[i] for i in folding) or 1
            for i in folding:
                lo[i] = max(MIN_FOLDED, min(hi[i], left * lo[i] // want))
            for col, width in zip(table.columns, lo, strict=True):
                col.width = width
            return table
        for col, w in zip(table.columns, saved, strict=True):
            col.width = w
        return table
    widths = list(lo)
    spare = room - sum(lo)
    lack = [h - w for h, w in zip(hi, lo, strict=True)]
    total = sum(lack)
    if total:
        for i, need in enumerate(lack):
            widths[i] += min(need, spare * need // total)
    for col, w in zip(table.columns, widths, strict=True):
        col.width = w
    return table


def print_table(table: Table, console: Console | None = None, keys: Sequence[int] = (0,)) -> None:
    """Print ``table`` fitted to the terminal (``fit_table``)."""
    con = console or Console()
    con.print(fit_table(table, con, keys))
