"""``python -m games.engine robots``: whole parties between two policies, measured.

``--parties N --seed S --team0 P --team1 Q`` with P, Q among ``robot`` (:func:`robot_action`
on the seat's observation only), ``random`` (:func:`uniform_action`) and ``passive``
(:func:`~games.engine.timeout_action`: cut, pass, refuse, discard one card). Party ``i`` has
its own seeded shuffler (``S * 1_000_003 + i``), first mano ``i % 4`` (so the first mano
alternates between the teams) and plays ``4 rois`` for ``i % 8 < 4``, else ``8 rois``. It is
deterministic given ``--seed``.

The last line reads ``parties=N team0_wins=W win_rate=R ci95=L..H decision_ms_p50=A
decision_ms_p95=B``: ``ci95`` is the Wilson score interval of the win rate at 95 %, and the
decision times are those of the ``robot`` policy (of every decision when neither team is a
robot), in milliseconds of wall clock, observation building excluded; the table above it also
gives their CPU time (``time.process_time``), which other processes on a shared machine do not
inflate. Run it as ``taskset -c 1 nice python -m games.engine robots ...`` to stay on one core.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable
from itertools import combinations

from .machine import apply, legal_actions, new_partie, to_act
from .observation import observation
from .robot import robot_action
from .shuffle import SeededShuffler
from .timeout import timeout_action
from .types import Action, Kings, State, team_of

Policy = Callable[[State, int, SeededShuffler], Action]
POLICIES = ("robot", "random", "passive")
MAX_ACTIONS = 20_000


def uniform_action(state: State, seat: int, rng: SeededShuffler) -> Action:
    """A legal action of ``seat`` drawn uniformly, in two steps.

    First a template of :func:`legal_actions` (``pass``, ``bet``, ``ordago``... each as likely),
    then its parameter: a bet amount or a raise target uniform over its whole range, a discard
    uniform over the 15 non-empty subsets of the four cards. (Uniform over every concrete action
    would make ``bet`` 39 times likelier than ``pass``: not what a random player means.)
    """
    templates = legal_actions(state, seat)
    template = templates[rng.randbelow(len(templates))]
    kind = template["type"]
    if kind == "bet":
        lo, hi = template.get("min", 2), template.get("max", 40)
        return {"type": "bet", "amount": lo + rng.randbelow(hi - lo + 1)}
    if kind == "raise":
        lo, hi = template.get("min", 1), template.get("max", 40)
        return {"type": "raise", "to": lo + rng.randbelow(hi - lo + 1)}
    if kind == "discard":
        cards = state["hand"]["cards"][seat]
        subsets = [list(c) for n in range(1, len(cards) + 1) for c in combinations(cards, n)]
        return {"type": "discard", "cards": subsets[rng.randbelow(len(subsets))]}
    return {"type": kind}


def robot_policy(state: State, seat: int, rng: SeededShuffler) -> Action:
    return robot_action(observation(state, seat))


def passive_policy(state: State, seat: int, rng: SeededShuffler) -> Action:
    return timeout_action(state, seat)


POLICY: dict[str, Policy] = {
    "robot": robot_policy,
    "random": uniform_action,
    "passive": passive_policy,
}


def play_party(
    policies: tuple[str, str],
    seed: int,
    first_mano: int,
    kings: Kings,
    timed: set[str],
    cpu_times: list[float] | None = None,
) -> tuple[State, list[float]]:
    """One partie (team 0 plays ``policies[0]``); the final state and the timed decisions (ms,
    wall clock; their CPU times go to ``cpu_times`` when given).

    The seats to act play one after the other, the first of ``to_act`` first (the simultaneous
    discard and a team's two votes included); ``deal`` is said by that first seat.
    """
    rng = SeededShuffler(seed)
    state = new_partie(kings=kings, first_mano=first_mano, shuffler=rng)
    times: list[float] = []
    for _ in range(MAX_ACTIONS):
        if state["status"] == "finished":
            return state, times
        seat = to_act(state)[0]
        name = policies[team_of(seat)]
        obs = observation(state, seat) if name == "robot" else None
        cpu = time.process_time()
        start = time.perf_counter()
        action = robot_action(obs) if obs is not None else POLICY[name](state, seat, rng)
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu
        if name in timed:
            times.append(elapsed * 1000)
            if cpu_times is not None:
                cpu_times.append(cpu * 1000)
        state = apply(state, seat, action, shuffler=rng)
    raise RuntimeError(f"partie seed {seed} did not end in {MAX_ACTIONS} actions")


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % for z = 1.96)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_match(
    parties: int, seed: int, team0: str, team1: str, out: Callable[[str], object] = print
) -> str:
    """Play the parties, print the table, return (and print) the last line."""
    timed = {"robot"} if "robot" in (team0, team1) else {team0, team1}
    wins = 0
    times: list[float] = []
    cpu_times: list[float] = []
    by_mano = [[0, 0], [0, 0]]  # [first mano's team][team0 won]
    hands: list[int] = []
    points = [0, 0]
    for i in range(parties):
        first_mano = i % 4
        kings: Kings = 4 if i % 8 < 4 else 8
        state, decision_times = play_party(
            (team0, team1), seed * 1_000_003 + i, first_mano, kings, timed, cpu_times
        )
        times.extend(decision_times)
        won = state["winner"] == 0
        wins += won
        by_mano[team_of(first_mano)][won] += 1
        hands.append(state["hand_number"])
        points[0] += state["scores"][0]
        points[1] += state["scores"][1]
    low, high = wilson(wins, parties)
    rate = wins / parties if parties else 0.0
    out(f"team0={team0} team1={team1} parties={parties} seed={seed}")
    out(f"{'first mano':<14}{'parties':>8}{'team0 wins':>12}")
    for team in (0, 1):
        n = sum(by_mano[team])
        out(f"{'team' + str(team):<14}{n:>8}{by_mano[team][1]:>12}")
    mean_hands = statistics.fmean(hands) if hands else 0.0
    out(f"hands per partie: mean {mean_hands:.1f}, max {max(hands, default=0)}")
    out(f"final points (all parties): team0 {points[0]} team1 {points[1]}")
    out(
        f"decisions timed: {len(times)} ({'/'.join(sorted(timed))}); CPU ms"
        f" p50 {_quantile(cpu_times, 0.5):.2f} p95 {_quantile(cpu_times, 0.95):.2f}"
        " (the last line's figures are wall clock: a loaded machine inflates them)"
    )
    line = (
        f"parties={parties} team0_wins={wins} win_rate={rate:.3f} ci95={low:.3f}..{high:.3f}"
        f" decision_ms_p50={_quantile(times, 0.5):.2f}"
        f" decision_ms_p95={_quantile(times, 0.95):.2f}"
    )
    out(line)
    return line


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine robots")
    parser.add_argument("--parties", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--team0", choices=POLICIES, default="robot")
    parser.add_argument("--team1", choices=POLICIES, default="random")
    args = parser.parse_args(argv)
    if args.parties < 1:
        print("--parties must be at least 1", file=sys.stderr)
        return 2
    run_match(args.parties, args.seed, args.team0, args.team1)
    return 0
