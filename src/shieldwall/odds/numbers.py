"""Exact numbers in JSON for the odds' results (split from ``odds/base.py``): big integers and
fractions as text, so that no reader's floating point rounds them."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any


def int_text(n: int) -> str:
    """``str(n)`` for an int of any size.

    Python refuses to write an int of more than ``sys.get_int_max_str_digits()`` decimal digits
    (4300 by default: a guard against slow conversions of untrusted input), and the exact answers of
    duels between big units pass it (48 figures a side: denominators of about 16,000 digits). Such an
    int is split at a power of ten, each half written (recursively) within the limit.

    >>> n = 7 * 10**9000 + 42
    >>> t = int_text(n)
    >>> len(t), t[:2], t[-3:], int_text(-n)[:2]
    (9001, '70', '042', '-7')
    """
    try:
        return str(n)
    except ValueError:
        pass
    if n < 0:
        return "-" + int_text(-n)
    k = n.bit_length() * 3 // 20  # about half the digits (log10(2) > 0.3)
    high, low = divmod(n, 10**k)
    return int_text(high) + int_text(low).zfill(k)


def fraction_text(p: Fraction) -> str:
    """``"N/D"`` (always with a denominator, so a parser never has to guess), of any size.

    >>> fraction_text(Fraction(3, 6))
    '1/2'
    """
    return f"{int_text(p.numerator)}/{int_text(p.denominator)}"


def prob_json(p: Fraction) -> dict[str, Any]:
    """``{"probability": "N/D", "p": float}``."""
    return {"probability": fraction_text(p), "p": float(p)}


def dist_json(probs: Mapping[int, Fraction]) -> list[dict[str, Any]]:
    """``[{"value": V, "probability": "N/D", "p": float}, ...]``, values ascending."""
    return [{"value": v, **prob_json(probs[v])} for v in sorted(probs)]
