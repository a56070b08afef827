"""The games this process's table sockets render, each loaded once per version.

At every move the four players' sockets render the same game version at the same moment; without
this, each socket would load the game and its seats for itself. A cached game is only ever read
(rendered), never changed or saved: a decision that starts from it
(games.services.locks.game_to_play_from) works on a copy, cached in turn once committed. Sockets
ask for "at least version v" (the version in the event), so a newer copy always wins and another
web process's writes are never hidden: the event names them.
"""

import threading
from collections import OrderedDict

from games import selectors
from games.models import Game

CAPACITY = 512  # games kept per process: a few hundred live tables at most per web process

_games: OrderedDict[int, Game] = OrderedDict()
_tables: dict[int, int] = {}  # table id -> id of its game in _games (a table has one game)
_guard = threading.Lock()
_load_locks: dict[int, threading.Lock] = {}


def game_for_render(game_id: int, *, min_version: int | None = None) -> Game | None:
    """The game with its table and seats, at `min_version` or later from the cache, else loaded.
    `min_version=None` always loads, and keeps nothing (a connect, a presence change, an ending:
    what changed is not in the version, and the next push names a newer one): a thousand idle
    sockets' connects once held a copy of every table in each process."""
    if min_version is None:
        return selectors.game_with_seats(game_id)
    if (game := _cached(game_id, min_version)) is not None:
        return game
    with _load_lock(game_id):
        # Another socket of this game may have loaded it while this one waited.
        if (game := _cached(game_id, min_version)) is not None:
            return game
        game = selectors.game_with_seats(game_id)
        if game is not None:
            _store(game)
        return game


def cached(game_id: int, min_version: int) -> Game | None:
    """The cached game at `min_version` or later, or None: never a query."""
    return _cached(game_id, min_version)


def latest(*, game_id: int | None = None, table_id: int | None = None) -> Game | None:
    """The cached copy of a game (by its id or its table's), whatever its version, or None:
    never a query. A decision locks the row and reuses this copy only if it is still the
    game's current version (games.services.locks.game_to_play_from)."""
    with _guard:
        if game_id is None and table_id is not None:
            game_id = _tables.get(table_id)
        return _games.get(game_id) if game_id is not None else None


def remember(game: Game) -> None:
    """A game just saved by this process, with its table and seats (the decision's own copy):
    the sockets rendering its version need not load it."""
    _store(game)


def forget_all() -> None:
    """Empty the cache (tests)."""
    with _guard:
        _games.clear()
        _tables.clear()
        _load_locks.clear()


def _cached(game_id: int, min_version: int) -> Game | None:
    with _guard:
        game = _games.get(game_id)
        if game is None or game.version < min_version:
            return None
        _games.move_to_end(game_id)
        return game


def _store(game: Game) -> None:
    with _guard:
        current = _games.get(game.pk)
        if current is None or current.version <= game.version:
            _games[game.pk] = game
            _games.move_to_end(game.pk)
            _tables[game.table_id] = game.pk
        while len(_games) > CAPACITY:
            old_id, old = _games.popitem(last=False)
            _tables.pop(old.table_id, None)
            _load_locks.pop(old_id, None)


def _load_lock(game_id: int) -> threading.Lock:
    with _guard:
        return _load_locks.setdefault(game_id, threading.Lock())
