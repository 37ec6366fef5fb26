"""``Footprint.__eq__`` and ``__hash__`` written out (issue 16: the dataclass's own were Python
code called through a slot, even compiled) answer as the dataclass's did: equality of the tuples
of the five compared fields, the hash of that tuple (the same number: a set of footprints is walked
in the same order), and ``NotImplemented`` for anything that is not a footprint."""

from __future__ import annotations

import random

from shieldwall.core.geometry import Footprint


def _fields(f: Footprint) -> tuple[float, float, float, float, float]:
    return (f.x, f.y, f.heading, f.frontage, f.depth)


def test_equality_and_hash_are_the_fields_tuples() -> None:
    rng = random.Random(5)
    values = (0.0, -0.0, 1.0, 2.5, 1e-12, 1e300, -7.25, 180.0)
    fps = [Footprint(*(rng.choice(values) for _ in range(5))) for _ in range(3000)]
    for a, b in zip(fps, fps[1:] + fps[:1], strict=True):
        assert hash(a) == hash(_fields(a))
        assert (a == b) is (_fields(a) == _fields(b))
        assert (a != b) is (_fields(a) != _fields(b))
        twin = Footprint(*_fields(a))
        assert twin == a and hash(twin) == hash(a) and twin is not a
    # the dictionaries keyed by footprints find equal ones, as before
    seen = {f: i for i, f in enumerate(fps)}
    assert all(seen[Footprint(*_fields(f))] == seen[f] for f in fps)


def test_anything_else_is_not_equal() -> None:
    f = Footprint(1.0, 2.0, 30.0, 4.0, 1.0)
    assert f.__eq__((1.0, 2.0, 30.0, 4.0, 1.0)) is NotImplemented
    assert f != (1.0, 2.0, 30.0, 4.0, 1.0)
    assert f != "footprint" and f is not None


def test_the_kept_hash_is_the_fields_tuples_every_time_and_after_a_copy() -> None:
    """The hash is worked out at the first ``hash()`` and kept (the class is frozen): every later
    call, and a copy's or a pickle's (made through the constructor), answer the same number."""
    import copy
    import pickle

    rng = random.Random(9)
    for _ in range(500):
        f = Footprint(rng.uniform(-50, 50), rng.uniform(-50, 50), rng.uniform(-180, 180), 4.0, 1.0)
        want = hash(_fields(f))
        assert [hash(f) for _ in range(3)] == [want] * 3
        for other in (copy.copy(f), copy.deepcopy(f), pickle.loads(pickle.dumps(f))):
            assert hash(other) == want and other == f
