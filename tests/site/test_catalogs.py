"""The catalogs of the languages other than French are whole and current: a string the code marks
but a catalog lacks, or leaves untranslated or fuzzy, would show French on a Spanish, Basque or
English page. The translators fill new msgids after a change (docs/languages.md): until then the
first two tests here fail on purpose, naming the entries to translate."""

import gettext as python_gettext
import os
import re
import subprocess
from pathlib import Path

import django
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings
from django.utils import translation

BASE = Path(settings.BASE_DIR)
LOCALE = BASE / "locale"
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
# The project's folders makemessages reads (as `make messages` runs it, tests/ left out).
SOURCES = ["accounts", "core", "games", "moderation", "musweb", "pairs", "records", "templates"]

ENTRY = re.compile(r"^(#~ )?msgid ", re.M)


def po_entries(path: Path) -> list[dict]:
    """The live (not obsolete) entries of a .po file, header left out: msgid (with its
    msgctxt, as "context\\x04msgid"), whether fuzzy, whether every msgstr is filled."""
    entries = []
    for block in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
        lines = [line for line in block.splitlines() if line.strip()]
        if not lines or all(line.startswith("#") for line in lines):
            continue
        fields: dict[str, str] = {}
        key = None
        for line in lines:
            if line.startswith("#"):
                continue
            match = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) "(.*)"$', line)
            if match:
                key = match.group(1)
                fields[key] = _unquote(match.group(2))
            elif line.startswith('"') and key:
                fields[key] += _unquote(line[1:-1])
        if not fields.get("msgid"):
            continue
        msgstrs = [value for name, value in fields.items() if name.startswith("msgstr")]
        context = fields.get("msgctxt")
        entries.append(
            {
                "msgid": f"{context}\x04{fields['msgid']}" if context else fields["msgid"],
                "fuzzy": any(line.startswith("#,") and "fuzzy" in line for line in lines),
                "translated": bool(msgstrs) and all(msgstrs),
            }
        )
    return entries


def _unquote(text: str) -> str:
    return text.encode("latin-1", "backslashreplace").decode("unicode_escape")


def catalog(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "django.po"


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_catalog_has_an_untranslated_or_fuzzy_entry(language):
    """Fails after new msgids until the translators fill them (docs/languages.md)."""
    entries = po_entries(catalog(language))
    assert len(entries) > 900
    unfinished = [e["msgid"] for e in entries if e["fuzzy"] or not e["translated"]]
    assert unfinished == [], f"{language}: to translate (or confirm, if fuzzy): {unfinished}"


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> set[str]:
    """The msgids the code marks, by the project's own makemessages (with the Jinja blocks) run
    on a copy of the tree made of links, into an empty locale folder."""
    root = tmp_path_factory.mktemp("extraction")
    for name in SOURCES:
        os.symlink(BASE / name, root / name)
    (root / "locale").mkdir()
    here = os.getcwd()
    os.chdir(root)
    try:
        with override_settings(LOCALE_PATHS=[root / "locale"]):
            call_command(
                "makemessages",
                locale=["xx"],
                symlinks=True,
                no_location=True,
                ignore_patterns=["staticfiles", "tests"],
                verbosity=0,
            )
    finally:
        os.chdir(here)
    return {e["msgid"] for e in po_entries(root / "locale" / "xx" / "LC_MESSAGES" / "django.po")}


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_marked_string_is_in_each_catalog(extracted, language):
    """Fails after new msgids until `make messages` adds them (docs/languages.md)."""
    assert len(extracted) > 900
    # The Jinja {% trans %} blocks are among them (Django's extractor alone misses them).
    assert "%(name)s a perdu la connexion." in extracted
    known = {e["msgid"] for e in po_entries(catalog(language))}
    missing = sorted(extracted - known)
    assert missing == [], f"{language}: run `make messages`; missing msgids: {missing}"


def test_the_catalogs_are_compiled_from_their_current_sources():
    for language in TRANSLATED:
        compiled = catalog(language).with_suffix(".mo")
        assert compiled.exists(), f"{compiled} missing: run `make install`"
        assert compiled.stat().st_mtime >= catalog(language).stat().st_mtime, (
            f"{compiled} is older than its .po: run `make install`"
        )


# Key Mus terms (the glossaries, docs/glossary/<language>.md): French msgid -> the word.
GLOSSARY = {
    "es": {
        "Grand": "Grande",
        "Petit": "Chica",
        "Paires": "Pares",
        "Jeu": "Juego",
        "Point": "Punto",
        "órdago": "órdago",
        "Mise": "Envido",
        "Je tiens": "Quiero",
        "Je ne tiens pas": "No quiero",
        "Je coupe": "No hay mus",
    },
    "eu": {
        "Grand": "Handia",
        "Petit": "Txikia",
        "Paires": "Pareak",
        "Jeu": "Jokoa",
        "Point": "Puntua",
        "órdago": "hordago",
        "Mise": "Inbido",
        "Je tiens": "Iduki",
    },
    "en": {
        "Grand": "Grande",
        "Petit": "Chica",
        "Paires": "Pares",
        "Jeu": "Juego",
        "Point": "Punto",
        "órdago": "órdago",
    },
}


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_game_words_are_the_glossary_words(language):
    terms = GLOSSARY[language]
    glossary = (BASE / "docs" / "glossary" / f"{language}.md").read_text(encoding="utf-8")
    with translation.override(language):
        for french, word in terms.items():
            assert translation.gettext(french) == word, (language, french)
            assert word.lower() in glossary.lower(), (language, word)


def test_the_projects_basque_wins_over_djangos_own_catalogs():
    """Django's eu catalogs lack "Set password" (auth, admin) and leave "Not empty" (admin)
    untranslated: the project's contrib-gaps.po, compiled into its eu catalog, supplies them."""
    django_dir = Path(django.__file__).parent
    for app, msgid in [("contrib/auth", "Set password"), ("contrib/admin", "Not empty")]:
        own = python_gettext.translation("django", django_dir / app / "locale", ["eu"])
        assert own.gettext(msgid) == msgid
    with translation.override("eu"):
        assert translation.gettext("Set password") == "Ezarri pasahitza"
        assert translation.gettext("Not empty") == "Ez hutsik"
        # Django's own Basque still answers where it has a translation.
        assert translation.gettext("Password") == "Pasahitza"


def test_the_admin_javascript_gets_the_projects_basque(client, django_user_model):
    admin = django_user_model.objects.create_superuser("zuzendaria", password="x" * 12)
    client.force_login(admin)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "eu"
    answer = client.get("/admin/jsi18n/")
    assert answer.status_code == 200
    assert "Aukeratu %s guztiak" in answer.content.decode()


def test_compiling_needs_gettext():
    assert subprocess.run(["msgfmt", "--version"], capture_output=True).returncode == 0
