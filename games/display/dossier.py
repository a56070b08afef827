"""The record of an ended partie, as its players and staff download it ("dossier de la
partie"): the replay input of docs/replay.md, the replay's output as the site ended the partie
("result"), and the "fairness" block `python -m games.engine fairness verify` checks
(docs/fair-shuffle.md). Only ever built for a game that has ended: it reveals the server seed.
"""

from typing import Any

from django.utils.translation import gettext as _

from games import engine
from games.models import Game


def old_randomness() -> dict[str, Any]:
    """The "fairness" block of a partie dealt before the verifiable shuffle; the verify command
    answers "not verifiable" for a null version."""
    return {
        "version": None,
        "randomness": "secrets",
        "explanation": _(
            "Partie distribuée avant le mélange vérifiable : ses cartes ont été tirées au "
            "hasard par le site (module secrets de Python), sans engagement ni graines des "
            "joueurs. Elle se rejoue avec « python -m games.engine replay », mais son mélange "
            "ne peut pas être vérifié."
        ),
    }


def partie_dossier(game: Game) -> dict[str, Any]:
    """The downloadable record of an ended `game` (its seats prefetched or not: one query)."""
    if game.status == Game.Status.PLAYING:
        raise ValueError("a partie's record (and its secret) is for an ended partie only")
    state = game.state
    actions = [[seat, action] for seat, action in state["actions"]]
    record: dict[str, Any] = {
        "kings": state["kings"],
        "first_mano": state["first_mano"],
        "decks": [list(deck) for deck in state["decks"]],
        "reshuffles": [list(order) for order in state["reshuffles"]],
        "actions": actions,
        "fairness": fairness_block(game),
        "result": engine.replay_document(state),
        "partie": {
            "id": game.pk,
            "table": game.table_id,
            "status": game.status,
            "end_reason": game.end_reason_text,
            "players": [seat.user.username for seat in game.seats.all()],
            "started": game.created.isoformat(),
            "ended": game.finished_at.isoformat() if game.finished_at else None,
        },
    }
    return record


def fairness_block(game: Game) -> dict[str, Any]:
    """What the table committed to and the revealed secret; for a V1 partie also which hand
    and round each recorded reshuffle is (the verify command finds them by replaying; the
    in-browser check of the explainer page reads them here)."""
    if game.fairness != Game.FAIRNESS_V1:
        return old_randomness()
    block = {
        "version": engine.fairness.VERSION,
        "server_seed": game.server_seed,
        "commitment": game.commitment,
        "client_seeds": list(game.client_seeds),
        "reshuffle_labels": reshuffle_labels(game),
    }
    if game.seed_origins:  # not said for a partie dealt before protocol 1.1
        block["seed_origins"] = list(game.seed_origins)
    return block


def reshuffle_labels(game: Game) -> list[dict[str, int]]:
    """[{"hand": k, "round": r}] of each reshuffle of the partie, in order, found by replaying
    its actions with the derived cards (the state keeps the partie's count only)."""
    state = game.state
    deal = engine.FairDeal(bytes.fromhex(game.server_seed), game.client_seeds)
    shuffler = deal.shuffler()
    replayed = engine.new_partie(
        kings=state["kings"], first_mano=state["first_mano"], shuffler=shuffler
    )
    for seat, action in state["actions"]:
        replayed = engine.apply(replayed, seat, action, shuffler=shuffler)
    return [{"hand": k, "round": r} for kind, k, r in shuffler.made if kind == "reshuffle"]


def dossier_filename(game: Game) -> str:
    return f"barajamos-partie-{game.pk}.json"
