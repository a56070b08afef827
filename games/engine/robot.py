"""The computer players' decision (docs/robots.md): a pure function of one seat's observation,
so a robot never sees more than a player in its seat would.

``robot_action(observation(state, seat), level)`` follows the strategy solved offline (the
Expert's on the four-seat envite of :mod:`envite_seats`, :mod:`robot_strategy_seats`; the
Confirmé's on the two-seat one of :mod:`robot_abstraction`, :mod:`robot_strategy`), sampled with a
number drawn from the observation's hash: the same observation always gets the same decision,
one of ``obs["legal"]``. The three levels: docs/engine.md (« Robots »).
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from .cards import CARD_CODES, CARD_RANK, effective_rank
from .envite_seats import hand_bucket, seat_context, seat_node, tree
from .errors import IllegalAction
from .robot_abstraction import (
    LANCES,
    RAISE_BY,
    TREE,
    lance_percentiles,
    node_of,
    strength,
)
from .robot_abstraction import context as score_context
from .robot_reading import (
    folds_to_bets,
    has_thrown_an_ordago,
    holds_everything,
    reckless_chance,
    throws_ordagos,
    throws_wildly,
)
from .robot_strategy import BUCKETS, STRATEGY
from .robot_strategy_seats import STRATEGY as SEAT_STRATEGY
from .robot_v1 import best_discard, hand_key, kept_values, observation_seed, value_percentiles
from .showdown import hand_tally
from .solve import partie_chance
from .types import TARGET, Action, ActionType, Lance, LegalAction, Observation, team_of

#: Names the robots' decisions: bumped whenever any level may decide differently, so what was
#: computed from them (the reviews of docs/review.md) is computed again.
ROBOT_VERSION = "31.5"

Level = Literal["expert", "confirme", "debutant"]
LEVELS: tuple[Level, ...] = ("expert", "confirme", "debutant")
DEFAULT_LEVEL: Level = "expert"
#: cut at the mus question with a hand better than this share of all hands
CUT_PERCENTILE: dict[Level, float] = {"expert": 0.62, "confirme": 0.62, "debutant": 0.35}
#: against a team that throws órdagos at random, say mus for this many discard rounds of a hand
#: (then cut as usual: two such readers at one table would draw forever)
BLIND_MUS_ROUNDS = 3
#: a beginner's thresholds on its hand's percentile in the lance: it bets 2 from ``bet``, 5
#: from ``big``, raises from ``raise``, holds a bet from ``hold`` (too often) and an órdago from
#: ``ordago``; it never bluffs and never throws an órdago; its pairs look better by ``pairs``
BEGINNER = {"bet": 0.6, "big": 0.9, "raise": 0.85, "hold": 0.2, "ordago": 0.5, "pairs": 0.25}


def build_tables() -> None:
    """Build every table the robots read now (else each is built at its first use)."""
    for kings in (4, 8):
        kept_values(kings)
        value_percentiles(kings)
        lance_percentiles(kings)


def robot_action(obs: Observation, level: Level = DEFAULT_LEVEL) -> Action:
    """The decision of the seat whose observation is ``obs``; IllegalAction if it has none."""
    legal: dict[str, LegalAction] = {template["type"]: template for template in obs["legal"]}
    seat = obs["seat"]
    cards = obs["my_cards"]
    if not legal or seat is None or cards is None:
        raise IllegalAction("not_your_turn", "this seat has nothing to decide")
    if "deal" in legal:
        return {"type": "deal"}
    if "cut" in legal:
        return {"type": "cut"} if wants_to_cut(cards, obs, seat, level) else {"type": "mus"}
    if "discard" in legal:
        if level == "debutant":
            return {
                "type": "discard",
                "cards": beginner_discard(cards, obs["kings"], legal["discard"]),
            }
        return {"type": "discard", "cards": best_discard(cards, obs["kings"], legal["discard"])}
    return betting_decision(obs, seat, cards, legal, level)


def wants_to_cut(cards: list[str], obs: Observation, seat: int, level: Level) -> bool:
    """Cut with a good hand; sooner when the other team is about to win anyway; not in a
    hand's first rounds against a team that throws órdagos at random. A beginner cuts with any
    pair and with middling hands."""
    kings = obs["kings"]
    if level == "debutant" and _pair_ranks(cards, kings):
        return True
    ours, theirs = obs["scores"][team_of(seat)], obs["scores"][1 - team_of(seat)]
    threshold = CUT_PERCENTILE[level]
    if (
        level == "expert"
        and len(obs["discard_rounds"]) < BLIND_MUS_ROUNDS
        and throws_ordagos(obs, seat)
    ):
        return False  # their draws are coins: a fresh deal keeps our good cards, not theirs
    if level == "expert" and theirs >= TARGET - 6 and theirs > ours:
        threshold -= 0.15  # a fresh deal is as likely to help them: play what we have
    return value_percentiles(kings)[hand_key(cards)] >= threshold


def _pair_ranks(cards: list[str], kings: int) -> set[int]:
    ranks = [effective_rank(CARD_RANK[c], kings) for c in cards]
    return {r for r in ranks if ranks.count(r) >= 2}


def beginner_discard(cards: list[str], kings: int, template: LegalAction) -> list[str]:
    """A beginner keeps every pair and every king and throws the rest, whatever the lances."""
    pairs = _pair_ranks(cards, kings)
    thrown = [
        c
        for c in sorted(cards, key=CARD_CODES.index)
        if effective_rank(CARD_RANK[c], kings) not in pairs | {12}
    ]
    low, high = template.get("min", 1), template.get("max", 4)
    if not low <= len(thrown) <= high:
        return best_discard(cards, kings, template)
    return thrown


@cache
def strategy(level: Level, lance: str, ctx: int, node: str) -> tuple[tuple[float, ...], ...]:
    """Per bucket, the probability of each of the node's actions (the two-seat tables)."""
    return _decode(STRATEGY[f"{level}/{lance}/{ctx}/{node}"], len(TREE[node][1]))


@cache
def seat_strategy(lance: str, pattern: str, ctx: int, node: str) -> tuple[tuple[float, ...], ...]:
    """Per bucket, the probability of each of the node's actions (the four-seat tables)."""
    return _decode(SEAT_STRATEGY[f"{lance}/{pattern}/{ctx}/{node}"], len(tree(pattern)[0][node][1]))


def _decode(text: str, k: int) -> tuple[tuple[float, ...], ...]:
    digits = [int(text[i : i + 2]) for i in range(0, len(text), 2)]
    rows = (digits[b : b + k] for b in range(0, len(digits), k))
    return tuple(tuple(d / (sum(row) or 1) for d in row) for row in rows)


def _draw(obs: Observation) -> float:
    """A number in [0, 1) fixed by the observation: how a mixed strategy is sampled."""
    return int.from_bytes(observation_seed(obs)[:8], "big") / 2**64


def betting_decision(
    obs: Observation, seat: int, cards: list[str], legal: dict[str, LegalAction], level: Level
) -> Action:
    lance = obs["lance"]
    betting = obs["betting"]
    if lance is None or betting is None:  # only the lance phase has betting templates
        return _cautious(legal)
    if level == "debutant":
        return beginner_betting(obs, seat, cards, legal)
    node = node_of(obs, seat)
    if node not in TREE:
        return _cautious(legal)
    actor, actions = TREE[node]
    us = team_of(seat)
    ours, theirs = obs["scores"][us], obs["scores"][1 - us]
    ctx = 0
    if level == "expert":
        ctx = score_context(ours, theirs) if actor == 0 else score_context(theirs, ours)
    ours_strength = strength(obs, seat, hand_key(cards))
    if level == "expert" and node in ("", "p") and holds_everything(obs, seat):
        return _concrete(_value_bet(ours_strength, ours, theirs), betting["stake"], legal)
    if level == "expert" and throws_ordagos(obs, seat):
        wild = throws_wildly(obs, seat)
        if wild and node.endswith("o") and "c" in actions:
            return {"type": "hold" if _hold_reckless(obs, seat) else "refuse"}
        if "o" in actions and (
            _ordago_reckless(obs, seat) if wild else ours_strength >= RECKLESS_ORDAGO
        ):
            return _concrete("o", betting["stake"], legal)
        if node in ("", "p"):  # a bluff would meet an órdago half the time
            return _concrete("b2" if ours_strength >= SAFE_BET else "p", betting["stake"], legal)
    seats = seat_node(obs) if level == "expert" else None
    if seats is not None and not (node in ("", "p") and folds_to_bets(obs, seat)):
        pattern, history = seats
        actions = tree(pattern)[0][history][1]
        probs = seat_strategy(lance, pattern, seat_context(obs), history)[
            hand_bucket(obs, hand_key(cards))
        ]
    else:  # Confirmé, and the Expert's openings against a team that folds to bets
        mine = min(BUCKETS[level] - 1, int(ours_strength * BUCKETS[level]))
        probs = strategy(level, lance, ctx, node)[mine]
    u = _draw(obs)
    choice = actions[probs.index(max(probs))]  # were rounding to leave u past the last share
    for act, p in zip(actions, probs, strict=True):
        if u < p:
            choice = act
            break
        u -= p
    if (
        level == "expert"
        and node in ("", "p")
        and choice not in ("p", "o")
        and ours_strength < NO_BLUFF_BELOW
        and has_thrown_an_ordago(obs, seat)
    ):
        choice = "p"  # such a team holds a small bluff, or answers it with its órdago
    if choice == "f" and _refusal_loses(obs, seat):
        choice = "c"  # a refusal would hand them the partie: holding can only do better
    return _concrete(choice, betting["stake"], legal)


#: against a team that holds every bet: the opening bet per team strength (strongest first)
VALUE_BETS = ((0.85, "b10"), (0.7, "b5"), (0.55, "b2"))
#: ... and an órdago from this strength, unless the partie is nearly won anyway
VALUE_ORDAGO = 0.95
#: against a team that has thrown an órdago in the partie: open only from this strength (no bluff)
NO_BLUFF_BELOW = 0.5
#: against a team that throws órdagos at random: bet 2 from this strength, else pass
SAFE_BET = 0.8
#: ... and throw an órdago (or answer a bet with one) from this strength: even held by half,
#: it wins more often than the partie would be won by points
RECKLESS_ORDAGO = 0.9


#: against a wild team: the chance that a lance still to come, where the hand is stronger than
#: the partie's odds, brings an órdago to hold there instead (theirs or ours)
LATER_CHANCE = 0.7


def _hold_reckless(obs: Observation, seat: int) -> bool:
    """Hold a wild team's órdago (or bet of 20 and more) when the showdown is a better chance
    than the partie after the refusal (:func:`reckless_chance`), waiting for a stronger lance
    of this hand when there is one."""
    betting = obs["betting"]
    lance = obs["lance"]
    assert betting is not None and lance is not None
    us = team_of(seat)
    ours, theirs = obs["scores"][us], obs["scores"][1 - us]
    mine = showdown_chance(obs, seat, lance)
    refused = reckless_chance(ours, theirs + max(1, betting["held"]))
    later = _later_chance(obs, seat)
    if later > refused > 0:  # a refusal that ends the partie leaves no lance to come
        refused += LATER_CHANCE * (later - refused)
    stake = betting["stake"]
    held = mine
    if isinstance(stake, int) and ours + stake < TARGET and theirs + stake < TARGET:
        won, lost = reckless_chance(ours + stake, theirs), reckless_chance(ours, theirs + stake)
        held = mine * won + (1 - mine) * lost
    return held >= refused


def _ordago_reckless(obs: Observation, seat: int) -> bool:
    """Throw an órdago at a wild team when the showdown is a better chance than the partie."""
    us = team_of(seat)
    lance = obs["lance"]
    assert lance is not None
    return showdown_chance(obs, seat, lance) >= reckless_chance(
        obs["scores"][us], obs["scores"][1 - us]
    )


def _later_chance(obs: Observation, seat: int) -> float:
    """The best showdown chance of the seat's hand in the lances still to come in this hand
    where the other team may still bet (a lance none of theirs plays brings no órdago)."""
    assert obs["lance"] is not None
    later = LANCES[LANCES.index(obs["lance"]) + 1 :]
    return max(
        (showdown_chance(obs, seat, lance) for lance in later if _contested(obs, seat, lance)),
        default=0.0,
    )


def _contested(obs: Observation, seat: int, lance: Lance) -> bool:
    """Whether the other team may play ``lance`` as far as the declarations say."""
    them = [s for s in range(4) if team_of(s) != team_of(seat)]
    jeu = obs["declarations"]["jeu"]
    if lance == "point":
        return jeu is None or not any(jeu)
    declared = obs["declarations"].get(lance) if lance in ("paires", "jeu") else None
    return declared is None or any(declared[s] for s in them)


def showdown_chance(obs: Observation, seat: int, lance: Lance) -> float:
    """The chance the seat's hand beats every hand of the other team that plays ``lance``,
    each counted exactly over the cards the seat has not seen (:mod:`showdown`; ties to the
    seat nearer the mano, the declarations saying who plays Paires and Jeu; 0 if ours does
    not play)."""
    cards = obs["my_cards"]
    assert cards is not None
    pool = [c for c in CARD_CODES if c not in cards]
    counted = hand_tally(cards, pool, obs["kings"], lance)
    if counted is None:
        return 0.0
    declared = obs["declarations"].get(lance) if lance in ("paires", "jeu") else None
    mano = obs["mano"]
    assert mano is not None, "a lance is played once the mano is known"
    chance = 1.0
    for s in range(4):
        if team_of(s) == team_of(seat) or (declared is not None and not declared[s]):
            continue
        first = (seat - mano) % 4 < (s - mano) % 4
        chance *= counted.share_won(lance, first=first, playing=declared is not None)
    return chance


def _value_bet(mine: float, ours: int, theirs: int) -> str:
    """The opening against a team that holds every bet: no bluff, a bet as large as the hand
    (:data:`VALUE_BETS`), an órdago with a near-certain one unless the partie is nearly won."""
    if mine >= VALUE_ORDAGO and partie_chance(ours, theirs) < 0.9:
        return "o"
    return next((bet for low, bet in VALUE_BETS if mine >= low), "p")


def _refusal_loses(obs: Observation, seat: int) -> bool:
    betting = obs["betting"]
    theirs = obs["scores"][1 - team_of(seat)]
    return betting is not None and theirs + max(1, betting["held"]) >= TARGET


def beginner_betting(
    obs: Observation, seat: int, cards: list[str], legal: dict[str, LegalAction]
) -> Action:
    """A beginner's envite: the hand's percentile in the lance against fixed thresholds
    (:data:`BEGINNER`), whatever was said and whatever the score."""
    lance = obs["lance"]
    betting = obs["betting"]
    if lance is None or betting is None:
        return _cautious(legal)
    q = lance_percentiles(obs["kings"])[hand_key(cards)][LANCES.index(lance)]
    if lance == "paires":
        q += BEGINNER["pairs"]
    if "pass" in legal:
        if q >= BEGINNER["big"]:
            return _concrete("b5", betting["stake"], legal)
        return _concrete("b2" if q >= BEGINNER["bet"] else "p", betting["stake"], legal)
    if betting["stake"] == "ordago":
        hold = q >= BEGINNER["ordago"] or _refusal_loses(obs, seat)
        return {"type": "hold" if hold else "refuse"}
    if q >= BEGINNER["raise"]:
        return _concrete("r", betting["stake"], legal)
    hold = q >= BEGINNER["hold"] or _refusal_loses(obs, seat)
    return {"type": "hold" if hold else "refuse"}


_KINDS: dict[str, ActionType] = {
    "p": "pass",
    "f": "refuse",
    "c": "hold",
    "o": "ordago",
    "r": "raise",
}


def _concrete(choice: str, stake: object, legal: dict[str, LegalAction]) -> Action:
    """The legal action of an abstract one (the cautious one when it is not legal)."""
    kind: ActionType = _KINDS.get(choice, "bet")
    template = legal.get(kind)
    if template is None:
        if kind == "raise" and "hold" in legal:
            return {"type": "hold"}
        return _cautious(legal)
    if kind == "bet":
        amount = int(choice[1:])
        return {
            "type": "bet",
            "amount": max(template.get("min", 2), min(template.get("max", TARGET), amount)),
        }
    if kind == "raise":
        current = stake if isinstance(stake, int) else 0
        low, high = template.get("min", current + 1), template.get("max", TARGET)
        return {"type": "raise", "to": max(low, min(high, current + RAISE_BY))}
    return {"type": kind}


def _cautious(legal: dict[str, LegalAction]) -> Action:
    for kind in ("pass", "refuse", "hold"):
        if kind in legal:
            return {"type": kind}
    raise IllegalAction("not_your_turn", "this seat has nothing to decide")
