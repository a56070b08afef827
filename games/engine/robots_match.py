"""``python -m games.engine robots``: whole parties between two policies, to compare the robots
with each other and with simple players, deterministically given ``--seed``.

The policies, how each party is dealt, and the figures of its last line: docs/engine.md
(« The robots command »). Run it as ``taskset -c 1 nice python -m games.engine robots ...``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable
from itertools import combinations

from .cards import CARD_RANK, effective_rank
from .hands import JEU, JEU_STRENGTH, PAIRES, TABLES
from .machine import apply, legal_actions, new_partie, to_act
from .observation import observation
from .robot import Level, robot_action
from .robot_abstraction import LANCES, lance_percentiles
from .robot_v1 import hand_key, robot_v1_action
from .shuffle import SeededShuffler
from .timeout import least_useful_card, timeout_action
from .types import Action, Kings, Observation, State, team_of

Policy = Callable[[State, int, SeededShuffler], Action]
ObservationPolicy = Callable[[Observation], Action]
MAX_ACTIONS = 20_000
#: what ``sensible`` calls a strong hand in a lance (its percentile there), and a top one
SENSIBLE_STRONG = 0.8
SENSIBLE_TOP = 0.95


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


def passive_policy(state: State, seat: int, rng: SeededShuffler) -> Action:
    return timeout_action(state, seat)


def sensible_action(obs: Observation) -> Action:
    """A simple human-like rule player: cut with two kings, a pair or 31; keep kings, aces and
    pairs; bet 2 with a strong hand; hold only when strong; refuse an órdago unless top."""
    legal = {t["type"]: t for t in obs["legal"]}
    cards = obs["my_cards"] or []
    kings = obs["kings"]
    entry = TABLES[kings][hand_key(cards)]
    has_pair, has_31 = entry[PAIRES] > 0, entry[JEU] == JEU_STRENGTH[31]
    ranks = [_effective(c, kings) for c in cards]
    if "deal" in legal:
        return {"type": "deal"}
    if "cut" in legal:
        return {"type": "cut" if ranks.count(12) >= 2 or has_pair or has_31 else "mus"}
    if "discard" in legal:
        thrown = [
            c for c, r in zip(cards, ranks, strict=True) if r not in (12, 1) and ranks.count(r) < 2
        ]
        return {"type": "discard", "cards": thrown or [least_useful_card(cards, kings)]}
    lance = obs["lance"] or "grand"
    q = lance_percentiles(kings)[hand_key(cards)][LANCES.index(lance)]
    betting = obs["betting"]
    if "pass" in legal:
        if q >= SENSIBLE_STRONG and "bet" in legal:
            return {"type": "bet", "amount": max(2, legal["bet"].get("min", 2))}
        return {"type": "pass"}
    ordago = betting is not None and betting["stake"] == "ordago"
    if q >= (SENSIBLE_TOP if ordago else SENSIBLE_STRONG):
        return {"type": "hold"}
    return {"type": "refuse"}


def _effective(card: str, kings: int) -> int:
    return effective_rank(CARD_RANK[card], kings)


def _level(level: Level) -> ObservationPolicy:
    return lambda obs: robot_action(obs, level)


def _exploiter(kinds: tuple[str, ...]) -> ObservationPolicy:
    """Plays the first of ``kinds`` that is legal, else the expert robot."""

    def act(obs: Observation) -> Action:
        legal = {t["type"] for t in obs["legal"]}
        for kind in kinds:
            if kind in legal:
                return {"type": kind}
        return robot_action(obs)

    return act


#: the policies that decide from their seat's observation only
OBSERVATION_POLICY: dict[str, ObservationPolicy] = {
    "robot": _level("expert"),
    "robot-confirme": _level("confirme"),
    "robot-debutant": _level("debutant"),
    "robot-v1": robot_v1_action,
    "sensible": sensible_action,
    "ordago-always": _exploiter(("ordago",)),
    "hold-all": _exploiter(("hold",)),
    "refuse-all": _exploiter(("refuse",)),
}
POLICY: dict[str, Policy] = {"random": uniform_action, "passive": passive_policy}
POLICIES = tuple(OBSERVATION_POLICY) + tuple(POLICY)


class Style:
    """What the seats of one policy said, counted per hand, and who threw each órdago."""

    def __init__(self) -> None:
        self.counts = {"bet": 0, "raise": 0, "ordago": 0, "hold": 0, "refuse": 0}
        self.answers = 0
        self.hands = 0
        self.ordagos: list[tuple[float, int, int]] = []  # thrower's percentile, its score, theirs

    def record(self, state: State, seat: int, action: Action) -> None:
        kind = action["type"]
        if kind not in self.counts:
            return
        self.counts[kind] += 1
        envite = state["hand"]["betting"]
        if kind in ("hold", "refuse", "raise") or (
            kind == "ordago" and envite is not None and envite["stake"] is not None
        ):
            self.answers += 1
        if kind == "ordago":
            lance = state["hand"]["lance"] or "grand"
            key = hand_key(state["hand"]["cards"][seat])
            q = lance_percentiles(state["kings"])[key][LANCES.index(lance)]
            us = team_of(seat)
            self.ordagos.append((q, state["scores"][us], state["scores"][1 - us]))


def play_party(
    policies: tuple[str, str],
    seed: int,
    first_mano: int,
    kings: Kings,
    timed: set[str],
    cpu_times: list[float] | None = None,
    style: Style | None = None,
) -> tuple[State, list[float]]:
    """One partie (team 0 plays ``policies[0]``); the final state and the timed decisions (ms,
    wall clock, observation building excluded; their CPU times go to ``cpu_times`` when given).
    ``style`` counts the words of the seats that play team 0's policy (all four when both teams
    play the same one).

    The seats to act play one after the other, the first of ``to_act`` first (the simultaneous
    discard and a team's two votes included); ``deal`` is said by that first seat.
    """
    rng = SeededShuffler(seed)
    state = new_partie(kings=kings, first_mano=first_mano, shuffler=rng)
    times: list[float] = []
    counted = {s for s in range(4) if policies[team_of(s)] == policies[0]}
    for _ in range(MAX_ACTIONS):
        if state["status"] == "finished":
            if style is not None:
                style.hands += state["hand_number"]
            return state, times
        seat = to_act(state)[0]
        name = policies[team_of(seat)]
        decide = OBSERVATION_POLICY.get(name)
        obs = observation(state, seat) if decide is not None else None
        cpu = time.process_time()
        start = time.perf_counter()
        action = (
            decide(obs)
            if decide is not None and obs is not None
            else POLICY[name](state, seat, rng)
        )
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu
        if name in timed:
            times.append(elapsed * 1000)
            if cpu_times is not None:
                cpu_times.append(cpu * 1000)
        if style is not None and seat in counted:
            style.record(state, seat, action)
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
    robots = {name for name in (team0, team1) if name.startswith("robot")}
    timed = robots or {team0, team1}
    style = Style()
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
            (team0, team1), seed * 1_000_003 + i, first_mano, kings, timed, cpu_times, style
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
    for row in style_table(style, team0 if team0 == team1 else f"{team0} (team 0)"):
        out(row)
    per_hand = style.hands or 1
    line = (
        f"parties={parties} team0_wins={wins} win_rate={rate:.3f} ci95={low:.3f}..{high:.3f}"
        f" decision_ms_p50={_quantile(times, 0.5):.2f}"
        f" decision_ms_p95={_quantile(times, 0.95):.2f}"
        f" ordagos_per_hand={style.counts['ordago'] / per_hand:.3f}"
        f" bets_per_hand={style.counts['bet'] / per_hand:.3f}"
        f" holds_per_answer={style.counts['hold'] / (style.answers or 1):.3f}"
    )
    out(line)
    return line


def style_table(style: Style, who: str) -> list[str]:
    """Per hand: bets, raises, órdagos, holds, refusals; per órdago: the thrower's percentile in
    its lance and the scores (the thrower's team's first)."""
    hands = style.hands or 1
    rows = [f"style of {who}, per hand (over {style.hands} hands):"]
    rows.append("  " + "  ".join(f"{k}s {v / hands:.3f}" for k, v in style.counts.items()))
    if style.ordagos:
        qs = sorted(q for q, _, _ in style.ordagos)
        n = len(qs)
        behind = sum(1 for _, a, b in style.ordagos if a < b)
        late = sum(1 for _, a, b in style.ordagos if max(a, b) >= 30)
        weak = sum(1 for q in qs if q < 0.5)
        rows.append(
            f"  órdagos {n}: thrower's percentile p25 {_quantile(qs, 0.25):.2f}"
            f" median {_quantile(qs, 0.5):.2f} p75 {_quantile(qs, 0.75):.2f};"
            f" below the median {weak / n:.2f}; thrown from behind {behind / n:.2f};"
            f" a team at 30+ {late / n:.2f}"
        )
        mean_us = statistics.fmean(a for _, a, _ in style.ordagos)
        mean_them = statistics.fmean(b for _, _, b in style.ordagos)
        rows.append(
            f"  mean scores at the órdago: thrower's team {mean_us:.1f}, the other {mean_them:.1f}"
        )
    else:
        rows.append("  no órdago")
    return rows


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
