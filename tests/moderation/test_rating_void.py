"""Staff corrections of the records: "Annuler le classement" of a finished partie and its undo,
as moderation services (moderators only, a reason, journalled) and admin actions; the ratings
after either are exactly a rebuild's, and the undo gives back the numbers from before."""

import pytest
from django.contrib.admin.sites import site
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game, GameSeat
from moderation import services
from moderation.models import StaffAction
from records.models import Rating, RatingChange, RatingVoid
from tests.moderation.helpers import run_action
from tests.records.helpers import cancel_by_absence, play_out, start

pytestmark = pytest.mark.django_db

VOIDED = "Classement annulé par la modération"


def snapshot():
    ratings = sorted(Rating.objects.values_list("user_id", "mu", "sigma", "points", "parties"))
    changes = sorted(
        RatingChange.objects.values_list(
            "game_id", "user_id", "mu_before", "sigma_before", "mu", "sigma", "points", "won"
        )
    )
    return ratings, changes


@pytest.fixture
def parties(cast, make_user):
    """Three finished parties with overlapping players (a void of the first moves what the
    later ones did to them) and a cancelled one."""
    ane, bixente, camille, dani = cast
    eve = make_user("eve")
    first = play_out(start(cast), seed=1)
    second = play_out(start([bixente, eve, dani, ane]), seed=2)
    third = play_out(start([eve, ane, camille, dani]), seed=3)
    cancelled = cancel_by_absence(start(cast), seat=2)
    assert [g.status for g in (first, second, third)] == [Game.Status.FINISHED] * 3
    return first, second, third, cancelled


def void_via_admin(client, game, reason="Entente entre les quatre joueurs"):
    return run_action(client, "admin:games_game_changelist", "void_ratings", game.pk, reason)


def restore_via_admin(client, game, reason="Soupçon levé après examen"):
    return run_action(client, "admin:games_game_changelist", "restore_ratings", game.pk, reason)


def test_void_then_restore_gives_back_exactly_the_previous_ratings(parties, mikel):
    first = parties[0]
    before = snapshot()
    services.partie_rating_void(game=first, by=mikel, reason="Triche avérée")
    voided = snapshot()
    assert voided != before
    assert not RatingChange.objects.filter(game=first).exists()
    assert len(voided[1]) == 8
    # Everyone's count of rated parties lost the voided one.
    parties_before = {u: n for u, _mu, _s, _p, n in before[0]}
    parties_after = {u: n for u, _mu, _s, _p, n in voided[0]}
    for seat in first.seats.all():
        assert parties_after.get(seat.user_id, 0) == parties_before[seat.user_id] - 1
    services.partie_rating_restore(game=first, by=mikel, reason="Erreur de ma part")
    assert snapshot() == before
    assert not RatingVoid.objects.exists()


def test_after_a_void_the_rebuild_gives_the_live_numbers(parties, mikel):
    services.partie_rating_void(game=parties[1], by=mikel, reason="Entente")
    live = snapshot()
    call_command("ratings_rebuild")
    assert snapshot() == live
    assert not RatingChange.objects.filter(game=parties[1]).exists()


def test_the_journal_keeps_the_partie_who_when_and_why(parties, mikel):
    first = parties[0]
    services.partie_rating_void(game=first, by=mikel, reason="  Entente à quatre  ")
    services.partie_rating_restore(game=first, by=mikel, reason="Examen fait : rien")
    restored, voided = StaffAction.objects.all()  # newest first
    assert (voided.kind, voided.staff, voided.game, voided.reason) == (
        StaffAction.Kind.RATING_VOID,
        mikel,
        first,
        "Entente à quatre",
    )
    assert (restored.kind, restored.staff, restored.game, restored.reason) == (
        StaffAction.Kind.RATING_RESTORE,
        mikel,
        first,
        "Examen fait : rien",
    )
    assert voided.at <= restored.at


def test_a_reason_is_required(parties, mikel):
    with pytest.raises(services.ModerationError, match="Indiquez un motif"):
        services.partie_rating_void(game=parties[0], by=mikel, reason="   ")
    assert not RatingVoid.objects.exists() and not StaffAction.objects.exists()


def test_a_non_moderator_is_refused_and_nothing_changes(parties, peio, ane, login):
    before = snapshot()
    first = parties[0]
    assert void_via_admin(login(peio), first).status_code == 403
    player = void_via_admin(login(ane), first)
    assert player.status_code == 302 and reverse("admin:login") in player["Location"]
    for user in (peio, ane):
        with pytest.raises(services.NotModerator) as refused:
            services.partie_rating_void(game=first, by=user, reason="Triche")
        assert refused.value.status == 403
        assert "modérateur" in refused.value.message
    assert snapshot() == before
    assert not RatingVoid.objects.exists() and not StaffAction.objects.exists()


def test_only_a_finished_partie_between_people_can_be_voided(parties, cast, mikel):
    cancelled = parties[3]
    playing = start(cast)
    before = snapshot()
    with pytest.raises(services.ModerationError, match="a été annulée"):
        services.partie_rating_void(game=cancelled, by=mikel, reason="Triche")
    with pytest.raises(services.ModerationError, match="est en cours"):
        services.partie_rating_void(game=playing, by=mikel, reason="Triche")
    with pytest.raises(services.ModerationError, match="n’est pas annulé"):
        services.partie_rating_restore(game=parties[0], by=mikel, reason="Rien")
    services.partie_rating_void(game=parties[0], by=mikel, reason="Triche")
    with pytest.raises(services.ModerationError, match="déjà annulé"):
        services.partie_rating_void(game=parties[0], by=mikel, reason="Encore")
    assert StaffAction.objects.count() == 1
    assert list(RatingVoid.objects.values_list("game_id", flat=True)) == [parties[0].pk]
    assert snapshot() != before


def test_a_training_partie_cannot_be_voided(cast, mikel):
    game = start(cast)
    GameSeat.objects.filter(game=game, number=3).update(robot=True)
    game = play_out(game, seed=5)
    assert game.status == Game.Status.FINISHED
    with pytest.raises(services.ModerationError, match="entraînement"):
        services.partie_rating_void(game=game, by=mikel, reason="Triche")
    assert not StaffAction.objects.exists()


def test_a_void_costs_the_same_queries_whatever_the_number_of_parties(cast, mikel):
    one = play_out(start(cast), seed=1)
    with CaptureQueriesContext(connection) as few:
        services.partie_rating_void(game=one, by=mikel, reason="Triche")
    services.partie_rating_restore(game=one, by=mikel, reason="Non")
    for seed in (2, 3, 4):
        play_out(start(cast), seed=seed)
    with CaptureQueriesContext(connection) as many:
        services.partie_rating_void(game=one, by=mikel, reason="Triche")
    assert len(many) == len(few)


def test_the_admin_voids_and_restores_from_the_games_page(parties, mikel, login):
    first = parties[0]
    client = login(mikel)
    page = reverse("admin:games_game_change", args=[first.pk])
    html = client.get(page).content.decode()
    assert 'value="void_ratings"' in html and 'value="restore_ratings"' not in html
    assert "compte dans le classement" in html
    asked = void_via_admin(client, first, reason=None)
    assert asked.status_code == 200
    text = asked.content.decode()
    assert "Annuler le classement de la partie" in text and 'name="reason"' in text
    assert not RatingVoid.objects.exists()
    before = snapshot()
    done = void_via_admin(client, first)
    assert done.status_code == 302 and done["Location"] == page
    assert RatingVoid.objects.filter(game=first).exists()
    assert StaffAction.objects.get().reason == "Entente entre les quatre joueurs"
    html = client.get(page).content.decode()
    assert "Classement annulé pour 1 partie(s)." in html
    assert 'value="restore_ratings"' in html and 'value="void_ratings"' not in html
    assert "annulé par la modération" in html
    assert restore_via_admin(client, first).status_code == 302
    assert snapshot() == before
    assert not RatingVoid.objects.exists()


def test_the_admin_reports_a_refusal_in_french(parties, cast, mikel, login):
    client = login(mikel)
    cancelled = parties[3]
    html = client.get(reverse("admin:games_game_change", args=[cancelled.pk])).content.decode()
    assert 'value="void_ratings"' not in html and "non classée" in html
    response = void_via_admin(client, cancelled)
    assert response.status_code == 302
    shown = client.get(response["Location"]).content.decode()
    assert "elle n’a pas été classée" in shown.replace("&#x27;", "’")
    assert not RatingVoid.objects.exists() and not StaffAction.objects.exists()
    playing = start(cast)
    html = client.get(reverse("admin:games_game_change", args=[playing.pk])).content.decode()
    assert 'value="cancel_games"' in html and 'value="void_ratings"' not in html


def test_the_records_stay_read_only_in_the_admin(mikel, maite, rf):
    for user in (mikel, maite):
        request = rf.get("/")
        request.user = user
        for model in (Rating, RatingChange, RatingVoid):
            model_admin = site._registry[model]
            assert not model_admin.has_add_permission(request)
            assert not model_admin.has_change_permission(request)
            assert not model_admin.has_delete_permission(request)


def test_the_partie_page_profile_and_classement_show_the_void(parties, cast, mikel, login):
    from records import selectors

    ane = cast[0]
    first = parties[0]
    services.partie_rating_void(game=first, by=mikel, reason="Secret de modération")
    client = login(ane)
    html = client.get(reverse("records:partie", args=[first.pk])).content.decode()
    assert VOIDED in html
    assert "Secret de modération" not in html  # the reason stays in the journal
    other = client.get(reverse("records:partie", args=[parties[2].pk])).content.decode()
    assert VOIDED not in other
    profile = client.get(reverse("records:profile", args=["ane"])).content.decode()
    assert "classement annulé par la modération" in profile
    assert Rating.objects.get(user=ane).parties == 2
    points = Rating.objects.get(user=ane).points
    assert f">{points}<" in profile or str(points) in profile
    selectors.CLASSEMENT_MIN_PARTIES = 1
    try:
        ranking = client.get(reverse("records:classement")).content.decode()
    finally:
        selectors.CLASSEMENT_MIN_PARTIES = 5
    assert str(points) in ranking
