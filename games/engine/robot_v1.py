"""``robot-v1``: the computer player of the first robots issue, kept frozen as a baseline.

NEVER CHANGE THIS MODULE: ``python -m games.engine robots --team1 robot-v1`` compares the
robots with it and ``tests/engine/test_robot_v1.py`` checks its decisions against a golden
record (docs/robots.md).

``robot_v1_action(observation(state, seat))`` reads the seat's observation only and is
deterministic (its draws come from a hashlib stream seeded with the observation). How it
decides: docs/engine.md (« robot-v1 »).
"""

from __future__ import annotations

import hashlib
import json
import math
from array import array
from collections.abc import Iterable
from functools import cache
from itertools import combinations, combinations_with_replacement

from .cards import CARD_CODES, RANKS
from .errors import IllegalAction
from .hands import (
    CARD_KEY,
    GRAND,
    JEU,
    JEU_VALUE,
    LANCE_INDEX,
    PAIRES,
    PAIRES_VALUE,
    PETIT,
    POINT,
    TABLES,
)
from .types import TARGET, Action, Lance, LegalAction, Observation, Vote, Word, team_of

#: Samples of the unseen cards per betting decision (the p95 budget is 20 ms on one core).
SAMPLES = 112
#: Cut at the mus question when the hand is better than this share of all hands.
CUT_PERCENTILE = 0.62
#: Tries to draw one seat's hand consistent with its declarations before keeping the last.
DRAW_TRIES = 8
#: The robot's confidence in the rest of the partie, as a logit added to its score model: it
#: expects to outplay the table, so a refusal (a point or two) costs it less than a coin flip on
#: the whole partie; near 40 the score term dominates and an órdago is held with less.
CONFIDENCE = 2.6
#: Share of the other team's answers the robot's model treats as unpredictable (each of its two
#: voters holds half the time whatever the cards, so the team holds 3 times in 4): no opponent is
#: exactly the threshold player of the model.
UNPREDICTABLE = 0.5
UNPREDICTABLE_HOLD = 0.75
#: Weight of a sample where the seat that bet or raised holds a hand below the median.
WEAK_BETTOR_WEIGHT = 0.35

_ORDER = {"refuse": 0, "hold": 1, "raise": 2, "ordago": 3}


# --------------------------------------------------------------------------- tables


def _weight(counts: Iterable[int], available: Iterable[int]) -> int:
    """Ways to draw ``counts[r]`` cards of each rank from ``available[r]`` cards of it."""
    w = 1
    for n, a in zip(counts, available, strict=True):
        if n:
            if n > a:
                return 0
            w *= math.comb(a, n)
    return w


def _key(counts: Iterable[int]) -> int:
    return sum(n << (3 * i) for i, n in enumerate(counts))


def _counts(ranks: Iterable[int]) -> list[int]:
    out = [0] * len(RANKS)
    for r in ranks:
        out[r] += 1
    return out


@cache
def _multisets(size: int) -> tuple[tuple[int, ...], ...]:
    """Every multiset of ``size`` rank indices, as per-rank counts."""
    return tuple(tuple(_counts(c)) for c in combinations_with_replacement(range(len(RANKS)), size))


@cache
def percentiles(kings: int) -> dict[int, tuple[float, float, float, float, float]]:
    """Hand key -> its share of the 91,390 four-card hands it beats (ties count half), per lance
    (Grand, Petit, Paires, Jeu, Point); 0 at Paires / Jeu for a hand without them."""
    table = TABLES[kings]
    full = [4] * len(RANKS)
    weights = {_key(c): _weight(c, full) for c in _multisets(4)}
    total = sum(weights.values())
    out: dict[int, list[float]] = {key: [0.0] * 5 for key in weights}
    for slot, idx in enumerate((GRAND, PETIT, PAIRES, JEU, POINT)):
        by_strength: dict[int, int] = {}
        for key, w in weights.items():
            s = table[key][idx]
            by_strength[s] = by_strength.get(s, 0) + w
        below = 0
        share: dict[int, float] = {}
        for s in sorted(by_strength):
            share[s] = (below + by_strength[s] / 2) / total
            below += by_strength[s]
        for key in weights:
            s = table[key][idx]
            out[key][slot] = 0.0 if idx in (PAIRES, JEU) and s == 0 else share[s]
    return {key: (q[0], q[1], q[2], q[3], q[4]) for key, q in out.items()}


@cache
def hand_values(kings: int) -> dict[int, float]:
    """Hand key -> its value: roughly the points it brings in a hand (docs/robots.md).

    Each lance counts the square of the hand's percentile (the chance to beat both opponents'
    hands) times what winning it pays, a bet included: Grand 2, Petit 1.5, Paires its value + 1,
    Jeu its value + 1 (31 counts 4), Point 1 when there is no Jeu.
    """
    table = TABLES[kings]
    out: dict[int, float] = {}
    for key, (qg, qp, qpa, qj, qpt) in percentiles(kings).items():
        info = table[key]
        value = 2.0 * qg * qg + 1.5 * qp * qp
        value += (info[PAIRES_VALUE] + 1) * qpa * qpa
        if info[JEU]:
            value += (info[JEU_VALUE] + 1) * qj * qj
        else:
            value += qpt * qpt
        out[key] = value
    return out


@cache
def value_percentiles(kings: int) -> dict[int, float]:
    """Hand key -> share of all hands with a lower value (ties half): what the cut compares."""
    full = [4] * len(RANKS)
    values = hand_values(kings)
    pairs = sorted((values[_key(c)], _weight(c, full)) for c in _multisets(4))
    total = sum(w for _, w in pairs)
    share: dict[float, float] = {}
    below = 0
    i = 0
    while i < len(pairs):
        j = i
        w = 0
        while j < len(pairs) and pairs[j][0] == pairs[i][0]:
            w += pairs[j][1]
            j += 1
        share[pairs[i][0]] = (below + w / 2) / total
        below += w
        i = j
    return {key: share[v] for key, v in values.items()}


@cache
def _sparse(size: int) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """Every multiset of ``size`` rank indices as (key, ((rank index, count), ...))."""
    return tuple((_key(c), tuple((r, n) for r, n in enumerate(c) if n)) for c in _multisets(size))


@cache
def kept_values(kings: int) -> dict[int, float]:
    """Key of the 0-3 cards kept -> expected hand value once the hand is drawn back to four.

    Exact over the rank multisets that can be drawn from the 40 cards minus the kept ones (the
    cards thrown may come back after a reshuffle, and the other hands are unknown anyway).
    """
    values = hand_values(kings)
    comb = [[math.comb(a, n) for n in range(5)] for a in range(5)]
    out: dict[int, float] = {}
    for size in range(4):
        draws = _sparse(4 - size)
        for kept_key, kept in _sparse(size):
            left = [4] * len(RANKS)
            for r, n in kept:
                left[r] -= n
            num = 0.0
            den = 0
            for drawn_key, drawn in draws:
                w = 1
                for r, n in drawn:
                    w *= comb[left[r]][n] if n <= left[r] else 0
                if w:
                    num += w * values[kept_key + drawn_key]
                    den += w
            out[kept_key] = num / den
    return out


@cache
def _equity_table() -> tuple[tuple[float, ...], ...]:
    """[ours][theirs] -> chance to win the partie from these scores (both capped at 40).

    A logistic of the points each team still needs, scaled by the square root of what both
    need: at 0-0 a point is worth little, at 37-37 it is worth a lot.
    """
    rows = []
    for ours in range(TARGET + 1):
        row = []
        for theirs in range(TARGET + 1):
            if ours >= TARGET:
                row.append(1.0)
            elif theirs >= TARGET:
                row.append(0.0)
            else:
                need_us, need_them = TARGET - ours, TARGET - theirs
                x = 1.15 * (need_them - need_us) / math.sqrt(need_us + need_them + 4)
                x += CONFIDENCE * min(need_us, need_them) / TARGET
                row.append(1.0 / (1.0 + math.exp(-x)))
        rows.append(tuple(row))
    return tuple(rows)


def build_tables() -> None:
    """Build every table of the model now (else each is built at its first use, ~45 ms)."""
    for kings in (4, 8):
        kept_values(kings)
        value_percentiles(kings)
    _equity_table()


def equity(ours: int, theirs: int) -> float:
    """The chance to win the partie at these scores (the robot's model, docs/robots.md)."""
    if ours >= TARGET:
        return 1.0
    if theirs >= TARGET:
        return 0.0
    return _equity_table()[ours][theirs]


def hand_key(cards: Iterable[str]) -> int:
    return sum(CARD_KEY[c] for c in cards)


# --------------------------------------------------------------------------- randomness


def _draws(seed: bytes, count: int) -> array[int]:
    """``count`` deterministic 16-bit draws: SHAKE-256 of ``seed`` (stdlib only, no ``random``).

    An index below ``n`` is ``(v * n) >> 16``: a bias of at most n / 65536, nothing next to the
    sampling error.
    """
    out = array("H")
    out.frombytes(hashlib.shake_256(seed).digest(2 * count))
    return out


def observation_seed(obs: Observation) -> bytes:
    """The seed of a decision's draws: SHA-256 of the observation's canonical JSON."""
    text = json.dumps(obs, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).digest()


# --------------------------------------------------------------------------- decision


def robot_v1_action(obs: Observation) -> Action:
    """The decision of the seat whose observation is ``obs``; IllegalAction if it has none."""
    legal: dict[str, LegalAction] = {template["type"]: template for template in obs["legal"]}
    seat = obs["seat"]
    cards = obs["my_cards"]
    if not legal or seat is None or cards is None:
        raise IllegalAction("not_your_turn", "this seat has nothing to decide")
    if "deal" in legal:
        return {"type": "deal"}
    kings = obs["kings"]
    if "cut" in legal:
        return {"type": "cut"} if wants_to_cut(cards, kings, obs, seat) else {"type": "mus"}
    if "discard" in legal:
        return {"type": "discard", "cards": best_discard(cards, kings, legal["discard"])}
    return _betting_decision(obs, seat, cards, legal)


def wants_to_cut(cards: list[str], kings: int, obs: Observation, seat: int) -> bool:
    """Cut with a good hand; with any hand when the other team is about to win anyway."""
    ours, theirs = obs["scores"][team_of(seat)], obs["scores"][1 - team_of(seat)]
    pct = value_percentiles(kings)[hand_key(cards)]
    threshold = CUT_PERCENTILE
    if theirs >= TARGET - 6 and theirs > ours:
        threshold -= 0.15  # a fresh deal is as likely to help them: play what we have
    return pct >= threshold


def best_discard(cards: list[str], kings: int, template: LegalAction) -> list[str]:
    """The cards to throw: the kept cards with the best expected value after the draw.

    Ties go to throwing fewer cards, then to the first subset in the card order.
    """
    kept_value = kept_values(kings)
    low, high = template.get("min", 1), template.get("max", 4)
    ordered = sorted(cards, key=CARD_CODES.index)
    best: tuple[float, int] | None = None
    choice: list[str] = []
    for n in range(low, min(high, len(ordered)) + 1):
        for thrown in combinations(ordered, n):
            kept = [c for c in ordered if c not in thrown]
            score = (kept_value[hand_key(kept)], -n)
            if best is None or score > best:
                best, choice = score, list(thrown)
    return choice


# --------------------------------------------------------------------------- lances


class _Sample:
    """Guesses of the hidden hands alike for the current lance, with their total weight."""

    __slots__ = ("weight", "we_win", "ours", "theirs", "their_q")

    def __init__(self, weight: float, we_win: bool, ours: int, theirs: int, their_q: float):
        self.weight = weight
        self.we_win = we_win
        self.ours = ours  # Paires / Jeu value of our team's hands (0 in other lances)
        self.theirs = theirs
        self.their_q = their_q  # the other team's best percentile in this lance


def _bettor_seat(words: list[Word], lance: Lance, team: int) -> int | None:
    """The seat of ``team`` that made the last bet, raise or órdago in ``lance``."""
    for word in reversed(words):
        if word.get("lance") != lance:
            break
        if word["type"] in ("bet", "raise", "ordago") and team_of(word["seat"]) == team:
            return word["seat"]
    return None


def samples(obs: Observation, seat: int, cards: list[str], lance: Lance) -> list[_Sample]:
    """Deal the unseen cards to the other three seats :data:`SAMPLES` times.

    Each seat's hand agrees with its public Paires / Jeu declarations (redrawn up to
    :data:`DRAW_TRIES` times). A sample where the seat of the other team that bet last holds a
    below-median hand in this lance weighs :data:`WEAK_BETTOR_WEIGHT` (bets say something).
    """
    kings = obs["kings"]
    table = TABLES[kings]
    pct = percentiles(kings)
    idx = LANCE_INDEX[lance]
    slot = ("grand", "petit", "paires", "jeu", "point").index(lance)
    value_idx = PAIRES_VALUE if lance == "paires" else JEU_VALUE if lance == "jeu" else -1
    mano = obs["mano"] if obs["mano"] is not None else obs["first_speaker"]
    betting = obs["betting"]
    eligible = betting["eligible"] if betting is not None else [(mano + i) % 4 for i in range(4)]
    order = [(mano + i) % 4 for i in range(4) if (mano + i) % 4 in eligible]
    decl = obs["declarations"]
    # per seat: must (1) / must not (0) / may (-1) have Paires, then Jeu
    need_paires = [-1] * 4 if decl["paires"] is None else [int(f) for f in decl["paires"]]
    need_jeu = [-1] * 4 if decl["jeu"] is None else [int(f) for f in decl["jeu"]]
    us = team_of(seat)
    bettor = _bettor_seat(obs["words"], lance, 1 - us) if betting is not None else None
    mine = set(cards)
    unseen = [CARD_KEY[c] for c in CARD_CODES if c not in mine]
    rnd = _draws(observation_seed(obs), SAMPLES * 3 * DRAW_TRIES * 4)
    pos = 0
    others = [s for s in range(4) if s != seat]
    their_eligible = [s for s in eligible if team_of(s) != us]
    # samples alike for every decision (same winner, values, other team's percentile to 0.01)
    # are merged, their weights added: the decisions then loop over far fewer of them
    merged: dict[tuple[bool, int, int, float], float] = {}
    my_key = hand_key(cards)
    for _ in range(SAMPLES):
        pool = list(unseen)
        keys = [my_key, my_key, my_key, my_key]
        n = len(pool)
        for s in others:
            np_, nj = need_paires[s], need_jeu[s]
            key = 0
            for _try in range(DRAW_TRIES):
                # partial Fisher-Yates, unrolled: the hand ends up in pool[n-4:]
                k = (rnd[pos] * n) >> 16
                pool[k], pool[n - 1] = pool[n - 1], pool[k]
                k = (rnd[pos + 1] * (n - 1)) >> 16
                pool[k], pool[n - 2] = pool[n - 2], pool[k]
                k = (rnd[pos + 2] * (n - 2)) >> 16
                pool[k], pool[n - 3] = pool[n - 3], pool[k]
                k = (rnd[pos + 3] * (n - 3)) >> 16
                pool[k], pool[n - 4] = pool[n - 4], pool[k]
                pos += 4
                key = pool[n - 1] + pool[n - 2] + pool[n - 3] + pool[n - 4]
                entry = table[key]
                if (np_ < 0 or (entry[PAIRES] > 0) == np_) and (nj < 0 or (entry[JEU] > 0) == nj):
                    break
            del pool[-4:]
            n -= 4
            keys[s] = key
        info = [table[k] for k in keys]
        best = order[0]
        top = info[best][idx]
        for s in order[1:]:
            if info[s][idx] > top:
                best, top = s, info[s][idx]
        weight = 1.0
        if bettor is not None and pct[keys[bettor]][slot] < 0.5:
            weight = WEAK_BETTOR_WEIGHT
        their_q = 0.0
        for s in their_eligible:
            q = pct[keys[s]][slot]
            if q > their_q:
                their_q = q
        ours = theirs = 0
        if value_idx >= 0:
            ours = info[us][value_idx] + info[us + 2][value_idx]
            theirs = info[1 - us][value_idx] + info[3 - us][value_idx]
        bucket = (team_of(best) == us, ours, theirs, round(their_q, 2))
        merged[bucket] = merged.get(bucket, 0.0) + weight
    return [_Sample(w, win, o, t, q) for (win, o, t, q), w in merged.items()]


def _hold_threshold(stake: int) -> float:
    """The other team's best percentile from which the model says it holds ``stake``."""
    return min(0.85, 0.5 + 0.04 * stake)


def _ordago_threshold(their_equity_if_refused: float) -> float:
    """The model's other team holds an órdago with a percentile above this: the further behind
    (the less a refusal leaves it), the weaker the hand it holds with."""
    return 0.5 + 0.35 * their_equity_if_refused


def _base(lance: Lance, s: _Sample, winner_is_us: bool, kind: str) -> int:
    """Points the showdown pays the team that won ``lance`` (the stake and deje excluded).

    ``kind``: ``paso``, ``held`` or ``refused`` (then the winner is the bettors).
    """
    if lance in ("paires", "jeu"):
        return s.ours if winner_is_us else s.theirs
    if lance == "point":
        return 1
    return 1 if kind == "paso" else 0


def _betting_decision(
    obs: Observation, seat: int, cards: list[str], legal: dict[str, LegalAction]
) -> Action:
    lance = obs["lance"]
    betting = obs["betting"]
    if lance is None or betting is None:  # only the lance phase has betting templates
        return _cautious(legal)
    us = team_of(seat)
    ours, theirs = obs["scores"][us], obs["scores"][1 - us]
    pool = samples(obs, seat, cards, lance)
    candidates = _candidates(betting["stake"], legal)
    floor = _partner_vote(obs, seat)
    best: tuple[float, int] | None = None
    choice = candidates[0]
    for rank, action in enumerate(candidates):
        value = _expected_equity(
            action, floor, lance, betting["stake"], betting["held"], pool, ours, theirs
        )
        score = (value, -rank)
        if best is None or value > best[0] + 1e-9:
            best, choice = score, action
    return choice


def _cautious(legal: dict[str, LegalAction]) -> Action:
    for kind in ("pass", "refuse", "hold"):
        if kind in legal:
            return {"type": kind}
    raise IllegalAction("not_your_turn", "this seat has nothing to decide")


def _candidates(stake: int | str | None, legal: dict[str, LegalAction]) -> list[Action]:
    """The decisions weighed, the most cautious first (it wins ties)."""
    out: list[Action] = []
    if "pass" in legal:
        out.append({"type": "pass"})
        t = legal.get("bet")
        if t is not None:
            lo, hi = t.get("min", 2), t.get("max", TARGET)
            for amount in sorted({max(lo, min(hi, a)) for a in (2, 5, 10)}):
                out.append({"type": "bet", "amount": amount})
    else:
        out.extend(({"type": "refuse"}, {"type": "hold"}))
        t = legal.get("raise")
        if t is not None and isinstance(stake, int):
            lo, hi = t.get("min", stake + 1), t.get("max", TARGET)
            for to in sorted({max(lo, min(hi, stake + a)) for a in (2, 5)}):
                out.append({"type": "raise", "to": to})
    if "ordago" in legal:
        out.append({"type": "ordago"})
    return [a for a in out if a["type"] in legal]


def _partner_vote(obs: Observation, seat: int) -> Vote | None:
    """The partner's vote on this bet, if it already answered (the team keeps the stronger)."""
    betting = obs["betting"]
    return None if betting is None else betting["votes"].get(str((seat + 2) % 4))


def _expected_equity(
    action: Action,
    floor: Vote | None,
    lance: Lance,
    stake: int | str | None,
    held: int,
    pool: list[_Sample],
    ours: int,
    theirs: int,
) -> float:
    """The team's expected chance to win the partie after ``action``, over the samples.

    The other team's answer to a bet, raise or órdago of ours is modelled per sample: it holds
    with probability ``UNPREDICTABLE * UNPREDICTABLE_HOLD`` whatever its cards, plus
    ``1 - UNPREDICTABLE`` when its best hand in the lance is above the threshold of that stake;
    a held bet or raise is, a third of the time, answered by an órdago instead (which we then
    hold or refuse as our average chance in the lance says).
    """
    kind = action["type"]
    if floor is not None and _ORDER[floor["type"]] > _ORDER.get(kind, 0):
        if floor["type"] == "raise" and kind == "raise":
            if floor.get("to", 0) > action["to"]:
                action = {"type": "raise", "to": floor.get("to", 0)}
        else:  # the team answers with the partner's stronger vote whatever this seat says
            kind = floor["type"]
            if kind == "raise":
                action = {"type": "raise", "to": floor.get("to", 0)}
    weights = sum(s.weight for s in pool)
    if not weights:
        return 0.0
    p_win = sum(s.weight for s in pool if s.we_win) / weights
    current = stake if isinstance(stake, int) else 0
    total = 0.0
    if kind in ("bet", "raise"):
        amount = action["amount"] if kind == "bet" else action["to"]
        threshold = _hold_threshold(amount)
        deje = max(1, current) if kind == "raise" else 1
        # facing their órdago over our ``amount``: hold if our chance beats what a refusal leaves
        refuse_after = equity(ours, theirs + amount)
        if_ordago = None if p_win >= refuse_after else refuse_after
        for s in pool:
            hold = UNPREDICTABLE * UNPREDICTABLE_HOLD + (1 - UNPREDICTABLE) * (
                s.their_q >= threshold
            )
            refused = equity(ours + deje + _base(lance, s, True, "refused"), theirs)
            if s.we_win:
                held_eq = equity(ours + amount + _base(lance, s, True, "held"), theirs)
            else:
                held_eq = equity(ours, theirs + amount + _base(lance, s, False, "held"))
            escalated = float(s.we_win) if if_ordago is None else if_ordago
            value = (1 - hold) * refused + hold * (held_eq * 2 + escalated) / 3
            total += s.weight * value
        return total / weights
    if kind == "ordago":
        threshold = _ordago_threshold(equity(theirs, ours + max(1, current)))
        deje = max(1, current)
        for s in pool:
            hold = UNPREDICTABLE * UNPREDICTABLE_HOLD + (1 - UNPREDICTABLE) * (
                s.their_q >= threshold
            )
            refused = equity(ours + deje + _base(lance, s, True, "refused"), theirs)
            total += s.weight * ((1 - hold) * refused + hold * s.we_win)
        return total / weights
    for s in pool:
        gain_us = gain_them = 0
        if kind == "pass":
            if s.we_win:
                gain_us = _base(lance, s, True, "paso")
            else:
                gain_them = _base(lance, s, False, "paso")
        elif kind == "hold":
            if stake == "ordago":
                total += s.weight * s.we_win
                continue
            if s.we_win:
                gain_us = current + _base(lance, s, True, "held")
            else:
                gain_them = current + _base(lance, s, False, "held")
        else:  # refuse
            gain_them = max(1, held) + _base(lance, s, False, "refused")
        total += s.weight * equity(ours + gain_us, theirs + gain_them)
    return total / weights
