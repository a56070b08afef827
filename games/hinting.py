"""One « Conseil » at a practice table, however it was asked: the panel's button POSTed
(games.views.hint) or the same request up the table socket (games.live.consumers). Both answer
here, so the refusal is the same: at a table with another person, no hint."""

from games.display import hints as hint_display
from games.services import hints
from games.services.errors import Refused


def hint_answer(user, table_id: int) -> tuple[int, str]:
    """(HTTP status, the hint box or the refusal in its place)."""
    try:
        found = hints.practice_hint(user=user, table_id=table_id)
    except Refused as error:
        return error.status, hint_display.hint_fragment(None, error.message)
    return 200, hint_display.hint_fragment(found)


def hint_html(user, table_id: int) -> str:
    return hint_answer(user, table_id)[1]
