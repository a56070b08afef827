"""Computer players at the site (games.services.robots): seats placed and taken back by the
host, the practice table, a table of robots only never exists, the robot's queued decision in
each phase, its chain until a person must act, no clock and no absence for a robot."""

import random
import re
from datetime import timedelta
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import engine, selectors
from games.models import Game, GameAction, GameSeat, Seat, Table
from games.services import clock, deadlines, errors, play, robots, salle, sweep, time_outs
from tests.games.helpers import play_robots

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def no_broker():
    """The tasks are enqueued by name on commit; here they are only recorded (the real worker
    runs them in tests/games/test_robots_live.py)."""
    with mock.patch("games.services.play.current_app") as app:
        yield app.send_task


def robot_tasks(send_task) -> list[tuple]:
    return [
        c.kwargs.get("args") or c.args[1]
        for c in send_task.call_args_list
        if c.args[0] == play.ROBOT_PLAY
    ]


def robots_game(host, *, robot_seats=(1, 2, 3), first_mano=0, kings=4) -> Game:
    """`host` at seat 0 and robots at `robot_seats`, started with `first_mano`."""
    table = salle.table_create(user=host, kings=kings)
    for number in robot_seats:
        robots.robot_seat(user=host, table_id=table.pk, number=number)
    salle.table_start(user=host, table_id=table.pk, first_mano=first_mano)
    return Game.objects.get(table=table)


# ---------------------------------------------------------------- accounts and seats


def test_a_robot_is_named_marked_and_cannot_log_in(open_table, ane):
    seat = robots.robot_seat(user=ane, table_id=open_table.pk, number=2)
    robot = seat.user
    assert seat.robot and robot.is_robot and robot.username == robots.ROBOT_NAMES[0]
    assert re.fullmatch(r"[0-9a-f]{32}", seat.client_seed)
    assert not robot.has_usable_password() and robot.email == ""
    assert not Client().login(username=robot.username, password="")
    response = Client().post(
        reverse("accounts:login"), {"username": robot.username, "password": ""}
    )
    assert "_auth_user_id" not in response.client.session


def test_a_robot_is_never_made_next_to_a_person_s_look_alike(open_table, ane, make_user):
    """A site whose robot accounts are gone (or that had people first): the robot whose name a
    person's looks like takes its "-robot" form."""
    get_user_model().objects.filter(is_robot=True).delete()
    person = make_user("amаia")  # its second a is Cyrillic
    seat = robots.robot_seat(user=ane, table_id=open_table.pk, number=1)
    assert seat.user != person and seat.user.username == f"{robots.ROBOT_NAMES[0]}-robot"
    assert not get_user_model().objects.get(pk=person.pk).is_robot
    assert not get_user_model().objects.filter(username=robots.ROBOT_NAMES[0]).exists()


def test_only_the_host_places_or_removes_a_robot(open_table, ane, bixente):
    salle.seat_take(user=bixente, table_id=open_table.pk, number=1)
    with pytest.raises(errors.SalleError, match="Seul l’hôte"):
        robots.robot_seat(user=bixente, table_id=open_table.pk, number=2)
    robots.robot_seat(user=ane, table_id=open_table.pk, number=2)
    with pytest.raises(errors.SalleError, match="Seul l’hôte"):
        robots.robot_unseat(user=bixente, table_id=open_table.pk, number=2)
    # the whole table: by its host, or by any player once the table has waited
    with pytest.raises(errors.SalleError, match="Attendez encore"):
        robots.robots_fill(user=bixente, table_id=open_table.pk)
    assert Seat.objects.filter(table=open_table, robot=True).count() == 1


def test_a_taken_seat_a_person_and_a_bad_number_are_refused(open_table, ane, bixente):
    salle.seat_take(user=bixente, table_id=open_table.pk, number=1)
    with pytest.raises(errors.SalleError, match="déjà prise"):
        robots.robot_seat(user=ane, table_id=open_table.pk, number=1)
    with pytest.raises(errors.SalleError, match="pas de robot"):
        robots.robot_unseat(user=ane, table_id=open_table.pk, number=1)
    with pytest.raises(errors.SalleError, match="pas de robot"):
        robots.robot_unseat(user=ane, table_id=open_table.pk, number=3)
    with pytest.raises(errors.SalleError, match="n’existe pas"):
        robots.robot_seat(user=ane, table_id=open_table.pk, number=4)
    with pytest.raises(errors.SalleError, match="n’existe pas"):
        robots.robot_seat(user=ane, table_id=open_table.pk + 99, number=2)


def test_robots_are_placed_before_the_start_only(ane):
    game = robots_game(ane)
    for call in (
        lambda: robots.robot_seat(user=ane, table_id=game.table_id, number=1),
        lambda: robots.robot_unseat(user=ane, table_id=game.table_id, number=1),
        lambda: robots.robots_fill(user=ane, table_id=game.table_id),
    ):
        with pytest.raises(errors.SalleError, match="déjà commencé"):
            call()


def test_a_robot_sits_once_at_a_table_and_at_many_tables(ane, bixente):
    first = salle.table_create(user=ane, kings=4)
    second = salle.table_create(user=bixente, kings=8)
    added = robots.robots_fill(user=ane, table_id=first.pk)
    assert [s.number for s in added] == [1, 2, 3]
    assert len({s.user_id for s in added}) == 3
    other = robots.robot_seat(user=bixente, table_id=second.pk, number=3)
    assert other.user_id == added[0].user_id  # the same account, active at two tables
    assert Seat.objects.filter(user=other.user, active=True).count() == 2
    with pytest.raises(errors.SalleError, match="complète"):
        robots.robots_fill(user=ane, table_id=first.pk)


def test_a_robot_taken_out_frees_its_seat_for_a_person(open_table, ane, bixente):
    robots.robot_seat(user=ane, table_id=open_table.pk, number=1)
    robots.robot_unseat(user=ane, table_id=open_table.pk, number=1)
    assert not Seat.objects.filter(table=open_table, robot=True).exists()
    salle.seat_take(user=bixente, table_id=open_table.pk, number=1)


def test_a_full_table_of_a_person_and_robots_starts(open_table, ane, bixente):
    salle.seat_take(user=bixente, table_id=open_table.pk, number=2)
    robots.robots_fill(user=ane, table_id=open_table.pk)
    salle.table_start(user=ane, table_id=open_table.pk)
    game = Game.objects.get(table=open_table)
    assert {s.number: s.robot for s in game.seats.all()} == {0: False, 1: True, 2: False, 3: True}
    assert game.clock["robots"] == [1, 3]


def test_the_practice_table_starts_at_once_with_three_robots(ane):
    table = robots.practice_table(user=ane, kings=8, clock="rapide")
    assert table.status == Table.Status.PLAYING and table.host == ane
    game = Game.objects.get(table=table)
    assert game.kings == 8 and game.clock["speed"] == "rapide"
    seats = {s.number: (s.user, s.robot) for s in GameSeat.objects.filter(game=game)}
    assert seats[0] == (ane, False)
    assert all(seats[n][1] and seats[n][0].is_robot for n in (1, 2, 3))


def test_a_bad_practice_table_leaves_nothing(ane):
    with pytest.raises(errors.SalleError):
        robots.practice_table(user=ane, kings=5)
    with pytest.raises(errors.SalleError):
        robots.practice_table(user=ane, kings=4, clock="éclair")
    assert not Table.objects.exists() and not Seat.objects.exists()


def test_the_last_person_leaving_deletes_the_table_and_its_robots(open_table, ane):
    robots.robots_fill(user=ane, table_id=open_table.pk)
    salle.seat_leave(user=ane, table_id=open_table.pk)
    assert not Table.objects.filter(pk=open_table.pk).exists()
    assert not Seat.objects.exists()


def test_a_leaving_host_hands_over_to_the_next_person_not_a_robot(open_table, ane, bixente):
    robots.robot_seat(user=ane, table_id=open_table.pk, number=1)
    salle.seat_take(user=bixente, table_id=open_table.pk, number=3)
    salle.seat_leave(user=ane, table_id=open_table.pk)
    open_table.refresh_from_db()
    assert open_table.host == bixente
    # the new host manages the robots
    robots.robot_unseat(user=bixente, table_id=open_table.pk, number=1)


# ---------------------------------------------------------------- the robot's decision


def test_a_robot_s_turn_is_queued_on_commit_at_its_version(
    ane, no_broker, settings, django_capture_on_commit_callbacks
):
    settings.ROBOT_PAUSE_SECONDS = 1.5
    with django_capture_on_commit_callbacks(execute=True):
        game = robots_game(ane, first_mano=1)
    calls = [c for c in no_broker.call_args_list if c.args[0] == play.ROBOT_PLAY]
    assert [(c.kwargs["args"], c.kwargs["countdown"]) for c in calls] == [((game.pk, 0), 1.5)]


def test_no_robot_task_when_a_person_must_act(ane, no_broker, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        robots_game(ane, first_mano=0)
    assert not [c for c in no_broker.call_args_list if c.args[0] == play.ROBOT_PLAY]


def test_the_robot_acts_once_for_the_lowest_robot_seat(ane, django_assert_num_queries):
    game = robots_game(ane, first_mano=1)
    # lock the game with its table, its seats; the play row and the game's UPDATE (one
    # statement); savepoints
    with django_assert_num_queries(5):
        assert robots.robot_play(game_id=game.pk, version=0)
    game.refresh_from_db()
    assert game.version == 1
    row = GameAction.objects.get(game=game, seq=1)
    assert row.seat == 1 and row.kind == GameAction.Kind.PLAY


def test_a_robot_task_that_finds_the_game_moved_does_nothing(ane, django_assert_num_queries):
    game = robots_game(ane, first_mano=1)
    assert robots.robot_play(game_id=game.pk, version=0)
    with django_assert_num_queries(4):  # savepoint, the game locked, its seats, release
        assert not robots.robot_play(game_id=game.pk, version=0)
    game.refresh_from_db()
    assert game.version == 1
    assert not robots.robot_play(game_id=game.pk + 1000, version=0)


def test_a_robot_task_of_an_ended_game_does_nothing(ane):
    game = robots_game(ane, first_mano=1)
    play.game_finish(game=game, status="cancelled", reason="test")
    game.refresh_from_db()
    assert not robots.robot_play(game_id=game.pk, version=game.version)
    assert GameAction.objects.filter(game=game, kind=GameAction.Kind.PLAY).count() == 0


def test_robots_chain_until_a_person_must_act(ane, no_broker, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = robots_game(ane, first_mano=1)
        made = play_robots(game)
    assert made >= 1
    state = game.state
    assert state["status"] == "hand_over" or 0 in engine.to_act(state)
    # each robot decision queued the next one, at the version it produced
    queued = [c.kwargs["args"] for c in no_broker.call_args_list if c.args[0] == play.ROBOT_PLAY]
    assert queued == [(game.pk, v) for v in range(made)]
    # the robots' seats never had a running clock
    assert all(game.clock["seats"][n]["deadline"] is None for n in (1, 2, 3))


def test_a_robot_answers_at_the_mus(ane):
    game = robots_game(ane, first_mano=1)
    assert game.state["phase"] == "mus"
    robots.robot_play(game_id=game.pk, version=0)
    row = GameAction.objects.get(game=game, seq=1)
    assert row.payload["type"] in ("mus", "cut")


def test_the_discard_with_robots_and_a_person_in_any_order(cast, full_table):
    """All four said mus; then seats 1 and 3 are robots: the discard completes whoever chose
    first, the person in the middle of the robots' choices."""
    game = play.game_create(table=full_table, first_mano=0)
    Table.objects.filter(pk=full_table.pk).update(status=Table.Status.PLAYING)
    for seat in range(4):
        game.refresh_from_db()
        play.game_apply_action(
            game_id=game.pk, user=cast[seat], version=game.version, action={"type": "mus"}
        )
    GameSeat.objects.filter(game=game, number__in=(1, 3)).update(robot=True)
    game.refresh_from_db()
    assert game.state["phase"] == "discard"
    assert robots.robot_play(game_id=game.pk, version=game.version)  # seat 1
    game.refresh_from_db()
    mine = engine.timeout_action(game.state, 2)
    play.game_apply_action(game_id=game.pk, user=cast[2], version=game.version, action=mine)
    game.refresh_from_db()
    assert robots.robot_play(game_id=game.pk, version=game.version)  # seat 3
    game.refresh_from_db()
    assert game.state["phase"] == "discard" and engine.to_act(game.state) == [0]
    assert not robots.robot_play(game_id=game.pk, version=game.version)  # a person's turn
    play.game_apply_action(
        game_id=game.pk,
        user=cast[0],
        version=game.version,
        action=engine.timeout_action(game.state, 0),
    )
    game.refresh_from_db()
    assert game.state["phase"] in ("mus", "lance")  # the discard was dealt
    robot_rows = GameAction.objects.filter(game=game, seat__in=(1, 3), payload__type="discard")
    assert robot_rows.count() == 2


def test_robots_speak_in_the_lances(ane):
    game = robots_game(ane, first_mano=1)
    play_robots(game)
    # the robots cut or the mus went round to the person: either way, play on as the person
    # and let the robots answer, until a lance word of a robot is in the log
    for _ in range(40):
        if (
            GameAction.objects.filter(game=game, seat__in=(1, 2, 3))
            .exclude(payload__type__in=("mus", "cut", "discard"))
            .exists()
        ):
            break
        if game.state["status"] != "playing":
            break
        action = engine.timeout_action(game.state, 0)
        play.game_apply_action(game_id=game.pk, user=ane, version=game.version, action=action)
        play_robots(game)
    assert (
        GameAction.objects.filter(game=game, seat__in=(1, 2, 3))
        .exclude(payload__type__in=("mus", "cut", "discard"))
        .exists()
    )


# ---------------------------------------------------------------- no clock, no absence


def test_a_robot_s_clock_never_runs():
    state = engine.new_partie(kings=4, first_mano=1, shuffler=random.Random(7))
    c = clock.advance(clock.new_clock("rapide", robots=[1, 2, 3]), state, host_seat=0, now=1000)
    assert clock.seats_to_clock(state, 0, [1, 2, 3]) == []
    assert clock.earliest_deadline(c) is None
    assert clock.seats_to_clock(state, 0) == [1]


def test_the_turn_clock_never_acts_for_a_robot(ane):
    game = robots_game(ane, first_mano=1)
    assert game.turn_deadline is None  # the robot speaks first: no clock runs
    # a deadline found on a robot seat anyway (never written so) is dropped, not acted on
    past = clock.ms(timezone.now()) - 1000
    game.clock["seats"][1].update(started=past - 1000, deadline=past)
    game.save(update_fields=["clock"])
    time_outs.turn_time_out(game_id=game.pk)
    game.refresh_from_db()
    assert game.version == 0 and game.clock["seats"][1]["deadline"] is None


def test_a_robot_is_never_away(ane):
    game = robots_game(ane, first_mano=0)
    seat = game.seats.get(number=2)
    assert deadlines.absence_start(game=game, seat=seat, gone_since=timezone.now()) is None
    GameSeat.objects.filter(pk=seat.pk).update(deadline=timezone.now() + timedelta(seconds=30))
    assert selectors.away_seconds(selectors.game_with_seats(game.pk)) == {}


# ---------------------------------------------------------------- the salle's forms


def test_the_host_places_and_removes_a_robot_from_the_salle(login, ane, open_table):
    client = login(ane)
    page = client.get(reverse("games:salle")).content.decode()
    assert page.count(">Placer un robot</button>") == 3 and "Jouer contre les robots" not in page
    url = reverse("games:robot_seat", args=[open_table.pk])
    response = client.post(url, {"number": "2"}, headers=HTMX)
    content = response.content.decode()
    assert response.status_code == 200
    assert '<span class="badge-robot">robot · Expert</span>' in content
    assert "Retirer le robot" in content
    response = client.post(reverse("games:robot_unseat", args=[open_table.pk]), {"number": "2"})
    assert response.status_code == 302
    assert not Seat.objects.filter(robot=True).exists()


def test_a_guest_sees_the_robot_but_no_robot_button(login, ane, bixente, open_table):
    robots.robot_seat(user=ane, table_id=open_table.pk, number=1)
    page = login(bixente).get(reverse("games:salle")).content.decode()
    assert '<span class="badge-robot">robot · Expert</span>' in page
    assert "Placer un robot" not in page and "Retirer le robot" not in page
    response = login(bixente).post(
        reverse("games:robot_seat", args=[open_table.pk]), {"number": "2"}, headers=HTMX
    )
    assert "Seul l’hôte de la table peut placer ou retirer un robot." in response.content.decode()


def test_bad_robot_posts_are_french_messages(login, ane, open_table):
    client = login(ane)
    for data in ({}, {"number": "x"}, {"number": "9"}):
        response = client.post(
            reverse("games:robot_seat", args=[open_table.pk]), data, headers=HTMX
        )
        assert (
            response.status_code == 200 and "Cette place n’existe pas." in response.content.decode()
        )
    assert not Seat.objects.filter(robot=True).exists()


def test_play_against_the_robots_goes_to_the_started_table(login, ane):
    client = login(ane)
    assert "Jouer contre les robots" in client.get(reverse("games:salle")).content.decode()
    response = client.post(
        reverse("games:practice_table"), {"kings": "4", "clock": "lent"}, headers=HTMX
    )
    table = Table.objects.get()
    assert response.status_code == 200
    assert response["HX-Redirect"] == table.get_absolute_url()
    page = client.get(table.get_absolute_url()).content.decode()
    assert page.count('<span class="badge-robot">robot · Expert</span>') == 3


def test_play_against_the_robots_without_js_and_when_seated(login, ane, bixente, open_table):
    response = login(bixente).post(reverse("games:practice_table"), {"kings": "8"})
    assert response.status_code == 302 and response["Location"].startswith("/tables/")
    response = login(ane).post(reverse("games:practice_table"), {"kings": "4"}, headers=HTMX)
    assert "Vous êtes déjà assis à une table" in response.content.decode()


def test_the_salle_s_robot_writes_are_rate_limited(login, ane, open_table):
    client = login(ane)
    url = reverse("games:robot_seat", args=[open_table.pk])
    unseat = reverse("games:robot_unseat", args=[open_table.pk])
    for _ in range(salle.SALLE_WRITES.count // 2):
        client.post(url, {"number": "1"}, headers=HTMX)
        client.post(unseat, {"number": "1"}, headers=HTMX)
    response = client.post(url, {"number": "1"}, headers=HTMX)
    assert "Trop d’actions dans la salle" in response.content.decode()


def test_the_sweep_makes_a_robot_decision_whose_task_was_lost(ane):
    game = robots_game(ane, first_mano=1)
    assert sweep.sweep()["robot_moves"] == 0  # its task is due, not lost
    later = timezone.now() + timedelta(seconds=sweep.ROBOT_STALL_SECONDS + 1)
    assert sweep.sweep(now=later)["robot_moves"] == 1
    game.refresh_from_db()
    assert game.version == 1


def test_the_sweep_locks_no_practice_table_waiting_on_its_person(make_user):
    """Idle practice tables where the person is to speak cost the sweep one read, however many:
    no row lock each (it used to lock every one to find nothing to do)."""

    def sweep_queries(tables: int) -> list[str]:
        for n in range(tables):
            robots_game(make_user(f"seul{tables}x{n}"), first_mano=0)  # the person speaks
        later = timezone.now() + timedelta(seconds=sweep.ROBOT_STALL_SECONDS + 1)
        with CaptureQueriesContext(connection) as captured:
            assert sweep.sweep(now=later)["robot_moves"] == 0
        Game.objects.update(status=Game.Status.FINISHED)  # out of the next count's way
        return [q["sql"] for q in captured.captured_queries]

    one, ten = sweep_queries(1), sweep_queries(10)
    assert len(one) == len(ten)
    assert not [sql for sql in ten if "FOR UPDATE" in sql]


def test_a_robot_s_seat_shows_no_clock(ane, login):
    game = robots_game(ane, first_mano=0)
    page = login(ane).get(reverse("games:table", args=[game.table_id])).content.decode()
    seats = page[page.index('id="table-seats"') : page.index('class="tseats__center"')]
    assert seats.count("tclock__reserve") == 1  # ane's reserve only, none for the robots
