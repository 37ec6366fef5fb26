#!/usr/bin/env python3
"""Draw a scenario's opening position as an SVG picture.

    .venv/bin/python scripts/render_scenario.py SCENARIO OUT.svg [--seed N] [--scale S] [--title T]
    .venv/bin/python scripts/render_scenario.py --all docs/images

SCENARIO is a built-in name (``bryn-glas`` or ``one-hour-dark-ages/bryn-glas``) or a path to a
scenario file. ``--all DIR`` writes every built-in scenario that has a tabletop view to
``DIR/<scenario-stem>.svg``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from shieldwall.io.scenarios import builtin_scenarios, load_game  # noqa: E402
from shieldwall.render.svg import render_svg  # noqa: E402


def scenario_view(name_or_path: str, seed: int = 1) -> dict[str, Any]:
    game = load_game(name_or_path)
    st = game.new_state(seed)
    view: dict[str, Any] = st.view()
    return view


def write_svg(
    name_or_path: str, out: Path, seed: int = 1, scale: float = 16.0, title: str | None = None
) -> None:
    svg = render_svg(scenario_view(name_or_path, seed), scale=scale, title=title)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(svg, encoding="utf-8")
    print(f"wrote {out}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scenario", nargs="?", help="built-in scenario name or scenario file")
    ap.add_argument("out", nargs="?", type=Path, help="the SVG file to write")
    ap.add_argument(
        "--all", type=Path, metavar="DIR", help="render every built-in tabletop scenario into DIR"
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scale", type=float, default=16.0, help="SVG units per inch (default 16)")
    ap.add_argument("--title", default=None, help="caption (default: scenario name and turn)")
    args = ap.parse_args(argv)
    if args.all is not None:
        failures = 0
        for name, path in builtin_scenarios().items():
            try:
                view = scenario_view(str(path), args.seed)
            except Exception as exc:  # a rule system without a tabletop view, or a broken file
                print(f"skipped {name}: {exc}", file=sys.stderr)
                failures += 1
                continue
            if "table" not in view or "units" not in view:
                print(f"skipped {name}: its view has no tabletop", file=sys.stderr)
                continue
            out = args.all / f"{path.stem}.svg"
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(render_svg(view, scale=args.scale, title=args.title), encoding="utf-8")
            print(f"wrote {out}")
        return 1 if failures else 0
    if not args.scenario or args.out is None:
        ap.error("give SCENARIO and OUT.svg, or --all DIR")
    write_svg(args.scenario, args.out, args.seed, args.scale, args.title)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
