"""``math.radians(x)`` is ``x * DEG_TO_RAD`` and ``math.degrees(x)`` is ``x * RAD_TO_DEG``, to the bit
(issue 16: the core and Into the Dark multiply by the constants instead of calling the functions,
which compiled code calls through Python's call protocol; docs/performance.md, "Lengths measured
only where they are close"). CPython multiplies by ``Py_MATH_PI / 180.0`` and ``180.0 / Py_MATH_PI``;
a platform where that did not hold would fail here rather than play other battles."""

from __future__ import annotations

import math
import random

from shieldwall.core.geometry import DEG_TO_RAD, RAD_TO_DEG, bearing, heading_vector


def _values() -> list[float]:
    rng = random.Random(180)
    out = [rng.uniform(-720.0, 720.0) for _ in range(200_000)]
    out += [rng.uniform(-1.0, 1.0) * 10.0 ** rng.randint(-300, 300) for _ in range(50_000)]
    out += [i / 100.0 for i in range(-72_000, 72_001)]  # every hundredth of a degree
    out += [0.0, -0.0, 5e-324, -5e-324, 1e308, -1e308, math.inf, -math.inf, math.pi, -math.pi]
    return out


def test_radians_and_degrees_are_the_multiplications() -> None:
    for x in _values():
        assert math.radians(x).hex() == (x * DEG_TO_RAD).hex(), x
        assert math.degrees(x).hex() == (x * RAD_TO_DEG).hex(), x
    assert math.isnan(math.nan * DEG_TO_RAD) and math.isnan(math.radians(math.nan))


def test_the_core_s_angles_are_the_math_module_s() -> None:
    rng = random.Random(7)
    for _ in range(20_000):
        h = rng.uniform(-360.0, 360.0)
        r = math.radians(h)
        assert heading_vector(h) == (math.sin(r), math.cos(r))
        a, b = (rng.uniform(-50, 50), rng.uniform(-50, 50)), (rng.uniform(-50, 50), rng.uniform(-50, 50))
        assert bearing(a, b).hex() == math.degrees(math.atan2(b[0] - a[0], b[1] - a[1])).hex()
