"""The decision panel: the prompt and one form per decision the engine allows the viewer, each
with its shortcut key, and the cue that catches the eye outside the page."""

from typing import Any

from django.utils.translation import pgettext

from core import translations
from core.translations import gettext as _
from games import vocabulary
from games.display import answers
from games.display.view_model import View
from games.engine import ActionType, LegalAction, Observation

QUICK_BETS: tuple[int, ...] = (2, 5, 10)


def _button(kind: ActionType, css: str = "", **form: Any) -> View:
    """One form of the decision_button macro (games/_table_parts.html): posts ``type`` (and
    ``hidden`` / ``number`` fields); ``label`` defaults to the action's."""
    form.setdefault("label", vocabulary.action_label(kind))
    form.setdefault("key", shortcut_key(kind))
    # Every field the macro tests, even when empty: a missing key costs an Undefined each time.
    return {"type": kind, "button_class": f"tbtn {css}".strip(), **BUTTON_FIELDS, **form}


BUTTON_FIELDS: View = {
    "form_id": "",
    "form_class": "",
    "range": None,
    "hidden": None,
    "hint": "",
    "number": None,
}


def shortcut_key(kind: ActionType) -> str:
    """The key that presses a decision's button (static/js/shortcuts.js): a French mnemonic,
    one per decision, so no two buttons of a panel share one."""
    language = translations.language()
    keys = _shortcut_keys.get(language)
    if keys is None:
        keys = _shortcut_keys[language] = _translated_shortcut_keys()
    return keys[kind]


#: The shortcut keys by language, translated once (ten pgettext calls per button otherwise).
_shortcut_keys: dict[str | None, dict[ActionType, str]] = {}


def _translated_shortcut_keys() -> dict[ActionType, str]:
    return {
        "mus": pgettext("keyboard shortcut of Mus", "M"),
        "cut": pgettext("keyboard shortcut of Je coupe", "C"),
        "discard": pgettext("keyboard shortcut of Écarter", "E"),
        "pass": pgettext("keyboard shortcut of Je passe", "P"),
        "hold": pgettext("keyboard shortcut of Je tiens", "T"),
        "refuse": pgettext("keyboard shortcut of Je ne tiens pas", "N"),
        "bet": pgettext("keyboard shortcut of Mise (free amount)", "S"),
        "raise": pgettext("keyboard shortcut of Relancer", "R"),
        "ordago": pgettext("keyboard shortcut of Órdago", "O"),
        "deal": pgettext("keyboard shortcut of Distribuer la main suivante", "D"),
    }


def _amount_buttons(kind: ActionType, legal: LegalAction) -> list[View]:
    """A bet: one button per quick amount in the engine's range, then the free amount; a raise:
    the free amount only."""
    low, high = legal["min"], legal["max"]
    if kind == "bet":
        field, field_id, label = "amount", "bet-amount", _("Points (%(min)s à %(max)s)")
        quick = [
            _button(
                "bet",
                "tbtn--quick",
                label=_("Mise %(amount)s") % {"amount": q},
                form_class="form-quick",
                hidden={"name": "amount", "value": q},
                key=str(q)[0],  # the amount's first digit: 2, 5, 1 for 10
            )
            for q in QUICK_BETS
            if low <= q <= high
        ]
    else:
        field, field_id, label = "to", "raise-to", _("Relancer à (%(min)s à %(max)s)")
        quick = []
    number = {
        "id": field_id,
        "name": field,
        "label": label % {"min": low, "max": high},
        "min": low,
        "max": high,
    }
    return [*quick, _button(kind, form_class="form-amount", number=number)]


def decision_buttons(legal: list[LegalAction]) -> list[View]:
    """Every form of the panel, in the panel's order, built only from the engine's ``legal``."""
    by_type = {item["type"]: item for item in legal}
    buttons: list[View] = []
    order: tuple[tuple[ActionType, str], ...] = (
        ("mus", "tbtn--primary"),
        ("cut", ""),
        ("discard", "tbtn--primary"),
        ("pass", ""),
        ("hold", "tbtn--primary"),
        ("refuse", ""),
        ("bet", ""),
        ("raise", ""),
        ("ordago", "tbtn--ordago"),
    )
    for kind, css in order:
        item = by_type.get(kind)
        if item is None:
            continue
        if kind in ("bet", "raise"):
            buttons += _amount_buttons(kind, item)
        elif kind == "discard":
            hint = _("Cochez de %(min)s à %(max)s cartes dans votre main.")
            buttons.append(
                _button(
                    kind,
                    css,
                    form_id="discard-form",
                    range={"min": item["min"], "max": item["max"]},
                    hint=hint % {"min": item["min"], "max": item["max"]},
                )
            )
        else:
            buttons.append(_button(kind, css))
    return buttons


def attention_cue(observation: Observation) -> str:
    """What should catch the viewer's eye outside the page (static/js/attention.js: the title,
    a sound, a notification): "ordago" or "bet" when they must answer one, "turn" when they
    have any other decision, else ""."""
    types = {item["type"] for item in observation["legal"]} - {"deal"}
    if types & {"hold", "refuse"}:
        betting = observation["betting"]
        return "ordago" if betting and betting["stake"] == "ordago" else "bet"
    return "turn" if types else ""


def build_panel(
    observation: Observation, players: list[str], viewer: int, turn: View, host_seat: int | None
) -> View:
    """Region ``decision-panel``: a prompt and the forms, only from observation["legal"]."""
    legal = observation["legal"]
    types = {item["type"] for item in legal}
    prompt = ""
    if types & {"mus", "cut"}:
        prompt = _("Mus ou couper ?")
    elif "discard" in types:
        d = next(item for item in legal if item["type"] == "discard")
        prompt = _("Choisissez de %(min)s à %(max)s cartes à écarter.") % {
            "min": d["min"],
            "max": d["max"],
        }
    elif types & {"hold", "refuse"}:
        stake = observation["betting"]["stake"] if observation["betting"] else None
        amount = _("un órdago") if stake == "ordago" else vocabulary.points(stake or 0)
        prompt = _("On vous mise %(amount)s %(at_lance)s.") % {
            "amount": amount,
            "at_lance": vocabulary.at_lance(observation["lance"]),
        }
    elif types & {"pass", "bet"}:
        prompt = _("%(lance)s : à vous.") % {"lance": vocabulary.lance_name(observation["lance"])}
    # Both partners answer a bet at once: only what can still change the team's answer.
    legal, partner_note = answers.answer_choices(observation, viewer, players[(viewer + 2) % 4])
    discard_status = []
    if observation["phase"] == "discard":
        ready = observation["discard_ready"]
        discard_status = [
            {"name": players[(viewer + i) % 4], "ready": ready[(viewer + i) % 4]} for i in range(4)
        ]
    return {
        "version": observation["version"],
        "types": sorted(types),
        "active": bool(types - {"deal"}),
        "buttons": decision_buttons([item for item in legal if item["type"] != "deal"]),
        "deal": "deal" in types and host_seat in (None, viewer),
        "waiting": "" if turn["mine"] else turn["text"],
        "prompt": prompt,
        "cue": attention_cue(observation),
        "partner_note": partner_note,
        "discard_status": discard_status,
    }


def deal_button() -> View:
    """The host's « Distribuer » form, on the score screen."""
    return _button("deal", "tbtn--primary")
