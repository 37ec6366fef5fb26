"""The search bot's spec grammar (``mcts:...``): one parser for every host that takes the bot's name
(``battle``, ``simulate``, ``make_bot``, the web table) and for a rule system's default options.

A spec is the part after ``mcts:``, parts separated by colons, in any order, each kind at most once:

``N``
    N playouts a decision (N at least 1); ``Ts``: T seconds of wall-clock time a decision
    (``0.5s``), which does not replay.
``mixP``
    the opponent model: a share P (0 to 1) of the other sides' playout decisions made by the rule
    system's own bot, the rest uniformly random.
``hH`` / ``hend``
    the rollout horizon: H decisions (H at least 1), or to the battle's end.
``sh`` / ``duel``
    the root search: sequential halving (playout budgets only), or the paired duel.
``pf`` / ``nopf``
    the plan portfolio (a playout budget only): half the budget races the rule system's plans for
    the searching side (its own bot, then ``RuleSystem.search_plans``) and the best one's order is
    the prior of the root search and its bot plays the side in the rollouts (:mod:`shieldwall.ai.portfolio`);
    or not (the rule system's own bot alone, the default).
``gX``
    the least gain (X from 0 to 2, default 0): the search overrules the prior (the rule system's own
    bot's order) only with a mean gain over it above X, besides above two standard errors: a gain
    measured surely but too small to matter (a hundredth of an army's standing) does not overrule.
``material``
    score unfinished playouts by material, not by the rule system's ``score`` hook.

A rule system's plugin may declare default options (``RuleSystem.search_options``, e.g.
``"20:hend:sh"``): each kind of option the user's spec leaves out comes from them, then from the
built-in defaults (:func:`settle`). ``material`` is not a default a plugin may set.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal

from shieldwall.core.errors import ShieldwallError

DEFAULT_PLAYOUTS = 200
#: decisions a rollout plays before it is scored (``mcts:N:hH`` sets it; ``hend``: to the battle's end)
ROLLOUT_DECISIONS = 10
#: the opponent model: the share of the other sides' playout decisions made by the rule system's
#: own bot (the rest uniformly random from the menu); ``mcts:N:mixP`` sets it
DEFAULT_MIX = 1.0
#: what a rollout to the battle's end counts as, in decisions, for :func:`rollout_cost`
END_COST = 100
#: aligning the playouts a search compares (:mod:`shieldwall.ai.playout`): a playout plays at most
#: ALIGN_SHARE times its horizon's decisions past the horizon to reach another's point of the game
ALIGN_SHARE = 2

GRAMMAR = "N playouts or Ts seconds, mixP, hH or hend, sh or duel, pf or nopf, gX, material (mcts:64:hend:sh)"


class BadBudget(ShieldwallError, ValueError):
    """A search spec that does not parse: a budget that is neither playouts nor seconds, an
    unknown or repeated option, an option out of its range."""


@dataclass(frozen=True)
class Spec:
    """A spec as written: each option None when the spec does not give it."""

    playouts: int | None = None
    seconds: float | None = None
    mix: float | None = None
    #: decisions, or ``"end"`` (``hend``)
    horizon: int | Literal["end"] | None = None
    #: True: sequential halving (``sh``); False: the duel (``duel``)
    halving: bool | None = None
    #: True: the plan portfolio (``pf``); False: the rule system's own bot alone (``nopf``)
    plans: bool | None = None
    #: the least gain that overrules the prior (``gX``)
    least_gain: float | None = None
    #: True: ``material``
    material: bool | None = None


@dataclass(frozen=True)
class Options:
    """The search's options in a spec: its rollout horizon (None: to the battle's end), whether
    the root is searched by sequential halving, whether the searching side's plans race first
    (the plan portfolio), and the least mean gain that overrules the prior (``gX``)."""

    horizon: int | None = ROLLOUT_DECISIONS
    halving: bool = False
    plans: bool = False
    least_gain: float = 0.0


@dataclass(frozen=True)
class Settings:
    """What the search runs with: the user's spec over the rule system's defaults over the
    built-in ones."""

    playouts: int | None = DEFAULT_PLAYOUTS
    seconds: float | None = None
    mix: float = DEFAULT_MIX
    options: Options = Options()
    use_score: bool = True


#: a whole number as the grammar writes it: ASCII digits only (``str.isdigit`` also takes "²" and
#: "٤", which ``int`` refuses or reads as another number; a traceback, not a refusal naming the part)
_WHOLE = re.compile(r"[0-9]+")
#: a decimal number: ASCII digits with at most one point (``float`` also takes "0_1" and "nan")
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")


def _whole(part: str) -> bool:
    return _WHOLE.fullmatch(part) is not None


def _number(part: str, what: str) -> float:
    if _DECIMAL.fullmatch(part) is None:
        raise BadBudget(f"{what}: {part!r} is not a number written in digits (0.02)")
    try:
        value = float(part)
    except ValueError:
        raise BadBudget(f"{what}: {part!r} is not a number") from None
    if not math.isfinite(value):
        raise BadBudget(f"{what}: {part!r} is not a finite number")
    return value


def parse(text: str) -> Spec:
    """Parse a spec (the part after ``mcts:``; ``""`` gives every option None): ``BadBudget``
    naming the part and the grammar when it does not parse."""
    seen: set[str] = set()
    out: dict[str, object] = {}

    def put(kind: str, part: str, **values: object) -> None:
        if kind in seen:
            raise BadBudget(f"mcts spec {text!r} gives the {kind} twice (at {part!r}); parts: {GRAMMAR}")
        seen.add(kind)
        out.update(values)

    for raw in text.strip().split(":") if text.strip() else []:
        p = raw.strip()
        if p in ("sh", "duel"):
            put("root search", p, halving=p == "sh")
        elif p in ("pf", "nopf"):
            put("plan portfolio", p, plans=p == "pf")
        elif p == "material":
            put("leaf score", p, material=True)
        elif p == "hend":
            put("horizon", p, horizon="end")
        elif p.startswith("h") and _whole(p[1:]):
            if int(p[1:]) < 1:
                raise BadBudget(f"mcts rollout horizon {p!r} is not hN with N at least 1 (mcts:64:h40)")
            put("horizon", p, horizon=int(p[1:]))
        elif p.startswith("g") and len(p) > 1:
            least = _number(p[1:], "mcts least gain")
            if not 0.0 <= least <= 2.0:
                raise BadBudget(f"mcts least gain {p!r} is not gX with X from 0 to 2 (mcts:32:g0.02)")
            put("least gain", p, least_gain=least)
        elif p.startswith("mix"):
            mix = _number(p[3:], "mcts opponent mix") if p[3:] else -1.0
            if not 0.0 <= mix <= 1.0:
                raise BadBudget(f"mcts opponent mix {p!r} is not mixP with P from 0 to 1 (mcts:16:mix0.7)")
            put("mix", p, mix=mix)
        elif p.endswith("s") and _DECIMAL.fullmatch(p[:-1]) is not None:
            seconds = float(p[:-1])
            if seconds <= 0:
                raise BadBudget(f"mcts budget {p!r}: seconds must be above 0 (mcts:1s)")
            put("budget", p, seconds=seconds)
        elif _whole(p):
            if int(p) < 1:
                raise BadBudget(f"mcts budget {p!r}: playouts must be at least 1 (mcts:200)")
            put("budget", p, playouts=int(p))
        else:
            raise BadBudget(
                f"mcts spec {text!r}: {p!r} is neither a number of playouts (mcts:200), seconds "
                f"(mcts:1s) nor an option; parts: {GRAMMAR}"
            )
    return Spec(**out)  # type: ignore[arg-type]


def parse_default(text: str) -> Spec:
    """A rule system's default options (``RuleSystem.search_options``): the grammar of
    :func:`parse` less ``material`` and time budgets (a default must replay)."""
    spec = parse(text)
    if spec.material is not None:
        raise BadBudget("'material' is not a default option (it is for measuring the score hook)")
    if spec.seconds is not None:
        raise BadBudget("a time budget is not a default option (a battle with it does not replay)")
    return spec


def settle(spec: Spec, default: Spec | None = None) -> Settings:
    """The settings of ``spec`` over a rule system's ``default`` (each kind of option the spec
    leaves out), over the built-in defaults. The default's sequential halving is dropped under the
    user's time budget (halving needs playouts); the user's own ``sh`` with seconds is an error.
    The same for the plan portfolio (``pf``)."""
    d = default or Spec()
    if spec.halving and spec.seconds is not None:
        raise BadBudget("mcts sequential halving (sh) needs a number of playouts, not seconds")
    if spec.plans and spec.seconds is not None:
        raise BadBudget("mcts plan portfolio (pf) needs a number of playouts, not seconds")
    if spec.playouts is not None or spec.seconds is not None:
        playouts, seconds = spec.playouts, spec.seconds
    else:
        playouts, seconds = (d.playouts or DEFAULT_PLAYOUTS), None
    horizon = spec.horizon if spec.horizon is not None else d.horizon
    halving = spec.halving if spec.halving is not None else bool(d.halving) and seconds is None
    plans = spec.plans if spec.plans is not None else bool(d.plans) and seconds is None
    mix = spec.mix if spec.mix is not None else d.mix
    least = spec.least_gain if spec.least_gain is not None else d.least_gain
    return Settings(
        playouts=playouts,
        seconds=seconds,
        mix=DEFAULT_MIX if mix is None else mix,
        options=Options(
            ROLLOUT_DECISIONS if horizon is None else None if horizon == "end" else horizon,
            halving,
            plans,
            0.0 if least is None else least,
        ),
        use_score=not spec.material,
    )


def rollout_cost(settings: Settings) -> float:
    """A decision's rollout decisions: playouts times the horizon (a rollout to the battle's end
    counting ``END_COST``); infinite for a time budget. Aligning the playouts adds at most
    ``ALIGN_SHARE`` times as many (a rollout to the end is never aligned)."""
    if settings.playouts is None:
        return math.inf
    h = settings.options.horizon
    return float(settings.playouts * (END_COST if h is None else h))
