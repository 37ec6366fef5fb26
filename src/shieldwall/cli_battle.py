"""``shieldwall battle`` and ``shieldwall replay``: play and re-run battles."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer


def _names(state: Any) -> dict[str, str]:
    return {u["id"]: f"{u['name']} [{u['id']}]" for u in state.view()["units"]}


def _parse_sets(sets: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for s in sets or []:
        k, eq, v = s.partition("=")
        if not eq or not k:
            raise typer.BadParameter(f"expected KEY=VALUE, got {s!r}")
        if k.strip() in out:  # (the last one silently won)
            raise typer.BadParameter(f"{k.strip()} is given twice ({out[k.strip()]!r} and {v.strip()!r})")
        out[k.strip()] = v.strip()
    return out


def register(app: typer.Typer) -> None:
    @app.command("battle")
    def battle(
        scenario: Annotated[
            str | None,
            typer.Argument(help="Scenario file or built-in name (default: 'shieldwall scenarios' marks it)."),
        ] = None,
        seed: Annotated[
            int, typer.Option(min=0, help="Battle seed (0 or more): same seed, same battle.")
        ] = 1,
        red: Annotated[
            str,
            typer.Option(
                help="Bot for red (the first side): scripted | random | mcts[:N playouts or Ts, options] "
                "(the rule system's bots)."
            ),
        ] = "scripted",
        blue: Annotated[
            str,
            typer.Option(
                help="Bot for blue (the second side): scripted | random | mcts[:N playouts or Ts, options]."
            ),
        ] = "scripted",
        variant: Annotated[
            list[str] | None, typer.Option("--variant", help="Rule parameter KEY=VALUE.")
        ] = None,
        as_json: Annotated[
            bool, typer.Option("--json", help="Print the whole event log and result as JSON.")
        ] = False,
        save: Annotated[
            Path | None, typer.Option(help="Write a save file (scenario, seed, orders, events).")
        ] = None,
        svg: Annotated[Path | None, typer.Option(help="Draw the final table to this SVG file.")] = None,
    ) -> None:
        """Play an AI-vs-AI battle, narrated turn by turn, and print the result."""
        from rich.text import Text

        from shieldwall.cli_errors import check_folder, scenario_argument
        from shieldwall.cli_text import console
        from shieldwall.io.saves import make_save, write_save
        from shieldwall.io.scenarios import load_game
        from shieldwall.match import play
        from shieldwall.render.narrate import describe

        check_folder(save, "--save")
        check_folder(svg, "--svg")
        overrides = _parse_sets(variant)
        with scenario_argument(scenario):
            game = load_game(scenario, overrides)
        played = play(game, seed, red, blue)
        st = played.state
        if save is not None:
            write_save(save, make_save(game, seed, played.orders, st, overrides))
        if svg is not None:
            from shieldwall.render.svg import render_svg

            svg.write_text(render_svg(st.view()), encoding="utf-8")
        res = st.result()
        assert res is not None
        if as_json:
            print(
                json.dumps(
                    {
                        "ruleset": game.info.id,
                        "scenario": game.scenario_name,
                        "seed": seed,
                        "red": red,
                        "blue": blue,
                        "events": [e.to_dict() for e in st.events],
                        "result": res.to_dict(),
                    },
                    ensure_ascii=False,
                )
            )
            return
        con = console(highlight=False)
        names = _names(st)
        for ev in st.events:
            line = describe(ev, names)
            if line is None:
                continue
            if ev.kind == "turn":
                con.rule(Text(line, style="bold"))
            elif ev.kind == "result":
                con.print(Text(line, style="bold green"))
            else:
                con.print(Text(line))
        con.print(f"{len(played.orders)} decisions, {len(st.events)} events.")

    @app.command("replay")
    def replay_cmd(
        save: Annotated[Path, typer.Argument(help="A save file written by 'battle --save' or the web app.")],
        as_json: Annotated[bool, typer.Option("--json", help="Print the replayed result as JSON.")] = False,
    ) -> None:
        """Re-run a saved battle and verify every event is identical."""
        from shieldwall.cli_text import console, literal
        from shieldwall.io.saves import read_save, replay

        data = read_save(save)
        st = replay(data, str(save))
        res = st.result()
        if as_json:
            print(
                json.dumps(
                    {
                        "verified": "events" in data,
                        "events": len(st.events),
                        "result": res.to_dict() if res else None,
                    }
                )
            )
            return
        # the scenario's name and the result's words are data: shown as they are, never markup
        console(highlight=False).print(
            literal(
                f"{st.game.scenario_name}: replayed {len(data['orders'])} orders: {len(st.events)} events"
                + (
                    ", all identical to the save."
                    if "events" in data
                    else " (the save holds no events to compare)."
                )
                + (f" Result: {res.winner or 'draw'} - {res.reason}" if res else " The battle is not over.")
            )
        )

    @app.command("scenarios")
    def scenarios_cmd() -> None:
        """List the built-in scenarios."""
        from rich.table import Table

        from shieldwall.cli_text import console, literal
        from shieldwall.core.datafiles import read_toml
        from shieldwall.io.scenarios import builtin_scenarios, default_scenario
        from shieldwall.render.tables import print_table

        t = Table(title="Built-in scenarios")
        t.add_column("name")
        t.add_column("title")
        t.add_column("options")
        default = default_scenario()
        #: the data labels met (e.g. that a rule system's tables are an illustrative sample), numbered
        notes: dict[str, int] = {}
        for name, path in builtin_scenarios().items():
            d = read_toml(path)
            if "ruleset" not in d:
                continue
            opts = ", ".join(k for k, v in d.get("options", {}).items() if v is True)
            title = str(d.get("name", "")) + (" (the default)" if name == default else "")
            label = _data_label(name)
            if label:
                title += f" [{notes.setdefault(label, len(notes) + 1)}]"
            t.add_row(literal(name), literal(title), literal(opts))  # the files' words, not markup
        print_table(t, console())
        for label, n in notes.items():
            typer.echo(f"[{n}] plays on {label}")


def _data_label(name: str) -> str | None:
    """The label the scenario's battle shows for its data (its view's ``label``: e.g. that the
    rule system's tables are an illustrative sample, not the publisher's), or None."""
    from shieldwall.core.errors import ShieldwallError
    from shieldwall.io.scenarios import load_game

    try:
        label = load_game(name).new_state(0).view().get("label")
    except ShieldwallError:
        return None
    return str(label) if label else None
