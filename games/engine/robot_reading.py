"""What the expert robot reads of the other team in the partie so far (docs/robots.md,
« Reading the other team »).

The solved game assumes a sound opponent, who refuses a bet it cannot win and keeps the órdago
for a strong hand or a lost cause. A partie's public history says when the other team does not:
whether it ever refused a bet, how many órdagos it threw. Against a team that holds every bet,
or one that has thrown an órdago, a bluff only loses; against one that throws órdagos at random
a bluff meets one half the time, and a strong hand does better throwing its own; against one
that throws them at every turn, each is held or refused on the partie against such a team.
Only the seat's observation is read.
"""

from __future__ import annotations

import math

from .robot_abstraction import ORDAGO_LIKE
from .types import TARGET, Observation, team_of

#: a team is read as throwing órdagos at random once it threw this many, one a hand or more
RECKLESS_ORDAGOS = 2
#: ... and as throwing them wildly at this many a hand or more
WILD_RATE = 2
#: against a wild team: the edge and the slope of :func:`reckless_chance`
RECKLESS_EDGE = 2.2
RECKLESS_SLOPE = 0.4
#: an opening bet from this many points that does not decide the partie reads as a reckless team
ODD_OPENING = 11
#: a team is read as holding every bet once this many lances were held and it refused none
CALLING_HELD = 3
#: a team that threw no órdago is read as folding to bets once it refused this many of ours
FOLDS_AFTER = 3


def holds_everything(obs: Observation, seat: int) -> bool:
    """Whether the other team has held every bet of the partie so far: at least
    :data:`CALLING_HELD` lances held (a past hand's record does not say by whom) and not one of
    our bets refused (the record of a refusal names the bettors), this hand's words included."""
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


def folds_to_bets(obs: Observation, seat: int) -> bool:
    """Whether the other team has refused at least :data:`FOLDS_AFTER` of our bets (raises,
    órdagos) in the partie, the record of a refusal naming the bettors, and thrown no órdago:
    a cautious team, which pays for more bluffs than a sound one."""
    us = team_of(seat)
    refused = sum(
        lance["outcome"] == "refused" and lance["winner_team"] == us
        for record in obs["hands"]
        for lance in record["lances"]
    )
    return refused >= FOLDS_AFTER and not has_thrown_an_ordago(obs, seat)


def has_thrown_an_ordago(obs: Observation, seat: int) -> bool:
    """Whether the other team has thrown an órdago (or a bet of :data:`ORDAGO_LIKE` and more)
    in the partie: such a team plays for the partie, holding a small bet with a middling hand
    and answering a weak one with its órdago, so a bluff into it buys nothing."""
    return ordagos_thrown(obs, seat) >= 1


def throws_ordagos(obs: Observation, seat: int) -> bool:
    """Whether the other team throws órdagos (or bets of :data:`ORDAGO_LIKE` and more) at a
    rate no sound player does: at least :data:`RECKLESS_ORDAGOS`, and one a hand or more (the
    ones we refused in past hands, and every one of this hand's); or whether it ever opened
    with a bet no sound player makes (:func:`opened_oddly`)."""
    thrown = ordagos_thrown(obs, seat)
    return (thrown >= RECKLESS_ORDAGOS and thrown >= len(obs["hands"])) or opened_oddly(obs, seat)


def opened_oddly(obs: Observation, seat: int) -> bool:
    """Whether the other team opened a lance with a bet of :data:`ODD_OPENING` or more that
    does not decide the partie: a sound player bets a few points, or the partie, never 11 to 19
    for a lance (this hand's words; a past hand's refusal with a deje of 1 was such an opening
    refused at once)."""
    them = 1 - team_of(seat)
    for record in obs["hands"][:-1]:
        for lance in record["lances"]:
            stake = lance["stake"]
            if (
                lance["outcome"] == "refused"
                and lance["winner_team"] == them
                and lance["deje"] == 1
                and isinstance(stake, int)
                and stake >= ODD_OPENING
            ):
                return True
    lead = max(obs["scores"])
    return any(
        team_of(word["seat"]) == them
        and word["type"] == "bet"
        and word.get("amount", 0) >= ODD_OPENING
        and lead + word.get("amount", 0) < TARGET
        for word in obs["words"]
    )


def throws_wildly(obs: Observation, seat: int) -> bool:
    """Whether the other team throws órdagos at :data:`WILD_RATE` a hand or more: no player
    does that with a hand; its órdagos are coins, and the partie is won by choosing which ones
    to hold (:func:`reckless_chance`)."""
    thrown = ordagos_thrown(obs, seat)
    return thrown >= RECKLESS_ORDAGOS and thrown >= WILD_RATE * len(obs["hands"])


def ordagos_thrown(obs: Observation, seat: int) -> int:
    """The órdagos (and bets of :data:`ORDAGO_LIKE` and more) the other team threw in the
    partie as far as the table shows them: the ones refused in past hands, this hand's words."""
    them = 1 - team_of(seat)
    thrown = 0
    for record in obs["hands"][:-1]:
        for lance in record["lances"]:
            if (
                lance["outcome"] == "refused"
                and lance["winner_team"] == them
                and _ordago_like(lance["stake"])
            ):
                thrown += 1
    for word in obs["words"]:
        if team_of(word["seat"]) == them and (
            word["type"] == "ordago"
            or _ordago_like(word.get("amount", 0))
            or _ordago_like(word.get("to", 0))
        ):
            thrown += 1
    return thrown


def reckless_chance(ours: int, theirs: int) -> float:
    """Our chance to win the partie from these scores against a team that throws órdagos at
    random: the solver's logistic of the points each team needs, with the edge and the flatter
    slope fitted on the robot's parties against such a team (a refused órdago costs little, a
    score behind is not lost)."""
    if ours >= TARGET:
        return 1.0
    if theirs >= TARGET:
        return 0.0
    need_us, need_them = TARGET - ours, TARGET - theirs
    x = RECKLESS_EDGE + RECKLESS_SLOPE * (need_them - need_us) / math.sqrt(need_us + need_them + 4)
    return 1.0 / (1.0 + math.exp(-x))


def _ordago_like(stake: object) -> bool:
    return stake == "ordago" or (isinstance(stake, int) and stake >= ORDAGO_LIKE)
