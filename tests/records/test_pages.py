"""The records' pages: the partie page (its replay's states are the engine's observations at
each step; nothing before the end), the profile and the classement (constant query counts),
privacy and bad input."""

import re

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import engine
from games.display.replay import initial_state
from games.engine.random_play import DEFAULT_WEIGHTS
from games.models import Game, GameAction, GameSeat
from records import selectors
from tests.games.helpers import leaked_cards
from tests.records.helpers import cancel_by_absence, play_out, start

pytestmark = pytest.mark.django_db(transaction=True)

SEAT_CARDS = re.compile(r'data-seat="(\d)" data-cards="([^"]*)"')
STEP = re.compile(r'class="replay-state" data-step="(\d+)"')


def engine_states(game):
    state = initial_state(game)
    states = [state]
    for row in GameAction.objects.filter(game=game, kind="play").order_by("seq"):
        state = engine.apply(state, row.seat, row.payload)
        states.append(state)
    return states


def test_the_replay_shows_at_each_step_what_the_engine_says_each_seat_held(cast, client):
    game = play_out(
        start(cast), seed=5, weights=dict(DEFAULT_WEIGHTS, ordago=2, ordago_vote=0, mus=90)
    )
    client.force_login(cast[1])
    url = reverse("records:partie", args=[game.pk])
    states = engine_states(game)
    assert len(states) > 20
    assert GameAction.objects.filter(game=game, payload__type="discard").exists()
    for step, state in enumerate(states):
        page = client.get(url, {"step": step}).content.decode()
        assert STEP.search(page).group(1) == str(step)
        shown = {int(seat): cards.split() for seat, cards in SEAT_CARDS.findall(page)}
        assert shown == {s: engine.observation(state, s)["my_cards"] for s in range(4)}
    assert json_final(states) == game.state


def json_final(states):
    import json

    return json.loads(json.dumps(states[-1]))


def test_the_partie_page_has_every_hand_explained_and_the_check_command(cast, client):
    game = play_out(start(cast), seed=6)
    client.force_login(cast[0])
    page = client.get(reverse("records:partie", args=[game.pk])).content.decode()
    hands = len(game.state["hands"])
    assert page.count('class="partie-hand"') == hands
    assert "python -m games.engine fairness verify dossier.json" in page
    assert page.count("score-lances__row") >= hands
    # Out of range or not a number: the nearest step, never an error.
    url = reverse("records:partie", args=[game.pk])
    end_screen = client.get(reverse("games:table", args=[game.table_id])).content.decode()
    assert f'href="{url}"' in end_screen
    assert f'href="{reverse("records:profile", args=["dani"])}"' in end_screen
    for step in ("-4", "99999", "abc"):
        assert client.get(url, {"step": step}).status_code == 200


def test_a_partie_won_on_a_held_ordago_says_so_beside_its_score(cast, client):
    game = play_out(start(cast), seed=6)
    assert max(game.state["scores"]) < 40, "seed 6 ends on a held órdago"
    client.force_login(cast[0])
    page = client.get(reverse("records:partie", args=[game.pk])).content.decode()
    assert re.search(
        r"Score final : <strong>\d+ – \d+</strong> — gagnée sur un órdago tenu (au|aux) ", page
    )
    table = client.get(reverse("games:table", args=[game.table_id])).content.decode()
    assert "— gagnée sur un órdago tenu" in table


def test_during_the_partie_the_page_shows_nothing_the_table_does_not(cast, client):
    game = start(cast)
    for viewer in cast:
        client.force_login(viewer)
        seat = GameSeat.objects.get(game=game, user=viewer).number
        for url in (
            reverse("records:partie", args=[game.pk]),
            reverse("records:profile", args=[viewer.username]),
            reverse("records:profile", args=[cast[(seat + 1) % 4].username]),
            reverse("records:classement"),
        ):
            response = client.get(url)
            assert response.status_code == 200
            body = response.content.decode()
            assert not leaked_cards(body, set(game.state["hand"]["cards"][seat])), url
            assert "data-cards" not in body


def test_a_partie_is_for_its_players_and_staff_only(cast, make_user, client):
    game = cancel_by_absence(start(cast), seat=2)
    url = reverse("records:partie", args=[game.pk])
    client.force_login(make_user("eve"))
    assert client.get(url).status_code == 404
    assert client.get(reverse("records:partie", args=[game.pk + 1000])).status_code == 404
    assert client.get(reverse("records:profile", args=["personne"])).status_code == 404
    modo = make_user("modo", is_staff=True)
    modo.user_permissions.add(Permission.objects.get(codename="can_moderate"))
    client.force_login(modo)
    assert client.get(url).status_code == 200
    client.force_login(cast[2])
    assert client.get(url).status_code == 200


def test_the_profile_shows_counts_and_no_email(cast, client, make_user):
    ane, bixente, camille, dani = cast
    ane.email = "ane@example.org"
    ane.save()
    play_out(start(cast), seed=7)
    cancel_by_absence(start(cast), seat=0)
    training = start(cast)
    GameSeat.objects.filter(game=training, number=3).update(robot=True)
    play_out(training, seed=8)
    client.force_login(bixente)
    page = client.get(reverse("records:profile", args=["ane"])).content.decode()
    assert "ane@example.org" not in page
    profile = selectors.player_profile(ane, bixente)
    assert (profile.played, profile.cancelled, profile.abandoned, profile.training) == (2, 1, 1, 1)
    assert profile.won + profile.lost == 1 and profile.completion == 50
    assert profile.partners == [("camille", 2)]
    assert sorted(profile.opponents) == [("bixente", 2), ("dani", 2)]
    assert profile.favourite == "Mus · 4 rois"
    assert len(profile.history) == 2  # the start and one rated partie
    assert "<polyline" in page
    # SVG numbers are plain decimals, not the French « 45,2 » the template would write.
    svg = page[page.index("<svg") : page.index("</svg>")]
    for value in re.findall(r' (?:x|y|x1|y1|x2|y2|cx|cy)="([^"]*)"', svg):
        assert re.fullmatch(r"-?\d+(\.\d+)?", value), value


def queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_profile_and_classement_queries_do_not_grow_with_the_parties(cast, client, settings):
    from records import selectors as chosen

    chosen.CLASSEMENT_MIN_PARTIES = 1
    try:
        client.force_login(cast[0])
        profile = reverse("records:profile", args=["ane"])
        ranking = reverse("records:classement")
        play_out(start(cast), seed=9)
        one = (queries(client, profile), queries(client, ranking))
        for seed in (10, 11, 12):
            play_out(start(cast), seed=seed)
        cancel_by_absence(start(cast), seat=1)
        assert Game.objects.count() == 5
        assert (queries(client, profile), queries(client, ranking)) == one
    finally:
        chosen.CLASSEMENT_MIN_PARTIES = 5


def test_an_ended_partie_is_replayed_once_not_at_every_page(cast, client, monkeypatch):
    """The ended partie's rebuild is kept (games.display.partie.ended_replay): the next pages,
    at any step, read neither its log nor replay it."""
    from games.display import replay

    game = play_out(start(cast), seed=7)
    client.force_login(cast[0])
    url = reverse("records:partie", args=[game.pk])
    first = client.get(url).content.decode()
    applied = []
    real_apply = replay.engine.apply

    def counted(*args, **kwargs):
        applied.append(1)
        return real_apply(*args, **kwargs)

    monkeypatch.setattr(replay.engine, "apply", counted)
    with CaptureQueriesContext(connection) as captured:
        again = client.get(url).content.decode()
        client.get(url, {"step": 3})
    assert applied == []
    assert not [q for q in captured.captured_queries if "games_gameaction" in q["sql"]]
    csrf = re.compile(r'"X-CSRFToken": "[^"]*"|name="csrfmiddlewaretoken" value="[^"]*"')
    assert csrf.sub("", again) == csrf.sub("", first)


def test_the_profile_says_which_level_a_practice_partie_was_against(cast, client):
    training = start(cast)
    GameSeat.objects.filter(game=training, number=3).update(robot=True, robot_level="debutant")
    GameSeat.objects.filter(game=training, number=1).update(robot=True, robot_level="expert")
    play_out(training, seed=8)
    client.force_login(cast[0])
    page = client.get(reverse("records:profile", args=["ane"])).content.decode()
    assert "entraînement (robots Débutant, Expert)" in page
    line = selectors.player_profile(cast[0], cast[0]).last_parties[0]
    assert line.training and line.robot_levels == ["Débutant", "Expert"]
