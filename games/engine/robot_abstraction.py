"""The abstract betting game the robots' strategy is solved on (docs/robots.md).

One lance's envite reduced to two players, one per team, who each know the *bucket* of their
team's strength in the lance (:func:`team_strength` of its best hand's percentile among the
hands that play that lance, in equal slices) and the *score context* (the lead and the stage of
the partie, in bands). The tree has the usual stakes: the first team passes, bets 2 (*envido*),
5 or 10, or throws an órdago; the other refuses, holds, raises by :data:`RAISE_BY` or throws an
órdago; a raise gets a refusal, a hold or an órdago; an órdago a refusal or a hold. ``solve``
computes the strategy on this tree; the robot maps the words of a lance to the nearest node
with :func:`node_of`.
"""

from __future__ import annotations

from functools import cache

from .cards import RANKS
from .hands import PAIRES, TABLES
from .robot_v1 import _key, _multisets, _weight, percentiles
from .types import TARGET, Lance, Observation, Word, team_of

LANCES: tuple[Lance, ...] = ("grand", "petit", "paires", "jeu", "point")
#: the amount added by an abstract raise (*reenvido*: "tres más")
RAISE_BY = 3
#: the opening bets: *envido* (2), five, ten
BET_SIZES = (2, 5, 10)
#: the score contexts: the lead (ours - theirs) in bands, each solved at its middle, times the
#: stage of the partie (the leader's score) in bands, each solved at one score
LEAD_BANDS: tuple[tuple[int, int], ...] = ((-99, -13), (-9, -6), (-3, 0), (4, 6), (10, 13))
STAGE_BANDS: tuple[tuple[int, int], ...] = ((0, 10), (20, 25), (30, 32), (35, 37))


#: node (the words so far, one letter each) -> (player to act, its actions); player 0 is the
#: team that opened first. ``p`` pass, ``b2`` / ``b5`` bet, ``o`` órdago, ``f`` refuse, ``c``
#: hold, ``r`` raise.
TREE: dict[str, tuple[int, tuple[str, ...]]] = {}
#: finished history -> (kind, points, player paid): ``paso``; ``held`` (the stake); ``refused``
#: (the deje, paid to the bettors); ``ordago`` (a held órdago: the showdown wins the partie)
TERMINALS: dict[str, tuple[str, int, int]] = {"pp": ("paso", 0, -1)}


def _build_tree() -> None:
    opening = ("p", *(f"b{stake}" for stake in BET_SIZES), "o")
    TREE[""] = (0, opening)
    TREE["p"] = (1, opening)
    for opener, prefix in ((0, ""), (1, "p")):
        answerer = 1 - opener
        for stake in BET_SIZES:
            node = f"{prefix}b{stake}"
            TREE[node] = (answerer, ("f", "c", "r", "o"))
            TERMINALS[node + "f"] = ("refused", 1, opener)
            TERMINALS[node + "c"] = ("held", stake, -1)
            TREE[node + "r"] = (opener, ("f", "c", "o"))
            TERMINALS[node + "rf"] = ("refused", stake, answerer)
            TERMINALS[node + "rc"] = ("held", stake + RAISE_BY, -1)
            TREE[node + "ro"] = (answerer, ("f", "c"))
            TERMINALS[node + "rof"] = ("refused", stake + RAISE_BY, opener)
            TERMINALS[node + "roc"] = ("ordago", 0, -1)
            TREE[node + "o"] = (opener, ("f", "c"))
            TERMINALS[node + "of"] = ("refused", stake, answerer)
            TERMINALS[node + "oc"] = ("ordago", 0, -1)
        TREE[prefix + "o"] = (answerer, ("f", "c"))
        TERMINALS[prefix + "of"] = ("refused", 1, opener)
        TERMINALS[prefix + "oc"] = ("ordago", 0, -1)


_build_tree()


def context(ours: int, theirs: int) -> int:
    """The score context of the team with ``ours`` points against ``theirs``: one of 20."""
    lead = max(i for i, (low, _) in enumerate(LEAD_BANDS) if ours - theirs >= low)
    stage = max(i for i, (low, _) in enumerate(STAGE_BANDS) if max(ours, theirs) >= low)
    return stage * len(LEAD_BANDS) + lead


def context_scores() -> list[tuple[int, int]]:
    """Per context, the scores it is solved at (ours, theirs)."""
    out = []
    for _, at in STAGE_BANDS:
        for _, lead in LEAD_BANDS:
            leader = min(TARGET - 1, max(at, abs(lead)))
            trailer = leader - abs(lead)
            out.append((leader, trailer) if lead >= 0 else (trailer, leader))
    return out


@cache
def lance_percentiles(kings: int) -> dict[int, tuple[float, ...]]:
    """Hand key -> its percentile per lance *among the hands that play that lance*: all hands at
    Grand and Petit, the hands with Paires / Jeu there, the hands without Jeu at Point."""
    full = [4] * len(RANKS)
    weights = {_key(c): _weight(c, full) for c in _multisets(4)}
    total = sum(weights.values())
    pct = percentiles(kings)
    table = TABLES[kings]
    no_paires = sum(w for k, w in weights.items() if table[k][PAIRES] == 0) / total
    jeu = sum(w for k, w in weights.items() if pct[k][3] > 0) / total
    out: dict[int, tuple[float, ...]] = {}
    for key, (g, p, pa, j, pt) in pct.items():
        out[key] = (
            g,
            p,
            max(0.0, (pa - no_paires) / (1 - no_paires)) if pa else 0.0,
            max(0.0, (j - (1 - jeu)) / jeu) if j else 0.0,
            min(1.0, pt / (1 - jeu)),
        )
    return out


def team_strength(q: float, partner_plays: bool) -> float:
    """The strength of a team whose best hand in the lance has percentile ``q``: the share of
    teams with a weaker best hand, ``q`` squared when both partners play the lance."""
    return q * q if partner_plays else q


def bucket(obs: Observation, seat: int, key: int, buckets: int) -> int:
    """The bucket of the seat's team in the current lance, as if its hand were the team's best.

    Both partners answer and the team keeps the stronger answer, so each plays the team's
    strategy with its own hand: the team then answers as its best hand says.
    """
    return min(buckets - 1, int(strength(obs, seat, key) * buckets))


def strength(obs: Observation, seat: int, key: int) -> float:
    """The seat's team strength in the current lance, as if its hand were the team's best."""
    lance = obs["lance"] or "grand"
    q = lance_percentiles(obs["kings"])[key][LANCES.index(lance)]
    partner = (seat + 2) % 4
    partner_plays = True
    if lance in ("paires", "jeu"):
        declared = obs["declarations"][lance]
        partner_plays = declared is None or bool(declared[partner])
    return team_strength(q, partner_plays)


#: a bet or raise to this many points or more is answered as an órdago: on the log scale of the
#: stakes it is nearer the whole partie (40) than 10
ORDAGO_LIKE = 20


def _bet_size(amount: int) -> int:
    """The abstract bet nearest a real one: 2-3 -> 2, 4-7 -> 5, more -> 10."""
    return 2 if amount <= 3 else 5 if amount <= 7 else 10


def _decisive(amount: int, scores: list[int]) -> bool:
    """A stake that is an órdago in all but name: 20 points or more, or enough, held, to bring
    a team to 40."""
    return amount >= ORDAGO_LIKE or max(scores) + amount >= TARGET


def lance_words(obs: Observation) -> list[Word]:
    """The passes, bets, raises and órdagos said so far in the current lance, in order."""
    kinds = ("pass", "bet", "raise", "ordago")
    return [w for w in obs["words"] if w.get("lance") == obs["lance"] and w["type"] in kinds]


def opening(word: Word, scores: list[int]) -> str:
    """The node letters of the lance's first bet (or órdago)."""
    amount = word.get("amount", 2)
    if word["type"] == "ordago" or _decisive(amount, scores):
        return "o"
    return f"b{_bet_size(amount)}"


def after_opening(history: str, word: Word, scores: list[int]) -> str:
    """``history`` (a bet made) with ``word`` said after it: every raise is ``r`` (a second
    raise stays on the first's node), an órdago or a decisive raise ``o``, nothing after it."""
    kind = word["type"]
    if history.endswith("o"):
        return history
    if kind == "ordago" or (kind == "raise" and _decisive(word.get("to", 0), scores)):
        return history + "o"
    if kind == "raise" and not history.endswith("r"):
        return history + "r"
    return history


def node_of(obs: Observation, seat: int) -> str:
    """The abstract node matching the words said so far in the current lance, seen by ``seat``.

    Before any bet: the root, or ``p`` once a seat of the other team passed. A bet is the
    nearest of :data:`BET_SIZES`; every raise is ``r`` (a second raise stays on the first's
    node), an órdago ``o``, and so is a bet or raise to a stake that decides the partie in all
    but name (:func:`_decisive`). The node's opener prefix is ``p`` when the bettor had seen
    the other team pass.
    """
    history = ""
    passed = [False, False]
    for word in lance_words(obs):
        team = team_of(word["seat"])
        if history:
            history = after_opening(history, word, obs["scores"])
        elif word["type"] == "pass":
            passed[team] = True
        else:
            history = ("p" if passed[1 - team] else "") + opening(word, obs["scores"])
    if not history:
        return "p" if passed[1 - team_of(seat)] else ""
    return history
