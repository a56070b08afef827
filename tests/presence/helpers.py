"""Timings of the presence tests, short by default (the site's in the comments)."""

import os

# Seconds a seat waits (60 on the site) and between two sweeps (5 on the site). Longer ones
# for a measurement: PRESENCE_GRACE=60 PRESENCE_SWEEP=5 pytest -s -k measure tests/presence
GRACE = float(os.environ.get("PRESENCE_GRACE", "2"))
SWEEP = float(os.environ.get("PRESENCE_SWEEP", "1"))
# A web process silent this long is dead (15 on the site). The test process, whose sockets flush
# every 0.2 s while a test runs, stays well within it.
WEB_PROCESS_LIMIT = float(os.environ.get("PRESENCE_WEB_PROCESS_LIMIT", "3"))
