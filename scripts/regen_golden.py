#!/usr/bin/env python3
"""Regenerate the golden playthroughs in tests/golden/: seeded battles whose records are checked in.

    python scripts/regen_golden.py                      # every case
    python scripts/regen_golden.py into-the-dark        # only one rule system's cases

Each case (scenario, seed, red bot, blue bot) has two files:

``<case>.jsonl``
    the battle's event log, one event per line (``Event.to_dict()``, keys sorted);
``<case>.playthrough.txt``
    every decision of the same battle: who decides, what kind of choice, the prompt, the legal
    menu (the text forms of ``state.legal_orders()``, in order) and the order chosen, then the
    result and the sha256 of the event log (so the two files provably describe one battle).

When a ruling or a menu changes on purpose, run this and review ``git diff tests/golden/`` before
committing it (CONTRIBUTING.md).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from shieldwall.ai.base import Bot, bot_seed, make_bot  # noqa: E402
from shieldwall.core.game import State  # noqa: E402
from shieldwall.io.scenarios import load_game  # noqa: E402
from shieldwall.match import play  # noqa: E402

#: (scenario, seed, red bot, blue bot); a scenario may carry rule parameters after a "?", e.g.
#: "into-the-dark/senlac?command_and_control=true" (``name=value`` pairs joined by "&", values as in
#: ``--variant``): the battle is played with them, and they are part of the case's file names.
GOLDEN = [
    ("one-hour-dark-ages/bryn-glas", 1, "scripted", "scripted"),
    ("one-hour-dark-ages/bryn-glas", 7, "scripted", "random"),
    ("one-hour-dark-ages/bryn-glas", 11, "random", "random"),
    ("into-the-dark/senlac", 1, "scripted", "scripted"),
    ("into-the-dark/wye-fords", 4, "scripted", "random"),
    ("into-the-dark/senlac", 9, "random", "random"),
    ("into-the-dark/senlac?command_and_control=true", 2, "scripted", "scripted"),
    ("knight-hack/bourgtheroulde-1124", 1, "scripted", "scripted"),
    ("knight-hack/bourgtheroulde-1124", 2, "scripted", "random"),
    ("knight-hack/bourgtheroulde-1124", 3, "random", "random"),
    ("dbm-3.2/ford-of-ash", 1, "scripted", "scripted"),
    ("dbm-3.2/ford-of-ash", 2, "scripted", "random"),
    ("dbm-3.2/ford-of-ash", 3, "random", "random"),
    ("dbm-3.2/ford-of-ash?hand_deployment=true", 4, "random", "scripted"),
    ("spi-dark-ages/tours", 1, "scripted", "scripted"),
    ("spi-dark-ages/tours", 2, "scripted", "random"),
    ("spi-dark-ages/tours", 3, "random", "random"),
]

PLAYTHROUGH_HEADER = """\
# shieldwall golden playthrough: {scenario}, seed {seed}, {sides}
# Written by scripts/regen_golden.py, checked by tests/golden/test_golden.py; the battle's event
# log is {events}. One block per decision:
#   decision N: side=S kind=K [unit=U] {{the decision's data}}
#     prompt: the decision's prompt
#     menu (M): state.legal_orders() in order, one text form (str(order)) a line, numbered from 0
#     chose #i: the order given (#i is its place in the menu; "chose (not in the menu)" for an
#               exact order the menu only samples)
# Every menu is written in full.
"""


def split_case(scenario: str) -> tuple[str, dict[str, Any]]:
    """The scenario name and the rule parameters a case's scenario field carries after "?"."""
    name, _, query = scenario.partition("?")
    options: dict[str, Any] = {}
    for pair in filter(None, query.split("&")):
        key, _, raw = pair.partition("=")
        options[key] = {"true": True, "false": False}.get(raw, raw)
    return name, options


def load_case(scenario: str) -> Any:
    """The game of a case's scenario field (with its rule parameters, if any)."""
    name, options = split_case(scenario)
    return load_game(name, options or None)


def path_for(scenario: str, seed: int, red: str, blue: str) -> Path:
    name, options = split_case(scenario)
    stem = name.replace("/", "__") + "".join(
        f"__{k}" if v is True else f"__{k}-{v}" for k, v in sorted(options.items())
    )
    return ROOT / "tests/golden" / f"{stem}__seed{seed}__{red}-v-{blue}.jsonl"


def playthrough_path_for(scenario: str, seed: int, red: str, blue: str) -> Path:
    return path_for(scenario, seed, red, blue).with_suffix(".playthrough.txt")


def event_log(state: State) -> str:
    """The event log as the ``.jsonl`` golden files hold it."""
    lines = [json.dumps(e.to_dict(), sort_keys=True, ensure_ascii=False) for e in state.events]
    return "\n".join(lines) + "\n"


def transcript(scenario: str, seed: int, red: str, blue: str) -> str:
    """The ``.jsonl`` golden file's text: the event log of the battle played by ``match.play``."""
    return event_log(play(load_case(scenario), seed, red, blue).state)


class _Recorder(Bot):
    """Wraps a bot: writes each decision, its menu and the bot's choice before the order is applied."""

    def __init__(self, inner: Bot, out: list[str], count: list[int]) -> None:
        super().__init__(0)  # its own generator is never used: the wrapped bot chooses
        self.inner, self.out, self.count = inner, out, count
        self.name = inner.name

    def choose(self, state: State) -> Any:
        d = state.decision()
        assert d is not None
        menu = state.legal_orders()
        order = self.inner.choose(state)
        self.count[0] += 1
        head = f"decision {self.count[0]}: side={d.side} kind={d.kind}"
        if d.unit is not None:
            head += f" unit={d.unit}"
        if d.data:
            head += " " + json.dumps(d.data, sort_keys=True, ensure_ascii=False)
        self.out += [head, f"  prompt: {d.prompt}", f"  menu ({len(menu)}):"]
        self.out += [f"    {i} {o}" for i, o in enumerate(menu)]
        where = f"#{menu.index(order)}" if order in menu else "(not in the menu)"
        self.out += [f"  chose {where}: {order}", ""]
        return order


def playthrough(scenario: str, seed: int, red: str, blue: str) -> tuple[str, str]:
    """The ``.playthrough.txt`` golden file's text, and the event log of the battle it records.

    The bots are made exactly as ``match.play`` makes them (same names, same derived seeds), so the
    battle is the one of :func:`transcript`; the event log returned lets a test check that.
    """
    game = load_case(scenario)
    sides = " v ".join(f"{side} {bot}" for side, bot in zip(game.info.sides, (red, blue), strict=True))
    events_file = path_for(scenario, seed, red, blue).name
    out = [PLAYTHROUGH_HEADER.format(scenario=scenario, seed=seed, sides=sides, events=events_file)]
    count = [0]
    bots = [
        _Recorder(make_bot(b, bot_seed(seed, i), game.info.id), out, count) for i, b in enumerate((red, blue))
    ]
    played = play(game, seed, bots[0], bots[1])
    events = event_log(played.state)
    result = played.state.result()
    assert result is not None
    winner = f"{result.winner} wins" if result.winner else "a draw"
    out.append(f"result: {winner} ({result.reason}) after turn {result.turns}")
    out.append(f"decisions: {count[0]}; events: {len(played.state.events)}")
    out.append(f"sha256 of the event log: {hashlib.sha256(events.encode('utf-8')).hexdigest()}")
    return "\n".join(out) + "\n", events


def main(argv: list[str] | None = None) -> int:
    only = set(sys.argv[1:] if argv is None else argv)
    for g in GOLDEN:
        if only and g[0].split("/")[0] not in only:
            continue
        p = path_for(*g)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(transcript(*g), encoding="utf-8")
        print(f"wrote {p.relative_to(ROOT)}")
        text, events = playthrough(*g)
        if events != p.read_text(encoding="utf-8"):
            print(f"error: recording the menus changed the battle of {p.name}", file=sys.stderr)
            return 1
        q = playthrough_path_for(*g)
        q.write_text(text, encoding="utf-8")
        print(f"wrote {q.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
