"""A practice hint in the reader's language: the robot's suggestion with its one-line reason,
and the hand's exact strength lance by lance (games.services.hints)."""

import math
from typing import Any

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from games import vocabulary
from games.display.replay import action_text


def pct(share: float) -> int:
    return round(100 * share)


def share_beaten(share: float) -> int:
    """A share of hands beaten, rounded down: 100 % only when no hand is as good."""
    return math.floor(100 * share + 1e-9)


def reason_text(reason: dict[str, Any]) -> str:
    kind = reason["kind"]
    if kind in ("mus", "cut"):
        text = _("votre main est meilleure que %(p)s %% des mains")
        return text % {"p": share_beaten(reason["percentile"])}
    if kind == "discard":
        names = ", ".join(vocabulary.card_name(c) for c in reason["kept"])
        return _("il garde %(cards)s : ce qui laisse la meilleure main attendue") % {
            "cards": names or "—"
        }
    if reason.get("beats") is None:
        return _("votre main ne joue pas %(at_lance)s") % {
            "at_lance": vocabulary.at_lance(reason.get("lance"))
        }
    return _("votre main %(at_lance)s bat %(p)s %% des mains") % {
        "at_lance": vocabulary.at_lance(reason["lance"]),
        "p": share_beaten(reason["beats"]),
    }


def strength_lines(strength: dict[str, Any], lance_in_play: str | None) -> list[dict[str, Any]]:
    lines = []
    for lance, share in strength["beats"].items():
        if share is None:
            continue
        if lance in ("paires", "jeu"):
            text = _("Votre main %(at_lance)s bat %(p)s %% des mains qui y jouent")
        elif lance == "point":
            text = _("Votre main %(at_lance)s bat %(p)s %% des mains sans Jeu")
        else:
            text = _("Votre main %(at_lance)s bat %(p)s %% des mains")
        text = text % {"at_lance": vocabulary.at_lance(lance), "p": share_beaten(share)}
        lines.append({"text": text, "current": lance == lance_in_play})
    for lance, chance in strength["none_hold"].items():
        text = _("Probabilité qu’aucun adversaire n’ait %(lance)s : %(p)s %%") % {
            "lance": vocabulary.lance_name(lance),
            "p": pct(chance),
        }
        lines.append({"text": text, "current": False})
    return lines


def hint_fragment(hint: dict[str, Any] | None, refusal: str = "") -> str:
    """The hint box (swapped into #tpanel-hint), or the refusal in its place."""
    context: dict[str, Any] = {"refusal": refusal}
    if hint is not None:
        advice = hint["advice"]
        context.update(
            {
                "action": action_text(advice["action"]),
                "why": reason_text(advice["reason"]),
                "lines": strength_lines(hint["strength"], hint["lance"]),
            }
        )
    return render_to_string("games/_hint.html", context)
