"""A decision played on the web process's cached copy of the game (games.display.game_cache,
games.services.locks.game_to_play_from): only when the row locked is still at that copy's
version and its seats' absences, never by changing the copy other threads render."""

import copy
from datetime import timedelta

import pytest
from django.db import transaction
from django.http import QueryDict
from django.utils import timezone

from games import decisions
from games.display import game_cache
from games.engine import SeededShuffler
from games.models import Game, GameSeat
from games.services import errors, locks, play
from tests.games.helpers import LONG_PLAY, form_data, next_move, replayed

pytestmark = pytest.mark.django_db


def decide(user, game, version, action):
    data = QueryDict(mutable=True)
    for name, value in form_data(version, action).items():
        data.setlist(name, value if isinstance(value, list) else [value])
    return decisions.apply(user=user, table_id=game.table_id, data=data)


def cached(game) -> Game:
    return game_cache.game_for_render(game.pk, min_version=game.version)


def test_the_cached_version_is_played_on_a_copy_after_one_locking_query(
    cast, started_game, django_assert_num_queries, django_capture_on_commit_callbacks
):
    shown = cached(started_game)
    before = copy.deepcopy(shown.state)
    # savepoint, the row locked with its version and seats' deadlines, the log row's INSERT and
    # the game's UPDATE in one statement, release: neither the game nor its seats read again
    with django_assert_num_queries(4), django_capture_on_commit_callbacks(execute=True):
        played = decide(cast[0], started_game, 0, {"type": "mus"})
    assert played is not shown and played.version == 1
    assert played.state["actions"] == [[0, {"type": "mus"}]]
    assert [s.user.username for s in played.seats.all()] == [u.username for u in cast]
    # the copy other threads render is untouched; the decision's own copy replaces it
    assert shown.version == 0 and shown.state == before
    assert game_cache.latest(table_id=started_game.table_id) is played
    assert Game.objects.get(pk=started_game.pk).state == played.state


def test_a_copy_of_an_older_version_is_never_played_on(cast, started_game):
    cached(started_game)  # version 0
    # another process applies version 1: this one's copy is now stale
    play.game_apply_action(game_id=started_game.pk, user=cast[0], version=0, action={"type": "mus"})
    with pytest.raises(errors.StaleVersion):
        decide(cast[0], started_game, 0, {"type": "mus"})
    played = decide(cast[1], started_game, 1, {"type": "mus"})
    assert played.version == 2
    assert played.state["actions"] == [[0, {"type": "mus"}], [1, {"type": "mus"}]]


def test_an_absence_since_the_copy_is_read_again(cast, started_game):
    cached(started_game)
    deadline = timezone.now() + timedelta(seconds=60)
    GameSeat.objects.filter(game=started_game, number=2).update(
        away_since=timezone.now(), deadline=deadline
    )
    played = decide(cast[0], started_game, 0, {"type": "mus"})
    assert [s.deadline for s in played.seats.all()] == [None, None, deadline, None]


def test_the_copy_takes_the_clock_of_the_row(cast, started_game):
    shown = cached(started_game)
    clock = dict(shown.clock, scheduled=123)
    Game.objects.filter(pk=started_game.pk).update(clock=clock, turn_deadline=None)
    with transaction.atomic():
        locked = locks.game_to_play_from(shown)
    assert locked is not shown and locked.version == shown.version
    assert locked.clock == clock and locked.turn_deadline is None
    assert shown.clock.get("scheduled") != 123 and shown.turn_deadline is not None


def test_a_partie_played_on_cached_copies_is_the_partie_of_its_log(
    cast, started_game, django_capture_on_commit_callbacks
):
    """Each decision after the first starts from the previous one's copy: the state stored at
    every step is the one the engine derives, and the log replays to the stored state."""
    rng, game = SeededShuffler(11), started_game
    for _ in range(300):
        shown = game_cache.latest(game_id=game.pk) or game
        if shown.status != Game.Status.PLAYING:
            break
        seat, action = next_move(shown, rng, LONG_PLAY)
        with django_capture_on_commit_callbacks(execute=True):
            decide(cast[seat], game, shown.version, action)
        stored = Game.objects.get(pk=game.pk)
        assert game_cache.latest(game_id=game.pk).state == stored.state
    assert replayed(stored) == stored.state


def test_what_every_seat_renders_alike_is_worked_out_once_per_version_and_status(
    cast, started_game, django_assert_num_queries
):
    """fragments.table_context keeps the seats, names, links and shuffle panel on the game
    object for its version: the four renders of a version share them, and a copy played on (or
    a partie that ended) works them out again."""
    from games.display import fragments

    shown = cached(started_game)
    with django_assert_num_queries(0):
        first = fragments.table_context(shown, 0)
        second = fragments.table_context(shown, 1)
    assert first["fairness"] is second["fairness"]
    assert not first["fairness"]["ended"]

    played = decide(cast[0], started_game, 0, {"type": "mus"})
    after = fragments.table_context(played, 1)
    assert after["fairness"] is not first["fairness"]

    # a copy of the same version whose partie ended (a cancellation keeps the version)
    ended = copy.copy(played)
    ended.status = Game.Status.CANCELLED
    shown_ended = fragments.table_context(ended, 1)
    assert shown_ended["fairness"]["ended"] and shown_ended["fairness"]["dossier_url"]
    assert not fragments.table_context(played, 1)["fairness"]["ended"]


def test_what_two_partners_see_alike_is_built_once_and_is_what_each_would_see(cast, started_game):
    """The hand's log, the lance under way, the scoreboard and the past hands are built from
    public facts and the viewer's team: built for one partner, reused for the other, never for
    an opponent, and each viewer's table is the one built for them alone."""
    from games import engine
    from games.display import fragments, table_view
    from games.display.view_model import TableFacts

    played = decide(cast[0], started_game, 0, {"type": "mus"})
    contexts = [fragments.table_context(played, seat)["table_view"] for seat in range(4)]
    for name in ("log", "lance_status", "scoreboard", "past_hands"):
        assert contexts[0][name] is contexts[2][name] or isinstance(contexts[0][name], str)
        assert contexts[1][name] is contexts[3][name] or isinstance(contexts[1][name], str)
    assert contexts[0]["scoreboard"] != contexts[1]["scoreboard"]  # « Nous » first for each
    players = [s.user.username for s in played.seats.all()]
    for seat, view in enumerate(contexts):
        alone = table_view.build_table(
            TableFacts(
                engine.observation(played.state, seat),
                players,
                seat,
                host_seat=0,
                game_clock=played.clock,
                now_ms=0,
                robots=[False] * 4,
            )
        )
        for name in ("log", "lance_status", "scoreboard", "past_hands", "my_cards"):
            assert view[name] == alone[name], (seat, name)


def test_the_service_is_given_the_known_game_itself_and_uses_it_for_its_own_table_only(
    cast, started_game, django_assert_num_queries
):
    shown = cached(started_game)
    stranger = copy.copy(shown)  # a copy of some other table's game: never played on here
    stranger.pk, stranger.table_id = -1, -1
    played = play.game_apply_action(
        table_id=started_game.table_id,
        user=cast[0],
        version=0,
        action={"type": "mus"},
        known=stranger,
    )
    assert played.pk == started_game.pk and played.version == 1
    shown = cached(played)
    with django_assert_num_queries(4):  # the known copy reused: one locking query, no reads
        again = play.game_apply_action(
            table_id=started_game.table_id,
            user=cast[1],
            version=1,
            action={"type": "mus"},
            known=shown,
        )
    assert again is not shown and again.version == 2
