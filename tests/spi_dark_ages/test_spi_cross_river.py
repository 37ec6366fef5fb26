"""``tec.cross-river``: the Cross River Attack rule (ruling A28). The errata says only that it
applies to stream or river hexes adjacent to a unit's front and that a demoralized unit loses that
control (``demoralization.control``); its values are TEC data (``[cross_river]`` in tec.toml; the
sample's are illustrative: stop, attack x 1/2, shift 0)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from pydantic import ValidationError

from shieldwall.core.hexgrid import Hex, ccrr
from shieldwall.rulesets.spi_dark_ages.resolve import melee_situation
from shieldwall.rulesets.spi_dark_ages.schemas import CrossRiver
from shieldwall.rulesets.spi_dark_ages.state import DarkAgesState

from .fixtures import H, phase, state, unit

STREAM = H(3, 11)  # 0412, a stream hex of the sample map
NORTH = H(3, 10)  # 0411: the defender's hex, the stream in front of it
SOUTH = H(3, 12)  # 0413: the attacker's start, across the stream


def _dir(a: Hex, b: Hex) -> int:
    d = a.direction_to(b)
    assert d is not None
    return d


def _setup(*, facing_stream: bool = True, demoralized: bool = False) -> DarkAgesState:
    f = _dir(NORTH, STREAM) if facing_stream else (_dir(NORTH, STREAM) + 3) % 6
    st = state(
        [
            ("ts", "tan", "spear", NORTH, f),
            ("tl", "tan", "leader", NORTH.neighbour(_dir(STREAM, NORTH)), f),
            ("gs", "green", "spear", SOUTH, _dir(SOUTH, STREAM)),
            ("gl", "green", "leader", SOUTH, _dir(SOUTH, STREAM)),
        ]
    )
    if demoralized:
        unit(st, "ts").demoralized = (9, 0, "melee")
    return st


def _with(st: DarkAgesState, cr: CrossRiver | None) -> None:
    b = st.board
    b.charts = dataclasses.replace(b.charts, tec=b.charts.tec.model_copy(update={"cross_river": cr}))


def test_tec_cross_river_sample_data_is_on_and_labelled() -> None:
    st = _setup()
    assert ccrr(STREAM) == "0412" and st.board.map.is_stream(STREAM)
    cr = st.board.charts.tec.cross_river
    assert cr is not None and cr.stop and cr.attack == "1/2" and cr.shift == 0
    assert st.board.charts.provenance["tec.toml"] == "illustrative"


def test_tec_cross_river_entering_a_stream_hex_in_an_enemy_front_stops_the_move() -> None:
    st = _setup()
    phase(st, "movement", "green")
    st.apply(f"step gs {_dir(SOUTH, STREAM)}")
    g = unit(st, "gs")
    assert g.hex == STREAM and g.stopped and g.mp_left == 0
    ev = st.events[-1]
    assert ev.kind == "stopped" and ev.rule == "spi-dark-ages:tec.cross-river"
    assert ev.data["by"] == "ts"


def test_tec_cross_river_a_stream_hex_beside_a_flank_stops_nobody() -> None:
    st = _setup(facing_stream=False)
    phase(st, "movement", "green")
    st.apply(f"step gs {_dir(SOUTH, STREAM)}")
    assert not unit(st, "gs").stopped


def test_tec_cross_river_demoralization_control_a_demoralized_unit_controls_no_stream_hex() -> None:
    st = _setup(demoralized=True)
    phase(st, "movement", "green")
    st.apply(f"step gs {_dir(SOUTH, STREAM)}")
    assert not unit(st, "gs").stopped


def test_tec_cross_river_without_the_tec_section_the_rule_is_not_played() -> None:
    st = _setup()
    _with(st, None)
    phase(st, "movement", "green")
    st.apply(f"step gs {_dir(SOUTH, STREAM)}")
    assert not unit(st, "gs").stopped
    st.board.place(unit(st, "gs"), STREAM)
    a = melee_situation(st.board, [unit(st, "gs")], NORTH)
    assert not any("cross-river" in n for n in a.notes)


def test_tec_cross_river_melee_out_of_the_stream_into_that_front_uses_the_tec_multiplier() -> None:
    st = _setup()
    b = st.board
    b.place(unit(st, "gs"), STREAM)
    unit(st, "gs").facing = _dir(STREAM, NORTH)
    mas = b.type_of(unit(st, "gs")).mas
    a = melee_situation(b, [unit(st, "gs")], NORTH)
    # the stream's own TEC attack effect (sample 1/2) and then the cross-river 1/2, one rounding
    assert a.attack == Fraction(int(mas * Fraction(1, 2) * Fraction(1, 2)))
    assert any("spi-dark-ages:tec.cross-river" in n for n in a.notes)
    st2 = _setup(facing_stream=False)
    st2.board.place(unit(st2, "gs"), STREAM)
    unit(st2, "gs").facing = _dir(STREAM, NORTH)
    a2 = melee_situation(st2.board, [unit(st2, "gs")], NORTH)
    assert a2.attack == Fraction(int(mas * Fraction(1, 2)))
    assert not any("cross-river" in n for n in a2.notes)


def test_tec_cross_river_the_tec_shift_is_added_to_the_melee_roll() -> None:
    st = _setup()
    b = st.board
    b.place(unit(st, "gs"), STREAM)
    unit(st, "gs").facing = _dir(STREAM, NORTH)
    base = melee_situation(b, [unit(st, "gs")], NORTH).modifier
    _with(st, CrossRiver(stop=True, attack="1", shift=2))
    a = melee_situation(b, [unit(st, "gs")], NORTH)
    assert a.modifier == base + 2
    assert any("+2 (spi-dark-ages:tec.cross-river)" in n for n in a.notes)


def test_tec_cross_river_schema_rejects_a_prohibiting_multiplier() -> None:
    with pytest.raises(ValidationError, match="cross-river"):
        CrossRiver(attack="P")
    with pytest.raises(ValidationError):
        CrossRiver(shift=9)
