"""Helpers of the spectators' tests (« Regarder », docs/spectators.md)."""

from tests.sockets import connect


def watch_path(table_id) -> str:
    return f"/ws/tables/{table_id}/regarder/"


def public_cards(state: dict) -> set[str]:
    """The cards a spectator may see now: the four hands once the table shows them at the end
    of a hand, else none."""
    shown = state["hand"].get("hands_shown")
    if state["hand"].get("closed") and shown:
        return {c for cards in shown.values() for c in cards}
    return set()


async def receive_watch_version(communicator, version, timeout=5):
    """The next spectator push showing `version` (older ones, and other messages, skipped)."""
    while True:
        payload = await communicator.receive_from(timeout=timeout)
        if f'id="watch-version" data-version="{version}"' in payload:
            return payload


async def watching(user, table_id):
    communicator, connected = await connect(user, path=watch_path(table_id))
    assert connected
    await communicator.receive_from(timeout=5)
    return communicator
