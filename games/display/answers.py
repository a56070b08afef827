"""Answering a bet as a team: both partners vote at once and the team's most aggressive vote
is its answer (games.engine.betting.team_answer; the engine's rule, unchanged here).

The display says what the partner already answered, offers only the choices that can still
change the team's answer (never a raise at or below the partner's) and says in the log which
vote counted. A forged POST is still decided by the engine.
"""

from __future__ import annotations

from core.translations import gettext as _
from games import vocabulary
from games.engine import LegalAction, Observation, Word, team_of

VOTE_TYPES = frozenset({"hold", "refuse", "raise", "ordago"})
#: The engine's order of the votes (games.engine.betting.team_answer).
VOTE_RANK = {"refuse": 0, "hold": 1, "raise": 2, "ordago": 3}


def partner_vote(observation: Observation, viewer: int) -> dict[str, object] | None:
    """The vote the viewer's partner gave to the open bet, if any."""
    betting = observation["betting"]
    if betting is None:
        return None
    vote = betting["votes"].get(str((viewer + 2) % 4))
    return dict(vote) if vote is not None else None


def answer_choices(
    observation: Observation, viewer: int, partner: str
) -> tuple[list[LegalAction], str]:
    """The viewer's legal answers that can still change the team's answer, and what « Je
    tiens » / « Je ne tiens pas » mean now (``""`` when the viewer is not answering a bet)."""
    legal = list(observation["legal"])
    types = {item["type"] for item in legal}
    betting = observation["betting"]
    if not types & {"hold", "refuse"} or betting is None:
        return legal, ""
    vote = partner_vote(observation, viewer)
    if vote is None:
        if team_of((viewer + 2) % 4) == betting["answering_team"] and (
            (viewer + 2) % 4 in betting["eligible"]
        ):
            return legal, _(
                "%(name)s répond aussi : la réponse la plus forte de l’équipe compte."
            ) % {"name": partner}
        return legal, ""
    kind = vote["type"]
    if kind == "refuse":
        deje = vocabulary.points(max(1, betting["held"]))
        note = _(
            "%(name)s ne tient pas. Je ne tiens pas : la mise est refusée (deje de %(deje)s "
            "pour eux) ; Je tiens : vous la tenez pour l’équipe."
        ) % {"name": partner, "deje": deje}
        return legal, note
    # A hold or a raise of the partner already beats a refusal: only more can change the answer.
    shown = [item for item in legal if item["type"] != "refuse"]
    if kind == "hold":
        note = _(
            "%(name)s tient. Je tiens : la mise est tenue ; Je ne tiens pas ne changerait "
            "rien. Pour monter : relancez ou órdago."
        ) % {"name": partner}
        return shown, note
    to = int(str(vote.get("to", 0)))
    above: list[LegalAction] = []
    for item in shown:
        if item["type"] == "raise":
            if to + 1 > item["max"]:
                continue
            item = {"type": "raise", "min": max(item["min"], to + 1), "max": item["max"]}
        above.append(item)
    note = _(
        "%(name)s a relancé à %(to)s. Je tiens : vous suivez sa relance ; Je ne tiens pas ne "
        "changerait rien. Pour monter plus haut : relancez au-dessus de %(to)s ou órdago."
    ) % {"name": partner, "to": to}
    return above, note


def _counted_text(word: Word, name: str) -> str:
    kind = word["type"]
    if kind == "raise":
        return _("La relance de %(name)s à %(to)s compte.") % {"name": name, "to": word["to"]}
    if kind == "ordago":
        return _("L’órdago de %(name)s compte.") % {"name": name}
    if kind == "hold":
        return _("%(name)s tient : la mise est tenue.") % {"name": name}
    return _("Les deux refusent : la mise est refusée.")


def counted_answers(
    words: list[Word], mano: int | None, players: list[str], votes: dict[int, int] | None = None
) -> dict[int, str]:
    """``{index of a team's last vote: which of its votes counted}`` in words, for every answer
    given by two partners (`counted_votes`, or `votes` if the caller has them)."""
    if votes is None:
        votes = counted_votes(words, mano)
    return {
        last: _counted_text(words[best], players[words[best]["seat"]])
        for last, best in votes.items()
    }


def counted_votes(words: list[Word], mano: int | None) -> dict[int, int]:
    """``{index of a team's last vote: index of the vote that counted}`` for every answer given
    by two partners, unless both held or both refused (one vote alone needs no word); of two
    equal raises the one nearest the mano counts. No words: the same for every reader.

    Once a lance has a bet, every later word of that lance is a vote; the consecutive votes of
    one team make its answer."""
    out: dict[int, int] = {}
    first = mano if mano is not None else 0
    groups: list[list[int]] = []
    lance = None
    betting_open = False
    for index, word in enumerate(words):
        if word.get("lance") != lance:
            lance, betting_open = word.get("lance"), False
        if lance is None or word["type"] == "declare":
            continue
        if not betting_open:
            betting_open = word["type"] in ("bet", "ordago")
            continue
        previous = groups[-1] if groups else None
        if (
            previous is not None
            and previous[-1] == index - 1
            and team_of(words[previous[-1]]["seat"]) == team_of(word["seat"])
        ):
            previous.append(index)
        else:
            groups.append([index])
    for group in groups:
        votes = [words[i] for i in group]
        kinds = {w["type"] for w in votes}
        if len(votes) < 2 or kinds in ({"hold"}, {"refuse"}):
            continue  # one answer, or two that say the same: nothing to choose between
        # The engine's rule: the most aggressive vote, the larger raise, then the seat nearest
        # the mano.
        best = max(
            group,
            key=lambda i: (
                VOTE_RANK[words[i]["type"]],
                words[i].get("to", 0),
                -((words[i]["seat"] - first) % 4),
            ),
        )
        out[group[-1]] = best
    return out
