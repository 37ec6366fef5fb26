"""Views of odds results: rich tables for the terminal and a heat-map PNG (matplotlib, Agg).

Every title, caption, header and cell is a ``rich.text.Text``: the unit specs, type names,
settings and notes in them are the user's or the rule system's words, which rich would otherwise
read as markup and emoji codes (``heavy-cavalry:B:6`` printed as ``heavy-cavalry🅱6``; a ``[/x]``
in a spec stopped the command with a ``MarkupError``).

rich and matplotlib are imported inside the functions.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shieldwall.odds.numbers import fraction_text, int_text
from shieldwall.odds.results import AttackOdds, DuelOdds, MatrixOdds, MoraleOdds, Prob

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text

#: the file extensions ``matrix_png`` writes (the image format follows the extension)
IMAGE_FORMATS = ("png", "svg", "pdf")


def _text(text: object, style: str = "") -> Text:
    """``text`` shown exactly as it is: never read as markup or emoji codes."""
    from rich.text import Text

    return Text(str(text), style=style)


def _title(text: str) -> Text:
    """A table title shown as it is, in the style rich gives a title passed as a string."""
    return _text(text, "table.title")


def _caption(text: str) -> Text | None:
    """A table caption shown as it is (None for no caption), styled as rich styles captions."""
    return _text(text, "table.caption") if text else None


def _row(*cells: object) -> list[Text]:
    """A table row's cells, each shown as it is (``_text``)."""
    return [_text(c) for c in cells]


def _pct(p: Prob) -> str:
    return f"{float(p) * 100:.2f}%"


def frac_cell(p: Prob, width: int = 24) -> str:
    """The exact fraction, or (when it is too long for a table cell) a pointer to --json; a float64
    probability to 15 significant digits."""
    if not isinstance(p, Fraction):
        return f"{p:.15g}"
    text = fraction_text(p)
    if len(text) <= width:
        return text
    return f"{len(int_text(p.denominator))}-digit fraction: --json"


def precision_note(exact: bool, bound: float) -> str:
    """How the probabilities were computed: exactly, or in float64 within ``bound``."""
    if exact:
        return "exact fractions"
    return f"float64: every probability within {bound:.1e} of the exact value (--exact for fractions)"


def whole_pct(p: float) -> str:
    """A percentage rounded to a whole number that never shows 0% or 100% unless it is exact."""
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 <= p < 1:
        return ">99%"
    return f"{p * 100:.0f}%"


def attack_table(odds: AttackOdds) -> RenderableType:
    from rich.table import Table

    t = Table(
        title=_title(f"{odds.attacker} attacks {odds.target} ({odds.ruleset})"),
        caption=_caption(
            "\n".join([*odds.details, f"mean {float(odds.mean):.4f} = {fraction_text(odds.mean)}"])
        ),
        caption_justify="left",
    )
    t.add_column(_text(odds.unit), justify="right")
    t.add_column("probability", justify="right")
    t.add_column("p", justify="right")
    t.add_column(_text(f"P(>= {odds.unit})"), justify="right")
    probs = odds.probabilities
    tail = Fraction(1)
    for v in sorted(probs):
        t.add_row(*_row(v, fraction_text(probs[v]), _pct(probs[v]), _pct(tail)))
        tail -= probs[v]
    return t


def morale_table(odds: MoraleOdds) -> RenderableType:
    from rich.table import Table

    t = Table(
        title=_title(f"{odds.unit}: morale test ({odds.ruleset})"),
        caption=_caption("\n".join(odds.details)),
        caption_justify="left",
    )
    t.add_column("outcome")
    t.add_column("probability", justify="right")
    t.add_column("p", justify="right")
    for k, p in odds.outcomes.items():
        t.add_row(*_row(k.replace("_", " "), fraction_text(p), _pct(p)))
    return t


def duel_tables(odds: DuelOdds) -> list[RenderableType]:
    from rich.table import Table

    s = Table(
        title=_title(f"{odds.first} (first) against {odds.second} ({odds.ruleset})"),
        caption=_caption("\n".join([*odds.details, precision_note(odds.exact, odds.error_bound)])),
        caption_justify="left",
    )
    s.add_column("result")
    s.add_column("probability", justify="right")
    s.add_column("p", justify="right")
    rows: list[tuple[str, Prob]] = [
        (f"{odds.first} (first) wins", odds.first_wins),
        (f"{odds.second} (second) wins", odds.second_wins),
    ]
    if odds.draw:
        rows.append(("draw", odds.draw))
    if odds.undecided:
        rows.append(("never ends", odds.undecided))
    for name, p in rows:
        s.add_row(*_row(name, frac_cell(p), _pct(p)))
    mean = odds.mean_turns
    note = (
        f"mean {float(mean):.4f} turns"
        if mean is not None
        else f"still fighting after turn {odds.horizon}: {float(odds.turns_beyond):.3g} "
        f"(= {frac_cell(odds.turns_beyond, 40)})"
    )
    t = Table(title="turns until the duel is decided", caption=_caption(note))
    for col in ("turn", "P(ends)", "first wins", "second wins", "P(over by then)"):
        t.add_column(col, justify="right")
    cum: Prob = Fraction(0) if odds.exact else 0.0
    for turn, p in odds.turns.items():
        cum += p
        text = fraction_text(p) if isinstance(p, Fraction) else ""
        t.add_row(
            *_row(
                turn,
                f"{text}  {_pct(p)}" if text and len(text) <= 22 else _pct(p),
                _pct(odds.first_wins_by_turn.get(turn, 0)),
                _pct(odds.second_wins_by_turn.get(turn, 0)),
                _pct(cum),
            )
        )
    return [s, t]


def abbreviations(names: tuple[str, ...]) -> list[str]:
    """Short column labels: ``light-horse-archers`` -> ``LIG-H-A``; the full names if they would clash."""
    short = [
        (
            "-".join([p[:3]] + [q[:1] for q in rest])
            if (p := n.split("-")[0]) and (rest := n.split("-")[1:])
            else n[:3]
        ).upper()
        for n in names
    ]
    return short if len(set(short)) == len(short) else list(names)


def matrix_width(m: MatrixOdds) -> int:
    """Characters a matrix table needs to show every column in full."""
    short = list(m.short) if m.short else abbreviations(m.types)
    col = max(6, *(len(s) for s in short)) + 3
    return max(len(t) for t in m.types) + 4 + len(m.types) * col + 1


def matrix_tables(m: MatrixOdds) -> list[RenderableType]:
    from rich.table import Table

    out: list[RenderableType] = []
    short = list(m.short) if m.short else abbreviations(m.types)
    legend = ", ".join(f"{s} = {n}" for s, n in zip(short, m.types, strict=True) if s != n)
    for facing in m.facings:
        duel = facing in m.first_wins
        draws = m.draws.get(facing)
        title = f"{m.ruleset}, {facing} facing: mean {m.unit} of one attack"
        if duel:
            title += f", and P(the row wins a duel it opens on the {facing})"
            if draws is not None:
                title += ", and =P(draw)"
        t = Table(
            title=_title(title),
            caption=_caption(
                "rows attack first; columns are the target"
                + (f" ({legend})" if legend else "")
                + ("\n" + precision_note(m.exact, m.error_bound) if duel else "")
            ),
            show_lines=True,
        )
        t.add_column("attacker \\ target")
        for name in short:
            t.add_column(_text(name), justify="right")
        for i, a in enumerate(m.types):
            cells = []
            for j in range(len(m.types)):
                mh = m.mean_hits[facing][i][j]
                pw = m.first_wins[facing][i][j] if duel else None
                if mh is None or (duel and pw is None):
                    cells.append("—")
                    continue
                cell = f"{float(mh):.2f}"
                if pw is not None:
                    cell += f"\n{whole_pct(float(pw))}"
                    dr = draws[i][j] if draws is not None else None
                    if dr is not None:
                        cell += f"\n={whole_pct(float(dr))}"
                cells.append(cell)
            t.add_row(*_row(a, *cells))
        out.append(t)
    if m.notes and not m.descriptions:  # a table without rows would not show its caption
        out.append(_text("\n".join(m.notes)))
    elif m.descriptions:
        from rich.table import Table as _Table

        d = _Table(title="the types")
        d.add_column("type")
        d.add_column("short")
        d.add_column("unit")
        for name, sh, desc in zip(m.types, short, m.descriptions, strict=True):
            d.add_row(*_row(name, sh, desc))
        if m.notes:
            d.caption = _caption("\n".join(m.notes))
            d.caption_justify = "left"
        out.append(d)
    return out


def image_format(path: str | Path) -> str:
    """The format ``matrix_png`` writes ``path`` in: its extension, one of ``IMAGE_FORMATS``. A
    ValueError saying which extensions work for any other (matplotlib would otherwise fail only
    after drawing, with its own traceback, or add ``.png`` to a name without an extension)."""
    ext = Path(path).suffix.lower().removeprefix(".")
    if ext not in IMAGE_FORMATS:
        works = ", ".join(f".{f}" for f in IMAGE_FORMATS[:-1]) + f" or .{IMAGE_FORMATS[-1]}"
        has = f"cannot write a .{ext} file" if ext else "the file name has no extension"
        raise ValueError(f"{has}; end it in {works} (the image format follows the extension)")
    return ext


def matrix_png(m: MatrixOdds, path: str | Path) -> Path:
    """Heat maps: one row of panels for the mean result (one panel per facing) and one for the
    duels (P(first wins) for each facing with a duel grid, then P(draw) where draws exist). The
    format follows ``path``'s extension (``image_format``: PNG, SVG or PDF)."""
    image_fmt = image_format(path)  # before any drawing
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    n = len(m.types)
    nf = len(m.facings)
    duel_panels: list[tuple[Any, str, str]] = [
        (m.first_wins[f], f"P(row wins the duel)\n{f} facing", "RdBu") for f in m.duel_facings
    ]
    duel_panels += [(g, f"P(draw)\n{f} facing", "Greys") for f, g in m.draws.items()]
    ncols = max(nf, len(duel_panels))
    size = 2.0 + 0.55 * n
    fig, axes = plt.subplots(2, ncols, figsize=(size * ncols, size * 2), squeeze=False)

    def grid(g: Any) -> Any:
        return np.array([[np.nan if x is None else float(x) for x in row] for row in g], dtype=float)

    hmax = max(
        (float(x) for g in m.mean_hits.values() for row in g for x in row if x is not None), default=1.0
    )
    panels: list[tuple[int, int, Any, str, str, float, float, str]] = [
        (0, c, m.mean_hits[f], f"mean {m.unit} of one attack\n{f} facing", "viridis", 0.0, hmax, "{:.2f}")
        for c, f in enumerate(m.facings)
    ]
    for c, (g, label, cmap) in enumerate(duel_panels):
        # draws are rare: scale their panel to the largest draw chance
        hi = 1.0 if cmap != "Greys" else max(0.05, *(float(x) for row in g for x in row if x is not None))
        panels.append((1, c, g, label, cmap, 0.0, hi, "pct"))
    used = {(r, c) for r, c, *_ in panels}
    for r in range(2):
        for c in range(ncols):
            if (r, c) not in used:
                axes[r][c].axis("off")
    labels = list(m.types)
    for r, c, data, label, cmap, lo, hi, fmt in panels:
        ax = axes[r][c]
        arr = grid(data)
        cm = plt.get_cmap(cmap).with_extremes(bad="#cccccc")
        im = ax.imshow(np.ma.masked_invalid(arr), cmap=cm, vmin=lo, vmax=hi)
        # the type names and facings are data: shown as they are, never read as mathtext ($...$)
        ax.set_xticks(range(n), labels, rotation=60, ha="right", fontsize=8, parse_math=False)
        ax.set_yticks(range(n), labels, fontsize=8, parse_math=False)
        ax.set_title(label, fontsize=10, parse_math=False)
        ax.set_xlabel("target (second)", fontsize=8)
        ax.set_ylabel("attacker (first)", fontsize=8)
        for i in range(n):
            for j in range(n):
                v = arr[i, j]
                if not np.isnan(v):
                    frac = (v - lo) / (hi - lo) if hi > lo else 0.5
                    if cmap == "viridis":
                        dark_cell = frac < 0.5
                    elif cmap == "Greys":
                        dark_cell = frac > 0.5
                    else:
                        dark_cell = not 0.2 < frac < 0.8
                    label_text = whole_pct(v) if fmt == "pct" else fmt.format(v)
                    ax.text(
                        j,
                        i,
                        label_text,
                        ha="center",
                        va="center",
                        fontsize=7,
                        color="white" if dark_cell else "black",
                    )
        fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    settings = ", ".join(f"{k}={v}" for k, v in m.settings.items() if v is not None)
    fig.suptitle(f"{m.ruleset} matchups ({settings})", fontsize=12, parse_math=False)
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out, dpi=110, format=image_fmt)
    plt.close(fig)
    return out
