"""Settings of the bench servers only: the site's settings plus the bench counters (queries,
template renders, pushes, channel-layer sends; served at /__bench__/counters) and a cheap
password hasher for the bench users (their logins are not what is measured).

Used through DJANGO_SETTINGS_MODULE=bench.settings by the processes bench/run.py starts."""

import os

from musweb.settings import *  # noqa: F403
from musweb.settings import INSTALLED_APPS, MIDDLEWARE

INSTALLED_APPS = [*INSTALLED_APPS, "bench.instrument.BenchConfig"]
MIDDLEWARE = ["bench.instrument.BenchMiddleware", *MIDDLEWARE]

# PBKDF2 at 1,000 iterations for the bench users (bench/run.py hashes with the same hasher, so
# no login rehashes); production keeps Django's default.
PASSWORD_HASHERS = ["bench.instrument.BenchPasswordHasher"]

# collectstatic of the bench goes to its own folder (DEBUG=0 needs the manifest).
STATIC_ROOT = os.environ.get("BENCH_STATIC_ROOT", "/tmp/barajamos-bench/static")
