"""The engine's contract as types: the state it keeps, the view it gives, the actions it takes.

The site stores the state in a JSONField and renders only from the observation, so both are
plain JSON dicts; these TypedDicts say their exact keys once, for the engine, the display code
and the type checker (``make test`` runs mypy on the engine). The code is the reference: a key
added to a dict the engine builds is added here in the same commit.

Seats are 0-3 and play in that order; seats 0 and 2 make team 0, seats 1 and 3 team 1.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, Protocol, TypedDict

#: Points a team needs to win the partie; also the largest bet or raise (a bet of more could
#: never be paid: the deje or the count already ends the partie at this score).
TARGET = 40

Kings = Literal[4, 8]
Status = Literal["playing", "hand_over", "finished"]
#: ``lance`` covers the whole betting of the four lances; declarations of Paires and Jeu are
#: made by the engine inside it, so they never are a phase of their own.
Phase = Literal["mus", "discard", "lance", "hand_over", "finished"]
Lance = Literal["grand", "petit", "paires", "jeu", "point"]
#: How a lance ended: ``none`` = nobody had Paires (Jeu without holders becomes Point instead).
Outcome = Literal["paso", "held", "refused", "ordago", "unopposed", "none"]
ActionType = Literal[
    "mus", "cut", "discard", "pass", "bet", "ordago", "hold", "refuse", "raise", "deal"
]
VoteType = Literal["hold", "refuse", "raise", "ordago"]
#: A word is an action said aloud (never ``deal``) or a declaration made by the engine.
WordType = Literal[
    "mus", "cut", "discard", "pass", "bet", "ordago", "hold", "refuse", "raise", "declare"
]
#: A stake on the table: points, or an órdago (the whole partie).
Stake = int | Literal["ordago"]


def team_of(seat: int) -> int:
    """Partners sit opposite each other, so a seat's parity is its team."""
    return seat % 2


class Shuffler(Protocol):
    """Where the engine's randomness comes from: ``secrets.SystemRandom()`` at the site, the
    seeded hashlib shuffler in the replay command and the tests."""

    def shuffle(self, x: list[Any], /) -> None: ...


# --------------------------------------------------------------------------- actions


class Action(TypedDict):
    """What a seat sends to :func:`~games.engine.apply`, as docs/replay.md writes it.

    ``bet`` carries ``amount``, ``raise`` carries ``to``, ``discard`` carries ``cards``; every
    other type carries nothing else (the engine refuses extra or missing fields).
    """

    type: ActionType
    amount: NotRequired[int]
    to: NotRequired[int]
    cards: NotRequired[list[str]]


class LegalAction(TypedDict):
    """A template of what a seat may do now; ``bet``, ``raise`` and ``discard`` give a range."""

    type: ActionType
    min: NotRequired[int]
    max: NotRequired[int]


class Vote(TypedDict):
    type: VoteType
    to: NotRequired[int]


class Word(TypedDict):
    """One public word of the hand: discards give their ``count`` only, never the cards."""

    seat: int
    type: WordType
    lance: NotRequired[Lance]  # betting words and declarations
    amount: NotRequired[int]  # bet
    to: NotRequired[int]  # raise
    count: NotRequired[int]  # discard
    has: NotRequired[bool]  # declare


# --------------------------------------------------------------------------- betting


class PublicEnvite(TypedDict):
    """The open betting of the current lance as every seat sees it."""

    eligible: list[int]  # seats taking part, from the mano
    stake: Stake | None  # None while nobody has bet
    held: int  # what is already held: the deje a refusal pays (at least 1)
    bettor_team: int | None
    answering_team: int | None
    votes: dict[str, Vote]  # "<seat>" -> vote of the answering team so far


class Envite(PublicEnvite):
    turn: int  # index in ``eligible`` of the next opener
    bettor_seat: int | None  # seat of the last bet or raise


# --------------------------------------------------------------------------- records


class LanceRecord(TypedDict):
    """A lance of a hand as docs/replay.md's ``hands[].lances`` shows it.

    Before the showdown ``winner_team`` / ``winner_seat`` stay None unless a refusal decided it.
    """

    lance: Lance
    outcome: Outcome
    stake: Stake | None
    winner_team: int | None
    winner_seat: int | None
    deje: int
    points: int


class LanceLog(LanceRecord):
    """The state's own record of a lance: what the showdown needs to decide it."""

    eligible: list[int]
    bettor_team: int | None


class HandRecord(TypedDict):
    """One hand in docs/replay.md's ``hands`` list; ``hands_shown`` once it reached its showdown."""

    mano: int | None
    lances: list[LanceRecord]
    scores_after: list[int]
    hands_shown: NotRequired[dict[str, list[str]]]


class Declarations(TypedDict):
    """Who has Paires / Jeu, per seat; None until that lance's declarations were made."""

    paires: list[bool] | None
    jeu: list[bool] | None


# --------------------------------------------------------------------------- state


class Hand(TypedDict):
    """The hand being played. Secret parts: ``cards``, ``pioche``, ``old_discards``, ``pending``."""

    mano: int | None  # None only in hand 1 before anyone cut
    first_speaker: int  # speaks first in the mus phase (the drawn mano in hand 1)
    cards: list[list[str]]  # per seat
    pioche: list[str]  # the cards still to draw, next first
    old_discards: list[str]  # thrown and not yet reshuffled, in throwing order
    speaker: int | None  # whose word it is in the mus phase
    mus_said: int
    pending: list[list[str] | None]  # per seat, its secret choice in the open discard round
    discard_rounds: list[list[int]]  # cards changed per seat, per served round
    words: list[Word]
    lance: Lance | None
    declarations: Declarations
    betting: Envite | None
    lances: list[LanceLog]
    closed: bool
    hands_shown: dict[str, list[str]] | None  # "<seat>" -> cards, at the showdown


class State(TypedDict):
    """A whole partie: JSON only (``loads(dumps(s)) == s``), never mutated by the engine.

    It keeps every deck and reshuffle order it used and its action log, so the replay command
    rebuilds it from them.
    """

    format: int
    version: int  # 0 for a new partie, +1 per applied action
    kings: Kings
    first_mano: int
    decks: list[list[str]]
    reshuffles: list[list[str]]
    reshuffles_used: int
    actions: list[list[Any]]  # [seat, Action] pairs
    status: Status
    phase: Phase
    scores: list[int]  # per team
    winner: int | None
    hand_number: int  # 1-based
    hands: list[HandRecord]  # closed hands
    hand: Hand


# --------------------------------------------------------------------------- views


class Observation(TypedDict):
    """What one seat (or the public, ``seat`` None) may see: the only thing the site renders.

    Before the showdown it holds no card of another seat, no pioche order, no discarded card, no
    deck and no reshuffle order.
    """

    seat: int | None
    kings: Kings
    version: int
    status: Status
    phase: Phase
    hand_number: int
    mano: int | None
    first_speaker: int
    scores: list[int]
    winner: int | None
    to_act: list[int]
    legal: list[LegalAction]  # [] for the public view
    my_cards: list[str] | None  # None for the public view
    pioche_size: int
    discard_rounds: list[list[int]]
    discard_ready: list[bool]  # who has chosen in the open discard round
    lance: Lance | None
    declarations: Declarations
    betting: PublicEnvite | None
    words: list[Word]
    lances: list[LanceRecord]  # the current hand's, so far
    hands_shown: dict[str, list[str]] | None  # once the hand is closed
    hands: list[HandRecord]  # every hand so far, the open one last


class ReplayDocument(TypedDict):
    """docs/replay.md's output document."""

    status: Status
    scores: list[int]
    winner: int | None
    to_act: list[int]
    hands: list[HandRecord]
