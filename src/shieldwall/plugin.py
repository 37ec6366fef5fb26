"""The rule-system plugin object: everything the host layers need to know about one rule system.

A rule system is one package (``shieldwall.rulesets.<name>`` for the built-in ones, any importable
package for others) that defines one :class:`RuleSystem` value and registers it under the
entry-point group ``shieldwall.rulesets`` (see :mod:`shieldwall.registry`)::

    [project.entry-points."shieldwall.rulesets"]
    my-rules = "my_rules.plugin:PLUGIN"

The value is small and cheap to import: the heavy parts (the game engine, the odds, the bots, the
drawing, the narration, the web piece) are named by *references*, ``"module:attribute"`` strings,
imported only when a host layer asks for them (:meth:`RuleSystem.load`). A host layer (``cli``,
``odds``, ``ai``, ``render``, ``sim``, ``web``, ``io``) never imports a rule-system package and
never branches on a rule system's id: it asks the plugin.

What each reference must name:

``game``
    a :class:`shieldwall.core.game.Game` subclass with a classmethod
    ``from_data(data, file, overrides) -> Game`` that validates a scenario's TOML data.
``parameters``
    a ``Mapping[str, Parameter]``: the rule parameters (``--variant KEY=VALUE``) with defaults and
    documentation.
``odds``
    an :class:`shieldwall.odds.base.OddsPlugin` instance: the ``shieldwall odds`` queries it answers
    and their declared argument schema (SPEC grammar, ``--set`` keys).
``bots``
    name -> a :class:`shieldwall.ai.base.Bot` subclass constructed as ``cls(seed)``; these names
    come before the generic bots (``random``) for this rule system.
``drawing``
    the rule system's layers of the SVG picture (the interface is ``render.layers.Drawing``).
``narrate``
    ``describe(event, names) -> str | None``: one line of plain words per event.
``explain``
    ``explain(events, index, names, clause) -> dict | None``: the "why" of a combat event for the web
    log (its dice by group, its test), or None for the generic explanation; ``clause(rule_id)``
    gives the web's ``{rule, url, section, text}`` of a clause. The module also names the event
    kinds it explains: ``ATTACK_KINDS`` and ``COMBAT_KINDS`` (frozensets).
``reach``
    ``reach(state, unit_id) -> dict``: where a unit may go now (the web page's reach overlay).
``clauses``
    ``Mapping[str, tuple[str, str]]``: clause id -> (section, summary), shipped in the package, so
    an installed wheel can link and explain every event's clause.
``commands``
    ``register(app)``: adds the rule system's own sub-commands to the ``shieldwall`` CLI.
``army_cost``
    ``army_cost(path, as_json, check) -> None``: ``shieldwall army cost FILE`` for this rule
    system's army files (orders of battle). It validates the file (a ``ShieldwallError`` naming
    file, field and rule if it does not), then, unless ``check``, prints the costed army (a table,
    or one JSON object) and raises ``ShieldwallError`` if the army breaks its points limit. The
    host picks the rule system from ``--ruleset``, the file's ``ruleset`` key, or the one whose
    ``army_cost(path, False, True)`` accepts the file.
``army_builder`` (optional; only with ``army_cost``)
    ``army_builder() -> dict``: the browser's army builder (docs/web.md), the fields of an army file
    and the choices the rules allow for each: ``{"new": {...}, "fields": [F...], "sections":
    [{"key", "title", "fields": [F...], "unique"?, "within"?}], "note"?}``. ``new``: a new army
    file's top-level values; ``fields``: its top-level fields; each section an array of tables of the
    file (``[[units]]``) whose entries the player picks, ``unique`` the field that tells them apart
    (default ``name``: a copy gets a number); ``within`` ``{"section", "field", "label"}``: the
    entries live in the array ``field`` of an entry of another section (a command's elements), the
    player picks which (``label``); ``note`` a line shown above the builder (a sample
    data set's label). A field F is ``{"name", "label", "kind", "choices"?, "default"?, "min"?,
    "max"?, "optional"?}`` with ``kind`` one of ``text``, ``number``, ``bool``, ``choice`` (one of
    ``choices``, ``[[value, label], ...]``) or ``multi`` (a list of them); an optional field left
    empty is left out of the entry. The page never costs an army: the server runs ``army_cost`` on
    the file. Without it the builder edits the army file's text, costed the same way.
``ranges`` (optional)
    ``ranges(state, unit_id) -> dict | None``: what the web page draws from a selected unit beyond
    its reach — range bands, arcs of fire, lines of sight: ``{"unit", "shapes": [{"label", "kind",
    "points": [[x, y], ...], "rule"}], "sight": [{"unit", "visible", "from": [x, y], "to": [x, y],
    "why", "rule"}]}``. A shape is a polygon in table units (``kind``: ``range``, ``arc`` or
    ``corridor``; an empty label draws no words); ``sight`` has one line per enemy, with why it is
    not (or only partly) seen. A rule system without a line-of-sight rule may make the lines say
    what the engine lets the unit do to each enemy instead (shoot at it, charge it), naming it in
    ``"sight_label"`` (the page's verb for the lines, default ``"sees"``). None for a unit it has
    nothing for.
``determinize`` (optional: only for a rule system with hidden information)
    ``determinize(state, side, rng) -> State``: a *copy* of ``state`` in which everything ``side``
    may not see (what the view marks ``hidden_from`` it: the other side's face-down cards, its
    hidden ambushers) is drawn anew from ``rng`` (a ``numpy.random.Generator``), consistently with
    what ``side`` sees; ``state`` itself is unchanged. The result must be a legal battle whose
    view, filtered for ``side`` (``shieldwall.visibility.view_for``), is the view ``side`` has of
    ``state``, and it must depend only on that view and on ``rng``: two battles that differ only
    in what ``side`` may not see give the same result for the same generator. The search bot
    (``shieldwall.ai.mcts``) plays each playout on such a copy, so it never searches on facts its
    side does not know. A rule system without hidden information leaves it None (the search
    copies the state). The coming dice are not its business: the search gives every playout fresh
    dice itself (the convention: a state keeps its battle's generator in ``state.rng`` or in
    ``state.board.rng``).

``score`` (optional)
    ``score(state) -> dict[side, float]``: each side's standing by the rule system's own victory
    conditions (objectives held, victory points, army points lost, morale), in [-1, 1], 0 when
    even, larger when the side is more likely to win. The search bot (``shieldwall.ai.mcts``)
    scores a playout that stops before the battle ends with it; without it, with each side's share
    of its units' strength left (``shieldwall.ai.mcts.material``), which is blind to a battle won
    on objectives or points. It must only read ``state`` (never change it nor roll its dice) and
    be deterministic.

``progress`` (optional)
    ``progress(state) -> tuple[int, ...]``: the point of the game the battle stands at (its turn,
    bound or game-turn, the player whose turn it is, the phase: whatever the rule system's turn
    sequence has, most significant first), compared as a tuple: it never decreases as the battle
    is played on, and two battles at the same point of the sequence give the same tuple. The
    search bot plays the playouts it compares (two root orders on the same dice) on until they
    stand at the same point (:mod:`shieldwall.ai.playout`): a horizon counted in decisions alone
    stops one before a melee the other has fought. A point may hold many decisions (a phase's
    every move): the finer the tuple, the closer the alignment. A battle that is over may stand
    where it ended (a playout still going is played on past that point). It must only read
    ``state``. Without it the playouts stop at the horizon alone.

``search_options`` (optional; not a reference: a spec)
    the search bot's default options for this rule system, in the grammar of ``mcts:...``
    (:mod:`shieldwall.ai.search_spec`): a playout budget, ``hH`` / ``hend``, ``sh`` / ``duel``,
    ``mixP``, ``gX`` (e.g. ``"20:hend:sh"``). Plain ``mcts`` plays with all of them; a spec the user
    writes keeps each kind of option it gives and takes the rest from here (``mcts:64`` on
    ``"20:hend:sh"`` is 64 playouts to the battle's end by halving). What measured best at about one
    CPU second a decision (docs/agents.md). A value that does not parse is a ``PluginError`` naming
    the rule system and the field when the search bot is made for it.

``search_plans`` (optional)
    a ``Mapping[str, Bot subclass]`` (each constructed as ``cls(seed)``): plans the search bot may
    play its own side by in its rollouts, beside the rule system's own first bot (its plan
    portfolio, ``mcts:...:pf``, :mod:`shieldwall.ai.portfolio`): e.g. a side that holds its ground,
    or attacks whatever the odds. Without it the portfolio is the first bot alone.

Files (paths inside the package, read with :meth:`RuleSystem.resource`):

``scenarios``
    a folder of built-in scenario files (``<stem>.toml``), listed as ``<id>/<stem>``.
``web_module``
    the web piece: an ES module the page imports by id (``/rulesets/<id>/<web_module>``); it
    exports the page's hooks for this rule system (listed in docs/web.md). Other files in the same
    folder are served beside it.
``clause_table`` (not a package file)
    where the generated clause table lives in the project's repository (``docs/rules/<id>.md``),
    for readers and documentation links.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from importlib.resources.abc import Traversable
from types import MappingProxyType
from typing import Any

from shieldwall.core.errors import ShieldwallError
from shieldwall.core.game import RulesetInfo

#: the kinds of board a rule system plays on
BOARDS = ("tabletop", "hex", "elements")


class PluginError(ShieldwallError):
    """A rule-system plugin that is broken: a reference that does not import, a missing file."""


def _ref(value: str, what: str) -> tuple[str, str]:
    module, sep, attr = value.partition(":")
    if not sep or not module or not attr:
        raise PluginError(f"rule-system plugin reference {what}={value!r} is not 'module:attribute'")
    return module, attr


@dataclass(frozen=True, eq=False)
class RuleSystem:
    """One rule system, as the host layers see it (module docstring: what each field names)."""

    info: RulesetInfo
    package: str
    game: str
    parameters: str
    #: display order in lists (then by id)
    order: int = 100
    #: unit of length on its board: "inch", "pace", "hex"
    length_unit: str = "inch"
    #: players (sides) who give orders
    players: int = 2
    #: the stem of the scenario ``battle`` plays when given only this rule system
    default_scenario: str | None = None
    odds: str | None = None
    bots: Mapping[str, str] = field(default_factory=dict)
    drawing: str | None = None
    narrate: str | None = None
    explain: str | None = None
    reach: str | None = None
    clauses: str | None = None
    commands: str | None = None
    army_cost: str | None = None
    army_builder: str | None = None
    ranges: str | None = None
    determinize: str | None = None
    score: str | None = None
    progress: str | None = None
    #: the search bot's default options (a spec: module docstring), or None
    search_options: str | None = None
    search_plans: str | None = None
    scenarios: str | None = "scenarios"
    web_module: str | None = None
    clause_table: str | None = None

    def __post_init__(self) -> None:
        if self.info.board not in BOARDS:
            raise PluginError(
                f"rule system {self.info.id!r}: board {self.info.board!r} is not one of {', '.join(BOARDS)}"
            )
        object.__setattr__(self, "bots", MappingProxyType(dict(self.bots)))
        for what in (
            "game",
            "parameters",
            "odds",
            "drawing",
            "narrate",
            "explain",
            "reach",
            "clauses",
            "army_cost",
            "army_builder",
            "ranges",
            "determinize",
            "score",
            "progress",
            "search_plans",
        ):
            v = getattr(self, what)
            if v is not None:
                _ref(v, what)
        for name, v in self.bots.items():
            _ref(v, f"bots[{name}]")

    # --- metadata ------------------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def title(self) -> str:
        return self.info.title

    @property
    def board(self) -> str:
        return self.info.board

    @property
    def sides(self) -> tuple[str, ...]:
        return self.info.sides

    # --- lazy parts ----------------------------------------------------------------------------

    def load(self, what: str) -> Any:
        """Import what the reference field ``what`` names (``PluginError`` if it cannot)."""
        value = getattr(self, what, None)
        if not isinstance(value, str):
            raise PluginError(f"rule system {self.id!r} has no {what}")
        return load_ref(value, f"{self.id}.{what}")

    def optional(self, what: str) -> Any:
        """:meth:`load`, or None when the rule system does not provide ``what``."""
        return None if getattr(self, what, None) is None else self.load(what)

    def game_class(self) -> Any:
        return self.load("game")

    @cached_property
    def parameter_specs(self) -> Mapping[str, Any]:
        specs: Mapping[str, Any] = self.load("parameters")
        return specs

    def bot_class(self, name: str) -> Any | None:
        ref = self.bots.get(name)
        return None if ref is None else load_ref(ref, f"{self.id}.bots[{name}]")

    # --- files ---------------------------------------------------------------------------------

    def resource(self, *parts: str) -> Traversable:
        """A file or folder inside the rule system's package (it may not exist)."""
        node: Traversable = resources.files(self.package)
        for p in parts:
            node = node / p
        return node

    def scenario_files(self) -> dict[str, Traversable]:
        """Built-in scenarios: stem -> file, sorted by stem."""
        if not self.scenarios:
            return {}
        folder = self.resource(self.scenarios)
        if not folder.is_dir():
            return {}
        found = {f.name[: -len(".toml")]: f for f in folder.iterdir() if f.name.endswith(".toml")}
        return dict(sorted(found.items()))

    def web_file(self, name: str) -> Traversable | None:
        """A file of the web piece's folder (beside ``web_module``), or None."""
        if not self.web_module:
            return None
        folder, _, _ = self.web_module.rpartition("/")
        if not name or "/" in name or "\\" in name or name.startswith("."):
            return None
        node = self.resource(*(p for p in folder.split("/") if p), name)
        return node if node.is_file() else None


def load_ref(value: str, what: str = "reference") -> Any:
    """Import ``module:attribute`` (dots in the attribute walk into it)."""
    module, attr = _ref(value, what)
    try:
        obj: Any = importlib.import_module(module)
    except ImportError as exc:
        raise PluginError(f"rule-system plugin {what}: cannot import {module!r}: {exc}") from exc
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise PluginError(f"rule-system plugin {what}: {module!r} has no {attr!r}") from None
    return obj
