"""{% pair_tournaments pair %}: a pair's tournaments on its page (records' template; records
does not import tournaments, which builds on it)."""

from django import template

from tournaments import selectors

register = template.Library()


@register.inclusion_tag("tournaments/_pair_history.html", takes_context=True)
def pair_tournaments(context, pair):
    return {"lines": selectors.pair_history(pair, context["request"].user)}
