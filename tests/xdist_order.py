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

``LONG``: node id prefixes and seconds of wall clock (one worker, 2 cores) of the tests worth
moving, measured with ``--durations`` (docs/performance.md, "The test suite's time, fifth
slice"). A renamed test only loses its place: it runs where pytest put it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

_BOTS = "::test_scripted_beats_random_in_at_least_90_percent_of_200_seeded_battles"
_SIM = "tests/agents/test_openspiel.py::test_openspiel_random_sim_test_passes_on_every_scenario["

#: node id prefix -> seconds: wall clock of one test at load 10-15 (about 3-4x an idle machine's),
#: the two 200-battle bot tests estimated from their CPU time; only the ratios matter
LONG: Mapping[str, float] = {
    "tests/one_hour/test_bots.py" + _BOTS: 420,  # 200 battles in one process
    "tests/into_the_dark/test_itd_bot.py" + _BOTS: 300,  # 200 battles on a pool of 2
    "tests/web/test_web_two_browsers.py::": 140,
    _SIM + "spi-dark-ages/stamford-bridge]": 77,
    "tests/sim/test_simulate_mcts.py::test_self_play_with_a_variant_replays": 72,
    _SIM + "spi-dark-ages/dorylaeum]": 51,
    "tests/golden/test_event_hashes.py::test_into_the_dark_battles": 44,
    "tests/agents/test_mcts.py::test_mcts_200_replays_identically": 28,
    _SIM + "spi-dark-ages/tours]": 28,
    "tests/sim/test_ray.py::test_ray_backend_equals_local_backend": 27,
    "tests/odds/test_odds_big_and_progress.py::test_int_text_equals_str_for_random_ints": 25,
    "tests/web/test_web_workers.py::test_serve_with_two_workers_plays_one_game_in_step": 24,
    "tests/spi_dark_ages/test_spi_browser.py::test_spi_hex_board": 23,
    "tests/agents/test_openspiel_clone.py::test_states_play_the_same_battle_on_both_paths[into-the-dark/": 22,
    "tests/dbm/test_dbm_browser.py::test_storm_pursue": 21,
    "tests/web/test_web_table.py::test_save_in_the_browser": 21,
    "tests/into_the_dark/test_itd_fast_paths.py::test_a_charge_ruled_out_untraced": 18,
    "tests/agents/test_mcts_mix.py::test_a_mixed_opponent": 16,
    "tests/odds/test_odds_into_the_dark_matrix.py::test_matrix_json_png_and_table": 16,
    "tests/into_the_dark/test_itd_geometry_paths.py::test_terrain_no_accepted_order": 16,
    "tests/into_the_dark/test_itd_docs.py::test_docs_table_is_current": 15,
    "tests/into_the_dark/test_itd_docs.py::test_docs_every_row_names_real_code": 15,
    "tests/agents/test_agents_env.py::test_pettingzoo_api_and_seed_tests_over_whole_battles[into-": 13,
    "tests/golden/test_event_hashes.py::test_one_hour_battles": 14,
    "tests/golden/test_golden.py::test_golden_decisions_and_menus[into-the-dark/senlac?command": 14,
    "tests/golden/test_golden.py::test_golden_playthrough[into-the-dark/senlac?command_and_control": 12,
    "tests/into_the_dark/test_itd_fast_paths.py::test_the_run_to_contact": 13,
    "tests/into_the_dark/test_itd_fast_paths.py::test_charge_menus_offer_an_impetuous": 12,
    _SIM + "one-hour-dark-ages/": 11,
    _SIM + "into-the-dark/": 10,
    "tests/agents/test_mcts_hidden.py::test_mcts_decides_alike_whatever_the_hidden_truth[_concealed": 11,
}


def weight(nodeid: str, long: Mapping[str, float] = LONG) -> float:
    """The measured seconds of a test (0: not a long one): its longest matching prefix's."""
    best, size = 0.0, -1
    for prefix, seconds in long.items():
        if nodeid.startswith(prefix) and len(prefix) > size:
            best, size = seconds, len(prefix)
    return best


def long_first(nodeids: Sequence[str], workers: int, long: Mapping[str, float] = LONG) -> list[int]:
    """The order (indices into ``nodeids``) that puts each worker's share's long tests first."""
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
        share = shares[w]
        while len(share) < sizes[w]:
            share.append(next(rest))
        order += share
    return order
