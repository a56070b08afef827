"""Rejouer with an id that is no game is a 404."""

import logging

import pytest
from django.urls import reverse

from moderation.models import StaffAction

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("object_id", ["abc", "1.5", "99999999999999999999999", "424242"])
def test_rejouer_of_an_id_that_is_no_game_is_a_404(mikel, login, object_id, caplog):
    url = reverse("admin:games_game_replay", args=[object_id])
    response = login(mikel).get(url)
    assert response.status_code == 404
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert not StaffAction.objects.exists()
