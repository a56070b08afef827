"""A table of four players in four languages: every push and every answer, the whole partie
long, is in its reader's language only. The words looked for are the catalogs' own: for each
marker msgid, the other languages' translations that the reader's language does not also use
(tests/languages.py would be the place if a second module needed them)."""

import html
import re

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import broadcast, vocabulary
from games.engine import SeededShuffler
from games.engine.random_play import DEFAULT_WEIGHTS
from games.models import Game
from games.services import play
from tests.games.helpers import HTMX, form_data, next_move, start_game
from tests.sockets import connect, connect_table, receive_version

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = ["fr", "es", "eu", "en"]  # ane, bixente, camille, dani
# Bets and answers but no órdago: a partie of several hands, to 40.
SEVERAL_HANDS = dict(DEFAULT_WEIGHTS, ordago=0, ordago_vote=0)
# Words the table and the salle show at every turn or at the end, whose translations differ.
MARKERS = [
    "Mes cartes",
    "Ma décision",
    "Tour en cours",
    "Les joueurs",
    "Déroulé de la main",
    "Score",
    "Nous",
    "Eux",
    "Grand",
    "Petit",
    "Paires",
    "Point",
    "Je tiens",
    "Je passe",
    "Je coupe",
    "Mise",
    "Mélange vérifiable",
    "Score final :",
    "Retour à la salle",
    "Revanche",
    "Salle",
    "Tables ouvertes",
    "Règles",
    "Vous n'êtes pas assis à cette table.",
]


def forbidden_words() -> dict[str, list[re.Pattern]]:
    """For each language, the other languages' words it must never show."""
    texts = {}
    for language in LANGUAGES:
        with translation.override(language):
            texts[language] = {m: translation.gettext(m) for m in MARKERS}
    found = {}
    for language in LANGUAGES:
        own = " ".join(texts[language].values())
        words = set()
        for other in LANGUAGES:
            for marker in MARKERS:
                word = texts[other][marker]
                if other == language or len(word) < 4:
                    continue
                if not re.search(rf"(?<!\w){re.escape(word)}(?!\w)", own):
                    words.add(word)
        found[language] = [re.compile(rf"(?<!\w){re.escape(w)}(?!\w)") for w in sorted(words)]
    return found


def foreign(payload: str, patterns: list[re.Pattern]) -> list[str]:
    text = html.unescape(payload)
    return [p.pattern for p in patterns if p.search(text)]


@pytest.fixture
def four_languages(cast):
    for user, language in zip(cast, LANGUAGES, strict=True):
        user.language = language
        user.save(update_fields=["language"])
    return cast


def test_the_markers_tell_the_four_languages_apart():
    words = forbidden_words()
    for language in LANGUAGES:
        assert len(words[language]) >= 20, (language, words[language])


CLIENTS: dict[int, Client] = {}


@database_sync_to_async
def post_as(user, table_id, data):
    client = CLIENTS.get(user.pk)
    if client is None or client.session.get("_auth_user_id") != str(user.pk):
        client = CLIENTS[user.pk] = Client()
        client.force_login(user)
    return client.post(reverse("games:act", args=[table_id]), data, headers=HTMX)


@database_sync_to_async
def fresh(game):
    game.refresh_from_db()
    return game


async def test_four_players_in_four_languages_each_read_only_their_own(full_table, four_languages):
    cast = four_languages
    words = forbidden_words()
    game = await database_sync_to_async(start_game)(full_table, first_mano=2)
    sockets, seen = [], {seat: [] for seat in range(4)}
    for seat, user in enumerate(cast):
        communicator, connected = await connect_table(user, game.table_id)
        assert connected
        seen[seat].append(await communicator.receive_from(timeout=5))
        sockets.append(communicator)
    rng = SeededShuffler(4)
    for _ in range(3000):
        if game.status != Game.Status.PLAYING:
            break
        seat, action = next_move(game, rng, SEVERAL_HANDS)
        response = await post_as(cast[seat], game.table_id, form_data(game.version, action))
        assert response.status_code == 200
        seen[seat].append(response.content.decode())
        game = await fresh(game)
        for other, communicator in enumerate(sockets):
            seen[other].append(await receive_version(communicator, game.state["version"]))
    assert game.status == Game.Status.FINISHED and game.state["hand_number"] >= 2
    # A stale decision's refusal, in the reader's language too.
    for seat, user in enumerate(cast):
        refused = await post_as(user, game.table_id, form_data(0, {"type": "pass"}))
        seen[seat].append(refused.content.decode())
    for communicator in sockets:
        await communicator.disconnect()
    for seat, payloads in seen.items():
        language = LANGUAGES[seat]
        assert len(payloads) > 20  # the deal varies with the seats' seeds: a partie of 2+ hands
        for payload in payloads:
            assert foreign(payload, words[language]) == [], (language, payload)
        with translation.override(language):
            assert translation.gettext("Score final :") in html.unescape(payloads[-2])


async def test_a_cancelled_partie_tells_each_player_why_in_their_language(
    started_game, four_languages
):
    sockets = []
    for user in four_languages:
        communicator, connected = await connect_table(user, started_game.table_id)
        assert connected
        await communicator.receive_from(timeout=5)
        sockets.append(communicator)
    await database_sync_to_async(_cancel_abandoned)(started_game)
    for language, communicator in zip(LANGUAGES, sockets, strict=True):
        payload = html.unescape(await communicator.receive_from(timeout=5))
        with translation.override(language):
            reason = translation.gettext("%(name)s n'a pas rejoint la table à temps.") % {
                "name": "dani"
            }
        assert reason in payload, (language, payload)
        await communicator.disconnect()


def _cancel_abandoned(game):
    reason = vocabulary.end_reason("abandoned", name="dani")
    play.game_finish(game=game, status=Game.Status.CANCELLED, reason=reason)


async def test_the_salle_pushes_each_player_their_language(four_languages):
    words = forbidden_words()
    sockets = []
    for user in four_languages:
        communicator, connected = await connect(user)
        assert connected
        await communicator.receive_from(timeout=5)
        sockets.append(communicator)
    await database_sync_to_async(broadcast.salle_changed)()
    for language, communicator in zip(LANGUAGES, sockets, strict=True):
        payload = await communicator.receive_from(timeout=5)
        assert foreign(payload, words[language]) == [], (language, payload)
        await communicator.disconnect()


def test_a_visitors_socket_language_is_their_browsers():
    from core.translations import reader_language

    assert reader_language(None, {"accept-language": "eu-ES,eu;q=0.9"}) == "eu"
    assert reader_language(None, {"accept-language": "de"}) == settings.LANGUAGE_CODE
    cookie = f"{settings.LANGUAGE_COOKIE_NAME}=es; sessionid=x"
    assert reader_language(None, {"cookie": cookie, "accept-language": "en"}) == "es"
