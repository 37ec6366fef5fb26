"""Request and response bodies of the web API (they make its OpenAPI schema)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from shieldwall import registry
from shieldwall.io.scenarios import default_scenario
from shieldwall.web.bounds import MAX_ORDER_NODES, MAX_ORDER_TEXT, MAX_ORDERS, check_json

GAME_ID = r"^[A-Za-z0-9_-]{1,64}$"
NAME = r"^[A-Za-z0-9_.:+-]{1,64}$"
CLIENT_ID = r"^[A-Za-z0-9_-]{8,64}$"


#: the most alternatives an order may carry (``OrderIn.near``)
MAX_NEAR = 200


def _bounded(where: str) -> AfterValidator:
    return AfterValidator(lambda v: check_json(v, where))


def _one_order(v: Any, where: str) -> Any:
    """An order: bounded JSON of at most ``MAX_ORDER_NODES`` values, or a text of at most
    ``MAX_ORDER_TEXT`` characters (the refusal does not repeat the order)."""
    if isinstance(v, str):
        if len(v) > MAX_ORDER_TEXT:
            raise ValueError(
                f"{where}: an order is at most {MAX_ORDER_TEXT} characters (this one has {len(v)})"
            )
        return v
    return check_json(v, where, MAX_ORDER_NODES)


def _order_bounded(where: str) -> AfterValidator:
    return AfterValidator(lambda v: _one_order(v, where))


def _orders_bounded(where: str) -> AfterValidator:
    return AfterValidator(lambda v: [_one_order(x, f"{where}[{i}]") for i, x in enumerate(v)])


def _save(v: dict[str, Any]) -> dict[str, Any]:
    check_json(v, "save")
    orders = v.get("orders")
    if isinstance(orders, list):
        if len(orders) > MAX_ORDERS:
            raise ValueError(f"save.orders: more than {MAX_ORDERS} orders")
        for i, o in enumerate(orders):
            _one_order(o, f"save.orders[{i}]")  # (each order bounded as one given at the table)
    return v


class ErrorOut(BaseModel):
    """Every refusal: a message, and for an illegal order the rule clause and the reason."""

    detail: str = Field(description="What was wrong, in words.")
    rule: str | None = Field(default=None, description="Clause id (ruleset:clause) that refuses an order.")
    reason: str | None = Field(default=None, description="Why the rules refuse the order.")
    rule_url: str | None = Field(default=None, description="Link to the clause in the clause table.")
    errors: list[dict[str, Any]] | None = Field(
        default=None,
        description="For malformed input: each problem with its location (loc), message and type.",
    )
    version: int | None = Field(
        default=None,
        description="For an order made for another state (409): the game's current version.",
    )


class ParameterOut(BaseModel):
    name: str
    default: Any
    doc: str
    choices: list[Any]
    rule: str


class RulesetOut(BaseModel):
    id: str
    title: str
    board: str
    sides: list[str]
    summary: str
    complete: bool
    parameters: list[ParameterOut]
    web_module: str | None = Field(
        default=None,
        description="The rule system's piece of the page: an ES module the page imports from this "
        "address (its hooks, docs/web.md); null: the page offers the engine's menu of legal orders.",
    )
    reach: bool = Field(
        default=False, description="Whether /api/games/{id}/reach/{unit} answers for its games."
    )
    length_unit: str = Field(
        default="inch", description="The unit of length of its table ('inch', 'pace', 'hex'): the ruler's."
    )
    army: bool = Field(
        default=False,
        description="Whether it has army files: /api/rulesets/{ruleset}/army builds and costs them.",
    )
    ranges: bool = Field(
        default=False, description="Whether /api/games/{id}/ranges/{unit} answers for its games."
    )
    search_options: str | None = Field(
        default=None,
        description="The search bot's default options in this rule system (a spec such as '96:sh'): "
        "what a plain `mcts` opponent plays with, and what `mcts:N` leaves out; null: the built-in ones.",
    )


class ScenarioOut(BaseModel):
    name: str = Field(description="Built-in name to pass as `scenario` when starting a game.")
    ruleset: str
    title: str
    description: str
    sides: dict[str, str] = Field(description="side -> army name")
    default: bool


class ClauseOut(BaseModel):
    id: str
    rule: str
    section: str
    text: str
    url: str


def _default_ruleset() -> str:
    """The rule system of the default scenario (the first installed one's)."""
    return registry.default().id


class NewGame(BaseModel):
    """Start a battle: a rule system, a built-in scenario (or your own scenario data), your side,
    and your opponent: a bot's name, ``hotseat`` (both sides on this browser) or ``remote`` (a
    friend on another browser, invited by a one-time link)."""

    model_config = ConfigDict(extra="forbid")

    ruleset: str = Field(
        default_factory=_default_ruleset,
        max_length=64,
        json_schema_extra=lambda s: s.update(default=_default_ruleset()),
    )
    scenario: str = Field(
        default_factory=default_scenario,
        max_length=200,
        json_schema_extra=lambda s: s.update(default=default_scenario()),
    )
    scenario_data: Annotated[dict[str, Any] | None, _bounded("scenario_data")] = Field(
        default=None, description="A scenario as parsed TOML/JSON data, instead of a built-in one."
    )
    side: str | None = Field(None, max_length=32, description="Your side (default: the first).")
    opponent: str = Field("scripted", max_length=32, description="Bot name, 'hotseat' or 'remote'.")
    seed: int | None = Field(
        default=None, ge=0, le=2**62, strict=True, description="Battle seed; random when left out."
    )
    overrides: Annotated[dict[str, str | int | float | bool], _bounded("overrides")] = Field(
        default_factory=dict, description="Rule parameters KEY -> value (see /api/rulesets)."
    )


class ImportSave(BaseModel):
    """Resume a battle from a save file (``shieldwall battle --save`` or this app's Save)."""

    model_config = ConfigDict(extra="forbid")

    save: Annotated[dict[str, Any], AfterValidator(_save)]
    side: str | None = Field(None, max_length=32, description="Your side (default: the first).")
    opponent: str = Field("scripted", max_length=32)


class DecisionOut(BaseModel):
    side: str
    kind: str
    prompt: str
    unit: str | None
    data: dict[str, Any]


class MenuItem(BaseModel):
    """One order of the engine's menu for the current decision."""

    text: str
    order: dict[str, Any]
    kind: str
    unit: str | None
    target: str | None
    label: str


class DiceOut(BaseModel):
    die: str | None
    faces: list[int]
    by_side: dict[str, int] | None
    modifiers: list[dict[str, Any]]
    hits: int | None
    what: str | None


class RuleLink(BaseModel):
    rule: str
    url: str


class LogEntry(BaseModel):
    index: int
    turn: int
    phase: str
    side: str | None
    kind: str
    rule: str
    rule_url: str
    text: str
    minor: bool
    dice: DiceOut | None
    checked: list[RuleLink]
    why: bool = Field(default=False, description="Whether /combat?index= explains this event.")


class GameState(BaseModel):
    """A game as one token may see it: the decision, the table (view and SVG) and, on your turn,
    the engine's menu of orders."""

    id: str
    ruleset: str
    scenario: str
    title: str
    mode: str
    players: dict[str, str]
    joined: dict[str, bool]
    you: list[str] = Field(description="The sides your token commands (none for a spectator).")
    spectator: bool = Field(
        default=False,
        description="A spectator's token: it sees what both sides may see and gives no orders.",
    )
    seed: int | None = Field(
        description="The battle seed once it may be known (chosen by the player, or the battle is over)."
    )
    seed_text: str | None = Field(
        default=None,
        description="The same seed in decimal digits: a server's seed has 128 bits, more than a "
        "JavaScript number holds exactly.",
    )
    version: int = Field(description="Number of orders accepted so far.")
    decision: DecisionOut | None
    your_turn: bool
    waiting_for: str | None
    result: dict[str, Any] | None
    view: dict[str, Any]
    reach: dict[str, Any] | None = Field(
        default=None, description="On your turn, the reach of the unit the decision is about (see /reach)."
    )
    svg: str
    menu: list[MenuItem]
    log_size: int
    can_undo: bool
    bot_error: str | None


class GameCreated(BaseModel):
    game: GameState
    token: str = Field(description="Secret: commands the sides in `sides`. Send it as X-Shieldwall-Token.")
    sides: list[str]
    play_url: str = Field(description="Your own link (the token is in the #fragment, never sent to logs).")
    invite_url: str | None = Field(
        default=None, description="One-time link for the other player (remote games)."
    )


class OrderIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    order: Annotated[str | dict[str, Any], _order_bounded("order")] = Field(
        description="An order in its text form ('activate r1', 'charge r1 b2 front') or dict form "
        "({'kind': 'move', 'unit': 'r1', 'steps': [{'go': [14, 9]}]}).",
        examples=["activate r1", {"kind": "hold", "unit": "r1"}],
    )
    client_id: str | None = Field(
        default=None,
        pattern=CLIENT_ID,
        description="A fresh random id the client picks for this order (8 to 64 letters, digits, - "
        "or _). Sending the same id again (a retry) returns the first answer and changes nothing.",
        examples=["c7f1b0e2a9d84e57"],
    )
    version: int | None = Field(
        default=None,
        ge=0,
        le=10**9,
        description="The game's `version` the order was made for. If the game has moved on (another "
        "order came first), the order is refused with 409 and the current version.",
    )
    near: Annotated[list[str | dict[str, Any]], _bounded("near"), _orders_bounded("near")] = Field(
        default_factory=list,
        max_length=MAX_NEAR,
        description="Orders to play instead if the rules refuse `order`, nearest first (the page sends "
        "the same order for the points around a click): the first legal one is played, and the answer's "
        "`snapped` says which and why `order` was refused. None legal: the refusal of `order`.",
    )


class SnapOut(BaseModel):
    index: int = Field(description="The order of `near` that was played.")
    rule: str = Field(description="The clause that refused the order as given.")
    reason: str = Field(description="Why the order as given was refused.")
    rule_url: str


class OrderOut(BaseModel):
    accepted: str
    repeat: bool = Field(
        default=False,
        description="True when this answers a retry (a `client_id` already accepted): nothing changed, "
        "`accepted`, `bot_orders` and `events` are those of the first answer, `state` is the game now.",
    )
    snapped: SnapOut | None = Field(
        default=None, description="Set when `order` was refused and one of `near` was played instead."
    )
    bot_orders: list[str]
    events: list[LogEntry] = Field(description="Everything that happened: your order and the bots' replies.")
    state: GameState


class LogOut(BaseModel):
    size: int
    entries: list[LogEntry]


class ReachOut(BaseModel):
    unit: str
    reach: dict[str, Any]
    svg: str = Field(description="The table with the unit's reach drawn on it.")


class CombatOut(BaseModel):
    index: int
    kind: str
    turn: int
    side: str | None
    text: str
    attacker: str
    attacker_name: str
    target: str
    target_name: str
    facing: str | None
    terrain: str | None
    die: str | None
    faces: list[int]
    modifiers: list[dict[str, Any]]
    hits: int | None
    target_hits: int | None
    rule: dict[str, str]
    checked: list[dict[str, str]]
    groups: list[dict[str, Any]] = Field(
        default_factory=list,
        description="For a rule system that rolls by group of figures: each group's dice, what they "
        "need, faces and hits.",
    )
    test: dict[str, Any] | None = Field(
        default=None,
        description="For a rule system's morale or control test: level, number to roll, result.",
    )
    notes: list[str] = Field(default_factory=list)


class UndoOut(BaseModel):
    dropped: int
    state: GameState


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    invite: str = Field(min_length=1, max_length=200)


class JoinOut(BaseModel):
    side: str
    token: str
    play_url: str


class InviteOut(BaseModel):
    side: str
    invite_url: str


class ReplayTurn(BaseModel):
    turn: int
    events: int
    complete: bool
    headline: list[str]


class ReplayOut(BaseModel):
    turns: list[ReplayTurn]
    finished: bool


class ReplayFrame(BaseModel):
    turn: int
    complete: bool
    events: list[LogEntry]
    view: dict[str, Any]
    svg: str


class StepOut(BaseModel):
    index: int = Field(description="The order's place in the battle (0 is the first order).")
    side: str
    by: str = Field(description="'human' or 'bot'.")
    text: str = Field(
        description="The order in words ('(an order hidden from you)' when what it did is hidden)."
    )
    unit: str | None = Field(description="The unit it was given to, if you can see it.")
    first_event: int = Field(description="The index of its first event in the battle's log.")
    events: list[LogEntry] = Field(description="What it did, with its dice and clauses.")
    svg: str = Field(description="The table after it.")


class StepsOut(BaseModel):
    size: int = Field(description="The number of orders in the battle (the game's version).")
    steps: list[StepOut]


class SpectateOut(BaseModel):
    watch_url: str = Field(
        description="The spectator's link: it shows the battle as both sides may see it, read only."
    )


class CheckIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    order: Annotated[str | dict[str, Any], _order_bounded("order")]
    near: Annotated[list[str | dict[str, Any]], _bounded("near"), _orders_bounded("near")] = Field(
        default_factory=list, max_length=MAX_NEAR
    )


class CheckOut(BaseModel):
    legal: bool = Field(description="Whether the order as given, or one of `near`, would be taken.")
    index: int | None = Field(description="The first of `near` taken when the order as given is refused.")
    rule: str | None = Field(default=None, description="The clause refusing the order as given.")
    reason: str | None = None
    rule_url: str | None = None
