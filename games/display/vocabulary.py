"""French words of the table: cards, lances, outcomes, public words and error messages.

Plain Python (no database, no templates). Card codes are written rank then suit (``12o``,
``1c``, docs/rules.md §2); suits: oros ``o`` = deniers, copas ``c`` = coupes, espadas ``e`` = épées,
bastos ``b`` = bâtons. Ranks: 1 As ... 7 Sept, 10 Valet (sota), 11 Cavalier (caballo),
12 Roi (rey).
"""

from __future__ import annotations

RANK_NAMES: dict[int, str] = {
    1: "As",
    2: "Deux",
    3: "Trois",
    4: "Quatre",
    5: "Cinq",
    6: "Six",
    7: "Sept",
    10: "Valet",
    11: "Cavalier",
    12: "Roi",
}

#: Short rank glyph printed in a card's corners (Spanish cards print the number: 10, 11, 12).
RANK_GLYPHS: dict[int, str] = {
    1: "1",
    2: "2",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    10: "10",
    11: "11",
    12: "12",
}

#: Short French letter under the number for the figures (V, C, R) and the ace (A).
RANK_LETTERS: dict[int, str] = {1: "As", 10: "V", 11: "C", 12: "R"}

SUIT_NAMES: dict[str, str] = {
    "o": "deniers",
    "c": "coupes",
    "e": "épées",
    "b": "bâtons",
}

#: Spanish names of the suits (CSS class suffixes, never card codes).
SUIT_SLUGS: dict[str, str] = {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}

LANCE_NAMES: dict[str, str] = {
    "grand": "Grand",
    "petit": "Petit",
    "paires": "Paires",
    "jeu": "Jeu",
    "point": "Point",
}

OUTCOME_NAMES: dict[str, str] = {
    "paso": "en paso",
    "held": "tenue",
    "refused": "refusée",
    "unopposed": "sans mise",
    "ordago": "órdago",
    "none": "pas jouées",
}

PHASE_NAMES: dict[str, str] = {
    "mus": "Mus",
    "discard": "Écart",
    "declare_paires": "Questions : Paires",
    "declare_jeu": "Questions : Jeu",
    "lance": "Tours",
    "hand_over": "Fin de la main",
    "finished": "Partie terminée",
}

#: Button labels of the decision panel, by action type.
ACTION_LABELS: dict[str, str] = {
    "mus": "Mus",
    "cut": "Couper",
    "discard": "Écarter",
    "pass": "Je passe",
    "bet": "Mise",
    "ordago": "Órdago",
    "hold": "Je tiens",
    "refuse": "Je ne tiens pas",
    "raise": "Relancer",
    "deal": "Distribuer la main suivante",
}

STALE_VERSION = "La table a changé : voici la situation à jour."
NOT_SEATED = "Vous n'êtes pas assis à cette table."
NOT_HOST_DEAL = "Seul l'hôte de la table distribue la main suivante."
GENERIC_ILLEGAL = "Cette action n'est pas possible maintenant."
#: Reasons of the cancellations by the sweep (games.services.deadlines), in the log and shown
#: to players.
ABANDONED = "%(name)s n'est pas revenu à temps."
IDLE_GAME = "personne n'a joué pendant %(minutes)s minutes."

#: A French message for every IllegalAction code of the engine (games.engine.ILLEGAL_CODES).
#: Synonyms are listed so that the table never shows English whatever name the engine picks.
ILLEGAL_MESSAGES: dict[str, str] = {
    # whose turn
    "not_your_turn": "Ce n'est pas à vous de parler.",
    "not_to_act": "Ce n'est pas à vous de parler.",
    "wrong_seat": "Vous ne pouvez pas jouer à la place d'un autre joueur.",
    "bad_seat": "Vous ne pouvez pas jouer à la place d'un autre joueur.",
    "invalid_seat": "Vous ne pouvez pas jouer à la place d'un autre joueur.",
    # phase
    "wrong_phase": "Cette action n'est pas possible à ce moment de la main.",
    "not_allowed_now": "Cette action n'est pas possible à ce moment de la main.",
    "not_eligible": "Vous ne parlez pas à ce tour.",
    # malformed
    "malformed": "Action incompréhensible.",
    "malformed_action": "Action incompréhensible.",
    "bad_action": "Action incompréhensible.",
    "unknown_action": "Action inconnue.",
    "unknown_type": "Action inconnue.",
    # amounts
    "amount_out_of_range": "Montant hors limites : une mise va de 2 à 40 points.",
    "bad_amount": "Montant hors limites : une mise va de 2 à 40 points.",
    "raise_too_low": "Une relance doit dépasser la mise en cours.",
    "raise_not_above_stake": "Une relance doit dépasser la mise en cours.",
    "raise_not_higher": "Une relance doit dépasser la mise en cours.",
    "stake_is_ordago": "On ne relance pas un órdago : tenez-le ou refusez-le.",
    "cannot_raise_ordago": "On ne relance pas un órdago : tenez-le ou refusez-le.",
    # discards
    "card_not_held": "Vous n'avez pas cette carte en main.",
    "card_not_in_hand": "Vous n'avez pas cette carte en main.",
    "not_a_card": "Cette carte n'existe pas.",
    "unknown_card": "Cette carte n'existe pas.",
    "duplicate_cards": "Vous avez choisi deux fois la même carte.",
    "duplicate_card": "Vous avez choisi deux fois la même carte.",
    "wrong_discard_count": "Écartez de 1 à 4 cartes.",
    "bad_discard_count": "Écartez de 1 à 4 cartes.",
    "discard_count": "Écartez de 1 à 4 cartes.",
    "already_discarded": "Vous avez déjà choisi vos cartes à écarter.",
    # votes
    "betting_team_votes": "C'est l'équipe adverse qui répond à votre mise.",
    "bettor_cannot_vote": "C'est l'équipe adverse qui répond à votre mise.",
    "betting_team_cannot_vote": "C'est l'équipe adverse qui répond à votre mise.",
    "not_answering_team": "C'est l'équipe adverse qui répond à votre mise.",
    "already_voted": "Vous avez déjà répondu à cette mise.",
    "vote_twice": "Vous avez déjà répondu à cette mise.",
    "voted_twice": "Vous avez déjà répondu à cette mise.",
    # end of game, deal, randomness, setup
    "game_finished": "La partie est terminée.",
    "game_over": "La partie est terminée.",
    "partie_finished": "La partie est terminée.",
    "finished": "La partie est terminée.",
    "hand_not_over": "La main n'est pas terminée.",
    "no_randomness": "Impossible de distribuer : le jeu de cartes n'a pas pu être mélangé.",
    "bad_deck": "Jeu de cartes invalide.",
    "invalid_deck": "Jeu de cartes invalide.",
    "bad_kings": "Modalité inconnue : 4 ou 8 rois.",
    "bad_modality": "Modalité inconnue : 4 ou 8 rois.",
    "bad_mano": "Main (mano) invalide.",
    "bad_state": "État de la partie invalide.",
    "invalid_reshuffle": "Ordre de la nouvelle pioche invalide.",
    "invalid_argument": "Partie mal configurée : 4 ou 8 rois, et une main de 0 à 3.",
}


def card_rank(code: str) -> int:
    return int(code[:-1])


def card_suit(code: str) -> str:
    return code[-1]


def card_name(code: str) -> str:
    """Screen-reader name of a card: ``12c`` -> "Roi de coupes", ``11e`` -> "Cavalier d'épées"."""
    rank = RANK_NAMES[card_rank(code)]
    suit = SUIT_NAMES[card_suit(code)]
    joiner = "d'" if suit[0] in "aeéiou" else "de "
    return f"{rank} {joiner}{suit}"


def card_glyph(code: str) -> str:
    """Short visible rank of a card: "12", "1"..."""
    return RANK_GLYPHS[card_rank(code)]


def lance_name(lance: str | None) -> str:
    return LANCE_NAMES.get(lance or "", "")


def outcome_name(outcome: str | None) -> str:
    return OUTCOME_NAMES.get(outcome or "", outcome or "")


def cards_count(n: int) -> str:
    return f"{n} carte" if n == 1 else f"{n} cartes"


def word_text(word: dict) -> str:
    """What a public word says, without the speaker: "Mise 5", "Je tiens", "Paires : oui"."""
    kind = word.get("type")
    if kind == "bet":
        return f"Mise {word.get('amount')}"
    if kind == "raise":
        return f"Relance à {word.get('to')}"
    if kind == "discard":
        return f"écarte {cards_count(int(word.get('count', 0)))}"
    if kind == "declare":
        return f"{lance_name(word.get('lance'))} : {'oui' if word.get('has') else 'non'}"
    return ACTION_LABELS.get(kind or "", str(kind))


def word_sentence(word: dict, name: str) -> str:
    """A public word as a French sentence: "Ane : Mus", "Camille écarte 3 cartes"."""
    if word.get("type") == "discard":
        return f"{name} {word_text(word)}"
    return f"{name} : {word_text(word)}"


def illegal_message(code: str | None, params: dict | None = None) -> str:
    """French message for an engine IllegalAction code (a generic one for an unknown code)."""
    return ILLEGAL_MESSAGES.get(code or "", GENERIC_ILLEGAL)


def points(n: int) -> str:
    return f"{n} point" if n in (0, 1) else f"{n} points"
