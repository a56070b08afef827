"""The table sockets' shared cache: one load per game version for the four players' pushes."""

import pytest

from games.display import game_cache
from games.models import Game

pytestmark = pytest.mark.django_db


def test_four_pushes_of_one_version_load_the_game_once(
    cast, started_game, django_assert_num_queries
):
    with django_assert_num_queries(2):  # the game with its table, then its seats
        for _ in range(4):
            loaded = game_cache.game_for_render(started_game.pk, min_version=started_game.version)
    assert loaded.pk == started_game.pk and loaded.version == started_game.version


def test_a_newer_version_is_loaded_again(cast, started_game, django_assert_num_queries):
    game_cache.game_for_render(started_game.pk, min_version=0)
    Game.objects.filter(pk=started_game.pk).update(version=1)
    with django_assert_num_queries(2):
        loaded = game_cache.game_for_render(started_game.pk, min_version=1)
    assert loaded.version == 1
    with django_assert_num_queries(0):
        assert game_cache.game_for_render(started_game.pk, min_version=0).version == 1


def test_without_a_version_the_game_is_always_loaded(cast, started_game, django_assert_num_queries):
    game_cache.game_for_render(started_game.pk, min_version=0)
    with django_assert_num_queries(2):
        game_cache.game_for_render(started_game.pk)


def test_a_load_without_a_version_is_not_kept(cast, started_game):
    """A connect's render: the idle sockets of a thousand tables keep no copy of their games."""
    game_cache.game_for_render(started_game.pk)
    assert started_game.pk not in game_cache._games


def test_an_older_copy_never_replaces_a_newer_one(cast, started_game):
    Game.objects.filter(pk=started_game.pk).update(version=3)
    game_cache.game_for_render(started_game.pk, min_version=3)
    stale = Game.objects.get(pk=started_game.pk)
    stale.version = 2
    game_cache._store(stale)
    assert game_cache.game_for_render(started_game.pk, min_version=0).version == 3


def test_the_cache_keeps_a_bounded_number_of_games(cast, started_game, monkeypatch):
    monkeypatch.setattr(game_cache, "CAPACITY", 1)
    game_cache.game_for_render(started_game.pk, min_version=0)
    other = Game.objects.get(pk=started_game.pk)
    other.pk = started_game.pk + 10_000  # a second key, never saved
    game_cache._store(other)
    assert list(game_cache._games) == [other.pk]
