"""The Jinja2 parts of the table (templates/jinja2/games/) in the Django pages, so that each is
written once: ``{% region "scoreboard" %}`` on the table page (what a push sends for that
region, without hx-swap-oob), ``{% jinja_macro "games/_table_parts.html" "card_face" card %}``
where another page draws a card."""

from django import template
from django.utils.safestring import SafeString, mark_safe

from core import jinja
from games.display import table_view

register = template.Library()


@register.simple_tag(takes_context=True)
def region(context, name: str) -> SafeString:
    values = table_view.with_csrf_token(context.flatten(), context.get("request"))
    return mark_safe(table_view.render_region(name, values))


@register.simple_tag
def jinja_macro(template_name: str, macro_name: str, *args) -> SafeString:
    return mark_safe(jinja.macro(template_name, macro_name, *args))
