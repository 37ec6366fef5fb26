"""``round_places(x, n)`` is ``round(x, n)``, the same float (issue 16, docs/performance.md
"Lengths measured only where they are close"): its compiled path (``_round_places_fast``, run here
from the sources and, on the compiled build, through ``round_places``) on random values at every
scale, on values a few floats from a tie (``(k + .5) / 10 ** n``), on exact binary ties
(``0.0625`` at 3 places), and on the special values (both zeros, tiny negatives that round to
-0.0, NaN, infinities, huge values)."""

from __future__ import annotations

import math
import random

import pytest

from shieldwall.core import geometry as G
from shieldwall.core.reference import reference_path

PLACES = (2, 3, 4)


def _same(a: float, b: float) -> bool:
    return a.hex() == b.hex() or (a != a and b != b)


def _values(rng: random.Random) -> list[float]:
    out: list[float] = []
    for _ in range(20_000):
        out.append(rng.uniform(-200, 200) * 10.0 ** rng.randint(-6, 3))
    for n in PLACES:
        p = 10.0**n
        for _ in range(5_000):  # a few floats either side of a tie
            x = (rng.randint(-200_000, 200_000) + 0.5) / p
            for _ in range(rng.randint(0, 4)):
                x = math.nextafter(x, math.inf if rng.random() < 0.5 else -math.inf)
            out.append(x)
    for k in range(-40, 41):  # exact binary ties: k/16 and k/32 (0.0625 is 62.5 thousandths)
        out.extend((k / 16.0, k / 32.0, k / 64.0))
    out.extend([0.0, -0.0, -1e-23, 1e-23, -0.00049, -0.0005, -0.00051, 5e-5, -5e-5, 1e8, 1e9, 1e12, -1e300])
    out.extend([math.inf, -math.inf, math.nan, 5e-324, -5e-324, 2.675, 1.0005, 0.125, -0.125])
    return out


def test_the_fast_path_is_round_to_the_bit() -> None:
    rng = random.Random(28)
    values = _values(rng)
    decided = 0
    for n in (*PLACES, 0, 1, 5):
        for x in values:
            got, want = G._round_places_fast(x, n), round(x, n)
            assert _same(got, want), (x, n, got, want)
            decided += n in PLACES
    assert decided > 50_000


def test_a_tie_and_a_zero_keep_round_s_answers() -> None:
    assert G._round_places_fast(0.0625, 3).hex() == (0.062).hex()  # half to even on the exact value
    assert G._round_places_fast(2.675, 2) == 2.67  # 2.675 is below the half in binary
    assert math.copysign(1.0, G._round_places_fast(-0.0001, 3)) == -1.0  # -0.0
    assert math.copysign(1.0, G._round_places_fast(-0.0, 2)) == -1.0
    assert math.isnan(G._round_places_fast(math.nan, 3))


@pytest.mark.parametrize("n", PLACES)
def test_round_places_answers_as_on_the_reference_path(n: int) -> None:
    values = _values(random.Random(n))[:5000]
    fast = [G.round_places(x, n).hex() for x in values if x == x]
    with reference_path():
        assert fast == [G.round_places(x, n).hex() for x in values if x == x]
