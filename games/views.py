"""Pages and htmx endpoints of the salle. Writes go through games.services; every refusal is a
French message and a fresh salle, never an error page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from games import selectors, services
from games.rendering import salle_context


@login_not_required
@require_GET
def home(request):
    return render(request, "home.html")


@login_not_required
@require_GET
def rules(request):
    return render(request, "rules.html")


@require_GET
def salle(request):
    return render(request, "games/salle.html", salle_context(request.user))


@require_POST
def table_create(request):
    kings = _int_or_none(request.POST.get("kings"))
    return _act(request, services.table_create, kings=kings if kings is not None else -1)


@require_POST
def seat_take(request, table_id):
    number = _int_or_none(request.POST.get("number"))
    return _act(
        request, services.seat_take, table_id=table_id, number=number if number is not None else -1
    )


@require_POST
def seat_leave(request, table_id):
    return _act(request, services.seat_leave, table_id=table_id)


@require_POST
def table_start(request, table_id):
    try:
        table = services.table_start(user=request.user, table_id=table_id)
    except services.SalleError as error:
        messages.error(request, error.message)
        return _salle_response(request)
    if request.htmx:
        return HttpResponseClientRedirect(table.get_absolute_url())
    return redirect(table.get_absolute_url())


@require_GET
def table(request, table_id):
    """Until live play lands: the four players, their teams and the modality."""
    found = selectors.table_for_player(user=request.user, table_id=table_id)
    if found is None:
        messages.error(request, _("Seuls les joueurs assis à cette table peuvent la voir."))
        return redirect("games:salle")
    context = {"table": found, "seats": selectors.seat_views(found)}
    return render(request, "games/salle_table.html", context)


def _act(request, service, **kwargs):
    try:
        service(user=request.user, **kwargs)
    except services.SalleError as error:
        messages.error(request, error.message)
    return _salle_response(request)


def _salle_response(request):
    """htmx: the fresh #salle fragment plus the messages out of band; otherwise the salle page."""
    if request.htmx:
        return render(request, "games/salle.html#salle-response", salle_context(request.user))
    return redirect("games:salle")


def _int_or_none(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
