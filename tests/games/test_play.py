"""Live play's services: the game dealt at start, decisions under the row lock, the one way a
game ends, the append-only log and the replay invariant."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.utils import DatabaseError

from games.engine import CARD_CODES, SeededShuffler
from games.models import Game, GameAction, GameSeat, Seat, Table
from games.services import errors, play
from tests.games.helpers import LONG_PLAY, next_move, replayed, start_game

pytestmark = pytest.mark.django_db


def user_at(game, seat):
    return game.seats.get(number=seat).user


def apply(game, seat, action):
    return play.game_apply_action(
        game_id=game.pk, user=user_at(game, seat), version=game.version, action=action
    )


def play_random(game, rng, *, actions, weights=None):
    for _ in range(actions):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        seat, action = next_move(game, rng, weights)
        apply(game, seat, action)
    game.refresh_from_db()
    return game


def snapshot(game):
    game.refresh_from_db()
    return game.state, game.version, game.status, GameAction.objects.filter(game=game).count()


def test_start_deals_a_game_with_the_four_seats(cast, full_table):
    game = start_game(full_table, first_mano=2)
    assert game.status == "playing" and game.version == 0 and game.kings == 4
    assert game.state["first_mano"] == 2
    assert sorted(game.state["decks"][0]) == sorted(CARD_CODES)
    assert [(s.number, s.user) for s in game.seats.order_by("number")] == list(enumerate(cast))
    assert Table.objects.get(pk=full_table.pk).status == "playing"


def test_the_site_draws_mano_and_deck_itself(full_table, monkeypatch):
    from games.services.salle import table_start

    table_start(user=full_table.host, table_id=full_table.pk)
    game = Game.objects.get()
    assert game.state["first_mano"] in range(4)
    assert len(game.state["decks"]) == 1


def test_an_action_advances_the_version_and_logs_it(started_game):
    started_game = apply(started_game, 0, {"type": "mus"})
    assert started_game.version == 1 == started_game.state["version"]
    row = GameAction.objects.get(game=started_game)
    assert (row.seq, row.seat, row.kind, row.payload) == (1, 0, "play", {"type": "mus"})
    assert started_game.last_action_at >= started_game.created


def test_stale_version_is_refused_and_changes_nothing(started_game, ane):
    apply(started_game, 0, {"type": "mus"})
    before = snapshot(started_game)
    with pytest.raises(errors.StaleVersion) as raised:
        play.game_apply_action(game_id=started_game.pk, user=ane, version=0, action={"type": "mus"})
    assert raised.value.status == 409 and "La table a changé" in raised.value.message
    assert snapshot(started_game) == before


def test_illegal_action_is_refused_in_french(started_game, bixente):
    before = snapshot(started_game)
    with pytest.raises(errors.IllegalMove) as raised:
        play.game_apply_action(
            game_id=started_game.pk, user=bixente, version=0, action={"type": "mus"}
        )
    assert raised.value.status == 422
    assert raised.value.message == "Ce n'est pas à vous de parler."
    assert snapshot(started_game) == before


def test_a_player_from_elsewhere_is_refused(full_table, make_user):
    game = start_game(full_table)
    with pytest.raises(errors.NotSeated) as raised:
        play.game_apply_action(
            game_id=game.pk, user=make_user("eneko"), version=0, action={"type": "mus"}
        )
    assert raised.value.status == 403
    with pytest.raises(errors.NotSeated):
        play.game_apply_action(
            game_id=game.pk + 1000, user=user_at(game, 0), version=0, action={"type": "mus"}
        )


def test_a_decision_finds_the_game_by_its_table(full_table, ane, make_user):
    game = start_game(full_table, first_mano=0)
    played = play.game_apply_action(
        table_id=full_table.pk, user=ane, version=0, action={"type": "mus"}
    )
    assert played.pk == game.pk and played.version == 1
    assert GameAction.objects.get(game=game).payload == {"type": "mus"}
    other = Table.objects.create(host=make_user("eneko"), kings=4)
    for table_id in (other.pk, other.pk + 1000):  # a table without a game, no table at all
        with pytest.raises(errors.NotSeated):
            play.game_apply_action(table_id=table_id, user=ane, version=1, action={"type": "mus"})
    assert snapshot(game)[1:] == (1, "playing", 1)


def test_a_decision_names_its_game_one_way_only(full_table, ane):
    game = start_game(full_table, first_mano=0)
    for ids in ({}, {"game_id": game.pk, "table_id": full_table.pk}):
        with pytest.raises(TypeError):
            play.game_apply_action(user=ane, version=0, action={"type": "mus"}, **ids)
    assert snapshot(game)[1:] == (0, "playing", 0)


def test_cancel_ends_the_game_frees_the_seats_and_logs_who(full_table, make_user):
    game = start_game(full_table)
    moderator = make_user("modo")
    play.game_finish(game=game, status="cancelled", reason="Abandon de dani.", by=moderator)
    game.refresh_from_db()
    assert (game.status, game.winning_team) == ("cancelled", None)
    assert game.end_reason_text == "Abandon de dani."
    assert game.finished_at is not None and game.version == 1
    end = GameAction.objects.get(game=game)
    assert (end.seq, end.kind, end.seat) == (1, "end", None)
    reason = {"code": "text", "text": "Abandon de dani."}
    assert end.payload == {"status": "cancelled", "reason": reason, "by": moderator.pk}
    assert set(GameSeat.objects.values_list("result", flat=True)) == {"cancelled"}
    assert Table.objects.get(pk=full_table.pk).status == "closed"
    assert not Seat.objects.filter(active=True).exists()
    # idempotent, and no decision is taken any more
    play.game_finish(game=game, status="cancelled", reason="encore", by=None)
    assert GameAction.objects.filter(game=game).count() == 1
    with pytest.raises(errors.GameOver) as raised:
        apply(game, 0, {"type": "mus"})
    assert raised.value.message == "La partie est terminée."


def test_only_the_engine_finishes_a_partie(full_table):
    game = start_game(full_table)
    with pytest.raises(ValueError):
        play.game_finish(game=game, status="finished", reason="", by=None)
    with pytest.raises(ValueError):
        play.game_finish(game=game, status="playing", reason="", by=None)


def test_a_whole_partie_ends_with_results_and_replays_exactly(full_table, cast):
    game = start_game(full_table, first_mano=1)
    game = play_random(game, SeededShuffler(7), actions=5000)
    assert game.status == "finished" and game.state["status"] == "finished"
    assert game.winning_team == game.state["winner"] in (0, 1)
    results = dict(GameSeat.objects.values_list("number", "result"))
    for seat in range(4):
        assert results[seat] == ("won" if seat % 2 == game.winning_team else "lost")
    assert Table.objects.get(pk=full_table.pk).status == "closed"
    assert not Seat.objects.filter(active=True).exists()

    rows = list(GameAction.objects.filter(game=game).order_by("seq"))
    assert [r.seq for r in rows] == list(range(1, game.version + 1))
    assert [r.kind for r in rows[-1:]] == ["end"] and rows[-1].payload["status"] == "finished"
    assert rows[-2].seq == game.state["version"] == game.version - 1
    assert replayed(game) == game.state


def test_replay_invariant_holds_mid_partie(full_table):
    """Mid-partie, after the pioche was rebuilt from the discards (mus said almost always)."""
    game = start_game(full_table, first_mano=3)
    rng, weights = SeededShuffler(11), dict(LONG_PLAY, mus=95)
    while not game.state["reshuffles"] and game.status == Game.Status.PLAYING:
        game = play_random(game, rng, actions=10, weights=weights)
    assert game.state["reshuffles"]
    game = play_random(game, rng, actions=5, weights=weights)
    assert replayed(game) == game.state


def test_the_log_is_append_only_in_the_database(full_table):
    game = start_game(full_table)
    apply(game, 0, {"type": "mus"})
    for statement in ("UPDATE games_gameaction SET seat = 3", "DELETE FROM games_gameaction"):
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(statement)
    with pytest.raises(DatabaseError), transaction.atomic():
        GameAction.objects.filter(game=game).update(payload={"type": "cut"})
    assert GameAction.objects.get(game=game).payload == {"type": "mus"}


def test_one_seq_per_game(full_table):
    game = start_game(full_table)
    apply(game, 0, {"type": "mus"})
    with pytest.raises(IntegrityError), transaction.atomic():
        GameAction.objects.create(game=game, seq=1, seat=1, payload={"type": "mus"})


def test_only_the_host_deals_the_next_hand(cast, started_game):
    """The engine lets any seat deal; the site's host alone does (a forged POST from another
    seat is refused in French and changes nothing)."""
    rng = SeededShuffler(7)
    while started_game.state["status"] == "playing":
        seat, action = next_move(started_game, rng, LONG_PLAY)
        started_game = apply(started_game, seat, action)
    assert started_game.state["status"] == "hand_over"
    before = snapshot(started_game)
    for seat in (1, 2, 3):
        with pytest.raises(errors.IllegalMove) as refused:
            apply(started_game, seat, {"type": "deal"})
        assert refused.value.message == "Seul l'hôte de la table distribue la main suivante."
    assert snapshot(started_game) == before
    dealt = apply(started_game, 0, {"type": "deal"})  # ane, the host, at seat 0
    assert dealt.state["hand_number"] == 2
