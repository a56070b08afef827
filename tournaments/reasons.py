"""Why a tournament was cancelled and why a partie counted without a winner at the table: the
models store a code and its parameters, and each reader reads them in their own language (the
sweep that writes them runs in no reader's language)."""

from django.utils.translation import gettext_lazy as _

from games import vocabulary

STATE_REASONS = {
    "too_few_pairs": _("Moins de deux parejas ont confirmé leur présence."),
}

#: A partie's own notes; a partie cancelled at its table keeps the game's end reason instead
#: (games.vocabulary.END_REASONS).
PARTIE_NOTES = {
    "absent_at_opening": _("Pareja absente à l’ouverture de la table."),
    "no_show": _("Pareja absente %(minutes)s minutes après l’ouverture de la table."),
}


def reason(code: str, **params: object) -> dict[str, object]:
    """What Tournament.state_reason or MatchPartie.note stores."""
    assert code in STATE_REASONS or code in PARTIE_NOTES, code
    return {"code": code, **params}


def state_reason_text(stored: object) -> str:
    return vocabulary.coded_text(STATE_REASONS, stored)


def partie_note_text(stored: object) -> str:
    if isinstance(stored, dict) and stored.get("code") in PARTIE_NOTES:
        return vocabulary.coded_text(PARTIE_NOTES, stored)
    return vocabulary.end_reason_text(stored)
