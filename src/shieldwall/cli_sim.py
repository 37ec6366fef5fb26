"""``shieldwall simulate`` and ``shieldwall report``: many battles, statistics, rule variants.

Registered by ``shieldwall.cli`` through :func:`register`. Importing this module stays light: the
engine, numpy, rich, pyarrow, DuckDB, matplotlib and Ray are imported inside the commands.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperCommand

if TYPE_CHECKING:
    from shieldwall.sim.simulate import SimConfig, SimResult

VARIANT_HELP = (
    "A rule variant: KEY=VALUE[,KEY=VALUE...] overriding the rule system's declared parameters "
    "(one set per --variant; repeat for several sets). The baseline is always played too, on the "
    "same seeds."
)


def _parameters_epilog() -> str:
    """The declared parameters of every rule system, for --help (light: only ``params`` modules)."""
    from shieldwall import registry

    parts = [
        "[bold]Variants[/]: --variant 'A=1' --variant 'B=2,C=3' plays three sets side by side: the "
        "baseline, A=1, and B=2 with C=3 (A, B, C: parameters listed below), every one on the same "
        "battle seeds. Win rates carry 95% Wilson intervals; differences against the baseline carry "
        "paired 95% intervals. See docs/simulate.md."
    ]
    for rid, rs in registry.systems().items():
        params = rs.parameter_specs
        items = []
        for p in params.values():
            choices = f" ({'|'.join(map(str, p.choices))})" if p.choices else ""
            items.append(f"[bold]{p.name}[/]={p.default}{choices}")
        parts.append(f"[bold]Parameters of {rid}[/]: " + ", ".join(items))
    return "\n\n".join(parts)


class _LazyEpilog(TyperCommand):
    """``simulate``'s epilog is built only when its help is shown: building it imports every rule
    system's ``params`` module, which would slow every other command's start-up."""

    @property
    def epilog(self) -> str:
        return _parameters_epilog()

    @epilog.setter
    def epilog(self, value: str | None) -> None:  # Click's __init__ sets it; the property wins
        pass


def _pct(x: float) -> str:
    return f"{100.0 * x:.1f}%"


def _ci(ci: list[float]) -> str:
    return f"[{100.0 * ci[0]:.1f}, {100.0 * ci[1]:.1f}]"


def _signed_ci(ci: list[float]) -> str:
    return f"[{100.0 * ci[0]:+.1f}, {100.0 * ci[1]:+.1f}]"


def print_summary(data: dict[str, Any], title: str, bps: float | None = None) -> None:
    """The result tables (used by ``simulate`` and by ``report``). Every name in them (the title's
    scenario and file, the variants, sides and unit types) is data, shown as it is: never read as
    markup or emoji codes."""
    from rich.table import Table

    from shieldwall.cli_text import caption, console, literal
    from shieldwall.cli_text import title as title_text
    from shieldwall.render.tables import fit_table

    con = console(highlight=False)
    variants: list[dict[str, Any]] = data["variants"]
    sides: list[str] = list(variants[0]["wins"]) if variants else []
    t = Table(
        title=title_text(title), caption=caption(f"{bps:.2f} battles per second") if bps is not None else None
    )
    t.add_column("variant")
    t.add_column("n", justify="right")
    for s in sides:
        t.add_column(literal(f"{s} wins [95% CI]"), justify="right")
    t.add_column("draws", justify="right")
    t.add_column("turns", justify="right")
    for v in variants:
        cells = [v["variant"], str(v["battles"])]
        for s in sides:
            cells.append(f"{_pct(v['win_rate'][s])} {_ci(v['ci95'][s])}")
        cells += [str(v["draws"]), f"{v['mean_turns']:.2f} ± {v['sd_turns']:.2f}"]
        t.add_row(*map(literal, cells))
    con.print(fit_table(t, con))

    h = Table(title="Battle length (battles ending on each turn)")
    h.add_column("turn", justify="right")
    for v in variants:
        h.add_column(literal(v["variant"]), justify="right")
    turns = sorted({int(k) for v in variants for k in v["turns_histogram"]})
    for turn in turns:
        row = [str(turn)]
        for v in variants:
            c = v["turns_histogram"].get(str(turn), 0)
            bar = "█" * round(12 * c / max(1, v["battles"]))
            row.append(f"{c:>5} {bar:<12}")
        h.add_row(*row)
    con.print(fit_table(h, con))

    lt = Table(title="Mean units lost per battle")
    lt.add_column("side")
    lt.add_column("unit type")
    for v in variants:
        lt.add_column(literal(v["variant"]), justify="right")
    for s in sides:
        types = list(variants[0]["mean_losses"].get(s, {}))
        for ut in types:
            lt.add_row(
                literal(s), literal(ut), *(f"{v['mean_losses'][s].get(ut, 0.0):.2f}" for v in variants)
            )
        if variants and variants[0].get("mean_units_lost"):
            every = literal("all")
            every.stylize("bold")  # the word, not its cell's padding (as the markup [bold]all[/] was)
            lt.add_row(
                literal(s),
                every,
                *(f"{v['mean_units_lost'].get(s, 0.0):.2f}" for v in variants),
            )
    con.print(fit_table(lt, con, keys=(0, 1)))

    diffs: list[dict[str, Any]] = data.get("differences", [])
    if diffs:
        d = Table(title="Difference from the baseline, paired on the same seeds")
        d.add_column("variant")
        d.add_column("side")
        d.add_column("Δ win rate [95% CI]", justify="right")
        d.add_column("seeds +/-", justify="right")
        d.add_column("Δ turns [95% CI]", justify="right")
        for x in diffs:
            for i, s in enumerate(sides):
                w = x["win_rate"][s]
                mt = x.get("mean_turns")
                turns_cell = ""
                if mt is not None and i == 0:
                    turns_cell = f"{mt['diff']:+.2f} [{mt['ci95'][0]:+.2f}, {mt['ci95'][1]:+.2f}]"
                d.add_row(
                    literal(x["variant"]) if i == 0 else "",
                    literal(s),
                    f"{100.0 * w['diff']:+.1f} pts {_signed_ci(w['ci95'])}",
                    f"+{w['higher']}/-{w['lower']}",
                    turns_cell,
                )
        con.print(fit_table(d, con))


def _run_simulation(config: SimConfig, bar_shown: bool) -> SimResult:
    """Run the simulation ``config``, with a progress bar on stderr if ``bar_shown`` and stderr is
    a terminal (off one, a log or a pipe, the bar drew nothing but left a blank line before an
    error's one line)."""
    from rich.console import Console

    from shieldwall.sim.simulate import run

    console = Console(stderr=True)
    if not bar_shown or not console.is_terminal:
        return run(config)
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress(
        TextColumn("[bold]simulating[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task("battles", total=None, rate="")

        def on_progress(done: int, total: int) -> None:
            elapsed = bar.tasks[0].elapsed or 0.0
            rate = f"{done / elapsed:.1f} battles/s" if elapsed > 0 else ""
            bar.update(task, completed=done, total=total, rate=rate)

        return run(config, on_progress)


def register(app: typer.Typer) -> None:
    @app.command(
        "simulate",
        cls=_LazyEpilog,
        help="Play a scenario many times with the chosen bots: win rates with 95% intervals, draws, "
        "battle length, losses per unit type, speed; rule variants side by side on the same seeds.",
    )
    def simulate(
        scenario: Annotated[
            str | None,
            typer.Argument(help="Scenario file or built-in name (default: 'shieldwall scenarios' marks it)."),
        ] = None,
        battles: Annotated[int, typer.Option("--battles", "-n", min=1, help="Battles per variant.")] = 100,
        seed: Annotated[
            int, typer.Option(min=0, help="Simulation seed (0 or more): battle i gets the i-th spawned seed.")
        ] = 0,
        workers: Annotated[
            int | None,
            typer.Option(min=1, help="Worker processes (default: all cores; Ray: the cluster's CPUs)."),
        ] = None,
        backend: Annotated[str, typer.Option(help="local (process pool) | ray.")] = "local",
        address: Annotated[
            str | None, typer.Option(help="Ray: join this cluster ('auto' or host:port); none: start one.")
        ] = None,
        red: Annotated[
            str,
            typer.Option(
                help="Bot for red (the first side): scripted | random | mcts[:N playouts] "
                "(the rule system's bots)."
            ),
        ] = "scripted",
        blue: Annotated[
            str,
            typer.Option(
                help="Bot for blue: scripted | random | mcts[:N playouts] (the rule system's bots)."
            ),
        ] = "scripted",
        variant: Annotated[
            list[str] | None, typer.Option("--variant", metavar="KEY=VALUE[,KEY=VALUE]", help=VARIANT_HELP)
        ] = None,
        out: Annotated[
            Path | None, typer.Option(help="Write one row per battle to this Parquet file.")
        ] = None,
        as_json: Annotated[
            bool, typer.Option("--json", help="Print one JSON object instead of tables.")
        ] = False,
        batch_size: Annotated[
            int | None, typer.Option(min=1, help="Battles per task (default: chosen from N and workers).")
        ] = None,
        progress: Annotated[bool, typer.Option(help="Show a progress bar (on stderr).")] = True,
    ) -> None:
        from shieldwall.cli_errors import check_makeable_folder, fail, scenario_argument
        from shieldwall.sim.simulate import SimConfig

        config = SimConfig(
            scenario=scenario,
            battles=battles,
            seed=seed,
            workers=workers,
            backend=backend,
            red=red,
            blue=blue,
            variants=list(variant or []),
            out=out,
            address=address,
            batch_size=batch_size,
        )
        if backend not in ("local", "ray"):
            raise typer.BadParameter(f"backend must be local or ray, not {backend!r}", param_hint="--backend")
        if address and backend != "ray":
            raise typer.BadParameter("--address is for --backend ray", param_hint="--address")
        if out is not None:  # before any battle: the folder is made if missing, the file written last
            check_makeable_folder(out.parent, "--out", out)
            if out.is_dir():
                fail(f"--out {out}: is a folder; give a file name")
        with scenario_argument(scenario):
            result = _run_simulation(config, progress and not as_json)
        data = result.to_dict()
        if as_json:
            typer.echo(json.dumps(data))
            return
        from shieldwall import registry

        first, second = registry.get(str(data["ruleset"])).info.sides[:2]
        # --red plays the first side and --blue the second, whatever the rule system calls them
        who = (
            f"{red} (red) v {blue} (blue)"
            if (first, second) == ("red", "blue")
            else f"{red} (--red: {first}) v {blue} (--blue: {second})"
        )
        title = (
            f"{data['scenario']}: {who}, {battles} battles per variant, seed {seed}, "
            f"{backend} backend, {result.workers or 'all'} workers"
        )
        print_summary(data, title, result.battles_per_second)
        if data.get("data_label"):
            typer.echo(f"[{data['data_label']}]")
        if out is not None:
            typer.echo(
                f"wrote {out} ({result.total_battles} rows); summarise it with: shieldwall report {out}"
            )

    @app.command(
        "report",
        help="Summarise a simulation's Parquet file with DuckDB and write PNG plots (win rate with 95% "
        "intervals per variant, turns histogram).",
    )
    def report(
        file: Annotated[Path, typer.Argument(help="A Parquet file written by 'simulate --out'.")],
        plots: Annotated[
            Path | None, typer.Option(help="Directory for the PNG plots (default: next to the file).")
        ] = None,
        as_json: Annotated[
            bool, typer.Option("--json", help="Print one JSON object instead of tables.")
        ] = False,
    ) -> None:
        from shieldwall.cli_errors import check_makeable_folder
        from shieldwall.core.errors import DataError
        from shieldwall.sim.report import plot, summarise

        if not file.exists():
            raise DataError(str(file), "", "file not found")
        check_makeable_folder(plots, "--plots")  # before the summary: the folder is made if missing
        data = summarise(file)
        paths = plot(data, plots if plots is not None else file.parent, file.stem)
        data["plots"] = [str(p) for p in paths]
        if as_json:
            typer.echo(json.dumps(data))
            return
        title = f"{file.name}: {data.get('scenario')}, {data.get('red')} (red) v {data.get('blue')} (blue)"
        print_summary(data, title)
        for p in paths:
            typer.echo(f"wrote {p}")
