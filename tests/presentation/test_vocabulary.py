import pytest
from django.utils import translation

from core import translations
from games import vocabulary


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ("12c", "Roi de coupes"),
        ("1o", "As de deniers"),
        ("11e", "Cavalier d'épées"),
        ("10b", "Valet de bâtons"),
        ("2c", "Deux de coupes"),
        ("7o", "Sept de deniers"),
        ("3e", "Trois d'épées"),
    ],
)
def test_card_names_in_french(code, name):
    assert vocabulary.card_name(code) == name


def test_every_card_of_the_deck_has_a_name_and_a_glyph():
    from games.engine import CARD_CODES

    names = {vocabulary.card_name(c) for c in CARD_CODES}
    assert len(names) == 40
    assert all(vocabulary.card_glyph(c) for c in CARD_CODES)


@pytest.mark.parametrize(
    ("word", "name", "sentence"),
    [
        ({"seat": 0, "type": "mus"}, "Ane", "Ane : Mus"),
        ({"seat": 1, "type": "cut"}, "Bixente", "Bixente : Je coupe"),
        ({"seat": 2, "type": "discard", "count": 3}, "Camille", "Camille écarte 3 cartes"),
        ({"seat": 2, "type": "discard", "count": 1}, "Camille", "Camille écarte 1 carte"),
        ({"seat": 3, "type": "pass", "lance": "grand"}, "Dani", "Dani : Je passe"),
        ({"seat": 3, "type": "bet", "lance": "grand", "amount": 5}, "Dani", "Dani : Mise 5"),
        ({"seat": 0, "type": "hold", "lance": "petit"}, "Ane", "Ane : Je tiens"),
        ({"seat": 0, "type": "refuse", "lance": "petit"}, "Ane", "Ane : Je ne tiens pas"),
        ({"seat": 1, "type": "raise", "lance": "jeu", "to": 10}, "Bix", "Bix : Relance à 10"),
        ({"seat": 1, "type": "ordago", "lance": "jeu"}, "Bix", "Bix : Órdago"),
        ({"seat": 1, "type": "declare", "lance": "paires", "has": True}, "B", "B : Paires : oui"),
        ({"seat": 1, "type": "declare", "lance": "jeu", "has": False}, "B", "B : Jeu : non"),
    ],
)
def test_public_words_as_french_sentences(word, name, sentence):
    assert vocabulary.word_sentence(word, name) == sentence


def test_lances_and_outcomes():
    assert [vocabulary.lance_name(x) for x in ("grand", "petit", "paires", "jeu", "point")] == [
        "Grand",
        "Petit",
        "Paires",
        "Jeu",
        "Point",
    ]
    outcomes = ("paso", "held", "refused", "unopposed", "ordago", "none")
    expected = ["en paso", "tenue", "refusée", "sans mise", "órdago", "pas jouées"]
    assert [vocabulary.outcome_name(o) for o in outcomes] == expected


def test_one_french_message_per_code_the_engine_raises():
    from games.engine import ILLEGAL_CODES

    assert set(vocabulary.ILLEGAL_MESSAGES) == ILLEGAL_CODES
    for code in ILLEGAL_CODES:
        assert vocabulary.illegal_message(code) != vocabulary.GENERIC_ILLEGAL


def test_a_title_for_every_phase_of_the_contract():
    from typing import get_args

    from games.engine import Phase

    assert set(vocabulary.PHASE_NAMES) == set(get_args(Phase))


def test_unknown_code_gets_a_generic_french_message():
    assert vocabulary.illegal_message("no_such_code") == vocabulary.GENERIC_ILLEGAL
    assert vocabulary.illegal_message(None) == vocabulary.GENERIC_ILLEGAL


def test_site_messages():
    assert vocabulary.STALE_VERSION.startswith("La table a changé")
    assert vocabulary.NOT_SEATED == "Vous n'êtes pas assis à cette table."


def test_a_translated_word_is_its_own_lazy_strings_in_the_active_language():
    from django.utils import translation
    from django.utils.translation import gettext_lazy

    for n in range(50):  # short-lived lazy strings, whose ids the next ones may take
        assert translations.in_language(gettext_lazy(f"mot {n}")) == f"mot {n}"
    with translation.override("de"), translations.one_language():
        assert translations.language() == "de"
        assert vocabulary.lance_name("grand") == str(vocabulary.LANCE_NAMES["grand"])
    assert translations.language() == translation.get_language()


def test_a_word_sentence_is_in_the_language_active_when_it_is_asked_for():
    """Written once per word, speaker and language (a cache): never another language's."""
    word = {"seat": 0, "type": "hold", "lance": "grand"}
    with translation.override("es"):
        spanish = vocabulary.word_sentence(word, "Ane")
    french = vocabulary.word_sentence(word, "Ane")
    with translation.override("es"), translations.one_language():
        again = vocabulary.word_sentence(word, "Ane")
    assert french == "Ane : Je tiens"
    assert spanish != french and again == spanish
