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

``LONG``: node id prefixes and the estimated seconds of the tests worth moving (docs/performance.md,
"The test suite's time, fifth slice"). A renamed test only loses its place: it runs where pytest
put it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

_BOTS = "::test_scripted_beats_random_in_at_least_90_percent_of_200_seeded_battles"
_SIM = "tests/agents/test_openspiel.py::test_openspiel_random_sim_test_passes_on_every_scenario["

#: node id prefix -> seconds on an idle machine, estimated: the CPU time (pytest and its children)
#: measured at load 11-16; for the tests that mostly wait (the two-browser game, Ray, a server's
#: workers) and the two 200-battle bot tests, their wall clock from earlier runs on a quieter
#: machine (docs/performance.md). Only the ratios matter.
LONG: Mapping[str, float] = {
    "tests/one_hour/test_bots.py" + _BOTS: 140,  # 200 battles in one process
    "tests/into_the_dark/test_itd_bot.py" + _BOTS: 100,  # 200 battles on a pool of 2
    "tests/web/test_web_two_browsers.py::": 60,
    "tests/golden/test_event_hashes.py::test_into_the_dark_battles": 17,
    "tests/sim/test_ray.py::test_ray_backend_equals_local_backend": 15,
    "tests/web/test_web_workers.py::test_serve_with_two_workers_plays_one_game_in_step": 15,
    "tests/sim/test_simulate_mcts.py::test_self_play_with_a_variant_replays": 14,
    _SIM + "spi-dark-ages/stamford-bridge]": 8,
    "tests/agents/test_mcts.py::test_mcts_200_replays_identically": 7,
    _SIM + "spi-dark-ages/dorylaeum]": 5,
    "tests/golden/test_event_hashes.py::test_one_hour_battles": 5,
    "tests/odds/test_odds_big_and_progress.py::test_int_text_equals_str_for_random_ints": 4,
    _SIM + "spi-dark-ages/tours]": 4,
    "tests/web/test_web_mcts.py::test_a_search_bot_with_an_opponent_model[mcts:mix0-bot:mcts:mix0]": 4,
    "tests/agents/test_mcts_hidden.py::test_mcts_decides_alike_whatever_the_hidden_truth[_concealed": 4,
    "tests/dbm/test_dbm_browser.py::test_storm_pursue": 4,
    "tests/web/test_web_table.py::test_save_in_the_browser": 3,
    "tests/spi_dark_ages/test_spi_browser.py::test_spi_hex_board": 3,
    "tests/into_the_dark/test_itd_geometry_paths.py::test_terrain_no_accepted_order": 3,
    "tests/into_the_dark/test_itd_fast_paths.py::test_a_charge_ruled_out_untraced": 3,
    "tests/into_the_dark/test_itd_docs.py::test_docs_table_is_current": 3,
    "tests/into_the_dark/test_itd_docs.py::test_docs_every_row_names_real_code": 3,
    "tests/odds/test_odds_one_hour_duel.py::test_turn_distribution_matches_icepool[skirmishers-bows": 3,
    "tests/web/test_web_browser.py::test_play_against_the_bot_move_charge_and_see_the_dice": 3,
    "tests/plugins/test_toy_browser.py::test_the_toy_is_played_in_the_browser": 3,
    "tests/golden/test_golden.py::test_golden_decisions_and_menus[into-the-dark/senlac?command": 3,
    "tests/agents/test_mcts_mix.py::test_a_mixed_opponent": 3,
}


def weight(nodeid: str, long: Mapping[str, float] = LONG) -> float:
    """The measured seconds of a test (0: not a long one): its longest matching prefix's."""
    best, size = 0.0, -1
    for prefix, seconds in long.items():
        if nodeid.startswith(prefix) and len(prefix) > size:
            best, size = seconds, len(prefix)
    return best


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
    sizes, left = [], n  # the shares as worksteal cuts them: each len(pending) // workers left
    for i in range(workers):
        sizes.append(left // (workers - i))
        left -= sizes[-1]
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
