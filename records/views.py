"""The records' pages: a partie (for its players and staff), a player's profile, the
classement. Unknown names and ids, and a partie the viewer did not play, are the site's 404."""

from django.contrib.auth import get_user_model
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from core.permissions import can_moderate
from games import selectors as game_selectors
from games.display.partie import partie_view
from games.models import Game
from records import chart, selectors

#: How a player checks the downloaded record (docs/fair-shuffle.md, docs/replay.md).
CHECK_COMMAND = "python -m games.engine fairness verify dossier.json"


@require_GET
def partie(request, game_id):
    """An ended partie, explained and replayed step by step (?step=N), for its four players and
    staff; while it is played, only a pointer to the table (nothing the table does not show)."""
    game = game_selectors.game_with_seats(game_id)
    if game is None:
        raise Http404
    seat = game_selectors.seat_number(game, request.user)
    # The same readers as the record's download (games.views): its players and moderators.
    if seat is None and not can_moderate(request.user):
        raise Http404
    context = {"game": game, "viewer_seat": seat, "check_command": CHECK_COMMAND}
    if game.status == Game.Status.PLAYING:
        return render(request, "records/partie_playing.html", context)
    # The page opens on the story of the partie; its replay starts from the deal.
    step = _step(request)
    context.update(partie_view(game, seat, 0 if step is None else step))
    context["dossier_url"] = reverse("games:partie_record", args=[game.pk])
    context["rating_voided"] = selectors.partie_rating_voided(game)
    return render(request, "records/partie.html", context)


def _step(request) -> int | None:
    try:
        return int(request.GET["step"])
    except (KeyError, ValueError):
        return None


@require_GET
def profile(request, name):
    player = get_object_or_404(get_user_model(), username=name, is_robot=False)
    found = selectors.player_profile(player, request.user)
    return render(
        request,
        "records/profile.html",
        {
            "profile": found,
            "chart": chart.rating_chart(found.history),
            "pairs": selectors.player_pairs(player),
        },
    )


@require_GET
def pair(request, slug):
    """A pareja's page: its members, record, rating and last parties, for every player."""
    found = selectors.pair_by_slug(slug)
    if found is None:
        raise Http404
    page = selectors.pair_page(found, request.user)
    return render(
        request,
        "records/pair.html",
        {
            "page": page,
            "chart": chart.rating_chart(page.history),
            "member": request.user.pk in found.member_ids(),
        },
    )


@require_GET
def pair_classement(request):
    return render(
        request,
        "records/pair_classement.html",
        {"ratings": selectors.pair_classement(), "minimum": selectors.CLASSEMENT_MIN_PARTIES},
    )


@require_GET
def classement(request):
    return render(
        request,
        "records/classement.html",
        {"ratings": selectors.classement(), "minimum": selectors.CLASSEMENT_MIN_PARTIES},
    )
