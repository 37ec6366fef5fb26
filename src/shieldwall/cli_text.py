"""Names, specs, paths and messages printed through rich exactly as they are.

rich reads every ``str`` it prints (``Console.print``, a table's title, caption, header or cell)
as console markup and emoji codes: a scenario named ``Bryn [/x] Glas`` stopped the command with a
``MarkupError``, ``Hastings [alternate history]`` lost its bracket, and the unit spec
``heavy-cavalry:B:6`` came out as ``heavy-cavalry🅱6``. A ``rich.text.Text`` is never parsed, so
the command line passes every piece of user or data text through these helpers; only text
written in the code itself may be markup. The consoles the commands make never turn ``:name:``
codes into emoji either, should a string still reach them.

rich is imported inside the functions: importing this module stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text


def literal(text: object, style: str = "") -> Text:
    """``text`` shown exactly as it is (no markup, no emoji codes), in ``style``."""
    from rich.text import Text

    return Text(str(text), style=style)


def title(text: object) -> Text:
    """A table title shown as it is, in the style rich gives a title passed as a string."""
    return literal(text, "table.title")


def caption(text: object) -> Text:
    """A table caption shown as it is, in the style rich gives a caption passed as a string."""
    return literal(text, "table.caption")


def console(**kwargs: Any) -> Console:
    """A rich console (``kwargs`` as ``rich.console.Console``'s) that never turns ``:name:`` codes
    into emoji."""
    from rich.console import Console

    return Console(emoji=False, **kwargs)
