"""Pages and htmx endpoints of the salle and the live table. Writes go through games.services;
every refusal (games.services.errors.Refused) is a French message (a fresh salle, or the
table's regions with a flash), never an error page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from games import decisions, selectors
from games.display import fragments
from games.display.fragments import salle_context
from games.models import Game
from games.services import salle as salle_service
from games.services.errors import Refused, SalleError


@login_not_required
@require_GET
def home(request):
    return render(request, "home.html")


@login_not_required
@require_GET
def rules(request):
    return render(request, "rules.html", fragments.rules_context())


@require_GET
def salle(request):
    """The salle page; with htmx (the Tables précédentes / suivantes links) only #salle."""
    context = salle_context(request.user, _page(request))
    if request.htmx:
        return render(request, "games/salle.html#salle-response", context)
    return render(request, "games/salle.html", context)


@require_POST
def table_create(request):
    kings = _int_or_none(request.POST.get("kings"))
    return _act(
        request,
        salle_service.table_create,
        opening=True,
        kings=kings if kings is not None else -1,
        # Absent (an older form): the default speed; anything else the service checks.
        clock=request.POST.get("clock") or None,
    )


@require_POST
def seat_take(request, table_id):
    number = _int_or_none(request.POST.get("number"))
    number = number if number is not None else -1
    return _act(request, salle_service.seat_take, table_id=table_id, number=number)


@require_POST
def seat_leave(request, table_id):
    return _act(request, salle_service.seat_leave, table_id=table_id)


@require_POST
def table_start(request, table_id):
    try:
        salle_service.salle_write_count(user=request.user)
        table = salle_service.table_start(user=request.user, table_id=table_id)
    except SalleError as error:
        messages.error(request, error.message)
        return _salle_response(request)
    if request.htmx:
        return HttpResponseClientRedirect(table.get_absolute_url())
    return redirect(table.get_absolute_url())


@require_GET
def table(request, table_id):
    """The live table, for its four players only, rendered for the viewer's seat."""
    found = selectors.game_for_player(user=request.user, table_id=table_id)
    if found is None:
        messages.error(request, _("Seuls les joueurs assis à cette table peuvent la voir."))
        return redirect("games:salle")
    game, seat = found
    if game.status == Game.Status.CANCELLED:
        messages.warning(request, fragments.cancelled_message(game.end_reason))
        return redirect("games:salle")
    return render(request, "games/table.html", fragments.table_context(game, seat))


@require_POST
def act(request, table_id):
    """One decision at the table (games.decisions, the same path as the table socket's). htmx:
    answers with the actor's own regions (out of band): 200, 409 (stale version) or 422
    (refused), with a French flash. Without htmx: back to the table page."""
    if request.htmx:
        answer = decisions.decide(
            user=request.user, table_id=table_id, data=request.POST, request=request
        )
        return HttpResponse(answer.html, status=answer.status)
    try:
        decisions.apply(user=request.user, table_id=table_id, data=request.POST)
    except Refused as error:
        messages.error(request, error.message)
    return redirect("games:table", table_id=table_id)


def _act(request, service, *, opening=False, **kwargs):
    try:
        salle_service.salle_write_count(user=request.user, opening=opening)
        service(user=request.user, **kwargs)
    except SalleError as error:
        messages.error(request, error.message)
    return _salle_response(request)


def _salle_response(request):
    """htmx: the fresh #salle fragment plus the messages out of band; otherwise the salle page.
    Either shows the page of tables the form was on (its ?page=)."""
    page = _page(request)
    if request.htmx:
        return render(request, "games/salle.html#salle-response", salle_context(request.user, page))
    return redirect(fragments.salle_url(page))


def _page(request) -> int:
    """The ?page= of the salle: 1 when absent or not a number; past the last page, the last
    (selectors.salle_page)."""
    page = _int_or_none(request.GET.get("page"))
    return page if page is not None and page > 0 else 1


def _int_or_none(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
