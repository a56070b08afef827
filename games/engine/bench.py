"""``python -m games.engine bench``: showdowns scored and random parties played per second.

One core, median of several runs. Randomness comes from the seeded hashlib shuffler. The hands
for the showdown figure are drawn before the clock starts: only the scoring is timed (four hands
through every lance, en paso, and the count). A party is timed from ``new_partie`` to its end,
random legal actions included. It also times building the robot's tables (``robot_tables_ms``,
once, both modalities). The last line reads ``showdowns_per_s=N parties_per_s=M
robot_tables_ms=T``.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

from .random_play import play_partie, shuffled_deck
from .robot import build_tables
from .scoring import showdown_paso
from .shuffle import SeededShuffler


def _showdown_rate(deals: list[tuple[int, int, list[list[str]]]], repeat: int) -> float:
    start = time.perf_counter()
    n = 0
    for _ in range(repeat):
        for kings, mano, hands in deals:
            showdown_paso(hands, kings, mano, [0, 0])
            n += 1
    return n / (time.perf_counter() - start)


def _party_rate(first_seed: int, count: int) -> float:
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + count):
        play_partie(seed)
    return count / (time.perf_counter() - start)


def _one_core() -> None:
    """Pin the process to one CPU where the OS allows it (Linux); elsewhere run as is."""
    if hasattr(os, "sched_getaffinity") and hasattr(os, "sched_setaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
        if cpus:
            os.sched_setaffinity(0, {cpus[0]})


def main(runs: int = 5, out: Callable[[str], object] = print) -> tuple[int, int]:
    _one_core()
    start = time.perf_counter()
    build_tables()
    tables_ms = (time.perf_counter() - start) * 1000
    rng = SeededShuffler(2024)
    deals = []
    for _ in range(2000):
        deck = shuffled_deck(rng)
        hands = [deck[s * 4 : s * 4 + 4] for s in range(4)]
        deals.append(((4, 8)[rng.randbelow(2)], rng.randbelow(4), hands))
    showdowns = []
    parties = []
    for run in range(runs):
        showdowns.append(_showdown_rate(deals, 25))
        parties.append(_party_rate(run * 1000, 40))
        out(f"run {run + 1}: showdowns_per_s={showdowns[-1]:.0f} parties_per_s={parties[-1]:.1f}")
    s, p = round(statistics.median(showdowns)), round(statistics.median(parties))
    out(f"showdowns_per_s={s} parties_per_s={p} robot_tables_ms={tables_ms:.0f}")
    return s, p
