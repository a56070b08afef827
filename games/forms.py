"""The table's posted decision form -> (version, engine action). Only the shape is checked here
(known type, integers where integers go); whether the action is legal is the engine's call.
Also the choices of the salle's "open a table" form that are not plain model choices."""

from django.conf import settings
from django.http import QueryDict
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Table
from games.services.errors import Refused

MESSAGE_MALFORMED = _("Action incompréhensible : rechargez la page.")
MESSAGE_UNKNOWN = _("Action inconnue.")
MESSAGE_AMOUNT = _("Indiquez un nombre entier de points.")
MESSAGE_CARDS = _("Choisissez de 1 à 4 cartes de votre main.")

SIMPLE_TYPES = frozenset({"mus", "cut", "pass", "ordago", "hold", "refuse", "deal"})
AMOUNT_FIELDS = {"bet": "amount", "raise": "to"}


class ActionFormError(Refused):
    """A posted decision whose shape is wrong (answered 422 with the table's regions)."""


def parse_decision(data: QueryDict) -> tuple[int, dict]:
    """The version the form was rendered at, and the engine action it asks for."""
    version = _integer(data.get("version"), MESSAGE_MALFORMED)
    kind = data.get("type", "")
    if kind in SIMPLE_TYPES:
        return version, {"type": kind}
    if kind in AMOUNT_FIELDS:
        field = AMOUNT_FIELDS[kind]
        return version, {"type": kind, field: _integer(data.get(field), MESSAGE_AMOUNT)}
    if kind == "discard":
        cards = data.getlist("cards")
        if not 1 <= len(cards) <= 4 or not all(isinstance(c, str) and c for c in cards):
            raise ActionFormError(MESSAGE_CARDS)
        return version, {"type": "discard", "cards": cards}
    raise ActionFormError(MESSAGE_UNKNOWN)


def _integer(value, message: str) -> int:
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise ActionFormError(message) from None
    if not -(2**31) < number < 2**31:
        raise ActionFormError(message)
    return number


def min_completion(value) -> int | None:
    """The host's minimum completion rate from the "open a table" form: blank or absent is
    no requirement; anything else the service checks (a number from 1 to 100), -1 if not a
    number at all."""
    text = str(value or "").strip().rstrip("%").strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        return -1


#: The "open a table" form's « Spectateurs » choice: None (the table's own default: admitted
#: at a public table, not at a private one), admitted even at a private table, or none.
SPECTATOR_CHOICES = {"": None, "oui": True, "non": False}


def spectators(value) -> bool | None:
    """Whether the table being opened admits spectators (SPECTATOR_CHOICES); an unknown value
    is the default."""
    return SPECTATOR_CHOICES.get(str(value or ""))


def spectator_choices() -> list[tuple[str, str]]:
    """(value, label) of the form's « Spectateurs » select, the default first."""
    return [
        ("", gettext("Admis si la table est publique")),
        ("oui", gettext("Admis, même à une table privée")),
        ("non", gettext("Sans spectateurs")),
    ]


def clock_choices() -> list[tuple[str, str]]:
    """(value, label) of each turn clock a table may be opened with, in the order of
    Table.Clock, labelled with its seconds from settings.TURN_CLOCKS, e.g. « Rapide (15 s + 1 min
    de réserve) ». The field is named "clock"; settings.TURN_CLOCK_DEFAULT is checked."""
    choices = []
    for value, name in Table.Clock.choices:
        turn, reserve = settings.TURN_CLOCKS[value]
        label = gettext("%(speed)s (%(turn)s + %(reserve)s de réserve)") % {
            "speed": name,
            "turn": duration_text(turn),
            "reserve": duration_text(reserve),
        }
        choices.append((value, label))
    return choices


def duration_text(seconds: float) -> str:
    """« 15 s », « 1 min », « 1 min 30 s »: a clock's duration, as the salle writes it."""
    minutes, rest = divmod(round(seconds), 60)
    if not minutes:
        text = gettext("%(seconds)d s")
    elif not rest:
        text = gettext("%(minutes)d min")
    else:
        text = gettext("%(minutes)d min %(seconds)d s")
    return str(text % {"minutes": minutes, "seconds": rest})
