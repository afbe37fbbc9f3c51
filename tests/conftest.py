"""pytest configuration: hypothesis profiles, and a scratch file for puzzle progress.

"dev" (the default) and "ci" both run without a per-example deadline (the
engine tests play whole deals, whose time varies with the shared machine);
"ci" is also derandomized so that a CI run is reproducible. The "ci" profile
is loaded whenever the CI environment variable is set. "soak" is the long local hunt of
`make fuzz` (tests/test_fuzz.py, tests/test_noleak.py): random, not derandomized, no
example database (each round explores afresh; a failure prints its reproduction blob),
and the harness's own test budgets grow (tests/fuzz_support.py: budget). Choose a
profile with COURTLEARN_HYPOTHESIS_PROFILE=soak (or pytest's --hypothesis-profile).
"""
import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "dev",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "soak",
    deadline=None,
    derandomize=False,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("COURTLEARN_HYPOTHESIS_PROFILE")
                      or ("ci" if os.environ.get("CI") else "dev"))


# puzzle progress (courtlearn.puzzles) goes to a scratch file, never the user's own
os.environ.setdefault("COURTLEARN_PROGRESS", os.path.join(
    os.environ.get("TMPDIR", "/tmp"), f"courtlearn-test-progress-{os.getpid()}.json"))
