"""Pages and htmx endpoints of the salle and the live table. Writes go through games.services;
every refusal (games.services.errors.Refused) is a French message (a fresh salle, or the
table's regions with a flash), never an error page."""

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from core.client_ip import client_ip
from core.permissions import can_moderate
from games import decisions, forms, hinting, selectors, signals, talk
from games.display import dossier, fairness_view, fragments
from games.display import talk as talk_display
from games.display.fragments import salle_context
from games.live import socket_counts
from games.models import Game
from games.services import invitations, quickplay, revanche, robots
from games.services import salle as salle_service
from games.services.errors import Refused, SalleError

#: Why a table cannot be watched (games.selectors.game_to_watch).
WATCH_REFUSALS = {
    "none": gettext_lazy("Il n’y a pas de partie à regarder à cette table."),
    "closed": gettext_lazy("Cette partie se joue sans spectateurs."),
    "cancelled": gettext_lazy("Cette partie a été annulée."),
}


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
    context = salle_context(request.user, _page(request), reputations=signals.reputations)
    if request.htmx:
        return render(request, "games/salle.html#salle-response", context)
    return render(request, "games/salle.html", context)


@login_not_required
@require_GET
def fair_shuffle(request):
    """« Mélange vérifiable »: the verifiable shuffle explained, and checked in the browser."""
    command = "python -m games.engine fairness verify barajamos-partie-123.json"
    words = {key: str(word) for key, word in fairness_view.verifier_words().items()}
    return render(request, "games/fair_shuffle.html", {"command": command, "words": words})


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
        # Proposed by the browser (static/js/seed.js); blank without JavaScript: drawn.
        client_seed=request.POST.get("seed") or None,
        min_completion=forms.min_completion(request.POST.get("min_completion")),
        private=request.POST.get("private") == "1",
        spectators=forms.spectators(request.POST.get("spectators")),
        # The commitment the form showed (games.services.pending_shuffle).
        shown_commitment=request.POST.get("commitment") or None,
    )


@require_POST
def seat_take(request, table_id):
    number = _int_or_none(request.POST.get("number"))
    number = number if number is not None else -1
    return _act(
        request,
        salle_service.seat_take,
        table_id=table_id,
        number=number,
        client_seed=request.POST.get("seed") or None,
    )


@require_POST
def seat_seed_set(request, table_id):
    return _act(
        request, salle_service.seat_seed_set, table_id=table_id, seed=request.POST.get("seed", "")
    )


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
        return salle_response(request)
    if request.htmx:
        return HttpResponseClientRedirect(table.get_absolute_url())
    return redirect(table.get_absolute_url())


@require_POST
def robot_seat(request, table_id):
    number = _int_or_none(request.POST.get("number"))
    number = number if number is not None else -1
    return _act(
        request,
        robots.robot_seat,
        table_id=table_id,
        number=number,
        level=request.POST.get("level") or None,
    )


@require_POST
def robot_unseat(request, table_id):
    number = _int_or_none(request.POST.get("number"))
    number = number if number is not None else -1
    return _act(request, robots.robot_unseat, table_id=table_id, number=number)


@require_POST
def practice_table(request):
    """« Jouer contre les robots »: a table with three robots, started, and the player there."""
    kings = _int_or_none(request.POST.get("kings"))
    try:
        salle_service.salle_write_count(user=request.user, opening=True)
        table = robots.practice_table(
            user=request.user,
            kings=kings if kings is not None else -1,
            clock=request.POST.get("clock") or None,
            client_seed=request.POST.get("seed") or None,
            shown_commitment=request.POST.get("commitment") or None,
            # Absent (an older form): Expert; anything else the service checks.
            level=request.POST.get("level") or None,
        )
    except SalleError as error:
        messages.error(request, error.message)
        return salle_response(request)
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
        # The partie's end screen: why it was cancelled, and its shuffle revealed.
        return render(request, "games/partie_cancelled.html", fragments.cancelled_context(game))
    context = fragments.table_context(game, seat)
    context["watchers"] = socket_counts.watchers(game.pk) if game.table.spectators else None
    section = talk.section(user=request.user, table_id=table_id, csrf_token=get_token(request))
    context["talk"] = mark_safe(section)  # noqa: S308 (rendered by Jinja, escaped)
    return render(request, "games/table.html", context)


@require_GET
def watch(request, table_id):
    """« Regarder »: the partie of a table as it is shown to all (docs/spectators.md), for any
    member of the site unless the table is played without spectators. Its players go to their
    own page; a partie cancelled or gone sends back to the salle with why."""
    game, refusal = selectors.game_to_watch(user=request.user, table_id=table_id)
    if refusal == "player":
        return redirect("games:table", table_id=table_id)
    if game is None:
        messages.error(request, str(WATCH_REFUSALS[refusal]))
        return redirect("games:salle")
    context = fragments.public_context(game)
    seats = selectors.phrase_seats(table_id)
    talk_context = talk_display.talk_context(table_id, seats=seats, viewer_id=None, muted=set())
    context["talk"] = mark_safe(talk_display.talk_section(talk_context))  # noqa: S308
    return render(request, "games/watch.html", context)


@require_GET
def partie_dossier(request, game_id):
    """« Dossier de la partie »: the record of an ended partie (games.display.dossier), with its
    revealed server seed, as a JSON download for its four players and the staff moderators.
    Anyone else, and everyone while the partie is played, gets the 404 page: the secret never
    leaves before the end, and a partie's existence is nobody else's business."""
    game = selectors.game_with_seats(game_id)
    allowed = game is not None and (
        can_moderate(request.user) or selectors.seat_number(game, request.user) is not None
    )
    if not allowed or game.status == Game.Status.PLAYING:
        return render(request, "404.html", status=404)
    body = json.dumps(dossier.partie_dossier(game), ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    filename = dossier.dossier_filename(game)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_POST
def act(request, table_id):
    """One decision at the table (games.decisions, the same path as the table socket's). htmx:
    answers with the actor's own regions (out of band): 200, 409 (stale version) or 422
    (refused), with a French flash. Without htmx: back to the table page. Past the player's
    limit of decisions: 429 and the short refusal, nothing rendered (games.decisions)."""
    if not request.htmx and decisions.too_fast(request.user):
        response = HttpResponse(
            str(decisions.TOO_FAST), status=429, content_type="text/plain; charset=utf-8"
        )
        response["Retry-After"] = "1"
        return response
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


@require_POST
def hint(request, table_id):
    """« Conseil » at a practice table (games.services.hints): the hint box, or the refusal in
    its place with the refusal's status (403 at a table with another person, 429 too many)."""
    status, html = hinting.hint_answer(request.user, table_id)
    return HttpResponse(html, status=status)


@require_POST
def phrase_say(request, table_id):
    """A quick phrase (games.talk, the same path as the table socket's): htmx gets the phrase
    for the speaker's log, or the refusal in the talk section's note (403, 422, 429)."""
    answer = talk.say(user=request.user, table_id=table_id, phrase=request.POST.get("phrase"))
    return _talk_answer(request, table_id, answer)


@require_POST
def phrase_mute(request, table_id):
    """Mute (muted=1) or show again (muted=0) a player's phrases, for this partie."""
    muted = request.POST.get("muted") != "0"
    answer = talk.mute(
        user=request.user, table_id=table_id, seat=request.POST.get("seat"), muted=muted
    )
    return _talk_answer(request, table_id, answer)


@require_POST
def phrase_report(request, table_id):
    """« Signaler » a phrase said at the table: recorded for the moderators."""
    answer = talk.report(user=request.user, table_id=table_id, phrase_id=request.POST.get("phrase"))
    return _talk_answer(request, table_id, answer)


def _talk_answer(request, table_id, answer):
    if request.htmx:
        return HttpResponse(answer.html, status=answer.status)
    if answer.status != 200:
        messages.error(request, answer.message)
    if selectors.game_for_player(user=request.user, table_id=table_id) is None:
        return redirect("games:salle")  # before the partie: « Votre table » is in the salle
    return redirect("games:table", table_id=table_id)


def _act(request, service, *, opening=False, **kwargs):
    try:
        salle_service.salle_write_count(user=request.user, opening=opening)
        service(user=request.user, **kwargs)
    except SalleError as error:
        messages.error(request, error.message)
    return salle_response(request)


def salle_response(request):
    """htmx: the fresh #salle fragment plus the messages out of band; otherwise the salle page.
    Either shows the page of tables the form was on (its ?page=)."""
    page = _page(request)
    if request.htmx:
        context = salle_context(request.user, page, reputations=signals.reputations)
        return render(request, "games/salle.html#salle-response", context)
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


# ---------------------------------------------------------------- playing with friends


@login_not_required
@require_GET
def invitation(request, table_id, token):
    """A private table's invitation link: the table and its free seats. A visitor not logged
    in goes to the log-in page (which leads to the sign-up page) and comes back here."""
    try:
        invitations.link_use_count(client_ip(request))
        table = invitations.table_for_link(table_id=table_id, token=token)
    except SalleError as error:
        context = {"refusal": error.message}
        return render(request, "games/invitation.html", context, status=error.status)
    if not request.user.is_authenticated:
        messages.info(
            request,
            _("Connectez-vous ou créez un compte : vous reviendrez ensuite à la table de %(host)s.")
            % {"host": table.host.username},
        )
        return redirect_to_login(request.get_full_path())
    mine = next((s for s in table.seats.all() if s.user_id == request.user.pk), None)
    seats = selectors.seat_views(table)
    context = {
        "table": table,
        # each seat with the one across the table: who your partner will be if you sit there
        "seats": [{"seat": s, "partner": seats[(s.number + 2) % len(seats)]} for s in seats],
        "mine": mine,
        "refusal": "" if mine else invitations.link_status(table, request.user),
        "token": token,
        "fairness": fairness_view.table_fairness(table),
    }
    return render(request, "games/invitation.html", context)


@require_POST
def invitation_seat(request, table_id, token):
    """Sit at a private table from its link: back to the salle, where it is the player's table."""
    number = _int_or_none(request.POST.get("number"))
    try:
        invitations.link_use_count(client_ip(request))
        salle_service.salle_write_count(user=request.user)
        salle_service.seat_take(
            user=request.user,
            table_id=table_id,
            number=number if number is not None else -1,
            invite_token=token,
            # Proposed by the browser (static/js/seed.js); blank without JavaScript: drawn.
            client_seed=request.POST.get("seed") or None,
        )
    except SalleError as error:
        messages.error(request, error.message)
        return redirect("games:invitation", table_id=table_id, token=token)
    return redirect("games:salle")


@require_POST
def invitation_renew(request, table_id):
    return _act(request, invitations.token_renew, table_id=table_id)


@require_POST
def guest_remove(request, table_id):
    number = _int_or_none(request.POST.get("number"))
    return _act(
        request,
        invitations.guest_remove,
        table_id=table_id,
        number=number if number is not None else -1,
    )


@require_POST
def play_now(request):
    """« Jouer maintenant »: a seat at the fullest public table of the modality (or a new one),
    and how long tables of that modality usually take to fill."""
    kings = _int_or_none(request.POST.get("kings"))
    try:
        salle_service.salle_write_count(user=request.user, opening=True)
        seat = quickplay.play_now(
            user=request.user,
            kings=kings if kings is not None else -1,
            client_seed=request.POST.get("seed") or None,
            shown_commitment=request.POST.get("commitment") or None,
        )
    except SalleError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("Vous êtes à la table %(table)s. %(wait)s")
            % {"table": seat.table_id, "wait": fragments.usual_wait_text(seat.table.kings)},
        )
    return salle_response(request)


@require_POST
def fill_with_robots(request, table_id):
    """A player seated at a table that has waited ROBOT_OFFER_SECONDS fills its empty seats
    with robots, in one click (offered to each of them; the push shows the others)."""
    try:
        salle_service.salle_write_count(user=request.user)
        if not selectors.robot_offer_due(user=request.user, table_id=table_id):
            raise SalleError(_("Attendez encore un peu avant d’appeler des robots."))
        robots.robots_fill(user=request.user, table_id=table_id)
    except SalleError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("La table est complétée avec des robots."))
    return salle_response(request)


@require_POST
def revanche_offer(request, table_id):
    partner = _int_or_none(request.POST.get("partner"))
    try:
        revanche.revanche_offer(
            user=request.user,
            table_id=table_id,
            partner_id=partner,
            client_seed=request.POST.get("seed") or None,
            shown_commitment=request.POST.get("commitment") or None,
        )
    except Refused as error:
        return _revanche_refused(request, table_id, error)
    return _finished_table(request, table_id)


@require_POST
def revanche_answer(request, table_id):
    accept = request.POST.get("answer") == "yes"
    try:
        offer = revanche.revanche_answer(
            user=request.user,
            table_id=table_id,
            accept=accept,
            client_seed=request.POST.get("seed") or None,
        )
    except Refused as error:
        return _revanche_refused(request, table_id, error)
    if offer.table_id is not None:  # the last "yes": the new partie has started
        url = reverse("games:table", args=[offer.table_id])
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    return _finished_table(request, table_id)


def _finished_table(request, table_id):
    if not request.htmx:
        return redirect("games:table", table_id=table_id)
    found = selectors.game_for_player(user=request.user, table_id=table_id)
    if found is None:
        return HttpResponse(status=204)
    game, seat = found
    return HttpResponse(fragments.table_regions(game, seat, request=request))


def _revanche_refused(request, table_id, error):
    if not request.htmx:
        messages.error(request, error.message)
        return redirect("games:table", table_id=table_id)
    answer = decisions.refused(user=request.user, table_id=table_id, error=error, request=request)
    return HttpResponse(answer.html, status=answer.status)
