"""pytest configuration: hypothesis profiles, and a scratch file for puzzle progress.

"dev" (the default) and "ci" both run without a per-example deadline (the
engine tests play whole deals, whose time varies with the shared machine);
"ci" is also derandomized so that a CI run is reproducible. The "ci" profile
is loaded whenever the CI environment variable is set.
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
settings.load_profile("ci" if os.environ.get("CI") else "dev")


# puzzle progress (courtlearn.puzzles) goes to a scratch file, never the user's own
os.environ.setdefault("COURTLEARN_PROGRESS", os.path.join(
    os.environ.get("TMPDIR", "/tmp"), f"courtlearn-test-progress-{os.getpid()}.json"))
