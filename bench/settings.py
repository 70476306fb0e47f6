"""Production settings for the benchmarks, plus the two things a bench run needs.

Everything comes from ``snowman.settings`` (run with DEBUG=0 and a real SECRET_KEY); the
only differences are a trivial view to measure the server's floor (``bench/urls.py``)
and a STATIC_ROOT taken from the environment, so ``collectstatic`` can go to a
throwaway directory instead of the checkout.
"""

import os
from pathlib import Path

import snowman.settings
from snowman.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", snowman.settings.STATIC_ROOT))
