"""Each decision's button names its key (static/js/shortcuts.js): one key per decision, shown on
the button and declared to assistive technology, outside the button's name."""

from games.display.panel import decision_buttons, shortcut_key
from tests.presentation import observations as O
from tests.presentation.helpers import parse_forms, render_partial

EVERY_DECISION = [
    {"type": "mus"},
    {"type": "cut"},
    {"type": "discard", "min": 1, "max": 4},
    {"type": "pass"},
    {"type": "hold"},
    {"type": "refuse"},
    {"type": "bet", "min": 2, "max": 40},
    {"type": "raise", "min": 3, "max": 40},
    {"type": "ordago"},
]


def test_no_two_decisions_share_a_key():
    keys = [button["key"] for button in decision_buttons(EVERY_DECISION)]  # type: ignore[arg-type]
    keys.append(shortcut_key("deal"))
    assert keys == ["M", "C", "E", "P", "T", "N", "2", "5", "1", "S", "R", "O", "D"]
    assert len(set(keys)) == len(keys)


def test_the_key_is_shown_on_the_button_and_not_in_its_name():
    html = render_partial("decision-panel", O.base(0), O.PLAYERS, 0)
    buttons = [b for form in parse_forms(html) for b in form["buttons"]]
    assert [(b["text"].strip(), b["key"], b["attrs"]["aria-keyshortcuts"]) for b in buttons] == [
        ("Mus", "M", "M"),
        ("Je coupe", "C", "C"),
    ]
    assert html.count('<kbd class="tbtn__key" aria-hidden="true">') == 2
