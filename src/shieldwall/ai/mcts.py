"""``mcts``: Monte-Carlo tree search over the legal menus, for every rule system.

Names: ``mcts``, ``mcts:N`` (N playouts), ``mcts:Ts`` (T seconds of wall-clock time a decision,
e.g. ``mcts:0.5s``), with options after further colons: the opponent model's mix ``:mixP``
(``mcts:16:mix0.7``), ``:material`` (score unfinished playouts by material even when the rule
system has a ``score`` hook: for measuring what the hook is worth), ``:hH`` (rollouts of H
decisions instead of ``ROLLOUT_DECISIONS``) or ``:hend`` (rollouts to the battle's end), ``:sh``
(sequential halving at the root, :meth:`MCTSBot._halving`; a playout budget only) or ``:duel`` (the
paired duel). The grammar is :mod:`shieldwall.ai.search_spec`, shared by every host. What a spec
leaves out comes from the rule system's default options (``RuleSystem.search_options``: e.g. a
budget that fits a second a decision, the horizon that pays there), then from the built-in
defaults (``DEFAULT_PLAYOUTS`` playouts, the 10-decision horizon, the duel, ``DEFAULT_MIX``).

The opponent model, ``mixP`` (``DEFAULT_MIX`` when not given): in a playout's tree expansions
and rollouts, each decision of a side other than the searching one is the rule system's own bot's
order with probability P, else an order drawn uniformly from its menu. The draws come from a
generator seeded by the playout's rollout seed, so the two playouts of a pair meet the same
opponent, and a battle replays byte for byte. ``mix1`` assumes the opponent plays the rule
system's own bot (the search then finds orders that pay against that bot only); a lower P asks
for orders that also hold against an opponent who does something else.

Reproducibility: with a playout budget the bot's choices depend only on its seed and the state,
so a battle with ``mcts`` or ``mcts:N`` replays byte for byte. A time budget counts playouts by the
clock, which depends on the machine and its load: a battle with ``mcts:Ts`` does **not** replay.

The search (open-loop UCT): each playout copies the state, gives the copy fresh dice (a new seed
from the bot's own generator, so the search never sees the battle's coming rolls), walks down the
tree choosing orders by UCB1 among the orders of the copy's menu (the tree is keyed by the orders'
text, since the dice may change a menu; the values are scaled to [0, 1] by the range of the
children's means at each node, so small material differences still steer it), adds one new order,
then plays on with the rollout policy for ``ROLLOUT_DECISIONS`` decisions (the horizon; playouts
compared with each other are then played on to one point of the game, :mod:`.playout`): the rule
system's own first bot (its scripted bot) when the plugin has one, else uniformly random orders. A
playout is scored +1 / -1 / 0 for each side if the battle ended, else by the rule system's
``score`` hook when its plugin has one (its estimate, in [-1, 1], of each side's standing by its own
victory conditions: objectives, victory points, morale), else by :func:`material` against the units
the playout started with (a unit the view no longer lists counts as lost).

The prior: with a scripted bot, its order at the root (on a determinized copy) is the bot's
default, and the root search is a duel against it. Playouts come in pairs on the same battle
(the same determinization, the same fresh dice, the same rollout bot's seed): the first plays the
prior, the second another order (a new one while the root has fewer than ``WIDEN * sqrt(pairs)``
others, else the best by UCB1 on its mean gain), and the pair's gain is the second's value minus
the first's. The duel is flat: after its root order each playout of a pair goes straight to the
rollout (no tree walk below the root, whose choices would differ between the two and not be
paired), so the two differ in the root order alone. Sharing the dice removes most of the noise a
comparison of two orders would otherwise carry (two orders that lead to the same material in the
same dice gain exactly 0).
The bot plays the other order with the most pairs only when it has at least ``MIN_VISITS`` pairs and
its mean gain is above the least gain (``gX``, 0 by default) and above ``CONFIDENCE`` standard
errors; otherwise the prior. A small budget therefore plays the scripted bot's order unless the
search has evidence against it. Without a scripted bot the search is a tree (plain UCT from the
root, progressive widening below it) and the most visited order is played.

Fresh dice assume the convention the built-in rule systems follow: a state keeps its battle's
generator (a ``numpy.random.Generator``) in ``state.rng`` or in ``state.board.rng``. A state with
neither is searched with its own dice.

Hidden information: when the rule system's plugin has a ``determinize`` hook (``shieldwall.plugin``),
each playout starts from ``determinize(state, side, rng)``, a copy of the battle in which whatever
the deciding side may not see (the other side's face-down cards, its hidden ambushers) is drawn
anew, consistently with what the side sees; so the search never reads the hidden truth, and two
battles that differ only in it get the same decisions from a bot seeded alike. Without the hook
the playout copies the state (a rule system without hidden information).
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from shieldwall import registry
from shieldwall.ai.base import Bot
from shieldwall.ai.halving import halving
from shieldwall.ai.playout import (
    END_MARGIN,
    Roller,
    Run,
    fresh_dice,
    leaf_score,
    material,
    outcome,
    roster,
)
from shieldwall.ai.portfolio import Split, best_plan, plans_of
from shieldwall.ai.search_spec import (
    DEFAULT_MIX,
    DEFAULT_PLAYOUTS,
    ROLLOUT_DECISIONS,
    BadBudget,
    Options,
    Settings,
    Spec,
    parse,
    parse_default,
    settle,
)
from shieldwall.ai.tree import CONFIDENCE, MIN_VISITS, WIDEN, Node, add, ucb
from shieldwall.core.errors import IllegalOrder
from shieldwall.core.game import State
from shieldwall.plugin import PluginError

__all__ = [
    "END_MARGIN",
    "DEFAULT_MIX",
    "DEFAULT_PLAYOUTS",
    "ROLLOUT_DECISIONS",
    "CONFIDENCE",
    "MIN_VISITS",
    "BadBudget",
    "MCTSBot",
    "Node",
    "Options",
    "Settings",
    "default_spec",
    "fresh_dice",
    "leaf_score",
    "material",
    "outcome",
    "roster",
]


class MCTSBot(Bot):
    name = "mcts"

    def __init__(self, seed: int | None = None, spec: str = "", ruleset: str | None = None) -> None:
        super().__init__(seed)
        #: the spec as written (:mod:`shieldwall.ai.search_spec`); the settings are it over the rule
        #: system's default options (``RuleSystem.search_options``), settled for ``ruleset`` now
        #: when given, else at the first decision (and again if the bot meets another rule system)
        self.spec = parse(spec)
        self._settle(settle(self.spec, default_spec(ruleset) if ruleset is not None else None))
        self._rollout: Bot | None = None
        self._rollout_for: str | None = None
        self._bot_class: Any = None
        self._determinize: Any = None
        #: the rule system's ``score`` hook (None: leaves scored by material)
        self._score: Any = None
        #: the rule system's own bot's order at the root of the current search (its text), or None
        self._prior: str | None = None
        #: playouts of the last decision (for the benchmark and the tests)
        self.last_playouts = 0
        #: the root of the last decision's search tree (for the tests and for diagnostics)
        self.last_root: Node | None = None
        #: the last decision's order came from the search, not from the prior (for diagnostics)
        self.last_overruled = False
        #: the last decision's pairs: (their seeds, the other order, its gain over the prior)
        self.last_pairs: list[tuple[tuple[int, int, int], str, float]] = []
        #: the rule system's ``progress`` hook (its point of the game; None: playouts played
        #: against each other are not aligned, :mod:`shieldwall.ai.playout`)
        self._progress: Any = None
        #: decisions the last decision's playouts played past their horizon to align, and the
        #: playouts the cap on those stopped short (diagnostics)
        self.last_aligned = 0
        self.last_short = 0
        self._side: str | None = None
        #: with sequential halving, the last decision's candidates by round, and the survivor's
        #: confirming pairs (its seeds and gains), for the tests and diagnostics
        self.last_rounds: list[list[str]] = []
        self.last_confirm: list[tuple[tuple[int, int, int], float]] = []
        #: the true menu's orders by text (the orders the halving plays on each copy)
        self._orders: dict[str, Any] = {}
        #: the plan portfolio (``pf``): (name, bot class) of each plan for the searching side, the
        #: rule system's own bot first; the class playing the searching side in the rollouts now
        self._plans: list[tuple[str, Any]] = []
        self._own_class: Any = None
        #: with ``pf``, the last decision's plan (its name; None: not raced) and each plan's mean
        self.last_plan: str | None = None
        self.last_plan_values: list[tuple[str, float]] = []

    def _settle(self, settings: Settings) -> None:
        self.settings = settings
        self.playouts, self.seconds, self.mix = settings.playouts, settings.seconds, settings.mix
        self.options, self.use_score = settings.options, settings.use_score

    def choose(self, state: State) -> Any:
        menu = state.legal_orders()
        self.last_overruled = False
        self.last_pairs = []
        self.last_aligned = self.last_short = 0
        if len(menu) == 1:
            self.last_playouts, self._prior = 0, None
            return menu[0]
        d = state.decision()
        assert d is not None
        side = d.side
        root = Node()
        self._prior = None
        self._policy(state)
        self._side, self._own_class, self.last_plan = side, self._bot_class, None
        spent = 0
        # the plan race takes up to half the budget, when that gives every plan a playout
        if self.options.plans and 1 < len(self._plans) <= (self.playouts or 0) // 2:
            spent = self._race(state, side, (self.playouts or 0) // 2)
        if self._bot_class is not None:
            first = self._start(state, side, self._seeds())
            self._prior = str(self._fresh_policy().choose(first))
        if self._prior is not None and self.options.halving and self.playouts is not None:
            return self._halving(state, root, side, menu, self.playouts, spent)
        deadline = time.monotonic() + self.seconds if self.seconds is not None else None
        done = spent

        def more() -> bool:
            if self.playouts is not None:
                return done < self.playouts
            return done == 0 or deadline is None or time.monotonic() < deadline

        while more():
            seeds = self._seeds()
            if self._prior is None:  # no scripted bot: plain UCT at the root
                self._playouts(state, root, side, seeds, [None])
                done += 1
                continue
            if self.playouts is not None and done + 2 > self.playouts:  # room for the prior alone
                self._playouts(state, root, side, seeds, ["prior"])
                done += 1
                break
            (base, played), (value, alt) = self._playouts(state, root, side, seeds, ["prior", "other"])
            done += 2
            if played == self._prior and alt is not None and alt != self._prior:
                c = root.children[alt]
                g = value - base
                c.paired += 1
                c.gain += g
                c.gain_square += g * g
                self.last_pairs.append((seeds, alt, g))
        self.last_playouts = done
        self.last_root = root
        by_text = {str(o): o for o in menu}
        pick = self._pick(root, by_text, side)
        return by_text[pick] if pick is not None else menu[0]

    def _pick(self, root: Node, by_text: dict[str, Any], side: str) -> str | None:
        """The order to play: the prior (the rule system's own bot's order) unless the other order
        with the most paired playouts has at least ``MIN_VISITS`` of them and a mean gain over the
        prior above the least gain (``gX``) and above ``CONFIDENCE`` standard errors; without a
        prior (a rule system with no bot of its own, or one whose order the true menu lacks), the
        most visited order."""
        known = [t for t in root.children if t in by_text]
        if not known:  # no playout tried an order of the true menu (its side's own menu differs)
            return None
        prior = self._prior if self._prior in known else None
        others = [t for t in known if t != prior]
        if not others:
            return prior
        if prior is None:
            return max(others, key=lambda t: (root.children[t].visits, root.children[t].mean(side)))
        best = max(others, key=lambda t: (root.children[t].paired, root.children[t].mean_gain()))
        b = root.children[best]
        if b.paired < MIN_VISITS:
            return prior
        gain = b.mean_gain()
        if gain > self.options.least_gain and gain > CONFIDENCE * b.gain_error():
            self.last_overruled = True
            return best
        return prior

    def _halving(
        self, state: State, root: Node, side: str, menu: list[Any], budget: int, spent: int = 0
    ) -> Any:
        """Sequential halving at the root (:func:`shieldwall.ai.halving.halving`)."""
        return halving(self, state, root, side, menu, budget, spent)

    def _forced(
        self, state: State, root: Node, side: str, seeds: tuple[int, int, int], orders: list[str]
    ) -> list[float | None]:
        """Flat playouts on one battle (``seeds``), one for each of ``orders``, each playing its
        order first, then the rollout, aligned (:meth:`Roller.finish`); each one's value for
        ``side``, None where the battle's copy (its dice and hidden facts drawn anew) does not
        allow the order."""
        runs: list[Run] = []
        played: list[str] = []
        for order in orders:
            run = self._begin(state, side, seeds)
            try:  # (the copy rules on the order itself: building its whole menu costs far more)
                run.sim.apply(self._orders[order])
            except IllegalOrder:
                continue
            runs.append(run)
            played.append(order)
        by_order: dict[str, float] = {}
        for order, values in zip(played, self._finish(runs), strict=True):
            add(root.children[order], values)
            by_order[order] = values.get(side, 0.0)
        return [by_order.get(o) for o in orders]

    # --- one playout ---------------------------------------------------------------------------

    def _seeds(self) -> tuple[int, int, int]:
        """A playout's seeds: its determinization, its dice, its rollout bot."""
        return (
            int(self.rng.integers(2**63 - 1)),
            int(self.rng.integers(2**63 - 1)),
            int(self.rng.integers(2**63 - 1)),
        )

    def _start(self, state: State, side: str, seeds: tuple[int, int, int]) -> State:
        """A playout's starting battle: determinized for ``side``, with fresh dice."""
        det = self._determinizer(state)
        if det is not None:
            sim: State = det(state, side, np.random.default_rng(seeds[0]))
        else:
            sim = state.copy()
        fresh_dice(sim, seeds[1])
        sim.seal()  # (the playout changes it by orders only: ``State.seal``)
        return sim

    def _begin(self, state: State, side: str, seeds: tuple[int, int, int]) -> Run:
        """A playout's start, for ``side``: its battle (``_start``), its rollout policy (None:
        random rollouts, a rule system with no bot of its own) and the opponent model's draws,
        seeded by the rollout seed (the pair's two playouts share it). The units it starts with
        (``roster``: a whole view of the battle) only when ``material`` is to score it: not with
        the rule system's ``score`` hook."""
        self._side = side
        sim = self._start(state, side, seeds)
        policy = self._fresh_policy(seeds[2]) if self._bot_class is not None else None
        opponent = np.random.default_rng([seeds[2], 1]) if policy is not None and self.mix < 1.0 else None
        return Run(sim, policy, opponent, roster(sim) if self._score is None else {})

    def _roller(self, side: str | None = None) -> Roller:
        """How this search's rollouts are played (for ``side``: the searching side)."""
        who = side if side is not None else (self._side or "")
        return Roller(who, self.mix, self.rng, self._score, self._progress, self.options.horizon)

    def _finish(self, runs: list[Run]) -> list[dict[str, float]]:
        """Roll the playouts on, aligned, and score them; the count of decisions played to align
        them is kept in ``last_aligned``, the playouts the cap stopped short in ``last_short``."""
        values = self._roller().finish(runs)
        self.last_aligned += sum(r.aligned for r in runs)
        self.last_short += sum(r.short for r in runs)
        return values

    def _fresh_policy(self, seed: int | None = None) -> Bot:
        """A new instance of the rule system's own bot (a playout's rollout policy); with another
        plan chosen for the searching side (``pf``), that plan's bot plays that side (seeded alike)."""
        s = int(self.rng.integers(2**63 - 1)) if seed is None else seed
        bot: Bot = self._bot_class(s)
        if self._own_class is not None and self._own_class is not self._bot_class and self._side is not None:
            bot = Split(self._side, self._own_class(s), bot)
        self._rollout = bot
        return bot

    def _race(self, state: State, side: str, budget: int) -> int:
        """The plan portfolio's race (:mod:`shieldwall.ai.portfolio`): ``budget`` playouts shared
        among the plans, each sample one battle (determinization, dice, rollout seed) played by
        every plan from this decision to the horizon; the best mean's bot then plays ``side`` in
        the rollouts (``_own_class``). Returns the playouts played."""
        samples = max(1, budget // len(self._plans))
        totals = [0.0] * len(self._plans)
        for _ in range(samples):
            seeds = self._seeds()
            runs = []
            for _, cls in self._plans:
                self._own_class = cls
                runs.append(self._begin(state, side, seeds))
            for i, values in enumerate(self._finish(runs)):
                totals[i] += values.get(side, 0.0)
        best = best_plan(totals)
        self._own_class = self._plans[best][1]
        self.last_plan = self._plans[best][0]
        names = [name for name, _ in self._plans]
        self.last_plan_values = [(name, t / samples) for name, t in zip(names, totals, strict=True)]
        return samples * len(self._plans)

    def _playouts(
        self, state: State, root: Node, side: str, seeds: tuple[int, int, int], at_root: list[str | None]
    ) -> list[tuple[float, str | None]]:
        """Playouts on one battle (``seeds``), one for each of ``at_root``: ``"prior"`` plays the
        prior first, ``"other"`` another order (a new one while the root has fewer than WIDEN *
        sqrt(pairs) others, else by UCB1 on their paired gains), None chooses by UCT down the tree.
        They are rolled on aligned (:meth:`Roller.finish`) and scored. Returns each one's value for
        ``side`` and its root order."""
        runs: list[Run] = []
        paths: list[list[Node]] = []
        firsts: list[str | None] = []
        flight = 0
        for how in at_root:
            run = self._begin(state, side, seeds)
            path, first = self._walk(run, root, how, flight)
            runs.append(run)
            paths.append(path)
            firsts.append(first)
            # the prior's playout counts among the pairs when the other's order is chosen (as
            # when each playout was scored before the next began), though it is not scored yet
            flight += first == self._prior and first is not None
        out = []
        for path, first, values in zip(paths, firsts, self._finish(runs), strict=True):
            for n in path:
                add(n, values)
            out.append((values.get(side, 0.0), first))
        return out

    def _walk(
        self, run: Run, root: Node, at_root: str | None, flight: int = 0
    ) -> tuple[list[Node], str | None]:
        """A playout's way down the tree (``at_root``: as in :meth:`_playouts`): the nodes it
        passed (the root first) and its root order."""
        sim = run.sim
        path = [root]
        node = root
        first: str | None = None
        while not sim.is_terminal():
            d = sim.decision()
            assert d is not None
            menu = sim.legal_orders()
            if not menu:  # a stuck copy (a rule system's menu that offers nothing): score it
                break
            texts = [str(o) for o in menu]
            if node is root and at_root is not None:
                i = self._root_order(root, texts, at_root, flight)
                if texts[i] not in root.children:
                    root.children[texts[i]] = Node()
                first = texts[i]
                sim.apply(menu[i])
                # the duel is flat: both playouts of a pair go straight to the rollout, so the
                # pair differs in the root order alone (a tree walk below it would add choices
                # that differ between the two and are not paired: noise that overruled the prior)
                path.append(root.children[texts[i]])
                break
            tried = [i for i, t in enumerate(texts) if t in node.children]
            if len(tried) < min(len(menu), 1 + int(WIDEN * math.sqrt(node.visits))):
                i = self._expand(run, node, menu, texts)
                child = node.children[texts[i]] = Node()
                sim.apply(menu[i])
                path.append(child)
                first = first or texts[i]
                break
            kids = [node.children[texts[j]] for j in tried]
            i = tried[ucb([c.mean(d.side) for c in kids], [c.visits for c in kids])]
            sim.apply(menu[i])
            node = node.children[texts[i]]
            first = first or texts[i]
            path.append(node)
        return path, first

    def _root_order(self, root: Node, texts: list[str], at_root: str, flight: int = 0) -> int:
        """The root order of a playout (``at_root``: as in :meth:`_playouts`); ``flight``: the
        prior's playouts of the same batch walked but not scored yet, counted among the pairs."""
        if at_root == "prior" and self._prior in texts:
            return texts.index(str(self._prior))
        others = [i for i, t in enumerate(texts) if t != self._prior]
        if not others:
            return 0
        pairs = flight + (root.children[self._prior].visits if self._prior in root.children else 0)
        tried = [i for i in others if texts[i] in root.children]
        if len(tried) < min(len(others), max(1, int(WIDEN * math.sqrt(pairs)))):
            untried = [i for i in others if texts[i] not in root.children]
            return untried[int(self.rng.integers(len(untried)))]
        kids = [root.children[texts[i]] for i in tried]
        return tried[ucb([c.mean_gain() for c in kids], [max(1, c.paired) for c in kids])]

    def _expand(self, run: Run, node: Node, menu: list[Any], texts: list[str]) -> int:
        """The order to add under ``node``: the rollout policy's choice while it is not a child yet
        (the search starts from what the rule system's own bot would do), else a random new one."""
        if run.policy is not None:
            t = str(self._roller().order(run, menu))
            if t not in node.children and t in texts:
                return texts.index(t)
        untried = [i for i, t in enumerate(texts) if t not in node.children]
        return untried[int(self.rng.integers(len(untried)))]

    def _rollout_value(self, sim: State, start: dict[str, str], policy: Bot | None) -> dict[str, float]:
        """One playout played on alone from ``sim`` with ``policy`` for the horizon's decisions (to
        the end with ``hend``), unaligned, and scored (for the tests and the benchmarks)."""
        run = Run(sim, policy, None, start)
        roller = self._roller()
        roller.roll(run)
        return roller.value(run)

    def _determinizer(self, state: State) -> Any:
        """The rule system's ``determinize`` hook, or None (it has no hidden information)."""
        self._policy(state)
        return self._determinize

    def _policy(self, state: State) -> Bot | None:
        """The rule system's own first bot class and ``determinize`` hook, looked up once per rule
        system; returns the latest rollout bot (None: random rollouts)."""
        rid = state.game.info.id
        if self._rollout_for != rid:
            self._rollout_for = rid
            self._settle(settle(self.spec, default_spec(rid)))
            rs = registry.get(rid)
            own = next(iter(rs.bots), None)
            self._bot_class = rs.bot_class(own) if own is not None else None
            self._determinize = rs.optional("determinize")
            self._score = rs.optional("score") if self.use_score else None
            self._progress = rs.optional("progress")
            listed = rs.optional("search_plans") if self.options.plans else None
            self._plans = plans_of(self._bot_class, listed)
            self._rollout = None
        return self._rollout


def default_spec(ruleset: str) -> Spec:
    """A rule system's default search options (``RuleSystem.search_options``), parsed:
    ``PluginError`` naming the rule system and the field when they do not parse."""
    rs = registry.get(ruleset)
    text = rs.search_options
    if not text:
        return Spec()
    try:
        return parse_default(text)
    except BadBudget as exc:
        raise PluginError(
            f"rule system {ruleset!r}: search_options {text!r} is not a search spec: {exc}"
        ) from None
