"""Presence and abandonment services, called directly (the Celery tasks and the sockets only
call these): who is away, the deadline, and the one guarded cancellation."""

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games.display import fragments
from games.live import heartbeats
from games.models import Game, GameAction, GameSeat, SeatConnection, Table, WebProcess
from games.services import deadlines, presence, salle, sweep

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_broker():
    """The countdown task is enqueued by name on commit; here it is only recorded."""
    with mock.patch("games.services.deadlines.current_app") as app:
        yield app.send_task


def seat_of(game, user) -> GameSeat:
    return GameSeat.objects.get(game=game, user=user)


def connect(game, user, channel):
    return presence.seat_connect(game_id=game.pk, user=user, channel_name=channel)


def away(game, user, *, channel="dani-1", ago=0.0):
    """`user` connected once, then left `ago` seconds ago (the deadline may have passed)."""
    connect(game, user, channel)
    return presence.seat_disconnect(
        channel_name=channel, now=timezone.now() - timedelta(seconds=ago)
    )


def end_rows(game):
    return list(GameAction.objects.filter(game=game, kind=GameAction.Kind.END))


def test_connect_records_the_socket_and_bumps_the_epoch(started_game, dani):
    assert connect(started_game, dani, "a")
    assert connect(started_game, dani, "b")
    seat = seat_of(started_game, dani)
    assert seat.presence_epoch == 2 and seat.deadline is None
    assert set(seat.connections.values_list("channel_name", flat=True)) == {"a", "b"}


def test_last_socket_closing_opens_the_absence_and_schedules_the_check(
    started_game, dani, settings, no_broker, django_capture_on_commit_callbacks
):
    settings.SEAT_GRACE_SECONDS = 60
    connect(started_game, dani, "a")
    before = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        deadline = presence.seat_disconnect(channel_name="a")
    seat = seat_of(started_game, dani)
    assert seat.deadline == deadline and seat.away_since >= before
    assert timedelta(seconds=59) < deadline - before < timedelta(seconds=61)
    no_broker.assert_called_once_with(
        "games.tasks.cancel_if_abandoned", args=(seat.pk, seat.presence_epoch), eta=deadline
    )


def test_two_tabs_one_closed_no_countdown(started_game, dani, no_broker):
    connect(started_game, dani, "tab-1")
    connect(started_game, dani, "tab-2")
    assert presence.seat_disconnect(channel_name="tab-1") is None
    assert seat_of(started_game, dani).deadline is None
    assert not no_broker.called


def dead_process(channel: str, *, silent_for: float) -> str:
    """Move `channel`'s row to a web process last heard from `silent_for` seconds ago."""
    server = f"dead-host:1:{channel}"
    last_seen = timezone.now() - timedelta(seconds=silent_for)
    WebProcess.objects.create(id=server, started_at=last_seen, last_seen=last_seen)
    SeatConnection.objects.filter(channel_name=channel).update(server=server)
    return server


def test_a_socket_of_a_dead_web_process_does_not_hold_the_seat(started_game, dani, settings):
    """A web process that died leaves its rows behind: the last live tab closing opens the
    absence at once, instead of when the dead row's heartbeats lapse."""
    settings.WEB_PROCESS_LIMIT_SECONDS = 15
    connect(started_game, dani, "on-dead-process")
    connect(started_game, dani, "live-tab")
    dead_process("on-dead-process", silent_for=16)
    before = timezone.now()
    assert presence.seat_disconnect(channel_name="live-tab") is not None
    assert seat_of(started_game, dani).away_since >= before  # the live tab closed just now
    assert not SeatConnection.objects.filter(game_seat__user=dani).exists()
    # Were that socket alive after all, the next flush finds its row gone and it records
    # itself again (the consumer calls seat_connect), which ends the absence.
    assert presence.server_alive(server="elsewhere", heard=["on-dead-process"]) == {
        "on-dead-process"
    }
    connect(started_game, dani, "on-dead-process")
    assert seat_of(started_game, dani).deadline is None


def test_a_socket_of_a_live_web_process_holds_the_seat(started_game, dani, settings):
    """However long since its own heartbeat (a background tab's timers are slowed down), short
    of HEARTBEAT_LIMIT_SECONDS, as long as its web process is alive."""
    settings.WEB_PROCESS_LIMIT_SECONDS = 15
    settings.HEARTBEAT_LIMIT_SECONDS = 75
    connect(started_game, dani, "background-tab")
    connect(started_game, dani, "live-tab")
    SeatConnection.objects.filter(channel_name="background-tab").update(
        last_seen=timezone.now() - timedelta(seconds=70)
    )
    assert presence.seat_disconnect(channel_name="live-tab") is None
    assert sweep.sweep()["expired"] == 0
    assert seat_of(started_game, dani).deadline is None


def test_the_sweep_drops_a_dead_web_process_sockets_and_the_countdown_starts_from_its_death(
    started_game, dani, settings, no_broker, django_capture_on_commit_callbacks
):
    settings.WEB_PROCESS_LIMIT_SECONDS = 15
    settings.SEAT_GRACE_SECONDS = 60
    connect(started_game, dani, "a")
    connect(started_game, dani, "b")
    server = dead_process("a", silent_for=20)
    SeatConnection.objects.filter(channel_name="b").update(server=server)
    died = WebProcess.objects.get(pk=server).last_seen
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep.sweep()["expired"] == 1  # one seat
    seat = seat_of(started_game, dani)
    assert seat.away_since == died and seat.deadline == died + timedelta(seconds=60)
    no_broker.assert_called_once_with(
        "games.tasks.cancel_if_abandoned", args=(seat.pk, seat.presence_epoch), eta=seat.deadline
    )
    assert not WebProcess.objects.filter(pk=server).exists()  # nothing left of it
    # 40 s after the death (20 s ago + 40 s): the sweep cancels, 60 s after the player was lost.
    later = timezone.now() + timedelta(seconds=41)
    assert sweep.sweep(now=later)["abandoned"] == 1
    assert Game.objects.get(pk=started_game.pk).status == Game.Status.CANCELLED


def test_a_web_process_alive_keeps_its_sockets_and_writes_their_heartbeats_at_once(
    started_game, ane, dani, settings, django_assert_num_queries
):
    settings.WEB_PROCESS_LIMIT_SECONDS = 15
    connect(started_game, ane, "ane-1")
    connect(started_game, dani, "dani-1")
    server = presence.server_id()
    old = timezone.now() - timedelta(seconds=30)
    WebProcess.objects.filter(pk=server).update(last_seen=old)
    SeatConnection.objects.update(last_seen=old)
    with django_assert_num_queries(5):  # SAVEPOINT, upsert, select, update, RELEASE
        lost = presence.server_alive(server=server, heard=["ane-1", "dani-1", "gone"])
    assert lost == {"gone"}
    assert all(seen > old for seen in SeatConnection.objects.values_list("last_seen", flat=True))
    assert sweep.sweep()["expired"] == 0
    assert seat_of(started_game, dani).deadline is None


def test_coming_back_clears_the_deadline(started_game, dani):
    away(started_game, dani)
    assert seat_of(started_game, dani).deadline is not None
    connect(started_game, dani, "again")
    seat = seat_of(started_game, dani)
    assert seat.deadline is None and seat.away_since is None


def test_the_others_see_who_is_away_and_the_seconds_left(started_game, ane, dani, settings):
    settings.SEAT_GRACE_SECONDS = 60
    away(started_game, dani, ago=18)
    html, _ = fragments.table_push(started_game.pk, ane)
    assert "dani a perdu la connexion — place gardée" in html
    assert 'data-seconds="42">0:42<' in html


def test_cancel_only_once_the_deadline_has_passed(started_game, dani, settings):
    settings.SEAT_GRACE_SECONDS = 60
    away(started_game, dani, ago=30)
    seat = seat_of(started_game, dani)
    assert deadlines.game_cancel_if_abandoned(seat_id=seat.pk, epoch=seat.presence_epoch) is None
    later = timezone.now() + timedelta(seconds=31)
    cancelled = deadlines.game_cancel_if_abandoned(
        seat_id=seat.pk, epoch=seat.presence_epoch, now=later
    )
    assert cancelled is not None
    started_game.refresh_from_db()
    assert started_game.status == Game.Status.CANCELLED
    assert started_game.end_reason_text == "dani n'a pas rejoint la table à temps."
    [end] = end_rows(started_game)
    assert end.payload == {"status": "cancelled", "reason": started_game.end_reason, "by": None}
    assert Table.objects.get(pk=started_game.table_id).status == Table.Status.CLOSED
    assert seat_of(started_game, dani).deadline is None  # the sweep's index forgets it


def test_run_twice_or_late_one_cancellation_no_error(started_game, dani, settings):
    settings.SEAT_GRACE_SECONDS = 1
    away(started_game, dani, ago=5)
    seat = seat_of(started_game, dani)
    first = deadlines.game_cancel_if_abandoned(seat_id=seat.pk, epoch=seat.presence_epoch)
    second = deadlines.game_cancel_if_abandoned(seat_id=seat.pk, epoch=seat.presence_epoch)
    much_later = timezone.now() + timedelta(hours=2)
    third = deadlines.game_cancel_if_abandoned(seat_id=seat.pk, now=much_later)
    assert first is not None and second is None and third is None
    assert len(end_rows(started_game)) == 1


def test_a_check_of_an_earlier_absence_does_nothing(started_game, dani, settings):
    """Away, back, away again: the first absence's task (old epoch) is stale even past its
    deadline; the second absence's own deadline has not passed yet."""
    settings.SEAT_GRACE_SECONDS = 60
    away(started_game, dani, channel="first", ago=120)
    old_epoch = seat_of(started_game, dani).presence_epoch
    away(started_game, dani, channel="second")
    seat = seat_of(started_game, dani)
    assert seat.presence_epoch == old_epoch + 1
    assert deadlines.game_cancel_if_abandoned(seat_id=seat.pk, epoch=old_epoch) is None
    assert deadlines.game_cancel_if_abandoned(seat_id=seat.pk) is None  # not yet
    assert Game.objects.get(pk=started_game.pk).status == Game.Status.PLAYING


def test_back_before_the_deadline_never_cancelled(started_game, dani, settings):
    settings.SEAT_GRACE_SECONDS = 1
    away(started_game, dani, ago=5)
    seat = seat_of(started_game, dani)
    connect(started_game, dani, "back")
    assert deadlines.game_cancel_if_abandoned(seat_id=seat.pk, epoch=seat.presence_epoch) is None
    assert sweep.sweep()["abandoned"] == 0
    assert Game.objects.get(pk=started_game.pk).status == Game.Status.PLAYING


def test_a_finished_game_is_left_alone(started_game, dani, settings):
    from games.services import play

    settings.SEAT_GRACE_SECONDS = 1
    away(started_game, dani, ago=5)
    seat = seat_of(started_game, dani)
    play.game_finish(game=started_game, status="cancelled", reason="Modération.")
    assert deadlines.game_cancel_if_abandoned(seat_id=seat.pk) is None
    assert Game.objects.get(pk=started_game.pk).end_reason_text == "Modération."
    assert deadlines.game_cancel_if_abandoned(seat_id=10**9) is None  # no such seat


def test_sweep_cancels_passed_deadlines(started_game, dani, settings):
    settings.SEAT_GRACE_SECONDS = 1
    away(started_game, dani, ago=5)
    assert sweep.sweep()["abandoned"] == 1
    assert sweep.sweep()["abandoned"] == 0
    assert Game.objects.get(pk=started_game.pk).status == Game.Status.CANCELLED


def test_sweep_expires_silent_sockets_and_a_heartbeat_comes_back(started_game, dani, settings):
    settings.HEARTBEAT_LIMIT_SECONDS = 60
    connect(started_game, dani, "silent")
    connect(started_game, dani, "alive")
    an_hour_ago = timezone.now() - timedelta(hours=1)
    SeatConnection.objects.filter(channel_name="silent").update(last_seen=an_hour_ago)
    assert sweep.sweep()["expired"] == 1
    assert seat_of(started_game, dani).deadline is None  # another tab is still there
    SeatConnection.objects.filter(channel_name="alive").update(last_seen=an_hour_ago)
    sweep.sweep()
    assert seat_of(started_game, dani).deadline is not None
    lost = presence.server_alive(server=presence.server_id(), heard=["alive"])
    assert lost == {"alive"}  # the consumer records its socket again
    connect(started_game, dani, "alive")
    assert seat_of(started_game, dani).deadline is None


def test_sweep_cancels_an_idle_game(started_game, settings):
    settings.GAME_IDLE_MINUTES = 30
    assert sweep.sweep()["idle"] == 0
    Game.objects.filter(pk=started_game.pk).update(
        last_action_at=timezone.now() - timedelta(minutes=31)
    )
    assert sweep.sweep()["idle"] == 1
    started_game.refresh_from_db()
    assert started_game.status == Game.Status.CANCELLED
    assert started_game.end_reason_text == "personne n'a joué pendant 30 minutes."
    assert len(end_rows(started_game)) == 1


def test_sweep_closes_an_unwatched_open_table(open_table, ane, bixente, settings):
    settings.OPEN_TABLE_IDLE_MINUTES = 10
    salle.seat_take(user=bixente, table_id=open_table.pk, number=1)
    Table.objects.filter(pk=open_table.pk).update(last_seen=timezone.now() - timedelta(minutes=9))
    assert sweep.sweep()["closed"] == 0
    salle.tables_seen_by([bixente.pk], now=timezone.now() - timedelta(minutes=11))
    assert sweep.sweep()["closed"] == 1
    open_table.refresh_from_db()
    assert open_table.status == Table.Status.CLOSED
    assert not open_table.seats.filter(active=True).exists()
    # Both may sit elsewhere now.
    salle.table_create(user=ane, kings=Table.Kings.EIGHT)


def test_a_watched_open_table_stays(open_table, ane, settings):
    settings.OPEN_TABLE_IDLE_MINUTES = 10
    Table.objects.filter(pk=open_table.pk).update(last_seen=timezone.now() - timedelta(minutes=11))
    assert salle.tables_seen_by([ane.pk]) == 1
    assert sweep.sweep()["closed"] == 0


def test_one_flush_writes_every_heartbeat_of_the_process_in_a_fixed_number_of_queries(
    started_game, open_table, cast, django_assert_num_queries
):
    """Whatever the number of sockets: the salle players' open tables (one UPDATE), then the
    process's "alive" and its table sockets (SAVEPOINT, upsert, select, update, RELEASE); the
    players online are one Redis write, no query."""
    ane, bixente, camille, dani = cast
    for user, channel in ((ane, "a"), (bixente, "b"), (camille, "c"), (dani, "d")):
        connect(started_game, user, channel)
    users = {u.pk for u in cast}
    with django_assert_num_queries(6):
        lost = heartbeats._write({"a", "b", "c", "d"}, users, users)
    assert lost == set()


def test_connect_close_churn_queues_one_check_and_the_sweep_still_cancels(
    started_game, dani, settings, no_broker, django_capture_on_commit_callbacks
):
    """A socket opened and closed 30 times in a row: one countdown task, not thirty; the
    last absence, which has no task of its own, is the sweep's."""
    settings.SEAT_GRACE_SECONDS = 60
    for cycle in range(30):
        connect(started_game, dani, f"cycle-{cycle}")
        with django_capture_on_commit_callbacks(execute=True):
            deadline = presence.seat_disconnect(channel_name=f"cycle-{cycle}")
    assert no_broker.call_count == 1
    assert seat_of(started_game, dani).deadline == deadline
    assert sweep.sweep(now=deadline - timedelta(seconds=1))["abandoned"] == 0
    assert sweep.sweep(now=deadline + timedelta(seconds=1))["abandoned"] == 1
    assert Game.objects.get(pk=started_game.pk).status == Game.Status.CANCELLED
