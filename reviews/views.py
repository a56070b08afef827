"""The review page of an ended partie (« Revoir avec le robot »), for its players (their own
seat) and moderators (any seat played by a person); its progress while the worker makes it.
A partie in play has no review: its page is the site's 404, and nothing is queued."""

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET
from django_htmx.http import HttpResponseClientRefresh

from core.permissions import can_moderate
from games import selectors as game_selectors
from games.models import Game
from reviews import display, services
from reviews.models import Review

#: How often the page asks for the progress while the review is made.
POLL_SECONDS = 2


def _readable(request, game_id):
    """(game, the reader's own seat or None) of an ended partie the reader may review."""
    game = game_selectors.game_with_seats(game_id)
    if game is None or game.status == Game.Status.PLAYING:
        raise Http404
    own = game_selectors.seat_number(game, request.user)
    if own is None and not can_moderate(request.user):
        raise Http404
    return game, own


def _int(request, name):
    try:
        return int(request.GET[name])
    except (KeyError, ValueError):
        return None


@require_GET
def review(request, game_id):
    """?place=N (moderators), ?mode=trouvez&n=K&choix=J (« Trouvez mieux »)."""
    game, own = _readable(request, game_id)
    found = services.review_wanted(game)
    people = sorted(services.reviewed_seats(game))
    seat = own
    if can_moderate(request.user) and _int(request, "place") in people:
        seat = _int(request, "place")
    if seat is None and people:
        seat = people[0]
    players = ["?"] * 4
    for s in game.seats.all():
        players[s.number] = s.user.username
    context = {
        "game": game,
        "review": found,
        "seat": seat,
        "player": players[seat] if seat is not None else "",
        "people": [(n, players[n]) for n in people] if can_moderate(request.user) else [],
        "poll_seconds": POLL_SECONDS,
        "quiz_mode": request.GET.get("mode") == "trouvez",
    }
    data = found.seats.get(str(seat)) if found and found.status == Review.Status.READY else None
    if data is not None:
        view = display.seat_view(data, game.kings, players)
        context["view"] = view
        if context["quiz_mode"]:
            context["quiz"] = display.quiz_view(view, _int(request, "n"), _int(request, "choix"))
    return render(request, "reviews/review.html", context)


@require_GET
def progress(request, game_id):
    """The progress line (htmx, every POLL_SECONDS); once the review is ready, the page
    reloads to show it (and the polling stops with it)."""
    game, _own = _readable(request, game_id)
    found = services.review_wanted(game)
    if found is not None and found.status == Review.Status.READY:
        return HttpResponseClientRefresh()
    return render(
        request,
        "reviews/_progress.html",
        {"game": game, "review": found, "poll_seconds": POLL_SECONDS},
    )
