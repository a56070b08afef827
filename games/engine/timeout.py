"""The decision the site makes for a seat whose clock ran out (docs/rules.md section 10).

It is always the most conservative legal one (cut, one card, pass, refuse, deal), so a silent
seat never raises the stakes nor changes the course of the hand more than a move has to. It
is read from :func:`~games.engine.legal_actions` and goes through :func:`~games.engine.apply`
like a click. Each case: docs/engine.md (« Time-outs »).
"""

from __future__ import annotations

from .cards import CARD_CODES, CARD_RANK, RANK_ORDER, card_points, effective_rank
from .errors import IllegalAction
from .machine import check_seat, legal_actions, to_act
from .types import Action, State

_CARD_ORDER: dict[str, int] = {code: i for i, code in enumerate(CARD_CODES)}


def timeout_action(state: State, seat: int) -> Action:
    """The action played for ``seat`` when its time is up; IllegalAction if it has none to play.

    Examples: at the mus question ``{"type": "cut"}``; holding ``12o 12c 11o 4e`` at the
    discard ``{"type": "discard", "cards": ["4e"]}``; facing a bet ``{"type": "refuse"}``.
    """
    if state["status"] == "finished":
        raise IllegalAction("game_finished", "the partie is over", winner=state["winner"])
    check_seat(seat)
    kinds = {template["type"] for template in legal_actions(state, seat)}
    if "deal" in kinds:
        return {"type": "deal"}
    if "cut" in kinds:
        return {"type": "cut"}
    if "discard" in kinds:
        return {
            "type": "discard",
            "cards": [least_useful_card(state["hand"]["cards"][seat], state["kings"])],
        }
    if "pass" in kinds:
        return {"type": "pass"}
    if "refuse" in kinds:
        return {"type": "refuse"}
    turn = to_act(state)
    raise IllegalAction(
        "not_your_turn",
        f"seat {seat} has no decision to make now: seats {turn} must act",
        seat=seat,
        turn=turn,
    )


def least_useful_card(cards: list[str], kings: int) -> str:
    """The card of a four-card hand whose discard leaves the best three-card hand.

    The three cards kept are compared, in this order:

    1. their Paires: a triple (medias) beats a pair, which beats none; then the higher rank;
    2. their card-point total, higher first (nearer Jeu, a better Point);
    3. their Grand: effective ranks high to low, compared position by position.

    Ranks are effective ranks (in 8 rois a 3 is a king and a 2 an ace). When several cards leave
    equal hands (same effective rank), the first in the card order (``CARD_CODES``: rank, then
    oros, copas, espadas, bastos) is discarded.

    Examples (4 rois): ``12o 12c 11o 4e`` -> ``4e`` (keeps the kings' pair and 30 points);
    ``12o 11o 10o 1o`` -> ``1o`` (keeps 30 points, Jeu whatever is drawn); ``5o 5c 4o 4c`` ->
    ``4o`` (keeps the pair of fives); ``7o 7c 7e 1o`` -> ``1o`` (keeps the medias).
    """

    def kept_value(out: str) -> tuple[tuple[int, int, tuple[int, ...]], int]:
        kept = list(cards)
        kept.remove(out)
        # the discarded card's order last, negated: on a tie the first card is the one thrown
        return _three_card_value(kept, kings), -_CARD_ORDER[out]

    return max(cards, key=kept_value)


def _three_card_value(kept: list[str], kings: int) -> tuple[int, int, tuple[int, ...]]:
    """``(paires, points, grand)`` of three cards, each higher when better (as in ``hands``)."""
    ordinals = sorted(
        (RANK_ORDER.index(effective_rank(CARD_RANK[c], kings)) for c in kept), reverse=True
    )
    paires = 0
    for ordinal in set(ordinals):
        same = ordinals.count(ordinal)
        if same == 3:
            paires = 200 + ordinal
        elif same == 2:
            paires = 100 + ordinal
    points = sum(card_points(CARD_RANK[c], kings) for c in kept)
    return paires, points, tuple(ordinals)
