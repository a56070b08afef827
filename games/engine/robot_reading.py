"""What the robot reads of the other team in the partie so far (docs/robots.md, « Reading »).

The solved game assumes a sound opponent, who refuses a bet it cannot win. A partie's public
history says when the other team does not: the lances' outcomes show whether it ever refused a
bet. Against a team that holds every bet a bluff only loses, and a strong hand may bet more, so
the robot then bets for value only. Only the seat's observation is read: what any player at the
table has seen.
"""

from __future__ import annotations

from .types import Observation, team_of

#: a team is read as holding every bet once this many lances were held and it refused none
CALLING_HELD = 3


def holds_everything(obs: Observation, seat: int) -> bool:
    """Whether the other team has held every bet of the partie so far (at least
    :data:`CALLING_HELD` lances held, not one of our bets refused, this hand's words included)."""
    them = 1 - team_of(seat)
    held = refused_by_them = 0
    for record in obs["hands"]:
        for lance in record["lances"]:
            if lance["outcome"] == "held":
                held += 1
            elif lance["outcome"] == "refused" and lance["winner_team"] == 1 - them:
                refused_by_them += 1
    for word in obs["words"]:
        if team_of(word["seat"]) == them and word["type"] == "refuse":
            refused_by_them += 1
    return refused_by_them == 0 and held >= CALLING_HELD
