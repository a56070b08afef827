"""A quick phrase, however it came: the talk form POSTed (games.views.phrase_say) or sent up the
player's table socket (games.live.consumers.TableConsumer). Both go through `say`, so the pace
limit, the moment and the answer are the same (docs/phrases.md).

The answer is the speaker's own: the phrase appended to their log, or the refusal in the talk
section's note, with the status a POST answers with (200, 403, 422, 429)."""

from dataclasses import dataclass

from django.utils.translation import gettext as _

from core import ratelimit
from games import selectors
from games.display import talk
from games.phrases import PHRASES, said_event
from games.services import phrases
from games.services.errors import Refused

#: One phrase per player per PHRASE_SECONDS, whatever the tab or the way it came.
PHRASE_SECONDS = 3
PHRASES_PER_USER = ratelimit.Limit("phrases", count=1, seconds=PHRASE_SECONDS)


@dataclass(frozen=True)
class Answer:
    status: int
    html: str
    message: str = ""  # a refusal's, for a page without htmx


def say(*, user, table_id: int, phrase) -> Answer:
    """Say `phrase` (an id) at the table, unless the player said one less than PHRASE_SECONDS
    ago or a hand is being played. An id not in the list is refused before it counts."""
    phrase = str(phrase or "")
    if phrase not in PHRASES:
        return refused(phrases.PhraseRefused(_("Cette phrase n’existe pas.")))
    if ratelimit.hit(PHRASES_PER_USER, user.pk):
        wait = ratelimit.retry_after(PHRASES_PER_USER, user.pk)
        message = _("Une phrase toutes les %(limit)s secondes : attendez encore %(wait)s s.") % {
            "limit": PHRASE_SECONDS,
            "wait": wait,
        }
        return Answer(429, talk.talk_note(message), message)
    try:
        said = phrases.phrase_say(user=user, table_id=table_id, phrase=phrase)
    except Refused as error:
        return refused(error)
    event = said_event(said)
    return Answer(200, talk.said_fragment(event, talk.SPEAKER) + talk.talk_note(""))


def mute(*, user, table_id: int, seat, muted: bool) -> Answer:
    """Mute (or unmute) the player at `seat` for this partie; the answer is the talk section
    again, without their phrases."""
    try:
        phrases.phrase_mute(user=user, table_id=table_id, seat=_number(seat), muted=muted)
    except Refused as error:
        return refused(error)
    return Answer(200, section(user=user, table_id=table_id, oob=True))


def report(*, user, table_id: int, phrase_id) -> Answer:
    """« Signaler »: the phrase goes to the moderators, once per player."""
    try:
        phrases.phrase_report(user=user, table_id=table_id, phrase_id=_number(phrase_id))
    except Refused as error:
        return refused(error)
    message = _("Merci : la phrase est signalée aux modérateurs.")
    return Answer(200, talk.reported_fragment(_number(phrase_id), message))


def refused(error: Refused) -> Answer:
    return Answer(error.status, talk.talk_note(error.message), error.message)


def section(*, user, table_id: int, oob: bool = False, csrf_token: str = "") -> str:
    """The talk section as this player sees it."""
    seats = selectors.phrase_seats(table_id)
    muted = selectors.phrase_muted_ids(table_id=table_id, user=user)
    context = talk.talk_context(table_id, seats=seats, viewer_id=user.pk, muted=muted)
    if selectors.table_is_open(table_id):  # before the partie: the salle's « Votre table »
        context = talk.in_the_salle(context)
    return talk.talk_section(context, csrf_token, oob=oob)


def _number(value) -> int:
    text = str(value)
    if not text.isdigit() or len(text) > 9:
        raise phrases.PhraseRefused(_("Cette demande n’est pas valable."))
    return int(text)
