"""The table's quick phrases (docs/phrases.md): a fixed list, said by id and rendered in each
reader's language, because free text at a Mus table would carry signs. A leaf like vocabulary:
the services, the display and the robots' answers all read it.

The order is the picker's; an id once shipped is kept (the log stores it)."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

#: id -> the phrase, in French (the source language). At most MAX_PHRASES.
PHRASES = {
    "hello": pgettext_lazy("quick phrase: a greeting at the table", "Bonjour à tous !"),
    "ready": pgettext_lazy("quick phrase: ready to play", "Prêt !"),
    "luck": pgettext_lazy("quick phrase: good luck, the Mus players' « Suerte »", "Suerte !"),
    "good_one": pgettext_lazy("quick phrase: a good play, the Mus players' « Buena »", "Buena !"),
    "well_played": pgettext_lazy("quick phrase: praise", "Bien joué !"),
    "bravo": pgettext_lazy("quick phrase: congratulations", "Bravo !"),
    "unlucky": pgettext_lazy("quick phrase: consolation", "Pas de chance !"),
    "sorry_partner": pgettext_lazy(
        "quick phrase: an apology to one's partner", "Pardon, partenaire !"
    ),
    "laugh": pgettext_lazy("quick phrase: laughter", "Ha ha !"),
    "thanks": pgettext_lazy("quick phrase: thanks", "Merci !"),
    "one_moment": pgettext_lazy(
        "quick phrase: asking the table to wait", "Un instant, s’il vous plaît."
    ),
    "good_game": pgettext_lazy("quick phrase: at the end of a partie", "Bonne partie !"),
    "revanche": pgettext_lazy("quick phrase: asking for a rematch", "Revanche ?"),
    "must_go": pgettext_lazy("quick phrase: leaving soon", "Je dois partir."),
    "bye": pgettext_lazy("quick phrase: the Basque goodbye", "Agur !"),
}

MAX_PHRASES = 16
#: The longest id (TablePhrase.phrase's max_length).
ID_MAX_LENGTH = 16

#: What a robot answers, and to what: games.engine.robot_talk. The moments a phrase may be
#: said (docs/phrases.md): before the partie, on the score screen between two hands, after the
#: end.
REFUSED_DURING_HAND = _(
    "Les phrases se disent entre les mains : avant la partie, sur l’écran du score ou après la "
    "fin, jamais pendant une main."
)


def phrase_text(phrase_id: str) -> str:
    """The phrase in the active language ("" for an id no longer known)."""
    text = PHRASES.get(phrase_id)
    return str(text) if text is not None else ""


def said_event(said) -> dict:
    """A said phrase (a games.models.TablePhrase) as the sockets get it: ids and the speaker's
    name, never the words, rendered by each socket in its reader's language."""
    return {
        "pk": said.pk,
        "table_id": said.table_id,
        "seat": said.seat,
        "user_id": said.user_id,
        "name": said.user.username,
        "phrase": said.phrase,
        "robot": said.robot,
        "hand": said.hand_number,
    }
