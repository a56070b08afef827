"""« Signaler » on a quick phrase (docs/phrases.md): the partie, the hand and the phrase reach the
moderators' admin, read-only, and nobody else's."""

import pytest
from django.urls import reverse

from games.engine import SeededShuffler
from games.models import TablePhrase
from games.services import phrases
from moderation.models import PhraseReport
from tests.games.helpers import between_hands, play_until

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def reported(started_game, cast, login):
    game = play_until(started_game, between_hands, SeededShuffler(3))
    said = phrases.phrase_say(user=cast[1], table_id=game.table_id, phrase="laugh")
    url = reverse("games:phrase_report", args=[game.table_id])
    response = login(cast[0]).post(url, {"phrase": str(said.pk)}, headers=HTMX)
    assert response.status_code == 200
    return PhraseReport.objects.get()


def test_a_moderator_reads_the_reported_phrase_with_its_partie_and_hand(reported, mikel, login):
    page = login(mikel).get(reverse("admin:moderation_phrasereport_changelist"))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Ha ha !" in text and "bixente" in text and "ane" in text
    assert reverse("admin:games_game_change", args=[reported.game_id]) in text
    detail = login(mikel).get(reverse("admin:moderation_phrasereport_change", args=[reported.pk]))
    assert detail.status_code == 200
    assert str(reported.hand_number) in detail.content.decode()


def test_the_reports_are_read_only_and_hidden_from_staff_without_the_permission(
    reported, mikel, peio, login
):
    url = reverse("admin:moderation_phrasereport_change", args=[reported.pk])
    assert login(mikel).post(url, {}).status_code == 403
    assert login(peio).get(reverse("admin:moderation_phrasereport_changelist")).status_code == 403
    assert PhraseReport.objects.count() == 1 and TablePhrase.objects.count() == 1
