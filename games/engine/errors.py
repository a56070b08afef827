"""The one exception the engine raises for a refused action, and its stable codes."""

from __future__ import annotations

from typing import Literal, get_args

#: Every code :class:`IllegalAction` can carry: stable snake_case keys the site turns into
#: messages. tests/engine/test_illegal.py checks that the engine raises exactly these.
IllegalCode = Literal[
    "game_finished",  # the partie is over; no action is accepted
    "invalid_seat",  # the seat is not an integer 0-3
    "unknown_action",  # the action type is not one of the engine's actions
    "malformed_action",  # missing, extra or ill-typed field
    "wrong_phase",  # this kind of action does not belong to the current phase of the hand
    "not_your_turn",  # it is another seat's turn
    "not_eligible",  # this seat takes no part in this lance's betting (no Paires / no Jeu)
    "amount_out_of_range",  # a bet must be 2 to 40 and a raise at most 40
    "raise_not_above_stake",  # a raise must go above the current stake (at 40 only an órdago)
    "stake_is_ordago",  # an órdago cannot be raised nor answered with another órdago
    "card_not_held",  # the discard names a card the seat does not hold
    "duplicate_cards",  # the discard names the same card twice
    "wrong_discard_count",  # a discard is 1 to 4 cards
    "already_discarded",  # the seat has already chosen its discard in this round
    "betting_team_cannot_vote",  # only the team that did not bet answers a bet
    "already_voted",  # the seat has already voted on this bet
    "no_randomness",  # a new deck or reshuffle is needed and no shuffler was given
    "invalid_deck",  # a deck is not the 40 cards once each
    "invalid_reshuffle",  # a reshuffle order is not exactly the discards being reshuffled
    "invalid_argument",  # a new partie needs kings 4 or 8 and a first mano 0-3
]
ILLEGAL_CODES: frozenset[str] = frozenset(get_args(IllegalCode))

#: The replay command's one code of its own: a ``deal`` with no deck left in the input.
ReplayCode = IllegalCode | Literal["no_deck"]


class IllegalAction(Exception):
    """An action the rules refuse. The state it was applied to is left untouched.

    ``reason`` is one line of English for logs and the replay command; ``params`` (JSON types)
    let the site word its own message for ``code``.
    """

    def __init__(self, code: IllegalCode, reason: str, **params: object) -> None:
        assert code in ILLEGAL_CODES, code
        super().__init__(reason)
        self.code = code
        self.reason = reason.replace("\n", " ")
        self.params = dict(params)

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.reason!r})"


class ReplayError(Exception):
    """An illegal action met while replaying: ``index`` is its 0-based position in the log."""

    def __init__(self, index: int, reason: str, code: ReplayCode | None = None) -> None:
        super().__init__(f"action {index}: {reason}")
        self.index = index
        self.reason = reason
        self.code = code
