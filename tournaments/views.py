"""The tournaments' pages: the list (reached from the salle), a tournament's page and its live
part (polled by htmx every few seconds: standings, rounds, « votre table est prête »), the
creation form (staff: public or private; anyone: private), registration and check-in. A
private tournament someone may not see is the site's 404, like an unknown one."""

from datetime import datetime

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.models import Table
from games.services.errors import SalleError
from pairs import selectors as pair_selectors
from tournaments import selectors, services
from tournaments.models import Tournament

#: How often the tournament page asks for its live part (the standings within 5 s).
LIVE_SECONDS = 3


@require_GET
def index(request):
    context = selectors.tournament_lists(request.user)
    return render(request, "tournaments/list.html", context)


def _tournament(request, pk, token=None) -> Tournament:
    tournament = Tournament.objects.select_related("created_by").filter(pk=pk).first()
    if not selectors.visible(tournament, request.user, token):
        raise Http404
    return tournament


def _context(request, tournament, token, *, whole: bool = True):
    page = selectors.tournament_page(tournament, request.user)
    live_url = reverse("tournaments:live", args=[tournament.pk])
    if token:
        live_url += f"?lien={token}"
    return {
        "page": page,
        "t": tournament,
        "token": token or "",
        "live_url": live_url,
        "live_seconds": LIVE_SECONDS,
        # the registration form's pairs: the whole page's, never the polled live part's
        "my_pairs": pair_selectors.player_pairs(request.user)
        if whole and page.mine is None and tournament.state == Tournament.State.REGISTRATION
        else [],
        "table_url": reverse("games:table", args=[page.my_table]) if page.my_table else "",
        "check_in_minutes": int(services.check_in_minutes()),
        "no_show_minutes": int(services.no_show_delay().total_seconds() // 60),
    }


@require_GET
def detail(request, pk, token=None):
    tournament = _tournament(request, pk, token)
    return render(request, "tournaments/detail.html", _context(request, tournament, token))


@require_GET
def live(request, pk):
    token = request.GET.get("lien") or None
    tournament = _tournament(request, pk, token)
    context = _context(request, tournament, token, whole=False)
    return render(request, "tournaments/detail.html#live", context)


def _back(tournament, token):
    if token:
        return redirect("tournaments:private", tournament.pk, token)
    return redirect("tournaments:detail", tournament.pk)


@require_POST
def register(request, pk):
    token = request.POST.get("lien") or None
    tournament = _tournament(request, pk, token)
    return _act(
        request,
        tournament,
        token,
        lambda: services.register(
            user=request.user, tournament_id=tournament.pk, pair_id=request.POST.get("pair")
        ),
        _("Votre pareja est inscrite. Confirmez votre présence dans les dernières minutes."),
    )


@require_POST
def withdraw(request, pk):
    token = request.POST.get("lien") or None
    tournament = _tournament(request, pk, token)
    return _act(
        request,
        tournament,
        token,
        lambda: services.withdraw(user=request.user, tournament_id=tournament.pk),
        _("Votre pareja n’est plus inscrite."),
    )


@require_POST
def check_in(request, pk):
    token = request.POST.get("lien") or None
    tournament = _tournament(request, pk, token)
    return _act(
        request,
        tournament,
        token,
        lambda: services.check_in(user=request.user, tournament_id=tournament.pk),
        _("Présence confirmée."),
    )


@require_POST
def arrive(request, pk):
    """« Je suis là » at one's tournament table, with the seed the browser proposed (blank
    without JavaScript: the site draws it). The fourth arrival starts the partie: its player
    goes straight to the table; the others see the link on the page's next poll."""
    token = request.POST.get("lien") or None
    tournament = _tournament(request, pk, token)
    try:
        table = services.arrive(
            user=request.user, tournament_id=tournament.pk, client_seed=request.POST.get("seed")
        )
    except (services.TournamentError, SalleError) as error:
        messages.error(request, error.message)
        return _back(tournament, token)
    if table.status == Table.Status.PLAYING:
        return redirect("games:table", table_id=table.pk)
    messages.success(request, _("Vous êtes là : la partie commence dès que les quatre le sont."))
    return _back(tournament, token)


def _act(request, tournament, token, call, said):
    try:
        call()
    except services.TournamentError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, said)
    return _back(tournament, token)


@require_http_methods(["GET", "POST"])
def create(request):
    """« Créer un tournoi »: staff choose public or private; anyone else creates a private
    one, whose link they share."""
    values = request.POST if request.method == "POST" else {}
    if request.method == "POST":
        try:
            tournament = services.tournament_create(
                user=request.user,
                name=values.get("name", ""),
                format=values.get("format", ""),
                kings=_int(values.get("kings")) or 0,
                clock=values.get("clock", ""),
                starts_at=_start(values.get("starts_at")),
                rounds=_int(values.get("rounds")),
                window_minutes=_int(values.get("window_minutes")),
                best_of=_int(values.get("best_of")) or 1,
                min_completion=_int(values.get("min_completion")),
                private=not request.user.is_staff or values.get("private") == "1",
            )
        except services.TournamentError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Tournoi créé."))
            return redirect(tournament.get_absolute_url())
    context = {
        "values": values,
        "formats": Tournament.Format.choices,
        "clocks": Table.Clock.choices,
        "rounds_max": services.ROUNDS_MAX,
        "window": services.WINDOW_MINUTES,
    }
    return render(request, "tournaments/create.html", context)


def _int(value) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def _start(value):
    """A datetime-local field's value, in the site's time zone; None if unreadable."""
    try:
        naive = datetime.fromisoformat(str(value or ""))
    except ValueError:
        return None
    if timezone.is_aware(naive):
        return naive
    return timezone.make_aware(naive)
