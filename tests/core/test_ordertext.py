"""Order-text codecs shared by the rule systems (core/ordertext.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.ordertext import (
    BareOrder,
    OrderBase,
    UnitOrder,
    UnitTargetOrder,
    num,
    read_order,
    split_order,
)


@dataclass(frozen=True, slots=True)
class _Stop(BareOrder):
    kind: ClassVar[str] = "stop"


@dataclass(frozen=True, slots=True)
class _Halt(UnitOrder):
    kind: ClassVar[str] = "halt"


@dataclass(frozen=True, slots=True)
class _Hit(UnitTargetOrder):
    kind: ClassVar[str] = "hit"


@dataclass(frozen=True, slots=True)
class _Walk(OrderBase):
    unit: str
    path: tuple[float, ...]
    kind: ClassVar[str] = "walk"

    def dict_value(self, name: str, value: Any) -> Any:
        return list(value) if name == "path" else value


def _bad(reason: str) -> IllegalOrder:
    return IllegalOrder("toy:orders", reason)


@pytest.mark.parametrize(
    ("value", "text"),
    [(4.0, "4"), (-30.0, "-30"), (12.5, "12.5"), (2.0004, "2"), (1.23456, "1.235"), (0.0, "0")],
)
def test_num_writes_whole_numbers_without_a_point_and_rounds_to_three_decimals(
    value: float, text: str
) -> None:
    assert num(value) == text


def test_text_forms_of_the_shared_order_shapes() -> None:
    assert str(_Stop()) == "stop"
    assert str(_Halt("r1")) == "halt r1"
    assert str(_Hit("r1", "b2")) == "hit r1 b2"


def test_dict_forms_name_the_kind_and_convert_fields_through_dict_value() -> None:
    assert _Stop().to_dict() == {"kind": "stop"}
    assert _Hit("r1", "b2").to_dict() == {"kind": "hit", "unit": "r1", "target": "b2"}
    assert _Walk("r1", (1.0, 2.0)).to_dict() == {"kind": "walk", "unit": "r1", "path": [1.0, 2.0]}


def test_split_order_lowers_the_kind_and_refuses_a_blank_line() -> None:
    assert split_order("  HALT r1  ", _bad) == ("halt", ["r1"])
    with pytest.raises(IllegalOrder, match="empty order"):
        split_order("   ", _bad)


def test_read_order_takes_the_text_or_the_dict_form() -> None:
    def from_text(text: str) -> str:
        return f"text:{text}"

    def from_dict(d: Mapping[str, Any]) -> str:
        return f"dict:{d['kind']}"

    assert read_order("halt r1", from_text, from_dict) == "text:halt r1"
    assert read_order({"kind": "halt"}, from_text, from_dict) == "dict:halt"
