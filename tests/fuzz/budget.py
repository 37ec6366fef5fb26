"""The fuzz budget: a few seconds per target in CI, long runs on demand.

``HYPOTHESIS_PROFILE=fuzz`` (or ``SHIELDWALL_FUZZ_EXAMPLES=N``) runs many more examples; see the
README ("Fuzzing"). Settings are given per test, so loading this module changes no other test.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

#: examples per target: CI's default, and the long run's
CI_EXAMPLES = 60
LONG_EXAMPLES = 5000


def examples(scale: float = 1.0) -> int:
    n = os.environ.get("SHIELDWALL_FUZZ_EXAMPLES")
    if n:
        base = int(n)
    elif os.environ.get("HYPOTHESIS_PROFILE") == "fuzz":
        base = LONG_EXAMPLES
    else:
        base = CI_EXAMPLES
    return max(1, int(base * scale))


def budget(scale: float = 1.0) -> settings:
    """Hypothesis settings for one fuzz target (derandomized in CI so a run is reproducible)."""
    long = os.environ.get("HYPOTHESIS_PROFILE") == "fuzz" or bool(os.environ.get("SHIELDWALL_FUZZ_EXAMPLES"))
    return settings(
        max_examples=examples(scale),
        deadline=None,
        derandomize=not long,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
