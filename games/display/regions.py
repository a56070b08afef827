"""The one render of the table: each region of the view model through its Jinja2 template
(templates/jinja2/games/regions/<name>.html), the page games/table.html included, and all of
them out of band for a push or a POST's answer."""

from typing import Any

from django.template.context_processors import csrf

from core import jinja
from games.display import hand_log, lance_status
from games.display.view_model import View

REGIONS: tuple[str, ...] = (
    "flash",
    "away-banner",
    "scoreboard",
    "table-seats",
    "lance-status",
    "my-hand",
    "decision-panel",
    "hand-log",
    "score-screen",
)


def render_regions(context: View, request: Any = None) -> str:
    """Every region of the table, each root with hx-swap-oob="true", one newline apart: one push
    / POST body. With a `request` (a POST's answer) the forms carry its CSRF token."""
    values = with_csrf_token(dict(context, oob=True), request)
    return "\n".join(render_region(name, values) for name in REGIONS)


def render_region(name: str, context: View) -> str:
    """One region of :data:`REGIONS` (templates/jinja2/games/regions/<name>.html, Jinja2: the
    table's regions are rendered by it, the page games/table.html included); the hand-log's
    and the lance-status's files hold their parts, written together by games.display.hand_log
    and games.display.lance_status."""
    if name == "hand-log":
        return hand_log.written(context)
    if name == "lance-status":
        return lance_status.written(context)
    return jinja.render(f"games/regions/{name}.html", context)


def with_csrf_token(values: View, request: Any) -> View:
    """`values` with the request's CSRF token, as Django's csrf context processor gives it:
    lazy, so that only a render that writes a form asks for one (a token asked for is set
    again in the answer's cookie). A context's own csrf_token wins, as in a Django render."""
    if request is not None and "csrf_token" not in values:
        values["csrf_token"] = csrf(request)["csrf_token"]
    return values
