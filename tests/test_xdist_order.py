"""The longest tests first in each pytest-xdist worker's share (tests/xdist_order.py)."""

from __future__ import annotations

from tests.xdist_order import long_first, share, weight

LONG = {"b.py::slow": 100.0, "c.py::x[": 30.0, "c.py::x[2]": 50.0, "d.py": 20.0}


def test_a_test_weighs_its_longest_prefix() -> None:
    assert weight("c.py::x[2]", LONG) == 50.0 and weight("c.py::x[1]", LONG) == 30.0
    assert weight("b.py::slow_one", LONG) == 100.0 and weight("a.py::t", LONG) == 0.0


def test_each_share_starts_with_its_long_tests_longest_first_and_keeps_its_size() -> None:
    ids = [f"a.py::t{i}" for i in range(6)] + ["b.py::slow", "c.py::x[1]", "c.py::x[2]", "d.py::y", "e.py::z"]
    order = long_first(ids, 2, LONG)
    assert sorted(order) == list(range(len(ids)))  # a permutation
    first, second = [ids[i] for i in order[:5]], [ids[i] for i in order[5:]]  # worksteal: 5 then 6
    # greedily: the 100 s test to one share; the 50, 30 and 20 s ones to the other (80 < 100)
    assert first[:1] == ["b.py::slow"] and second[:3] == ["c.py::x[2]", "c.py::x[1]", "d.py::y"]
    # the rest in collection order
    assert first[1:] + second[3:] == [f"a.py::t{i}" for i in range(6)] + ["e.py::z"]


def test_one_worker_or_no_long_tests_keep_the_collection_order() -> None:
    ids = [f"a.py::t{i}" for i in range(5)]
    assert long_first(ids, 1, LONG) == long_first(ids, 3, LONG) == list(range(5))
    assert long_first(["b.py::slow"], 2, LONG) == [0]


def test_a_full_share_sends_the_next_long_test_to_another() -> None:
    long = {"a": 100.0, "b": 1.0, "c": 1.0, "d": 1.0}
    # shares of 2 and 2: a; then b and c to the lighter share, which is then full: d joins a
    assert long_first(["a", "b", "c", "d"], 2, long) == [0, 3, 1, 2]


def test_each_share_runs_its_browser_tests_one_after_the_other() -> None:
    ids = ["a.py::t0", "w.py::b0", "a.py::t1", "w.py::b1", "c.py::x[2]", "w.py::b2", "a.py::t2", "d.py::y"]
    ids += ["w.py::slow_b", "a.py::t3"]
    long = {**LONG, "w.py::slow_b": 40.0}
    browser = {"w.py::b0", "w.py::b1", "w.py::b2", "w.py::slow_b"}
    order = long_first(ids, 2, long, browser=browser)
    assert sorted(order) == list(range(len(ids)))
    first, second = [ids[i] for i in order[:5]], [ids[i] for i in order[5:]]
    # the shares hold what they held without ``browser`` (the 50 s test and the 40 + 20 s ones)
    plain = [ids[i] for i in long_first(ids, 2, long)]
    assert sorted(first) == sorted(plain[:5]) and sorted(second) == sorted(plain[5:])
    # long tests first, a long browser test last of them; then the share's browser tests
    assert first == ["c.py::x[2]", "w.py::b0", "w.py::b1", "a.py::t0", "a.py::t1"]
    assert second == ["d.py::y", "w.py::slow_b", "w.py::b2", "a.py::t2", "a.py::t3"]


def test_a_test_s_share_is_the_one_worksteal_cuts_around_it() -> None:
    # 11 tests on 2 workers: 5 then 6 (each share ``len(pending) // workers`` of what is left)
    assert [share(i, 11, 2) for i in (0, 4, 5, 10)] == [(0, 5), (0, 5), (5, 11), (5, 11)]
    assert share(3, 10, 3) == (3, 6) and share(9, 10, 3) == (6, 10)
    assert share(7, 8, 1) == (0, 8)
