"""Quick phrases (docs/phrases.md) through the real views and sockets: said only between hands
(every moment of a hand refused, through the POST and the socket, nothing written), pushed to
every reader in their language unless muted, one per player per three seconds, reported to the
moderators, answered by a robot; no free text anywhere."""

import html

import pytest
from celery import current_app
from channels.db import database_sync_to_async
from django.urls import reverse

from games import phrases as phrase_list
from games import talk, tasks
from games.engine import SeededShuffler, robot_talk
from games.models import Game, PhraseMute, Table, TablePhrase
from games.services import phrases, play, robots, salle
from moderation.models import PhraseReport
from tests.games.helpers import HTMX, LONG_PLAY, between_hands, play_until, watch_path
from tests.sockets import SALLE_PATH, connect, connect_table, next_push

pytestmark = pytest.mark.django_db(transaction=True)

DURING = "Les phrases se disent entre les mains"
TOO_SOON = "Une phrase toutes les 3 secondes"


def say(client, table_id, phrase="luck"):
    url = reverse("games:phrase_say", args=[table_id])
    return client.post(url, {"phrase": phrase}, headers=HTMX)


def text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def no_pace(monkeypatch):
    """The tests that say many phrases in a row: the pace limit is tested on its own."""
    monkeypatch.setattr(talk, "PHRASES_PER_USER", talk.ratelimit.Limit("phrases", 10**6, 60))


@pytest.fixture
def score_screen(started_game):
    return play_until(started_game, between_hands, SeededShuffler(35))


def test_every_moment_of_a_hand_refuses_a_phrase_and_writes_nothing(
    started_game, cast, login, no_pace
):
    clients = {seat: login(user) for seat, user in enumerate(cast)}
    rng = SeededShuffler(35)
    phases, allowed = set(), 0
    game = started_game
    everything = {"mus", "discard", "lance"}
    while game.status == Game.Status.PLAYING and (
        phases != everything or game.state["hand_number"] <= 2
    ):
        seat = rng.randbelow(4)
        response = say(clients[seat], game.table_id, ["hello", "good_one", "bye"][rng.randbelow(3)])
        if between_hands(game):
            assert response.status_code == 200, text(response)
            allowed += 1
        else:
            phases.add(game.state["phase"])
            assert response.status_code == 422 and DURING in text(response)
            assert TablePhrase.objects.count() == allowed
        game = play_until(game, lambda g, v=game.version: g.version > v, rng, LONG_PLAY)
    assert phases == everything
    assert allowed >= 1 and TablePhrase.objects.count() == allowed


async def test_the_socket_refuses_a_phrase_during_a_hand_and_says_it_between(
    started_game, ane, no_pace
):
    communicator, connected = await connect_table(ane, started_game.table_id)
    assert connected
    rng = SeededShuffler(35)
    game, refused = started_game, set()
    while not between_hands(game):
        await communicator.send_json_to({"type": "phrase", "phrase": "luck"})
        answer = await next_push(communicator, lambda p: 'id="talk-note"' in p, 5)
        assert DURING in answer
        refused.add(game.state["phase"])
        game = await database_sync_to_async(play_until)(
            game, lambda g, v=game.version: g.version > v, rng, LONG_PLAY
        )
    assert "mus" in refused and "lance" in refused
    assert await TablePhrase.objects.acount() == 0
    await communicator.send_json_to({"type": "phrase", "phrase": "luck"})
    said = await next_push(communicator, lambda p: "talk__said" in p, 5)
    assert "Suerte !" in said
    assert await TablePhrase.objects.acount() == 1
    await communicator.disconnect()


def test_a_phrase_at_a_cancelled_partie_or_by_a_stranger_is_refused(
    score_screen, login, make_user, ane
):
    stranger = login(make_user("eneko"))
    assert say(stranger, score_screen.table_id).status_code == 403
    play.game_finish(game=score_screen, status="cancelled", reason={"code": "idle", "minutes": 30})
    response = say(login(ane), score_screen.table_id)
    assert response.status_code == 403 and "Seuls les joueurs assis" in text(response)
    assert not TablePhrase.objects.exists()


def test_no_free_text_a_phrase_is_one_of_the_list(score_screen, ane, login):
    client = login(ane)
    for made_up in ("Tengo duples", "<b>hi</b>", "", "x" * 500):
        response = say(client, score_screen.table_id, made_up)
        assert response.status_code == 422 and "Cette phrase n’existe pas." in text(response)
    assert not TablePhrase.objects.exists()
    page = text(client.get(reverse("games:table", args=[score_screen.table_id])))
    section = page.split('id="table-talk"')[1].split("</section>")[0]
    assert "<textarea" not in section and 'type="text"' not in section
    assert section.count('name="phrase"') == len(phrases.phrases.PHRASES) <= 16


def test_one_phrase_per_three_seconds_per_player_whatever_the_way(score_screen, ane, login):
    client = login(ane)
    assert say(client, score_screen.table_id).status_code == 200
    response = say(client, score_screen.table_id, "hello")
    assert response.status_code == 429 and TOO_SOON in text(response)
    assert "attendez encore" in text(response)
    assert TablePhrase.objects.count() == 1


async def test_the_pace_holds_across_the_post_and_the_socket(score_screen, ane, login):
    client = await database_sync_to_async(login)(ane)
    response = await database_sync_to_async(say)(client, score_screen.table_id)
    assert response.status_code == 200
    communicator, connected = await connect_table(ane, score_screen.table_id)
    assert connected
    await communicator.send_json_to({"type": "phrase", "phrase": "hello"})
    answer = await next_push(communicator, lambda p: 'id="talk-note"' in p, 5)
    assert TOO_SOON in html.unescape(answer)
    assert await TablePhrase.objects.acount() == 1
    await communicator.disconnect()


def test_saying_a_phrase_costs_a_bounded_number_of_queries(
    score_screen, ane, login, django_assert_max_num_queries
):
    client = login(ane)
    with django_assert_max_num_queries(12):
        assert say(client, score_screen.table_id).status_code == 200


async def test_every_reader_gets_the_phrase_in_their_language_but_one_who_muted(
    score_screen, cast, make_user, no_pace
):
    ane, bixente, camille, dani = cast
    camille.language = "eu"
    await camille.asave(update_fields=["language"])
    eneko = await database_sync_to_async(make_user)("eneko")
    await PhraseMute.objects.acreate(table_id=score_screen.table_id, muter=dani, muted=ane)
    sockets = {}
    for user in (bixente, camille, dani):
        sockets[user.username], connected = await connect_table(user, score_screen.table_id)
        assert connected
    sockets["eneko"], connected = await connect(eneko, path=watch_path(score_screen.table_id))
    assert connected
    said = await database_sync_to_async(talk.say)(
        user=ane, table_id=score_screen.table_id, phrase="luck"
    )
    assert said.status == 200

    def phrase(p):
        return "talk__said" in p

    assert "Suerte !" in html.unescape(await next_push(sockets["bixente"], phrase, 5))
    eu = html.unescape(await next_push(sockets["camille"], phrase, 5))
    assert "Zorte on!" in eu and "Suerte !" not in eu and "Signaler" not in eu
    spectator = html.unescape(await next_push(sockets["eneko"], phrase, 5))
    assert "Suerte !" in spectator and "talk__report" not in spectator
    # dani muted ane: the next phrase dani gets is bixente's
    await database_sync_to_async(talk.say)(
        user=bixente, table_id=score_screen.table_id, phrase="bye"
    )
    assert "Agur !" in html.unescape(await next_push(sockets["dani"], phrase, 5))
    for communicator in sockets.values():
        await communicator.disconnect()


def test_mute_then_show_again_a_players_phrases(score_screen, cast, login, no_pace):
    ane, bixente, _camille, _dani = cast
    client = login(bixente)
    say(login(ane), score_screen.table_id, "laugh")
    url = reverse("games:phrase_mute", args=[score_screen.table_id])
    response = client.post(url, {"seat": "0", "muted": "1"}, headers=HTMX)
    assert response.status_code == 200 and "Ha ha !" not in the_log(text(response))
    assert "Afficher les phrases de ane" in text(response)
    page = text(client.get(reverse("games:table", args=[score_screen.table_id])))
    assert "Ha ha !" not in the_log(page)
    response = client.post(url, {"seat": "0", "muted": "0"}, headers=HTMX)
    assert "Ha ha !" in the_log(text(response))
    for seat in ("1", "7", "x", "", "99999999999999999999"):
        assert client.post(url, {"seat": seat, "muted": "1"}, headers=HTMX).status_code == 422
    assert not PhraseMute.objects.exists()


def the_log(page: str) -> str:
    return page.split('id="talk-log"')[1].split("</ol>")[0]


def test_report_records_the_partie_the_hand_and_the_phrase(
    score_screen, cast, login, admin_client, no_pace
):
    ane, bixente, _camille, _dani = cast
    say(login(ane), score_screen.table_id, "laugh")
    said = TablePhrase.objects.get()
    url = reverse("games:phrase_report", args=[score_screen.table_id])
    client = login(bixente)
    response = client.post(url, {"phrase": str(said.pk)}, headers=HTMX)
    assert response.status_code == 200 and "signalée aux modérateurs" in text(response)
    client.post(url, {"phrase": str(said.pk)}, headers=HTMX)  # once per player
    report = PhraseReport.objects.get()
    assert (report.reporter, report.speaker, report.game, report.said) == (
        bixente,
        ane,
        score_screen,
        "laugh",
    )
    assert report.hand_number == score_screen.state["hand_number"]
    own = login(ane).post(url, {"phrase": str(said.pk)}, headers=HTMX)
    assert own.status_code == 422
    listing = text(admin_client.get(reverse("admin:moderation_phrasereport_changelist")))
    assert "Ha ha !" in listing and "bixente" in listing and str(score_screen) in listing


def test_before_the_partie_the_seated_players_may_speak(full_table, cast, login, make_user):
    response = say(login(cast[2]), full_table.pk, "hello")
    assert response.status_code == 200
    said = TablePhrase.objects.get()
    assert (said.game, said.hand_number, said.seat) == (None, 0, 2)
    assert say(login(make_user("eneko")), full_table.pk).status_code == 403


def test_muting_before_the_partie_answers_the_salles_talk_section(full_table, cast, login):
    """At an open table the talk section lives in the salle's « Votre table »: a mute's answer
    is that section (bubbles on the table card's seats, no ring), not the table page's."""
    answer = login(cast[0]).post(
        reverse("games:phrase_mute", args=[full_table.pk]), {"seat": "1"}, headers=HTMX
    )
    assert answer.status_code == 200
    html = answer.content.decode()
    assert 'data-seats=".my-table .seats"' in html and "talk__ring" not in html


def test_a_report_outlives_the_open_table_its_players_left(open_table, cast, login):
    ane, bixente = cast[0], cast[1]
    salle.seat_take(user=bixente, table_id=open_table.pk, number=1)
    said = phrases.phrase_say(user=bixente, table_id=open_table.pk, phrase="laugh")
    url = reverse("games:phrase_report", args=[open_table.pk])
    assert login(ane).post(url, {"phrase": str(said.pk)}, headers=HTMX).status_code == 200
    salle.seat_leave(user=bixente, table_id=open_table.pk)
    salle.seat_leave(
        user=ane, table_id=open_table.pk
    )  # the last one out: the table and its phrases are deleted
    assert not Table.objects.filter(pk=open_table.pk).exists()
    report = PhraseReport.objects.get()
    assert (report.phrase, report.speaker, report.said, report.game) == (
        None,
        bixente,
        "laugh",
        None,
    )
    assert (report.table_id, report.hand_number) == (open_table.pk, 0)


def test_a_robot_answers_a_greeting_once_and_thanks_for_praise(ane, settings, no_pace):
    settings.ROBOT_PAUSE_SECONDS = 0
    table = robots.practice_table(user=ane, kings=4)
    game = Game.objects.get(table=table)
    game = play_until(game, between_hands, SeededShuffler(35))
    hello = phrases.phrase_say(user=ane, table_id=table.pk, phrase="hello")
    answer = phrases.robot_answer(phrase_id=hello.pk)
    assert (answer.seat, answer.phrase, answer.robot) == (1, "hello", True)
    assert phrases.robot_answer(phrase_id=hello.pk) is None  # a task run twice answers once
    praise = phrases.phrase_say(user=ane, table_id=table.pk, phrase="well_played")
    assert phrases.robot_answer(phrase_id=praise.pk).phrase in ("thanks", "good_game")
    assert phrases.robot_answer(phrase_id=answer.pk) is None  # robots do not answer robots
    laugh = phrases.phrase_say(user=ane, table_id=table.pk, phrase="laugh")
    assert phrases.robot_answer(phrase_id=laugh.pk) is None


async def test_before_the_partie_the_seated_players_salles_show_the_phrase(full_table, cast):
    ane, bixente, camille, dani = cast
    await PhraseMute.objects.acreate(table_id=full_table.pk, muter=dani, muted=bixente)
    sockets = {}
    for user in (camille, dani):
        sockets[user.username], connected = await connect(user, path=SALLE_PATH)
        assert connected
    await database_sync_to_async(talk.say)(user=bixente, table_id=full_table.pk, phrase="hello")

    def phrase(p):
        return "talk__said" in p

    said = html.unescape(await next_push(sockets["camille"], phrase, 5))
    assert "Bonjour à tous !" in said and 'data-seat="1"' in said and "Signaler" in said
    await database_sync_to_async(talk.say)(user=ane, table_id=full_table.pk, phrase="ready")
    assert "Prêt !" in html.unescape(await next_push(sockets["dani"], phrase, 5))
    for communicator in sockets.values():
        await communicator.disconnect()


def test_the_phrase_list_and_the_robots_answers_are_one_list_of_ids():
    ids = set(phrase_list.PHRASES)
    assert len(ids) <= phrase_list.MAX_PHRASES
    assert all(len(key) <= phrase_list.ID_MAX_LENGTH for key in ids)
    assert robot_talk.ANSWERS | robot_talk.PRAISE | {robot_talk.GREETING} <= ids
    assert TablePhrase._meta.get_field("phrase").max_length == phrase_list.ID_MAX_LENGTH


def test_a_robots_answer_is_queued_by_name_on_commit_like_its_decisions(
    ane, settings, monkeypatch, no_pace, django_capture_on_commit_callbacks
):
    settings.ROBOT_PAUSE_SECONDS = 1.5
    sent = []
    monkeypatch.setattr(current_app, "send_task", lambda *a, **k: sent.append((a, k)))
    table = robots.practice_table(user=ane, kings=4)
    game = play_until(Game.objects.get(table=table), between_hands, SeededShuffler(5))
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        said = phrases.phrase_say(user=ane, table_id=game.table_id, phrase="hello")
    assert sent == [(("games.tasks.robot_phrase",), {"args": (said.pk,), "countdown": 1.5})]
    assert tasks.robot_phrase(said.pk) is True  # the task, as a worker runs it
    assert TablePhrase.objects.get(reply_to=said).phrase == "hello"
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        phrases.phrase_say(user=ane, table_id=game.table_id, phrase="laugh")
    assert sent == []  # nothing a robot answers
