"""knight-hack's ``score`` hook: the search bot's estimate of each side's standing by the scenarios'
victory rule (turn.sequence, ruling R37: half the points lost loses; fewer points lost wins at the
turn limit)."""

from __future__ import annotations

from shieldwall import registry
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.knight_hack.score import broken, score
from shieldwall.rulesets.knight_hack.state import KnightHackState

SCEN = "knight-hack/bourgtheroulde-1124"


def _state() -> KnightHackState:
    st = load_game(SCEN).new_state(1)
    assert isinstance(st, KnightHackState)
    return st


def test_the_plugin_names_the_score_hook() -> None:
    assert registry.get("knight-hack").load("score") is score


def test_turn_sequence_r37_an_even_start_scores_zero() -> None:
    assert score(_state()) == {"red": 0.0, "blue": 0.0}


def test_turn_sequence_r37_a_side_one_loss_from_half_its_points_scores_clearly_worse() -> None:
    """Blue loses figures until one more figure costs it half its points (R37: it then loses)."""
    st = _state()
    b = st.board
    half = sum(b.points(u) for u in b.units.values() if u.side == "blue" and not u.held_back) / 2
    for u in sorted((u for u in b.units.values() if u.side == "blue"), key=lambda u: u.id):
        cpf = b.tables.types[u.type].cost_per_figure[u.cls]
        while u.figures > 1 and b.points_lost("blue") + cpf < half:
            u.figures -= 1
    assert b.points_lost("blue") < half <= b.points_lost("blue") + 4
    s = score(st)
    assert broken(b, "blue") > 0.85
    assert s["red"] > 0.9 and s["blue"] == -s["red"]
    assert all(-1.0 <= v <= 1.0 for v in s.values())


def test_turn_sequence_r37_a_routed_unit_counts_its_whole_cost() -> None:
    """A routed unit with every figure left is as lost as a removed one (R37), so worse for its side
    than the same unit with half its figures gone and in good order."""
    routed, worn = _state(), _state()
    uid = next(u.id for u in routed.board.units.values() if u.side == "red")
    routed.board.units[uid].status = "routed"
    w = worn.board.units[uid]
    w.figures = w.muster // 2
    assert score(routed)["red"] < score(worn)["red"] < 0


def test_turn_sequence_r37_points_count_not_figures() -> None:
    """Red's 8 archers lost (16 points) weigh less than blue's 6 knights (36 points) lost."""
    st = _state()
    b = st.board
    archers = b.units["archers"]
    archers.figures = 0
    archers.status = "removed"
    knights = b.units["hugh-knights"]
    knights.figures = 0
    knights.status = "removed"
    assert score(st)["red"] > 0
