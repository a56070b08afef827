"""The one place that sends to the channel layer (tests/site/test_code_rules.py holds every other
module to it): what a socket may receive is read in one file. Always after commit, always
thin: an event says *that* something changed, and each socket renders its own view; never a
card in a payload. The sockets' plumbing (groups, a word to one socket) goes through here too.

Groups: ``salle``; ``game-<id>-processes`` (each web process holding a socket of the game:
"game.changed", "game.listening"); ``game-<id>`` (each table socket, a spectator's too:
"game.ended", "game.presence", "game.revanche", "game.watchers", "game.phrase"); ``user-<id>``
("user.kicked", "user.sessions", "user.phrase"); one socket's channel ("socket.replaced",
"presence.lost"). Handlers are named after the type."""

import logging
import uuid
from typing import Protocol

from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)

SALLE_GROUP = "salle"


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def game_processes_group(game_id: int) -> str:
    return f"game-{game_id}-processes"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def salle_changed(*, started_table_id: int | None = None) -> None:
    """Tell every open salle to re-render, once the current transaction commits.

    `started_table_id` names a table that has just started, so consumers of its seated
    players send them to the table page.
    """
    transaction.on_commit(lambda: _send(SALLE_GROUP, _salle_event(started_table_id)))


def _salle_event(started_table_id: int | None) -> dict:
    """A salle change's event, named: the salle sockets of a process that hear it share what
    they show alike (games.display.salle_shared)."""
    return {
        "type": "salle.changed",
        "started_table_id": started_table_id,
        "change": uuid.uuid4().hex,
    }


def game_changed(game_id: int, version: int) -> None:
    """Game `game_id` is now at `version`: each player's socket renders its own view. One
    message per web process holding a socket of the game (games.live.push_fanout), unless the
    only such process is this one and it pushes the version itself (`LocalListeners.unheard`)."""
    event = {"type": "game.changed", "game_id": game_id, "version": version}
    transaction.on_commit(lambda: _send_game_changed(game_id, version, event))


class LocalListeners(Protocol):
    """This process's own listener of game changes (games.live.push_fanout's fan-out)."""

    def unheard(self, game_id: int, version: int) -> bool: ...

    def published(self, game_id: int, receivers: int) -> None: ...


#: Registered by games.live.push_fanout when this process's first table socket opens (it imports
#: this module, not the reverse); none in a process without sockets (a worker): every change
#: is sent.
_local_listeners: LocalListeners | None = None


def register_local_listeners(listeners: LocalListeners) -> None:
    global _local_listeners
    _local_listeners = listeners


def _send_game_changed(game_id: int, version: int, event: dict) -> None:
    listeners = _local_listeners
    if listeners is not None and listeners.unheard(game_id, version):
        return
    receivers = _send(game_processes_group(game_id), event)
    if listeners is not None and receivers is not None:
        listeners.published(game_id, receivers)


def game_ended(game_id: int, *, status: str, reason: dict) -> None:
    """The game finished (its sockets render the partie-over screen) or was cancelled (its
    sockets send their players to the salle, with `reason`: a code, rendered by each socket
    in its reader's language)."""
    event = {"type": "game.ended", "game_id": game_id, "status": status, "reason": reason}
    transaction.on_commit(lambda: _send(game_group(game_id), event))


def presence_changed(game_id: int) -> None:
    """A seat of the game went away or came back: each socket re-renders (the countdown)."""
    event = {"type": "game.presence", "game_id": game_id}
    transaction.on_commit(lambda: _send(game_group(game_id), event))


def revanche_changed(game_id: int, *, table_id: int | None = None) -> None:
    """The revanche offered after game `game_id` changed (an answer, a lapse), or started at
    `table_id`: each socket of the ended game re-renders, or goes to the new table."""
    event = {"type": "game.revanche", "game_id": game_id, "table_id": table_id}
    transaction.on_commit(lambda: _send(game_group(game_id), event))


def phrase_said(
    *, game_id: int | None, user_ids: list[int], phrase: dict, muted_by: list[int]
) -> None:
    """A quick phrase was said (docs/phrases.md): `phrase` its ids and speaker's name, never
    its text, each socket rendering it in its reader's language unless its reader is one of
    `muted_by`. At a partie, every socket of the game (players and spectators); before the
    partie, the other seated players' sockets (`user_ids`)."""
    if game_id is not None:
        event = {"type": "game.phrase", "phrase": phrase, "muted_by": muted_by}
        transaction.on_commit(lambda: _send(game_group(game_id), event))
        return
    event = {"type": "user.phrase", "phrase": phrase, "muted_by": muted_by}
    for user_id in user_ids:
        transaction.on_commit(lambda user_id=user_id: _send(user_group(user_id), event))


def user_kicked(user_id: int, reason: str) -> None:
    """Close every socket of this user (after sending its page to the login page)."""
    event = {"type": "user.kicked", "reason": reason}
    transaction.on_commit(lambda: _send(user_group(user_id), event))


def sessions_changed(user_id: int, *, ended_session_key: str | None = None) -> None:
    """A session of this user ended (`ended_session_key`), or may have (the user changed):
    each of the user's sockets checks its own session and closes if it ended."""
    event = {"type": "user.sessions", "ended_session_key": ended_session_key}
    transaction.on_commit(lambda: _send(user_group(user_id), event))


def _send(group: str, event: dict) -> int | None:
    """Best effort, after the commit: the write is done whatever happens here. If the channel
    layer is down (Redis restarting), the players catch up at their socket's reconnection, which
    always gets a full render; the writer must not see an error for a write that succeeded.
    Returns how many processes the event reached, None if it was not sent."""
    layer = get_channel_layer()
    if layer is None:
        return None
    try:
        return layer.group_send_blocking(group, event)  # core.channel_layer
    except Exception:
        log.warning("channel layer: %s to %s not sent", event.get("type"), group, exc_info=True)
        return None


# The sockets' plumbing, awaited on the event loop. `layer`: the caller's own (the fan-out's).
async def join(group: str, channel: str, layer=None) -> None:
    await (layer or get_channel_layer()).group_add(group, channel)


async def leave(group: str, channel: str, layer=None) -> None:
    await (layer or get_channel_layer()).group_discard(group, channel)


async def process_listening(game_id: int, channel: str, layer=None) -> None:
    """A process's first socket of the game opened: one that decides the game's moves alone
    hears that it no longer is (games.live.push_fanout)."""
    event = {"type": "game.listening", "game_id": game_id, "by": channel}
    await (layer or get_channel_layer()).group_send(game_processes_group(game_id), event)


async def watchers_changed(game_id: int, layer=None) -> None:
    """Someone began or stopped watching the game: its players' sockets redraw who watches."""
    event = {"type": "game.watchers", "game_id": game_id}
    await (layer or get_channel_layer()).group_send(game_group(game_id), event)


async def socket_replaced(channel: str) -> None:
    await get_channel_layer().send(channel, {"type": "socket.replaced"})


async def presence_lost(channel: str) -> None:
    await get_channel_layer().send(channel, {"type": "presence.lost"})
