"""How the into-the-dark scripted general uses his generals with Command & Control in play.

The text (command.generals, command.general-leading, command.command-actions, command.new-orders):
"They may join units"; a general who has joined and personally leads a unit frees it of its
preferences and steadies it; "A general that has not joined a unit may instead use command
'actions'": new orders (1 action) and ordering units within 12 inches of him to act against their
preferences, as many a turn as his rating. The bot chooses per general, every turn:

* **command** when his rating is 2 or more and his division has two or more foot melee units left:
  foot prefer to stand, so only a general's order lets them charge, and one general on his own
  frees as many units a turn as his rating where a leading one frees only his own. He leaves the
  unit he leads (``leave``) when he may, and rides behind his division's leading units: within
  command distance of as many of them as he can, never within a charge (12") of an enemy.
* **lead** otherwise (a poor general, a mounted division, which charges by preference anyway, or
  a division down to one unit): he joins the unit of his division nearest the enemy (the general's
  own figure rule, ``general._general_figure``), and leaves it for another when the one he leads
  is far from the fighting and another is much nearer.

Command actions: before the bot activates a unit in its Movement phase, it asks whether an order
from an unjoined general in reach would help: on a copy of the state it looks at the unit's menu
with and without the order; the order is given when it opens a charge the bot would make (worth
its charge bar, ``reckoning.CHARGE_BAR``) that the unit's preferences forbid, or frees mounted from
a charge their preferences force on them at poor odds. New orders: at the start of the Initiative
phase a division the bot means to pull back (``reckoning._plan_turn``: "fall back") gets Fall Back
orders, and one that may attack again gets Attack orders (a Hold from the scenario is kept).

Without Command & Control there are no general figures, command actions or new orders, and none of
this is asked: the bot plays exactly as before. It reads only the public State API.
"""

from __future__ import annotations

from typing import Any, Protocol

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.game import State
from shieldwall.core.geometry import Footprint
from shieldwall.core.polygons import footprint_distance
from shieldwall.rulesets.into_the_dark import orders as O

#: an unjoined general keeps his figure this far from every enemy (a charge's reach)
SAFE = 12.0
#: ... and tries to stand within this of his division's units (the 12" of a command action, less
#: a margin for their moves)
REACH = 10.0
#: lead mode: the unit he leads is "far from the fighting" beyond this from every enemy ...
FAR = 18.0
#: ... and another unit of his division is "much nearer" by this much
NEARER = 6.0


class Bot(Protocol):
    """What this module reads of the scripted general (``general.IntoTheDarkGeneral``)."""

    me: str
    view: dict[str, Any]
    units: dict[str, dict[str, Any]]
    fps: dict[str, Footprint]
    mine: list[dict[str, Any]]
    enemies: list[dict[str, Any]]
    orders: dict[str, str]

    def _division(self, u: dict[str, Any]) -> str: ...

    def _bar(self, u: dict[str, Any]) -> float: ...

    def _charge_value(
        self, c: dict[str, Any], t: dict[str, Any], edge: str, imp: bool, order: Any = None
    ) -> float: ...

    def _edge_after(self, state: State, o: Any) -> str: ...

    def _after(self, state: State, o: Any, uid: str) -> tuple[Footprint, bool] | None: ...


# ---------------------------------------------------------------------- who does what


def _generals(bot: Bot) -> dict[str, dict[str, Any]]:
    """The bot's own standing generals, by key (the engine's ``generals`` view)."""
    gens = bot.view.get("generals") or {}
    return {k: g for k, g in gens.items() if g.get("side") == bot.me and not g.get("fallen")}


def _troops_of(bot: Bot, division: str) -> list[dict[str, Any]]:
    """The division's units on the table, not routed, not a general's or champion's own figure."""
    return [
        x
        for x in bot.mine
        if not x.get("general")
        and not x.get("champion")
        and x["morale"] != "routed"
        and bot._division(x) == division
    ]


def mode(bot: Bot, g: dict[str, Any]) -> str:
    """ "command" or "lead" (module docstring)."""
    troops = _troops_of(bot, str(g.get("division")))
    foot = [x for x in troops if x["category"] == "foot" and x["role"] != "missile"]
    return "command" if int(g.get("rating", 0)) >= 2 and len(foot) >= 2 else "lead"


def _enemy_gap(bot: Bot, fp: Footprint) -> float:
    return min((footprint_distance(fp, bot.fps[e["id"]]) for e in bot.enemies), default=99.0)


# ---------------------------------------------------------------------- new orders


def orders_choice(bot: Bot, orders: list[Any]) -> Any:
    """The ``orders`` decision (start of the Initiative phase): Fall Back for a division the bot
    pulls back, Attack for one under Fall Back that it no longer does; else ``end``."""
    offered = {str(o): o for o in orders}
    for key, g in sorted(_generals(bot).items()):
        plan = bot.orders.get(str(g.get("division")))
        want = None
        if plan == "fall back" and g.get("orders") != "fall-back":
            want = "fall-back"
        elif plan == "attack" and g.get("orders") == "fall-back":
            want = "attack"
        if want is not None and g.get("next_orders") != want:
            o = offered.get(f"orders {key} {want}")
            if o is not None:
                return o
    return next((o for o in orders if isinstance(o, O.End)), orders[0])


# ---------------------------------------------------------------------- the Movement phase


def movement_choice(bot: Bot, state: State, orders: list[Any], act: Any) -> Any:
    """Before the bot activates a unit (``act``): leave a unit a general should no longer lead,
    or give the unit about to move a command action when it helps; else ``act`` itself."""
    for o in orders:
        if getattr(o, "kind", "") == "leave" and _should_leave(bot, o.unit):
            return o
    if not isinstance(act, O.Activate):
        return act
    commands = [o for o in orders if getattr(o, "kind", "") == "command" and o.unit == act.unit]
    for o in commands:
        if _helps(bot, state, o, act):
            return o
    return act


def _key_of(bot: Bot, figure: str) -> str | None:
    return next((k for k, g in _generals(bot).items() if g.get("figure") == figure), None)


def _should_leave(bot: Bot, figure: str) -> bool:
    """Whether the general whose figure is ``figure`` leaves the unit he leads (champions stay)."""
    key = _key_of(bot, figure)
    if key is None:
        return False
    g = _generals(bot)[key]
    host = bot.units.get(str(g.get("with")))
    if host is None or not g.get("leading"):
        return False
    if mode(bot, g) == "command":
        return True
    here = _enemy_gap(bot, bot.fps[host["id"]])
    if here <= FAR:
        return False
    others = [x for x in _troops_of(bot, str(g.get("division"))) if x["id"] != host["id"]]
    hf = bot.fps[host["id"]]
    return any(
        _enemy_gap(bot, bot.fps[x["id"]]) < here - NEARER and footprint_distance(hf, bot.fps[x["id"]]) <= SAFE
        for x in others
    )


def _unit_menu(state: State, first: list[Any], uid: str) -> tuple[State, list[Any]] | None:
    """A copy of the state after ``first`` orders, at the unit's own decision, and its menu."""
    c = state.copy()
    try:
        for o in first:
            c.apply(o)
    except IllegalOrder:
        return None
    d = c.decision()
    if d is None or d.kind != "unit" or d.unit != uid:
        return None
    return c, c.legal_orders()


def _best_charge(bot: Bot, state: State, menu: list[Any], u: dict[str, Any]) -> float | None:
    charges = [o for o in menu if isinstance(o, O.Charge)]
    if not charges:
        return None
    return max(
        bot._charge_value(u, bot.units[o.target], bot._edge_after(state, o), o.impetuous, o)
        for o in charges
        if o.target in bot.units
    )


def _helps(bot: Bot, state: State, command: Any, act: Any) -> bool:
    """Whether ordering the unit (``command``) before activating it (``act``) opens a charge worth
    making that its preferences forbid, or spares mounted a forced charge at poor odds."""
    u = bot.units.get(act.unit)
    if u is None or u["role"] == "missile" or bot.orders.get(bot._division(u)) == "fall back":
        return False
    plain = _unit_menu(state, [act], act.unit)
    free = _unit_menu(state, [command, act], act.unit)
    if plain is None or free is None:
        return False
    bar = bot._bar(u)
    v_plain = _best_charge(bot, plain[0], plain[1], u)
    v_free = _best_charge(bot, free[0], free[1], u)
    if v_free is not None and v_free >= bar and (v_plain is None or v_plain < bar):
        return True
    forced = bool(plain[1]) and all(isinstance(o, O.Charge) for o in plain[1])
    if forced and v_plain is not None and v_plain < bar:
        return any(not isinstance(o, O.Charge) for o in free[1])
    return False


# ---------------------------------------------------------------------- a general's own figure


def figure_choice(bot: Bot, state: State, orders: list[Any], u: dict[str, Any]) -> Any | None:
    """A general's figure on his own, in command mode: ride behind his division's leading units,
    within command distance of as many as he can, out of a charge's reach of every enemy. None in
    lead mode (the bot's own rule: join the unit nearest the enemy)."""
    key = _key_of(bot, u["id"])
    if key is None:
        return None
    g = _generals(bot)[key]
    if mode(bot, g) != "command":
        return None
    troops = _troops_of(bot, str(g.get("division")))
    if not troops:
        return None
    front = sorted(troops, key=lambda x: (_enemy_gap(bot, bot.fps[x["id"]]), x["id"]))[:3]

    def score(fp: Footprint) -> float:
        reach = sum(1 for x in front if footprint_distance(fp, bot.fps[x["id"]]) <= REACH)
        near = min(footprint_distance(fp, bot.fps[x["id"]]) for x in front)
        return 10.0 * reach - near

    hold = next((o for o in orders if isinstance(o, O.Hold)), orders[0])
    here = bot.fps[u["id"]]
    best_o = hold
    best_s = score(here) if _enemy_gap(bot, here) >= SAFE else -1e9
    for o in orders:
        if not isinstance(o, O.Move):
            continue
        got = bot._after(state, o, u["id"])
        if got is None or _enemy_gap(bot, got[0]) < SAFE:
            continue
        s = score(got[0])
        if s > best_s + 1e-9:
            best_o, best_s = o, s
    if best_s > -1e9:
        return best_o
    # no safe place within his move: as far from the enemy as he can get
    best_gap = _enemy_gap(bot, here)
    for o in orders:
        got = bot._after(state, o, u["id"]) if isinstance(o, O.Move) else None
        if got is not None and _enemy_gap(bot, got[0]) > best_gap + 1e-9:
            best_o, best_gap = o, _enemy_gap(bot, got[0])
    return best_o
