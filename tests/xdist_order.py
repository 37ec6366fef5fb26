"""The longest tests first, on every pytest-xdist worker (``--dist worksteal``, the README's test
command).

worksteal hands each worker an equal, contiguous share of the collection in its order; a worker
that runs out takes the second half of the largest queue left (its end: the tests that would
have run last). So the end of a run is made of whatever tests come last in the shares: when one
is the 140-second bot test, the other worker is idle for most of it. Here the collection is
reordered (the same on every worker: xdist checks it) so that each share begins with its long
tests, longest first, the long tests spread over the shares by their measured time (greedily: the
next longest to the share with the least so far), and the rest of each share keeps the order
pytest collected it in. The results do not depend on the order; only where the time goes.

Each share's browser tests run one after the other (its long ones after its other long tests,
then its other browser tests before the rest), so that the Chromium consecutive browser tests
share (tests/browser_fixtures.py) is launched about once a share rather than once a module.

``LONG``: node id prefixes and the measured seconds of the tests worth moving (docs/performance.md,
"The test suite's time, fifth slice" and "sixth slice"). A renamed test only loses its place: it
runs where pytest put it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

_BOTS = "::test_scripted_beats_random_in_at_least_90_percent_of_200_seeded_battles"
_SIM = "tests/agents/test_openspiel.py::test_openspiel_random_sim_test_passes_on_every_scenario["
_HALVING = "tests/agents/test_mcts_halving.py::test_a_battle_with_halving_replays_byte_for_byte"

#: node id prefix -> seconds: the wall clock of the test (set-up included) in a whole-suite run on
#: an idle machine (``pytest -n auto --dist worksteal --durations=150`` at 62ee19a, 349 s; the test
#: suite's time, sixth slice), rounded; the two clause-table tests of into-the-dark left out (3 and
#: 2 s then, 0.3-0.6 s since). The five longest are those of the idle run at e37f086 (313 s, with
#: the compiled modules; the seventh slice). Only the ratios matter.
LONG: Mapping[str, float] = {
    "tests/into_the_dark/test_itd_bot.py" + _BOTS: 48,  # 200 battles on a pool of 2
    "tests/web/test_web_two_browsers.py::": 33,
    "tests/one_hour/test_bots.py" + _BOTS: 19,  # 200 battles in one process
    "tests/sim/test_ray.py::test_ray_backend_equals_local_backend": 17,
    "tests/sim/test_simulate_mcts.py::test_self_play_with_a_variant_replays": 17,
    "tests/golden/test_event_hashes.py::test_into_the_dark_battles": 8,
    "tests/sim/test_local_workers.py::test_the_last_batches_queued_in_a_slow_worker": 8,
    "tests/agents/test_mcts.py::test_mcts_200_replays_identically": 8,
    # the Knight Hack search battles played twice (the eighth slice's second pass: --durations of
    # tests/agents on the sources, 8.42 / 6.57 / 2.44 s against 5.80 for test_mcts_200 above,
    # scaled to its 8; the ninth slice: the map of tests/agents on the compiled build, CPU, gave
    # 18.5 and 6.3 s for [mcts:24:sh] and [mcts:8:hend:sh], and its Knight Hack steps took ~40%
    # off both: ~10 and ~4 s)
    _HALVING + "[mcts:24:sh]": 10,
    _HALVING + "[mcts:8:hend:sh]": 4,
    "tests/agents/test_mcts_halving.py::test_halving_plays_the_scripted_order_unless_a_survivor": 3,
    "tests/into_the_dark/test_itd_fast_paths_moves.py::test_the_general_choosing_from_the_menu_in_parts": 7,
    _SIM + "spi-dark-ages/stamford-bridge]": 6,
    "tests/one_hour/test_bots.py::test_under_declared_movement": 5,
    "tests/odds/test_odds_big_and_progress.py::test_int_text_equals_str_for_random_ints": 5,
    "tests/agents/test_mcts_hidden.py::test_mcts_decides_alike_whatever_the_hidden_truth[_concealed": 4,
    "tests/report/test_report_browser.py::test_the_report_opens_offline_and_prints_to_pdf": 4,
    "tests/web/test_web_army.py::test_build_an_army_in_the_browser": 4,
    "tests/web/test_web_browser.py::test_play_into_the_dark_against_the_bot_by_pointing": 4,
    "tests/web/test_web_serve_process.py::test_serve_stops_within_two_seconds_of_sigterm_under_load": 4,
    "tests/dbm/test_dbm_browser.py::test_storm_pursue": 4,
    "tests/web/test_web_browser.py::test_a_rule_system_without_a_web_module": 3,
    _SIM + "spi-dark-ages/dorylaeum]": 3,
    "tests/web/test_web_browser.py::test_play_against_the_bot_move_charge_and_see_the_dice": 3,
    "tests/golden/test_event_hashes.py::test_one_hour_battles": 3,
    "tests/web/test_web_mcts.py::test_a_search_bot_with_an_opponent_model[mcts:mix0-bot:mcts:mix0]": 3,
    "tests/report/test_report_battle.py::test_every_built_in_rule_system_is_reported": 3,
    "tests/agents/test_mcts_mix.py::test_a_mixed_opponent": 3,
    _SIM + "spi-dark-ages/tours]": 3,
    "tests/spi_dark_ages/test_spi_data.py::test_inventory_the_label_reaches_the_cli_outputs": 3,
    "tests/web/test_web_army.py::test_costed_as_the_cli_costs_it": 3,
    "tests/web/test_web_access.py::test_every_rule_systems_table_by_keyboard_and_axe[spi-dark-ages]": 3,
    "tests/into_the_dark/test_itd_geometry_paths.py::test_terrain_no_accepted_order": 3,
    "tests/agents/test_openspiel_clone.py::test_states_play_the_same_battle_on_both_paths[into-the-": 3,
}


def weight(nodeid: str, long: Mapping[str, float] = LONG) -> float:
    """The measured seconds of a test (0: not a long one): its longest matching prefix's."""
    best, size = 0.0, -1
    for prefix, seconds in long.items():
        if nodeid.startswith(prefix) and len(prefix) > size:
            best, size = seconds, len(prefix)
    return best


def share_sizes(n: int, workers: int) -> list[int]:
    """The sizes of the shares worksteal cuts ``n`` tests into: each ``len(pending) // workers`` left."""
    sizes, left = [], n
    for i in range(workers):
        sizes.append(left // (workers - i))
        left -= sizes[-1]
    return sizes


def share(index: int, n: int, workers: int) -> tuple[int, int]:
    """The bounds (start, end) of the share of the collection that test ``index`` of ``n`` is in,
    over ``workers`` pytest-xdist workers (the whole collection for one worker)."""
    start = 0
    for size in share_sizes(n, max(1, workers)):
        if index < start + size:
            return start, start + size
        start += size
    return 0, n


def long_first(
    nodeids: Sequence[str],
    workers: int,
    long: Mapping[str, float] = LONG,
    browser: Collection[str] = frozenset(),
) -> list[int]:
    """The order (indices into ``nodeids``) that puts each worker's share's long tests first; the
    share's browser tests (node ids in ``browser``) run one after the other, from its long ones on:
    its long tests without a browser, then with one, then its other browser tests, then the rest."""
    n = len(nodeids)
    if workers < 2 or n < workers:
        return list(range(n))
    sizes = share_sizes(n, workers)  # the shares as worksteal cuts them
    weights = [weight(i, long) for i in nodeids]
    heavy = sorted((i for i in range(n) if weights[i] > 0), key=lambda i: (-weights[i], i))
    shares: list[list[int]] = [[] for _ in range(workers)]
    loads = [0.0] * workers
    for i in heavy:
        free = [w for w in range(workers) if len(shares[w]) < sizes[w]]
        w = min(free, key=lambda w: (loads[w], w))
        shares[w].append(i)
        loads[w] += weights[i]
    rest = iter(i for i in range(n) if weights[i] == 0)
    order: list[int] = []
    for w in range(workers):
        long_ones = shares[w]
        light = [next(rest) for _ in range(sizes[w] - len(long_ones))]
        # sorts are stable: the long tests stay longest first, the others in the collection's order
        order += sorted(long_ones, key=lambda i: nodeids[i] in browser)
        order += sorted(light, key=lambda i: nodeids[i] not in browser)
    return order
