"""The review of a partie: queued when the partie ends, made once by the worker's service,
again only for a new robot version; only for ended parties (a cancelled one up to where it
stopped); its page for the partie's players (their seat) and moderators (any person's seat)."""

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from games.engine import SeededShuffler
from games.engine import review as analysis
from games.engine.random_play import DEFAULT_WEIGHTS
from games.models import Game
from games.services import play
from reviews import receivers, services
from reviews.models import Review
from tests.games.helpers import next_move
from tests.records.helpers import cancel_by_absence, play_out, start
from tests.reviews.helpers import SentTasks, moderator
from tests.sockets import opened

pytestmark = pytest.mark.django_db(transaction=True)

#: no órdago: a partie still in play after a dozen decisions
CALM = dict(DEFAULT_WEIGHTS, ordago=0, ordago_vote=0, mus=90)


@pytest.fixture
def sent(monkeypatch):
    tasks = SentTasks()
    monkeypatch.setattr(receivers, "current_app", tasks)
    return tasks


@pytest.fixture(autouse=True)
def few_samples(monkeypatch):
    monkeypatch.setattr(analysis, "SAMPLES", 2)


def test_the_end_of_a_partie_queues_its_review_which_is_made_once(cast, sent):
    game = play_out(start(cast), seed=5)
    assert game.status == Game.Status.FINISHED
    assert sent.sent == [(receivers.REVIEW_TASK, (game.pk,))]
    assert services.review_partie(game_id=game.pk)
    found = Review.objects.get(game=game)
    assert found.status == Review.Status.READY
    assert found.version == analysis.review_version()
    played = [a for s, a in game.state["actions"] if a["type"] != "deal"]
    assert found.total == len(played) == found.done
    assert set(found.seats) == {"0", "1", "2", "3"}
    assert not services.review_partie(game_id=game.pk)  # never made twice


def test_a_review_split_across_processes_is_the_review_made_in_one(cast, sent, settings):
    game = play_out(start(cast), seed=5, weights=CALM)
    made = {}
    for processes in (1, 2):
        settings.REVIEW_PROCESSES = processes
        Review.objects.filter(game=game).delete()
        assert services.review_partie(game_id=game.pk)
        made[processes] = Review.objects.get(game=game)
    assert made[2].total == made[1].total > 2 * services.PROGRESS_EVERY  # more than one chunk
    assert made[2].seats == made[1].seats
    assert made[2].cpu_seconds > 0  # the analysing processes' CPU is counted


def test_the_progress_of_a_split_review_moves_by_chunks_to_the_total(settings):
    todo = list(analysis.decisions(_robot_partie(), {0, 2}))[:13]
    told = []
    settings.REVIEW_PROCESSES = 2
    rows = services.analysed(todo, lambda done, total: told.append((done, total)))
    done = [0] + [done for done, _ in told]
    # one step per chunk of five (the last of three), in the order the chunks finish
    assert sorted(b - a for a, b in zip(done, done[1:], strict=False)) == [3, 5, 5]
    assert done[-1] == 13
    assert {total for _, total in told} == {13}
    assert sorted(r["index"] for r in rows) == [index for index, _, _ in todo]


def _robot_partie():
    from games import engine

    rng = SeededShuffler(3)
    state = engine.new_partie(kings=4, first_mano=0, shuffler=rng)
    while state["status"] != "finished":
        seat = engine.to_act(state)[0]
        action = engine.robot_action(engine.observation(state, seat))
        state = engine.apply(state, seat, action, shuffler=rng)
    return state


def test_a_new_robot_version_makes_the_review_again(cast, sent, monkeypatch, client):
    game = play_out(start(cast), seed=5)
    services.review_partie(game_id=game.pk)
    monkeypatch.setattr(analysis, "ROBOT_VERSION", "next")
    client.force_login(cast[0])
    page = client.get(reverse("reviews:review", args=[game.pk])).content.decode()
    assert 'hx-trigger="every' in page  # the page waits for the new review
    assert Review.objects.get(game=game).status == Review.Status.QUEUED
    assert sent.sent[-1] == (receivers.REVIEW_TASK, (game.pk,))
    assert services.review_partie(game_id=game.pk)
    assert Review.objects.get(game=game).version.startswith("next/")


def test_a_cancelled_partie_is_reviewed_up_to_where_it_stopped(cast, sent):
    game = start(cast)
    rng = SeededShuffler(8)
    for _ in range(12):
        seat, action = next_move(game, rng, CALM)
        play.game_apply_action(
            user=cast[seat], game_id=game.pk, version=game.version, action=action
        )
        game.refresh_from_db()
    game = cancel_by_absence(game, seat=2)
    assert game.status == Game.Status.CANCELLED
    assert services.review_partie(game_id=game.pk)
    found = Review.objects.get(game=game)
    played = [a for _s, a in game.state["actions"] if a["type"] != "deal"]
    assert found.total == len(played) >= 10  # the deals aside
    assert [d["played"] for s in "0123" for d in found.seats[s]["decisions"]] == [
        a
        for s in range(4)
        for seat, a in game.state["actions"]
        if seat == s and a["type"] != "deal"
    ]


def test_no_review_exists_nor_is_made_for_a_partie_in_play(cast, sent, make_user, client):
    game = start(cast)
    assert not services.review_partie(game_id=game.pk)
    assert services.review_wanted(game) is None
    for reader in (cast[0], moderator(make_user)):
        client.force_login(reader)
        assert client.get(reverse("reviews:review", args=[game.pk])).status_code == 404
        assert client.get(reverse("reviews:progress", args=[game.pk])).status_code == 404
        partie = client.get(reverse("records:partie", args=[game.pk])).content.decode()
        assert reverse("reviews:review", args=[game.pk]) not in partie
        assert client.get(reverse("games:partie_record", args=[game.pk])).status_code == 404
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    admin = client.get(reverse("admin:reviews_review_changelist"))
    assert admin.status_code == 200
    assert "/admin/reviews/review/" in admin.content.decode()
    assert f"Revue de la partie {game.pk}" not in admin.content.decode()
    assert not Review.objects.exists()
    assert sent.sent == []


def test_the_page_shows_progress_then_the_review_of_the_readers_seat(cast, sent, client):
    game = play_out(start(cast), seed=5)
    client.force_login(cast[1])
    url = reverse("reviews:review", args=[game.pk])
    waiting = client.get(url).content.decode()
    assert 'hx-trigger="every' in waiting
    poll = client.get(reverse("reviews:progress", args=[game.pk]), HTTP_HX_REQUEST="true")
    assert poll.status_code == 200 and "HX-Refresh" not in poll
    services.review_partie(game_id=game.pk)
    poll = client.get(reverse("reviews:progress", args=[game.pk]), HTTP_HX_REQUEST="true")
    assert poll["HX-Refresh"] == "true"
    page = client.get(url).content.decode()
    assert 'hx-trigger="every' not in page
    assert "Vos 3 décisions les plus coûteuses" in page or "joué comme le robot" in page
    assert "donnes simulées" in page
    mine = sum(1 for s, a in game.state["actions"] if s == 1 and a["type"] != "deal")
    assert page.count('class="review-decision') >= mine


def test_trouvez_mieux_asks_before_it_answers(cast, sent, client):
    game = play_out(start(cast), seed=5)
    services.review_partie(game_id=game.pk)
    client.force_login(cast[0])
    url = reverse("reviews:review", args=[game.pk])
    asked = client.get(url, {"mode": "trouvez", "n": 1}).content.decode()
    assert "Que jouez-vous" in asked
    assert "Le robot :" not in asked and "Chance estimée" not in asked
    answered = client.get(url, {"mode": "trouvez", "n": 1, "choix": 0}).content.decode()
    assert "Le robot joue" in answered and "Chance estimée" in answered


def test_only_players_and_moderators_read_a_review(cast, sent, make_user, client):
    game = play_out(start(cast), seed=5)
    services.review_partie(game_id=game.pk)
    url = reverse("reviews:review", args=[game.pk])
    client.force_login(make_user("eve"))
    assert client.get(url).status_code == 404
    assert client.get(reverse("reviews:review", args=[game.pk + 999])).status_code == 404
    client.force_login(cast[0])
    own = client.get(url, {"place": 3}).content.decode()
    assert "décisions de ane" in own  # a player reads their own seat, whatever ?place says
    client.force_login(moderator(make_user))
    other = client.get(url, {"place": 3}).content.decode()
    assert "décisions de dani" in other
    assert client.get(url, {"place": "x"}).status_code == 200


async def test_the_table_socket_carries_no_review_while_the_partie_is_played(cast, sent):
    game = await database_sync_to_async(start)(cast)
    socket = await opened(cast[0], game)
    await socket.send_json_to({"type": "review", "game": game.pk})
    await socket.send_json_to({"type": "heartbeat"})
    assert await socket.receive_nothing(timeout=1)
    await socket.disconnect()
    assert not await database_sync_to_async(Review.objects.exists)()
    assert sent.sent == []


def test_reviews_go_to_their_own_queue_so_robots_and_clocks_never_wait_behind_one(settings):
    """A review is seconds of CPU: its queue is not the game's, whose worker moves the robots,
    runs the clocks and the tournaments (Procfile: `worker` and a niced `reviewer`)."""
    from musweb.celery import app

    def queue_of(name):
        return app.amqp.router.route({}, name)["queue"].name

    assert queue_of(receivers.REVIEW_TASK) == settings.REVIEW_QUEUE
    assert settings.REVIEW_QUEUE != settings.CELERY_TASK_DEFAULT_QUEUE
    for name in ("games.tasks.robot_play", "games.tasks.sweep", "tournaments.tasks.advance"):
        assert queue_of(name) == app.conf.task_default_queue


def test_the_end_screen_and_a_cancelled_partie_lead_to_the_review(cast, sent, client):
    """The way to the review from where a partie ends: the table's end screen, and a
    cancelled partie's page at its table's address, beside « Revoir la partie »."""
    client.force_login(cast[0])
    finished = play_out(start(cast), seed=5)
    review_url = reverse("reviews:review", args=[finished.pk])
    page = client.get(reverse("games:table", args=[finished.table_id])).content.decode()
    assert f'href="{review_url}"' in page and "Revoir avec le robot" in page
    cancelled = cancel_by_absence(start(cast), 3)
    review_url = reverse("reviews:review", args=[cancelled.pk])
    page = client.get(reverse("games:table", args=[cancelled.table_id])).content.decode()
    assert f'href="{review_url}"' in page


def test_a_review_whose_task_failed_or_was_lost_is_queued_again_once_it_stalled(cast, sent, client):
    """A queued review of today's robot that nothing moved for STALLED (its task failed, or its
    message was lost) is queued again by the next visit — once, not at every poll."""
    from datetime import timedelta

    from django.utils import timezone

    game = play_out(start(cast), seed=5)
    sent.sent.clear()
    Review.objects.create(game=game, version=analysis.review_version())
    client.force_login(cast[0])
    url = reverse("reviews:review", args=[game.pk])
    client.get(url)
    assert sent.sent == []  # fresh: its task may still come
    Review.objects.filter(game=game).update(
        updated=timezone.now() - services.STALLED - timedelta(seconds=1)
    )
    client.get(url)
    client.get(url)
    assert sent.sent == [(receivers.REVIEW_TASK, (game.pk,))]
    assert services.review_partie(game_id=game.pk)
    assert Review.objects.get(game=game).status == Review.Status.READY
