"""The site's French: "aux Paires", "d'eux", messages that fit everyone, one name per thing
("salle", "Nom de joueur", « Je coupe »)."""

import re
from pathlib import Path

from games import vocabulary

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [
    *ROOT.glob("templates/**/*.html"),
    *ROOT.glob("templates/**/*.txt"),
    *(
        p
        for app in ("accounts", "games", "moderation", "musweb")
        for p in ROOT.glob(f"{app}/**/*.py")
    ),
]
#: Words that were wrong, and why.
WRONG = {
    r"\bsalon\b": "the room where tables are is the « salle »",
    r"s['’]est déconnecté\b": "assumes a man",
    r"n['’]est pas revenu\b": "assumes a man",
    r"\bau %\(lance\)s": "« aux Paires »: the article depends on the lance (vocabulary.at_lance)",
    r"attendue de %\(team\)s": "« d'eux », not « de Eux » (vocabulary.answer_awaited)",
    r"[Nn]om d['’]utilisateur": "the site says « Nom de joueur »",
}


def test_the_article_of_each_lance():
    assert [vocabulary.at_lance(lance) for lance in vocabulary.LANCE_NAMES] == [
        "au Grand",
        "au Petit",
        "aux Paires",
        "au Jeu",
        "au Point",
    ]


def test_whose_answer_is_awaited():
    assert vocabulary.answer_awaited(False) == "Réponse attendue d’eux."
    assert vocabulary.answer_awaited(True) == "Réponse attendue de votre équipe."


def test_the_cancellation_of_an_absent_player_fits_everyone():
    assert vocabulary.ABANDONED % {"name": "dani"} == "dani n'a pas rejoint la table à temps."


def test_the_cut_is_said_as_it_is_spoken():
    assert vocabulary.action_label("cut") == "Je coupe"
    assert vocabulary.word_sentence({"seat": 1, "type": "cut"}, "Bixente") == "Bixente : Je coupe"


def wrong_words(paths) -> list[str]:
    found = []
    for path in paths:
        text = path.read_text()
        for pattern, why in WRONG.items():
            for match in re.finditer(pattern, text):
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{path.relative_to(ROOT)}:{line}: {match.group(0)!r} ({why})")
    return found


def test_no_wrong_word_left():
    assert wrong_words(SOURCES) == []
