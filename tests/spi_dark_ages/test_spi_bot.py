"""The scripted bot: it respects the stop rule in front of enemy missile units (this game's ZOC),
keeps its units stacked with or next to its command units, and attacks only at good odds."""

from __future__ import annotations

from shieldwall.core.hexgrid import facing_zone, parse_ccrr
from shieldwall.rulesets.spi_dark_ages.bots import MELEE_EDGE, ScriptedBot, _score
from shieldwall.rulesets.spi_dark_ages.state import DarkAgesState

from .fixtures import H, phase, state, unit

ARCHER = H(6, 8)


def _move_phase(st: DarkAgesState, side: str) -> list[str]:
    """Let the scripted bot play ``side``'s whole Movement Phase; the orders it gave."""
    bot, given = ScriptedBot(1), list[str]()
    while True:
        d = st.decision()
        if d is None or d.side != side or d.kind != "move":
            return given
        o = bot.choose(st)
        st.apply(o)  # an illegal order would raise IllegalOrder
        given.append(str(o))


def test_the_bot_respects_zoc_it_stops_in_front_of_an_enemy_missile_unit() -> None:
    st = state(
        [
            ("ta", "tan", "archer", ARCHER, 4),
            ("tl", "tan", "leader", ARCHER, 4),
            ("gs", "green", "spear", H(3, 8), 1),
            ("gl", "green", "leader", H(3, 8), 1),
        ]
    )
    gs, start, given = unit(st, "gs"), len(st.events), list[str]()
    for _ in range(6):  # the spear keeps by its leader: a hex or two per phase
        phase(st, "movement", "green")
        given += _move_phase(st, "green")
        if gs.stopped:
            break
    assert any(o.startswith("step gs") for o in given)
    assert gs.hex is not None and gs.hex.distance(ARCHER) == 1
    d = ARCHER.direction_to(gs.hex)
    assert d is not None and facing_zone(unit(st, "ta").facing, d) == "front"
    assert gs.stopped
    events = st.events[start:]
    stop = next(i for i, e in enumerate(events) if e.rule == "spi-dark-ages:movement.K.stop")
    assert not any(e.data.get("unit") == "gs" and e.kind == "moves" for e in events[stop:])


def test_the_bot_stacks_with_its_commanders_each_step_stays_by_a_command_unit() -> None:
    st = state(
        [
            ("tx", "tan", "spear", H(12, 8), 4),
            ("gs", "green", "spear", H(3, 8), 1),
            ("gl", "green", "leader", H(3, 8), 1),
        ]
    )
    phase(st, "movement", "green")
    start = len(st.events)
    _move_phase(st, "green")
    moves = [e for e in st.events[start:] if e.kind == "moves"]
    assert any(e.data["unit"] == "gs" for e in moves)
    assert any(e.data["unit"] == "gl" for e in moves)
    gs, gl = unit(st, "gs"), unit(st, "gl")
    assert gs.hex is not None and gl.hex is not None and gs.hex.distance(gl.hex) <= 1
    assert gs.hex.distance(H(12, 8)) < H(3, 8).distance(H(12, 8))


def _allocation(target: str):  # type: ignore[no-untyped-def]
    st = state(
        [
            ("gs", "green", "spear", ARCHER, 1),
            ("gl", "green", "leader", ARCHER, 1),
            ("tx", "tan", target, ARCHER.neighbour(1), 4),
        ]
    )
    return st, phase(st, "allocation", "green")


def test_the_bot_attacks_at_good_odds() -> None:
    st, b = _allocation("levy")
    o = ScriptedBot(1).choose(st)
    assert o.kind == "melee" and o.target is not None
    group = [b.units["gs"], b.units["gl"]]
    assert _score(b, group, parse_ccrr(o.target)) >= MELEE_EDGE


def test_the_bot_does_not_attack_at_bad_odds() -> None:
    st, b = _allocation("spear")
    assert any(o.kind == "melee" for o in st.legal_orders())
    assert _score(b, [b.units["gs"], b.units["gl"]], ARCHER.neighbour(1)) < MELEE_EDGE
    assert ScriptedBot(1).choose(st).kind == "end"
