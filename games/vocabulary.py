"""French words of the table: cards, lances, outcomes, public words and error messages.

Plain Python (no database, no templates). Card codes are written rank then suit (``12o``,
``1c``, docs/rules.md §2); suits: oros ``o`` = deniers, copas ``c`` = coupes, espadas ``e`` = épées,
bastos ``b`` = bâtons. Ranks: 1 As ... 7 Sept, 10 Valet (sota), 11 Cavalier (caballo),
12 Roi (rey).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.utils.translation import gettext_lazy as _

from core.translations import gettext, in_language, language, ngettext
from games.engine import ActionType, Lance, Outcome, Phase, Word
from games.engine.types import LanceRecord

RANK_NAMES: dict[int, str] = {
    1: _("As"),
    2: _("Deux"),
    3: _("Trois"),
    4: _("Quatre"),
    5: _("Cinq"),
    6: _("Six"),
    7: _("Sept"),
    10: _("Valet"),
    11: _("Cavalier"),
    12: _("Roi"),
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

SUIT_NAMES: dict[str, str] = {
    "o": _("deniers"),
    "c": _("coupes"),
    "e": _("épées"),
    "b": _("bâtons"),
}

#: Spanish names of the suits (CSS class suffixes, never card codes).
SUIT_SLUGS: dict[str, str] = {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}

#: "au Grand", "aux Paires": a lance after "à" (a bet "au Grand", a win "aux Paires").
AT_LANCE: dict[Lance, str] = {
    "grand": _("au Grand"),
    "petit": _("au Petit"),
    "paires": _("aux Paires"),
    "jeu": _("au Jeu"),
    "point": _("au Point"),
}

LANCE_NAMES: dict[Lance, str] = {
    "grand": _("Grand"),
    "petit": _("Petit"),
    "paires": _("Paires"),
    "jeu": _("Jeu"),
    "point": _("Point"),
}

OUTCOME_NAMES: dict[Outcome, str] = {
    "paso": _("en paso"),
    "held": _("tenue"),
    "refused": _("refusée"),
    "unopposed": _("sans mise"),
    "ordago": _("órdago"),
    "none": _("pas jouées"),
}

#: The title of the lance-status region outside the lances (the lance names it inside them).
PHASE_NAMES: dict[Phase, str] = {
    "mus": _("Mus"),
    "discard": _("Écart"),
    "lance": _("Tours"),
    "hand_over": _("Fin de la main"),
    "finished": _("Partie terminée"),
}

#: Button labels of the decision panel and the words of the hand log, by action type.
ACTION_LABELS: dict[ActionType, str] = {
    "mus": _("Mus"),
    "cut": _("Je coupe"),
    "discard": _("Écarter"),
    "pass": _("Je passe"),
    "bet": _("Mise"),
    "ordago": _("Órdago"),
    "hold": _("Je tiens"),
    "refuse": _("Je ne tiens pas"),
    "raise": _("Relancer"),
    "deal": _("Distribuer la main suivante"),
}

STALE_VERSION = _("La table a changé : voici la situation à jour.")
NOT_SEATED = _("Vous n'êtes pas assis à cette table.")
NOT_HOST_DEAL = _("Seul l'hôte de la table distribue la main suivante.")
GENERIC_ILLEGAL = _("Cette action n'est pas possible maintenant.")
#: Reasons of the cancellations by the sweep (games.services.deadlines), in the log and shown
#: to players.
ABANDONED = _("%(name)s n'a pas rejoint la table à temps.")
#: A seat whose clock ran out CLOCK_MISSES_LIMIT decisions in a row (games.services.time_outs).
ABSENT_AT_TABLE = _("%(name)s n'a pas joué à temps %(count)d fois de suite.")
IDLE_GAME = _("personne n'a joué pendant %(minutes)s minutes.")
#: Why a partie ended, by the code stored in Game.end_reason ({"code": ..., its parameters}):
#: rendered in the reader's language when read, never stored in French.
END_REASONS = {
    "won": _("Partie gagnée."),
    "abandoned": ABANDONED,
    "absent": ABSENT_AT_TABLE,
    "idle": IDLE_GAME,
    "moderation": _("décision de la modération (%(reason)s)"),
    "excluded": _("%(name)s a été exclu par la modération (%(reason)s)"),
}


def end_reason(code: str, **params: object) -> dict[str, object]:
    """What Game.end_reason stores: a code of END_REASONS and its parameters (names, counts,
    a moderator's own words: data, not translated)."""
    assert code in END_REASONS, code
    return {"code": code, **params}


def end_reason_text(reason: object) -> str:
    """A stored end reason in the active language ("" for none); a text stored before the
    codes ({"code": "text"}) as it was written."""
    return coded_text(END_REASONS, reason)


def coded_text(words: dict, reason: object) -> str:
    """`reason` ({"code": ..., parameters}) rendered with its word of `words` in the active
    language; {"code": "text"} (a text stored before the codes) as it was written."""
    if not isinstance(reason, dict) or not reason:
        return str(reason or "")
    code = reason.get("code")
    if code == "text":
        return str(reason.get("text", ""))
    word = words.get(str(code))
    if word is None:
        return ""
    return in_language(word) % {k: v for k, v in reason.items() if k != "code"}


#: Why a revanche offer lapsed, by the code stored in Revanche.reason ({"code": ..., its
#: parameters}): shown to the four players, each in their own language.
REVANCHE_LAPSES = {
    "expired": _("personne n’a répondu à temps, l’offre a expiré."),
    "declined": _("%(name)s a décliné la revanche."),
    "seated_elsewhere": _(
        "la revanche n’a pas pu commencer : %(name)s est déjà assis à une autre table."
    ),
    "suspended": _("la revanche n’a pas pu commencer : le compte de %(name)s est suspendu."),
    "not_started": _("la revanche n’a pas pu commencer pour %(name)s."),
}


def revanche_lapse(code: str, **params: object) -> dict[str, object]:
    """What Revanche.reason stores: a code of REVANCHE_LAPSES and its parameters."""
    assert code in REVANCHE_LAPSES, code
    return {"code": code, **params}


def revanche_lapse_text(reason: object) -> str:
    """A stored lapse reason in the active language; a text stored before the codes as it was."""
    return coded_text(REVANCHE_LAPSES, reason)


#: The French message of each code the engine raises: exactly games.engine.ILLEGAL_CODES (a
#: test checks that the two sets are equal).
ILLEGAL_MESSAGES: dict[str, str] = {
    "game_finished": _("La partie est terminée."),
    "invalid_seat": _("Vous ne pouvez pas jouer à la place d'un autre joueur."),
    "unknown_action": _("Action inconnue."),
    "malformed_action": _("Action incompréhensible."),
    "wrong_phase": _("Cette action n'est pas possible à ce moment de la main."),
    "not_your_turn": _("Ce n'est pas à vous de parler."),
    "not_eligible": _("Vous ne parlez pas à ce tour."),
    "amount_out_of_range": _("Montant hors limites : une mise va de 2 à 40 points."),
    "raise_not_above_stake": _("Une relance doit dépasser la mise en cours."),
    "stake_is_ordago": _("On ne relance pas un órdago : tenez-le ou refusez-le."),
    "card_not_held": _("Vous n'avez pas cette carte en main."),
    "duplicate_cards": _("Vous avez choisi deux fois la même carte."),
    "wrong_discard_count": _("Écartez de 1 à 4 cartes."),
    "already_discarded": _("Vous avez déjà choisi vos cartes à écarter."),
    "betting_team_cannot_vote": _("C'est l'équipe adverse qui répond à votre mise."),
    "already_voted": _("Vous avez déjà répondu à cette mise."),
    "no_randomness": _("Impossible de distribuer : le jeu de cartes n'a pas pu être mélangé."),
    "invalid_deck": _("Jeu de cartes invalide."),
    "invalid_reshuffle": _("Ordre de la nouvelle pioche invalide."),
    "invalid_argument": _("Partie mal configurée : 4 ou 8 rois, et une main de 0 à 3."),
}


BET_WORD = _("Mise %(amount)s")
RAISE_WORD = _("Relance à %(to)s")
YES = _("oui")
NO = _("non")


def card_rank(code: str) -> int:
    return int(code[:-1])


def card_suit(code: str) -> str:
    return code[-1]


def card_name(code: str) -> str:
    """Screen-reader name of a card: ``12c`` -> "Roi de coupes", ``11e`` -> "Cavalier d'épées"."""
    names = {"rank": RANK_NAMES[card_rank(code)], "suit": SUIT_NAMES[card_suit(code)]}
    if str(names["suit"])[0] in "aeéiou":
        return gettext("%(rank)s d'%(suit)s") % names
    return gettext("%(rank)s de %(suit)s") % names


def card_glyph(code: str) -> str:
    """Short visible rank of a card: "12", "1"..."""
    return RANK_GLYPHS[card_rank(code)]


def lance_name(lance: Lance | None) -> str:
    return in_language(LANCE_NAMES[lance]) if lance else ""


def at_lance(lance: Lance | None) -> str:
    return in_language(AT_LANCE[lance]) if lance else ""


def answer_awaited(ours: bool) -> str:
    """Whose answer a bet waits for, said of the viewer's team or of the other one."""
    return (
        gettext("Réponse attendue de votre équipe.") if ours else gettext("Réponse attendue d’eux.")
    )


def outcome_name(outcome: Outcome) -> str:
    return in_language(OUTCOME_NAMES[outcome])


def action_label(kind: ActionType) -> str:
    return in_language(ACTION_LABELS[kind])


def word_text(word: Word) -> str:
    """What a public word says, without the speaker: "Mise 5", "Je tiens", "Paires : oui"."""
    kind = word["type"]
    if kind == "bet":
        return in_language(BET_WORD) % {"amount": word["amount"]}
    if kind == "raise":
        return in_language(RAISE_WORD) % {"to": word["to"]}
    if kind == "discard":
        count = word["count"]
        return ngettext("écarte %(count)s carte", "écarte %(count)s cartes", count) % {
            "count": count
        }
    if kind == "declare":
        answer = in_language(YES) if word.get("has") else in_language(NO)
        return labelled(lance_name(word.get("lance")), answer)
    return action_label(kind)


def word_sentence(word: Word, name: str) -> str:
    """A public word as a French sentence: "Ane : Mus", "Camille écarte 3 cartes". Its words
    around the speaker's name are written once per word and language (a hand's log says every
    word again at each version, for each team and language at the table); the names stay out
    of the cache's key, so a site's many tables and speakers share it."""
    get = word.get
    fields = (get("lance"), get("amount"), get("to"), get("count"), get("has"))
    before, after = _word_sentence(language(), word["type"], *fields)
    return f"{before}{name}{after}"


WordKey = tuple[str, str, Any, Any, Any, Any, Any]


def word_keys(words: list[Word], players: list[str]) -> list[WordKey]:
    """What `word_sentences` reads of each word, its speaker's name included: worked out once
    per version of a table, for all its readers."""
    return [
        (
            players[w["seat"]],
            w["type"],
            w.get("lance"),
            w.get("amount"),
            w.get("to"),
            w.get("count"),
            w.get("has"),
        )
        for w in words
    ]


def word_sentences(keys: list[WordKey]) -> list[str]:
    """`word_sentence` of each word of `word_keys`, in the active language: each (word, speaker)
    written once per language and kept, so the words already said cost a lookup each at the
    next versions (a hand's log says them all again at every version, per team and language)."""
    written = _sentences.get(language())
    if written is None or len(written) > SENTENCES_KEPT:
        written = _sentences[language()] = {}
    lines = list(map(written.get, keys))
    if None in lines:  # a word said since the last version (most often the last one)
        for index, line in enumerate(lines):
            if line is None:
                key = keys[index]
                before, after = _word_sentence(language(), *key[1:])
                lines[index] = written[key] = f"{before}{key[0]}{after}"
    return lines  # type: ignore[return-value]


#: word_sentences' sentences by language, then by WordKey (started again past SENTENCES_KEPT:
#: a few hundred tables' speakers and their words).
_sentences: dict[str | None, dict[WordKey, str]] = {}
SENTENCES_KEPT = 50_000


#: Where the speaker's name goes in a cached sentence (never in a name: names are printable).
_NAME = "\x00"


@lru_cache(maxsize=4096)
def _word_sentence(
    language: str | None,
    kind: str,
    lance: str | None,
    amount: int | None,
    to: int | None,
    count: int | None,
    has: bool | None,
) -> tuple[str, str]:
    """`word_sentence` in `language` (the active one: the cache's key) around the name, from
    every field of a word that `word_text` reads: the text before the name and after it."""
    word: dict = {"type": kind, "lance": lance, "amount": amount, "to": to, "count": count}
    word["has"] = has
    if kind == "discard":
        sentence = f"{_NAME} {word_text(word)}"  # type: ignore[arg-type]
    else:
        sentence = labelled(_NAME, word_text(word))  # type: ignore[arg-type]
    before, after = sentence.split(_NAME)
    return before, after


def labelled(label: str, text: str) -> str:
    """ "Ane : Mus", "Pares : no": the colon's spacing is each language's (French puts a space
    before it, the others do not), so it comes from the catalog."""
    return gettext("%(label)s : %(text)s") % {"label": label, "text": text}


def illegal_message(code: str | None, params: dict[str, object] | None = None) -> str:
    """French message for an engine IllegalAction code (a generic one for a code of the site's
    own, e.g. a deal by a seat that is not the host's)."""
    return str(ILLEGAL_MESSAGES.get(code or "", GENERIC_ILLEGAL))


def points(n: int) -> str:
    # French says "0 point": the source language's singular covers 0 and 1.
    return ngettext("%(n)s point", "%(n)s points", max(n, 1)) % {"n": n}


def ordago_win(lances: list[LanceRecord]) -> str:
    """How a partie ended by a held órdago was won, said beside its score: the score alone is
    below 40 and would read as a partie won at, say, 0 – 0. Empty for any other hand."""
    held = next((rec for rec in lances if rec["outcome"] == "ordago"), None)
    if held is None:
        return ""
    return gettext("gagnée sur un órdago tenu %(at_lance)s") % {"at_lance": at_lance(held["lance"])}
