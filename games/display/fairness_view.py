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


def verifier_words() -> dict[str, str]:
    """The words of the page's verifier (static/js/verify-shuffle.js) in the page's language:
    the script fills each %(name)s itself."""
    return {
        "not_record": _("Ce n’est pas un dossier de partie (un objet JSON)."),
        "before_protocol": _(
            "Cette partie a été distribuée avant le mélange vérifiable : il n’y a rien à vérifier."
        ),
        "unknown_version": _("Version de mélange inconnue : %(version)s."),
        "bad_server_seed": _(
            "Le secret du site (server_seed) doit compter 64 chiffres hexadécimaux."
        ),
        "bad_seeds": _(
            "Il faut les quatre graines des joueurs, chacune de 1 à 64 caractères 0-9, a-z."
        ),
        "bad_origins": _(
            "L’origine des graines (seed_origins) doit donner, pour chaque place, person, robot "
            "ou site."
        ),
        "no_decks": _("Le dossier n’a pas de paquets (decks)."),
        "commitment": _("Engagement : SHA-256(secret) = %(commitment)s"),
        "commitment_differs": _(
            "Engagement : SHA-256(secret) = %(commitment)s, le dossier dit %(recorded)s"
        ),
        "seeds": _("Graines des joueurs : %(seeds)s"),
        "robot_rule": _("Graine du robot de la place %(seat)s : suit la règle publique"),
        "robot_differs": _("Graine du robot de la place %(seat)s : la règle donne %(rule)s"),
        "first_mano": _(
            "Premier « mano » : place %(computed)s calculée, place %(recorded)s au dossier"
        ),
        "deck": _("Paquet de la main %(hand)s : %(cards)s"),
        "deck_differs": _("Paquet de la main %(hand)s : calculé %(cards)s"),
        "reshuffle_count": _("Re-mélanges : %(recorded)s au dossier, %(found)s repérés"),
        "reshuffle": _("Re-mélange %(round)s de la main %(hand)s : %(cards)s"),
        "proof_holds": _(
            "La preuve tient : la graine de la place %(seats)s vient du navigateur d’une "
            "personne, donnée après l’engagement ; le site n’a pas pu choisir les cartes."
        ),
        "proof_none": _(
            "La preuve ne tient pas : aucune graine ne vient d’une personne (robots ou graines "
            "tirées par le site). Les cartes découlent bien de l’engagement, mais rien ne "
            "prouve que le site ne les a pas choisies."
        ),
        "proof_unknown": _(
            "Ce dossier ne dit pas d’où vient chaque graine (partie d’avant le protocole 1.1) : "
            "impossible de dire si la preuve tient."
        ),
        "checking": _("Vérification…"),
        "not_json": _("Ce texte n’est pas du JSON : collez le dossier tel que téléchargé."),
        "failed": _(
            "%(failed)s vérification(s) en échec : ce dossier ne correspond pas à son engagement."
        ),
        "all_good": _(
            "Tout concorde : chaque carte découle de l’engagement et des graines. Pour rejouer "
            "aussi chaque décision par les règles, utilisez la commande ci-dessus."
        ),
    }
