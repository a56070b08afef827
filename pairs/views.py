"""The parejas' own pages and forms: « Mes parejas » (proposals, answers, the pairs), and the
salle's « avec ma pareja » forms, answered like the salle's own (games.views.salle_response).
The pair's page and the classement des parejas are records' (they show ratings)."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import forms as game_forms
from games.services import salle as salle_service
from games.services.errors import SalleError
from games.views import salle_response
from pairs import names, selectors, services
from pairs.errors import PairError
from pairs.models import Pair


@require_GET
def mine(request):
    received, sent = selectors.proposals(request.user)
    context = {
        "received": received,
        "sent": sent,
        "active": selectors.player_pairs(request.user),
        "dissolved": selectors.player_pairs(request.user, statuses=[Pair.Status.DISSOLVED]),
        "partner_name": request.GET.get("avec", "")[:150],
        "name_max": names.MAX_LENGTH,
    }
    return render(request, "pairs/mine.html", context)


@require_POST
def propose(request):
    partner_name = request.POST.get("partner", "")
    try:
        services.proposal_count(user=request.user)
        pair = services.pair_propose(
            user=request.user, partner_name=partner_name, name=request.POST.get("name", "")
        )
    except PairError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _(
                "Proposition envoyée à %(name)s : la pareja « %(pair)s » sera formée quand il "
                "l’aura acceptée."
            )
            % {"name": pair.partner.username, "pair": pair.name},
        )
    return redirect("pairs:mine")


@require_POST
def accept(request, pair_id):
    return _answer(
        request,
        services.pair_accept,
        pair_id,
        _("Vous formez maintenant la pareja « %(pair)s ». Elle compte dès votre prochaine partie."),
    )


@require_POST
def decline(request, pair_id):
    return _answer(request, services.pair_decline, pair_id, _("Proposition « %(pair)s » retirée."))


@require_POST
def dissolve(request, pair_id):
    return _answer(
        request,
        services.pair_dissolve,
        pair_id,
        _("La pareja « %(pair)s » est dissoute. Sa page et son palmarès restent."),
    )


def _answer(request, service, pair_id, said: str):
    try:
        pair = service(user=request.user, pair_id=pair_id)
    except PairError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, said % {"pair": pair.name})
    return redirect("pairs:mine")


@require_POST
def table_create(request):
    """« Ouvrir la table avec ma pareja »: the salle's form, with the pair chosen."""
    kings = _int_or_none(request.POST.get("kings"))
    try:
        salle_service.salle_write_count(user=request.user, opening=True)
        services.table_create_with_pair(
            user=request.user,
            pair_id=request.POST.get("pair"),
            kings=kings if kings is not None else -1,
            clock=request.POST.get("clock") or None,
            client_seed=request.POST.get("seed") or None,
            min_completion=game_forms.min_completion(request.POST.get("min_completion")),
            private=request.POST.get("private") == "1",
        )
    except SalleError as error:
        messages.error(request, error.message)
    return salle_response(request)


@require_POST
def play_now(request):
    """« Jouer maintenant à deux »: the pair at a public table with a free team, or a new one."""
    kings = _int_or_none(request.POST.get("kings"))
    try:
        salle_service.salle_write_count(user=request.user, opening=True)
        seat = services.play_now_as_pair(
            user=request.user,
            pair_id=request.POST.get("pair"),
            kings=kings if kings is not None else -1,
        )
    except SalleError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("Vous êtes à la table %(table)s, face à votre pareja.") % {"table": seat.table_id},
        )
    return salle_response(request)


def _int_or_none(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
