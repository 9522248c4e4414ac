"""Settings for the whole suite."""

from __future__ import annotations

import os

from hypothesis import settings

# No per-example deadline: on a shared two-core machine a slow example is
# load, not a bug. In CI the property tests are derandomized, so a red run is
# a regression in the code, not a new random draw; locally they explore.
settings.register_profile("local", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "local")
