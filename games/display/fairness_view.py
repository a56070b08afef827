"""The verifiable shuffle as the pages show it (docs/fair-shuffle.md, "At the site"): the
commitment from the moment a table exists, every player's seed, and the server seed revealed
once the partie has ended, never before. Nothing here reads `Table.server_seed`; the game's
`server_seed` is read only for an ended game."""

from typing import Any

from django.utils.translation import gettext_lazy as _

from games import engine
from games.display import links
from games.models import Game, SeedOrigin, Table

#: Hex digits of the commitment shown at a glance (the whole value is a click away).
SHORT = 12


def short(value: str) -> str:
    return value[:SHORT] + "…" if len(value) > SHORT else value


#: Who chose a seed, as the seeds' list says it ("": a partie dealt before it was recorded).
ORIGIN_LABELS = {
    SeedOrigin.PERSON: _("donnée par son navigateur"),
    SeedOrigin.ROBOT: _("robot : règle publique"),
    SeedOrigin.SITE: _("tirée par le site"),
    "": "",
}


def proof(origins: list[str]) -> str:
    """ "holds" (a person's seed came after the commitment), "none" (every seed is a robot's or
    the site's: the site could have chosen the cards) or "" (not recorded: before protocol 1.1)."""
    if not origins:
        return ""
    return "holds" if engine.fairness.proof_holds(origins) else "none"


def table_fairness(table: Table) -> dict[str, Any] | None:
    """What the salle's table card shows: the commitment (None for a table opened before the
    verifiable shuffle)."""
    if not table.commitment:
        return None
    return {"commitment": table.commitment, "commitment_short": short(table.commitment)}


def game_fairness(game: Game, players: list[str]) -> dict[str, Any]:
    """What the table page shows of the shuffle of `game` (players: names in seat order)."""
    ended = game.status != Game.Status.PLAYING
    view: dict[str, Any] = {
        "verifiable": game.fairness == Game.FAIRNESS_V1,
        "ended": ended,
        "explainer_url": links.url("games:fair_shuffle"),
        "dossier_url": links.url("games:partie_record", game.pk) if ended else None,
    }
    if not view["verifiable"]:
        return view
    origins = game.seed_origins or [""] * len(game.client_seeds)
    view.update(
        commitment=game.commitment,
        commitment_short=short(game.commitment),
        seeds=[
            {"name": name, "seed": seed, "origin": origin, "origin_label": ORIGIN_LABELS[origin]}
            for name, seed, origin in zip(players, game.client_seeds, origins, strict=False)
        ],
        proof=proof(game.seed_origins),
    )
    if ended:
        view["server_seed"] = game.server_seed
    return view
