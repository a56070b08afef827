"""``python -m games.engine solve-seats``: the Expert's betting tables, solved offline on the
four-seat envite of :mod:`envite_seats` (docs/robots.md).

For each lance, pattern and score context, CFR+ as in :mod:`solve` (regret matching+, linear
averages, the tremble, the órdago slip and cost, the partie as utility), over the joint buckets
of the seats that play: each opener's strategy reads its own bucket, each answering team's its
best. The chance comes from deals sampled with a fixed seed: how often each joint bucket occurs
and how often the first team wins there, shrunk toward the chance of its teams' best buckets
where deals are few. The same seed gives the same file. Vectorised with numpy (offline only:
the robot reads the strings written to ``robot_strategy_seats.py``).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from .envite_seats import BUCKETS, pattern_of, patterns, seat_bucket, tree
from .hands import JEU_VALUE, PAIRES_VALUE
from .robot_abstraction import LANCES, context_scores
from .solve import (
    ORDAGO_COST,
    ORDAGO_SLIP,
    PURIFY,
    SLIP_POWER,
    TREMBLE,
    _chance,
    contested_lances,
    encode,
    partie_chance,
)
from .types import Lance, team_of

SEED = 41
DEALS = 400_000
ITERATIONS = 400
#: a joint bucket's win chance is shrunk toward its teams' best buckets' by this many deals
SHRINK = 8.0
OUT = Path(__file__).with_name("robot_strategy_seats.py")

#: (lance, pattern) -> (deals per joint bucket, the first team's wins there, the mean Paires /
#: Jeu value of the winning team)
Samples = dict[tuple[str, str], tuple[np.ndarray, np.ndarray, float]]


def sample(deals: int = DEALS, seed: int = SEED) -> Samples:
    """The joint buckets of the seats that play each lance, over sampled deals (both
    modalities in turn, the mano anywhere); a joint bucket is ``sum(bucket_k * BUCKETS**k)``
    over the playing seats from the mano."""
    counts: dict[tuple[str, str], np.ndarray] = {}
    wins: dict[tuple[str, str], np.ndarray] = {}
    bonus: dict[tuple[str, str], list[float]] = {}
    for lance in LANCES:
        for pattern in patterns(lance):
            counts[(lance, pattern)] = np.zeros(BUCKETS ** len(pattern))
            wins[(lance, pattern)] = np.zeros(BUCKETS ** len(pattern))
            bonus[(lance, pattern)] = [0.0, 0.0]
    for lance, eligible, best, pct, info in contested_lances(deals, seed):
        first = team_of(eligible[0])
        key = (lance, pattern_of(eligible))
        joint = sum(seat_bucket(pct[s]) * BUCKETS**k for k, s in enumerate(eligible))
        counts[key][joint] += 1
        wins[key][joint] += team_of(best) == first
        if lance in ("paires", "jeu"):
            value = PAIRES_VALUE if lance == "paires" else JEU_VALUE
            bonus[key][0] += info[team_of(best)][value] + info[team_of(best) + 2][value]
            bonus[key][1] += 1
    return {
        key: (counts[key], wins[key], total / seen if seen else 0.0)
        for key, (total, seen) in bonus.items()
    }


class Game:
    """One lance, pattern and score context: the first team's (``X``) utility at every
    terminal history and joint bucket, and CFR+'s regrets and average strategy per node."""

    def __init__(
        self,
        lance: Lance,
        pattern: str,
        scores: tuple[int, int],
        counts: np.ndarray,
        wins: np.ndarray,
        bonus: float,
    ):
        self.n = n = BUCKETS
        self.pattern = pattern
        index = np.arange(n ** len(pattern))
        # each player's information per joint bucket: its own bucket, or its team's best
        self.info = {str(k): (index // n**k) % n for k in range(len(pattern))}
        for team in "XY":
            members = [self.info[str(k)] for k, t in enumerate(pattern) if t == team]
            self.info[team] = np.maximum.reduce(members)
        self.players = list(self.info)
        self.prior = counts / counts.sum()
        pair = self.info["X"] * n + self.info["Y"]
        team_counts = np.bincount(pair, weights=counts, minlength=n * n)
        team_wins = np.bincount(pair, weights=wins, minlength=n * n)
        team_win = np.where(team_counts > 0, team_wins / np.maximum(team_counts, 1), 0.5)
        self.win = win = (wins + SHRINK * team_win[pair]) / (counts + SHRINK)
        self.nodes, terminals = tree(pattern)
        extra_paso = bonus if lance in ("paires", "jeu") else 1.0
        extra = bonus if lance in ("paires", "jeu") else 1.0 if lance == "point" else 0.0
        a, b = scores
        base = partie_chance(a, b)
        self.values: dict[str, np.ndarray] = {}
        for history, (kind, points, paid) in terminals.items():
            cost = 0.0
            if "o" in history:
                thrower = self.team(self.nodes[history[: history.index("o")]][0])
                cost = ORDAGO_COST if thrower == "X" else -ORDAGO_COST
            if kind == "ordago":
                if_win, if_lose = 1.0, 0.0
            elif kind == "refused":
                gain = points + extra
                if_win = if_lose = _chance(a + gain, b) if paid == "X" else _chance(a, b + gain)
            else:
                gain = extra_paso if kind == "paso" else points + extra
                if_win, if_lose = _chance(a + gain, b), _chance(a, b + gain)
            self.values[history] = win * if_win + (1 - win) * if_lose - base - cost
        self.slip = ORDAGO_SLIP * ((np.arange(n) + 0.5) / n) ** SLIP_POWER
        self.regrets = {h: np.zeros((n, len(acts))) for h, (_, acts) in self.nodes.items()}
        self.sums = {h: np.zeros((n, len(acts))) for h, (_, acts) in self.nodes.items()}

    def team(self, actor: str) -> str:
        return actor if actor in ("X", "Y") else self.pattern[int(actor)]

    def current(self, history: str) -> np.ndarray:
        regrets = self.regrets[history]
        total = regrets.sum(axis=1, keepdims=True)
        share: np.ndarray = np.where(
            total > 0, regrets / np.where(total > 0, total, 1), 1 / regrets.shape[1]
        )
        return share

    def played(self, history: str, sigma: np.ndarray) -> np.ndarray:
        """The strategy with the tremble and the órdago slip (as in :mod:`solve`)."""
        actions = self.nodes[history][1]
        shaky = [a for a, act in enumerate(actions) if act != "o"]
        if "o" in actions:
            out: np.ndarray = (1 - TREMBLE - self.slip[:, None]) * sigma
            out[:, actions.index("o")] += self.slip
        else:
            out = (1 - TREMBLE) * sigma
        out[:, shaky] += TREMBLE / len(shaky)
        return out

    def walk(self, history: str, reach: dict[str, np.ndarray], t: int) -> np.ndarray:
        """The first team's expected utility per joint bucket from ``history``."""
        if history in self.values:
            return self.values[history]
        actor, actions = self.nodes[history]
        info = self.info[actor]
        sigma = self.current(history)
        per_joint = self.played(history, sigma)[info]
        values: list[np.ndarray] = []
        total: np.ndarray = np.zeros_like(self.prior)
        for a, act in enumerate(actions):
            v = self.walk(history + act, {**reach, actor: reach[actor] * per_joint[:, a]}, t)
            values.append(v)
            total += per_joint[:, a] * v
        others = self.prior.copy()
        for player in self.players:
            if player != actor:
                others *= reach[player]
        sign = 1.0 if self.team(actor) == "X" else -1.0
        cf = sign * np.stack(
            [np.bincount(info, weights=others * v, minlength=self.n) for v in values], axis=1
        )
        chosen = (sigma * cf).sum(axis=1, keepdims=True)
        self.regrets[history] = np.maximum(0.0, self.regrets[history] + cf - chosen)
        own = np.bincount(info, weights=self.prior * reach[actor], minlength=self.n)
        self.sums[history] += t * own[:, None] * sigma
        return total

    def solve(self, iterations: int) -> None:
        ones = np.ones_like(self.prior)
        for t in range(1, iterations + 1):
            self.walk("", dict.fromkeys(self.players, ones), t)

    def average(self, history: str) -> list[list[float]]:
        """Per bucket, the average strategy (purified); a bucket never reached there plays as
        the nearest reached one below."""
        sums = self.sums[history]
        reached = [i for i in range(self.n) if sums[i].sum() > 0] or [0]
        out = []
        for i in range(self.n):
            row = sums[max((b for b in reached if b <= i), default=reached[0])]
            probs = row / row.sum() if row.sum() > 0 else np.full(len(row), 1 / len(row))
            probs = np.where(probs >= PURIFY, probs, 0.0)
            out.append([float(p) for p in probs / probs.sum()])
        return out


def main(argv: list[str]) -> int:
    started = time.process_time()
    samples = sample()
    lines = [
        "# ruff: noqa: E501",
        '"""The Expert\'s betting strategy: GENERATED by ``python -m games.engine solve-seats``',
        "(do not edit; docs/robots.md). Key ``lance/pattern/context/node`` -> per bucket, each",
        'action\'s probability in percent, two digits per action in the node\'s order."""',
        "",
        "STRATEGY: dict[str, str] = {",
    ]
    for lance in LANCES:
        for pattern in patterns(lance):
            counts, wins, bonus = samples[(lance, pattern)]
            for ctx, scores in enumerate(context_scores()):
                game = Game(lance, pattern, scores, counts, wins, bonus)
                game.solve(ITERATIONS)
                for node in game.nodes:
                    key = f"{lance}/{pattern}/{ctx}/{node}"
                    lines.append(f'    "{key}": "{encode(game.average(node))}",')
            print(
                f"{lance} {pattern}: {int(counts.sum())} deals, bonus {bonus:.2f}, "
                f"{time.process_time() - started:.0f} s CPU",
                file=sys.stderr,
            )
    lines.append("}")
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT}", file=sys.stderr)
    return 0
