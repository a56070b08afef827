"""The Jinja2 environment of the table's regions (core/jinja.py) writes what Django's engine
writes for the same template: its escaping, its translations (with and without variables, "%"
included), its dict lookups and missing names. Each case is rendered by both engines."""

import contextlib

import pytest
from django.template import Context, Template
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import trans_real

from core import translations
from core.jinja import ENV
from core.translations import one_language

VALUES = {
    "text": 'Personne n\'a "encore" <misé> & rien',
    "safe": mark_safe("<b>déjà sûr</b>"),
    "number": 12,
    "nothing": None,
    "yes": True,
    "decl": {"items": ["Ane"], "lance": "Grand"},
    "hands": [1, 2],
}

#: (Django, Jinja2) sources that must render alike.
CASES = [
    ("{{ text }}|{{ safe }}|{{ number }}|{{ nothing }}|{{ yes }}", None),
    ("{{ missing }}|{{ decl.missing }}|{{ missing.deeper }}", None),
    ("{% for name in decl.items %}{{ name }}{% endfor %} {{ decl.lance }}", None),
    (
        '{% load i18n %}<p title="{% translate "Il n\'a rien dit" %}">'
        '{% translate "À vous." %}</p>',
        '<p title="{{ _("Il n\'a rien dit") }}">{{ _("À vous.") }}</p>',
    ),
    (
        '{% load i18n %}{% translate "L’offre tombe dans %s s." %}',
        '{{ _("L’offre tombe dans %s s.") }}',
    ),
    (
        "{% load i18n %}{% blocktranslate with name=text n=number %}{{ name }} : 100 % à {{ n }}, "
        "l'<b>hôte</b>{% endblocktranslate %}",
        "{% trans name=text, n=number %}{{ name }} : 100 % à {{ n }}, l'<b>hôte</b>{% endtrans %}",
    ),
    (
        "{% load i18n %}{% blocktranslate %}Sans variable : 100 %{% endblocktranslate %}",
        "{% trans %}Sans variable : 100 %{% endtrans %}",
    ),
    (
        "{% load i18n %}{% blocktranslate count n=hands|length %}{{ n }} main{% plural %}"
        "{{ n }} mains{% endblocktranslate %}",
        "{% trans n=hands|length %}{{ n }} main{% pluralize %}{{ n }} mains{% endtrans %}",
    ),
]


@pytest.mark.parametrize("pinned", [False, True], ids=["looked-up", "one-language"])
@pytest.mark.parametrize(("django_source", "jinja_source"), CASES)
def test_jinja_writes_what_django_writes(django_source, jinja_source, pinned):
    """... and the same within one_language (the catalog looked up once for many renders)."""
    expected = Template(django_source).render(Context(VALUES))
    with one_language() if pinned else contextlib.nullcontext():
        assert ENV.from_string(jinja_source or django_source).render(VALUES) == expected


def test_one_language_follows_the_language_active_when_it_starts():
    """A block entered under another language (here none: the messages as written) translates
    with it, and the language outside is back after it."""
    french = ENV.from_string('{{ _("À vous.") }}').render({})
    with translation.override(None), one_language():
        assert translations._pinned.value == (None, trans_real.catalog())
        assert ENV.from_string('{{ _("À vous.") }}').render({}) == "À vous."
    assert getattr(translations._pinned, "value", None) is None
    assert ENV.from_string('{{ _("À vous.") }}').render({}) == french
