"""``python -m games.engine solve``: the robots' betting strategy, solved offline (docs/robots.md).

For each lance and score context, the abstract envite of :mod:`robot_abstraction` is solved by
CFR+ (regret matching+ with linearly weighted averages, both players updated on every pass,
over the whole bucket range at once). The chance of the showdown comes from deals sampled with
a fixed seed: how often the team of a hand in bucket i beats the team of an opposing hand in
bucket j, the other two hands unknown, the mano anywhere. Every utility is the team's chance to
win the partie (:func:`partie_chance`) after the points the lance pays, so a refusal near 40
and a held órdago are weighed on the same scale. The result is written, compact, to
``robot_strategy.py``; the same seed and parameters give the same file.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from .cards import CARD_CODES
from .hands import CARD_KEY, JEU, JEU_VALUE, LANCE_INDEX, PAIRES_VALUE, TABLES
from .robot_abstraction import (
    LANCES,
    TERMINALS,
    TREE,
    context_scores,
    lance_percentiles,
    team_strength,
)
from .shuffle import SeededShuffler
from .types import TARGET, Lance, team_of

SEED = 31
DEALS = 60_000
FINE = 24  # buckets of the sampled matrices; every level's bucket count divides it
#: level -> (buckets, score-aware, CFR+ iterations)
LEVELS: dict[str, tuple[int, bool, int]] = {"expert": (8, True, 600), "confirme": (4, False, 12)}
#: probabilities below this are dropped from the tables (the rest renormalised): a robot never
#: makes a move its strategy plays once in 25 times
PURIFY = 0.04
#: the logistic's slope in :func:`partie_chance`: a point at 0-0 is worth about 2 % of the partie
SCORE_SLOPE = 0.8
#: the share of every decision played uniformly at random among the actions other than the
#: órdago in the solved game (a "trembling hand"): the strategy is then the best against players
#: who sometimes pass, bet, hold or refuse with any hand (people, robot-v1, random), not only
#: against a perfect opponent, and every node is reached
TREMBLE = 0.05
#: how much less a held órdago is worth than the score says, at 0-0 (none once a team needs
#: nothing): the score model treats both teams as equal, but a good player expects to outplay
#: the table over the rest of the partie, so it stakes the whole partie only with a real edge
#: (both teams weigh it alike: the game stays zero-sum)
ORDAGO_DOUBT = 0.0
#: what throwing an órdago costs its thrower, in chance to win the partie: a tie-break, so an
#: órdago is thrown when it earns more than the bet or hold it replaces, not when it is as good
ORDAGO_COST = 0.08
#: an órdago is not a slip of the hand: one the strategy does not plan (off its equilibrium
#: path, where the answer would otherwise be learnt against nobody) is believed thrown by a
#: bucket with a weight growing as its strength to :data:`SLIP_POWER` (the top bucket 4 %, the
#: median one 0.3 %): a Mus player's unexpected órdago comes from a strong hand. The uniform
#: tremble made every unplanned órdago look like a bluff, and the robot held them with middling
#: hands (it lost 187 of the 319 órdagos of robot-v1 it held)
ORDAGO_SLIP = 0.05
SLIP_POWER = 4
OUT = Path(__file__).with_name("robot_strategy.py")


def partie_chance(ours: int, theirs: int) -> float:
    """The chance to win the partie from these scores: a logistic of the points each team still
    needs, scaled by the square root of what both need (a point matters more near 40)."""
    if ours >= TARGET:
        return 1.0
    if theirs >= TARGET:
        return 0.0
    need_us, need_them = TARGET - ours, TARGET - theirs
    x = SCORE_SLOPE * (need_them - need_us) / math.sqrt(need_us + need_them + 4)
    return 1.0 / (1.0 + math.exp(-x))


# --------------------------------------------------------------------------- chance


Matrix = list[list[float]]
Counts = list[list[int]]


def contested_lances(
    deals: int, seed: int
) -> Iterator[tuple[Lance, list[int], int, list[float], list[tuple[int, ...]]]]:
    """Over deals sampled with the seeded shuffler (the two modalities in turn, the mano
    anywhere), each lance both teams play: the lance, its playing seats from the mano, the seat
    that wins it, each seat's percentile in it (:func:`lance_percentiles`) and each seat's
    entry of the hand tables."""
    rng = SeededShuffler(seed)
    deck = list(CARD_CODES)
    for n in range(deals):
        kings = 4 if n & 1 else 8
        table = TABLES[kings]
        pct = lance_percentiles(kings)
        rng.shuffle(deck)
        keys = [sum(CARD_KEY[c] for c in deck[4 * s : 4 * s + 4]) for s in range(4)]
        mano = rng.randbelow(4)
        order = [(mano + i) % 4 for i in range(4)]
        info = [table[k] for k in keys]
        anyone_jeu = any(e[JEU] for e in info)
        for slot, lance in enumerate(LANCES):
            idx = LANCE_INDEX[lance]
            if lance == "point" and anyone_jeu:
                continue
            eligible = [s for s in order if info[s][idx]] if lance in ("paires", "jeu") else order
            if len({team_of(s) for s in eligible}) < 2:
                continue
            best = eligible[0]
            for s in eligible[1:]:
                if info[s][idx] > info[best][idx]:
                    best = s
            yield lance, eligible, best, [pct[k][slot] for k in keys], info


def sample_matrices(
    deals: int = DEALS, seed: int = SEED
) -> dict[str, tuple[Counts, Counts, float]]:
    """Lance -> (counts[i][j], wins[i][j], bonus): over sampled deals where both teams play the
    lance, the teams' strengths in fine buckets (i, j) (:func:`team_strength` of each team's
    best hand), how often they occur and how often i's team wins; and the mean Paires / Jeu
    value of the winning team (0 elsewhere)."""
    out = {
        lance: ([[0] * FINE for _ in range(FINE)], [[0] * FINE for _ in range(FINE)], [0, 0])
        for lance in LANCES
    }
    for lance, eligible, best, pct, info in contested_lances(deals, seed):
        counts, wins, bonus = out[lance]
        if lance in ("paires", "jeu"):
            value = PAIRES_VALUE if lance == "paires" else JEU_VALUE
            bonus[0] += info[team_of(best)][value] + info[team_of(best) + 2][value]
            bonus[1] += 1
        fine = []
        for t in (0, 1):
            members = [s for s in eligible if team_of(s) == t]
            q = max(pct[s] for s in members)
            fine.append(min(FINE - 1, int(team_strength(q, len(members) == 2) * FINE)))
        counts[fine[0]][fine[1]] += 1
        counts[fine[1]][fine[0]] += 1
        wins[fine[0]][fine[1]] += team_of(best) == 0
        wins[fine[1]][fine[0]] += team_of(best) == 1
    return {
        lance: (counts, wins, bonus[0] / bonus[1] if bonus[1] else 0.0)
        for lance, (counts, wins, bonus) in out.items()
    }


def coarse(counts: Counts, wins: Counts, buckets: int) -> tuple[Matrix, Matrix]:
    """The joint chance of buckets (i, j) and i's team's chance to win there."""
    step = FINE // buckets
    total = sum(map(sum, counts))
    prior = [[0.0] * buckets for _ in range(buckets)]
    win = [[0.5] * buckets for _ in range(buckets)]
    for i in range(buckets):
        for j in range(buckets):
            c = sum(
                counts[a][b]
                for a in range(i * step, i * step + step)
                for b in range(j * step, j * step + step)
            )
            w = sum(
                wins[a][b]
                for a in range(i * step, i * step + step)
                for b in range(j * step, j * step + step)
            )
            prior[i][j] = c / total
            if c:
                win[i][j] = w / c
    return prior, win


# --------------------------------------------------------------------------- CFR+


class Game:
    """One lance at one score context: the payoffs of every terminal history for player 0."""

    def __init__(
        self, lance: Lance, scores: tuple[int, int], prior: Matrix, win: Matrix, bonus: float
    ):
        self.n = len(prior)
        self.reached = [i for i in range(self.n) if sum(prior[i]) > 0]
        extra_paso = bonus if lance in ("paires", "jeu") else 1.0
        extra = bonus if lance in ("paires", "jeu") else 1.0 if lance == "point" else 0.0
        a, b = scores
        base = partie_chance(a, b)
        weight = 1 - ORDAGO_DOUBT * min(TARGET - a, TARGET - b) / TARGET
        # terminal -> matrix [i][j] of player 0's utility (chance to win minus the current one)
        self.values: dict[str, list[list[float]]] = {}
        for history, (kind, points, paid) in TERMINALS.items():
            cost = 0.0
            if "o" in history:
                thrower = TREE[history[: history.index("o")]][0]
                cost = ORDAGO_COST if thrower == 0 else -ORDAGO_COST
            if kind == "ordago":
                # a coin flip on the partie is worth only ``weight`` of what the score says
                if_win, if_lose = base + weight * (1 - base), base - weight * base
            elif kind == "refused":
                gain = points + extra
                v = _chance(a + gain, b) if paid == 0 else _chance(a, b + gain)
                if_win = if_lose = v
            else:
                gain = extra_paso if kind == "paso" else points + extra
                if_win, if_lose = _chance(a + gain, b), _chance(a, b + gain)
            self.values[history] = [
                [
                    prior[i][j] * (win[i][j] * if_win + (1 - win[i][j]) * if_lose - base - cost)
                    for j in range(self.n)
                ]
                for i in range(self.n)
            ]
        self.slip = [ORDAGO_SLIP * ((i + 0.5) / self.n) ** SLIP_POWER for i in range(self.n)]
        self.regrets = {h: [[0.0] * self.n for _ in acts] for h, (_, acts) in TREE.items()}
        self.sums = {h: [[0.0] * self.n for _ in acts] for h, (_, acts) in TREE.items()}

    def current(self, history: str) -> list[list[float]]:
        regrets = self.regrets[history]
        k = len(regrets)
        out = [[0.0] * self.n for _ in range(k)]
        for i in range(self.n):
            total = sum(r[i] for r in regrets)
            for a in range(k):
                out[a][i] = regrets[a][i] / total if total > 0 else 1.0 / k
        return out

    def walk(self, history: str, reach: list[list[float]], t: int) -> list[list[float]]:
        """Counterfactual values per bucket of both players (player 1's are negated)."""
        if history in TERMINALS:
            m = self.values[history]
            r0, r1 = reach
            u0 = [sum(m[i][j] * r1[j] for j in range(self.n)) for i in range(self.n)]
            u1 = [-sum(m[i][j] * r0[i] for i in range(self.n)) for j in range(self.n)]
            return [u0, u1]
        player, actions = TREE[history]
        sigma = self.current(history)
        k = len(actions)
        # what is played: the strategy with a tremble and an órdago slip (docs/robots.md), both
        # players alike
        shaky = [a for a, act in enumerate(actions) if act != "o"]
        slip = self.slip if "o" in actions else [0.0] * self.n
        played = [
            [
                (1 - TREMBLE - slip[i]) * sigma[a][i]
                + (TREMBLE / len(shaky) if a in shaky else slip[i])
                for i in range(self.n)
            ]
            for a in range(k)
        ]
        total = [[0.0] * self.n, [0.0] * self.n]
        child_values = []
        for a, act in enumerate(actions):
            new = [list(reach[0]), list(reach[1])]
            new[player] = [reach[player][i] * played[a][i] for i in range(self.n)]
            u = self.walk(history + act, new, t)
            child_values.append(u[player])
            for i in range(self.n):
                total[player][i] += played[a][i] * u[player][i]
                total[1 - player][i] += u[1 - player][i]
        regrets = self.regrets[history]
        sums = self.sums[history]
        for i in range(self.n):
            chosen = sum(sigma[a][i] * child_values[a][i] for a in range(k))
            for a in range(k):
                regrets[a][i] = max(0.0, regrets[a][i] + child_values[a][i] - chosen)
                sums[a][i] += t * reach[player][i] * sigma[a][i]
        return total

    def solve(self, iterations: int) -> None:
        for t in range(1, iterations + 1):
            self.walk("", [[1.0] * self.n, [1.0] * self.n], t)

    def average(self, history: str) -> list[list[float]]:
        """Per bucket, the average strategy's probabilities (purified). A bucket no hand falls in
        (Jeu has few strengths) plays as the nearest bucket below that has hands."""
        sums = self.sums[history]
        out = []
        for i in range(self.n):
            source = max((b for b in self.reached if b <= i), default=min(self.reached))
            total = sum(s[source] for s in sums)
            probs = [s[source] / total for s in sums]
            probs = [p if p >= PURIFY else 0.0 for p in probs]
            norm = sum(probs)
            out.append([p / norm for p in probs])
        return out

    def exploitability(self) -> float:
        """What a best response gains against the average strategy, averaged over both seats, in
        chance to win the partie (0 at an equilibrium)."""
        strategy = {h: list(zip(*self.average(h), strict=True)) for h in TREE}

        def best(history: str, player: int, reach: list[float]) -> list[float]:
            if history in TERMINALS:
                m = self.values[history]
                if player == 0:
                    return [sum(m[i][j] * reach[j] for j in range(self.n)) for i in range(self.n)]
                return [-sum(m[i][j] * reach[i] for i in range(self.n)) for j in range(self.n)]
            actor, actions = TREE[history]
            if actor == player:
                values = [best(history + act, player, reach) for act in actions]
                return [max(v[i] for v in values) for i in range(self.n)]
            total = [0.0] * self.n
            for a, act in enumerate(actions):
                probs = [strategy[history][a][i] for i in range(self.n)]
                v = best(history + act, player, [reach[i] * probs[i] for i in range(self.n)])
                total = [x + y for x, y in zip(total, v, strict=True)]
            return total

        return (sum(best("", 0, [1.0] * self.n)) + sum(best("", 1, [1.0] * self.n))) / 2


def _chance(ours: float, theirs: float) -> float:
    return partie_chance(min(TARGET, round(ours)), min(TARGET, round(theirs)))


def contexts(score_aware: bool) -> list[tuple[int, int]]:
    return context_scores() if score_aware else [(0, 0)]


def encode(probs: list[list[float]]) -> str:
    """Per bucket, each action's probability in percent, two digits (99 stands for 100)."""
    return "".join(f"{min(99, round(100 * p)):02d}" for bucket in probs for p in bucket)


def main(argv: list[str]) -> int:
    started = time.process_time()
    matrices = sample_matrices()
    lines = [
        "# ruff: noqa: E501",
        '"""The robots\' betting strategy: GENERATED by ``python -m games.engine solve`` (do not',
        "edit; docs/robots.md). Key ``level/lance/context/node`` -> per bucket, each action's",
        'probability in percent, two digits per action in the node\'s order."""',
        "",
        "BUCKETS = {" + ", ".join(f'"{level}": {b}' for level, (b, _, _) in LEVELS.items()) + "}",
        "STRATEGY: dict[str, str] = {",
    ]
    report = []
    for level, (buckets, score_aware, iterations) in LEVELS.items():
        for lance in LANCES:
            counts, wins, bonus = matrices[lance]
            prior, win = coarse(counts, wins, buckets)
            worst = 0.0
            for ctx, scores in enumerate(contexts(score_aware)):
                game = Game(lance, scores, prior, win, bonus)
                game.solve(iterations)
                worst = max(worst, game.exploitability())
                for history in TREE:
                    lines.append(
                        f'    "{level}/{lance}/{ctx}/{history}": "{encode(game.average(history))}",'
                    )
            report.append(f"{level} {lance}: bonus {bonus:.2f}, worst exploitability {worst:.4f}")
            print(report[-1], file=sys.stderr)
    lines.append("}")
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT} in {time.process_time() - started:.0f} s CPU", file=sys.stderr)
    return 0
