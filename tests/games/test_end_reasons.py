"""Why a partie ended is stored as a code and its parameters, and read in the reader's
language; the French texts stored before the codes are read back into codes."""

import importlib

import pytest
from django.utils import translation

from games import vocabulary
from games.models import Game, GameAction
from games.services import deadlines

migration = importlib.import_module("games.migrations.0015_end_reason_codes")


@pytest.mark.django_db
def test_a_cancellation_stores_a_code_and_each_reader_reads_it_in_their_language(started_game):
    seat = started_game.seats.get(number=3)
    seat.deadline = seat.game.last_action_at
    seat.save(update_fields=["deadline"])
    deadlines.game_cancel_if_abandoned(seat_id=seat.pk)
    game = Game.objects.get(pk=started_game.pk)
    assert game.end_reason == {"code": "abandoned", "name": "dani"}
    end = GameAction.objects.get(game=game, kind=GameAction.Kind.END)
    assert end.payload["reason"] == {"code": "abandoned", "name": "dani"}
    with translation.override("fr"):
        assert game.end_reason_text == "dani n'a pas rejoint la table à temps."
    with translation.override("es"):
        assert game.end_reason_text not in ("", "dani n'a pas rejoint la table à temps.")
        assert "dani" in game.end_reason_text


@pytest.mark.parametrize(
    ("code", "params"),
    [
        ("won", {}),
        ("abandoned", {"name": "dani"}),
        ("absent", {"name": "Ane B.", "count": 3}),
        ("idle", {"minutes": "30"}),
        ("moderation", {"reason": "insultes (répétées)"}),
        ("excluded", {"name": "dani", "reason": "triche"}),
    ],
)
def test_the_french_texts_stored_before_read_back_into_their_codes(code, params):
    with translation.override("fr"):
        french = vocabulary.end_reason_text(vocabulary.end_reason(code, **params))
    assert migration.as_code(french) == {"code": code, **params}


def test_any_other_stored_text_is_kept_as_written():
    assert migration.as_code("Abandon de dani.") == {"code": "text", "text": "Abandon de dani."}
    assert migration.as_code("") == {}
    assert vocabulary.end_reason_text({"code": "text", "text": "Abandon de dani."}) == (
        "Abandon de dani."
    )
