"""The revanche (games.services.revanche): the offer, the answers, the start, the lapses."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from games.models import Game, GameSeat, Revanche, Seat, Table
from games.services import revanche, salle, sweep
from games.services.errors import SalleError
from tests.games.friends import finish_game
from tests.games.helpers import HTMX, run_together

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_game(started_game, cast):
    return finish_game(started_game, cast)


def offer(user, game, **kwargs):
    return revanche.revanche_offer(user=user, table_id=game.table_id, **kwargs)


def answer(user, game, accept=True):
    return revanche.revanche_answer(user=user, table_id=game.table_id, accept=accept)


def test_a_revanche_needs_a_finished_partie(started_game, cast):
    with pytest.raises(SalleError, match="fin d’une partie"):
        offer(cast[0], started_game)


def test_only_its_players_offer_or_answer(finished_game, make_user):
    eve = make_user("eve")
    with pytest.raises(SalleError, match="Seuls les joueurs"):
        offer(eve, finished_game)


def test_all_accept_and_the_same_four_start_a_new_partie(finished_game, cast):
    ane, bixente, camille, dani = cast
    made = offer(ane, finished_game)
    assert made.seats == [ane.pk, bixente.pk, camille.pk, dani.pk]  # same partner: camille
    assert made.answers == ["yes", "", "", ""]
    answer(bixente, finished_game)
    answer(camille, finished_game)
    done = answer(dani, finished_game)
    assert done.status == Revanche.Status.STARTED
    table = done.table
    assert table.status == Table.Status.PLAYING and table.private
    assert table.kings == finished_game.kings and table.host_id == ane.pk
    seats = dict(Seat.objects.filter(table=table).values_list("number", "user_id"))
    assert seats == {0: ane.pk, 1: bixente.pk, 2: camille.pk, 3: dani.pk}
    assert Game.objects.get(table=table).status == Game.Status.PLAYING


def test_the_offerer_swaps_partners(finished_game, cast):
    ane, bixente, camille, dani = cast
    made = offer(bixente, finished_game, partner_id=ane.pk)
    # bixente hosts at seat 0, ane faces them; camille and dani keep their order
    assert made.seats == [bixente.pk, camille.pk, ane.pk, dani.pk]
    for user in (ane, camille, dani):
        done = answer(user, finished_game)
    teams = dict(Seat.objects.filter(table=done.table).values_list("user_id", "number"))
    assert teams[bixente.pk] % 2 == teams[ane.pk] % 2
    with pytest.raises(SalleError, match="partenaire"):
        Revanche.objects.all().delete()
        offer(bixente, finished_game, partner_id=999999)


def test_one_decline_ends_the_offer_for_all(finished_game, cast):
    ane, bixente, camille, _ = cast
    offer(ane, finished_game)
    answer(bixente, finished_game)
    lapsed = answer(camille, finished_game, accept=False)
    assert lapsed.status == Revanche.Status.LAPSED
    assert lapsed.reason == {"code": "declined", "name": "camille"}
    assert lapsed.reason_text == "camille a décliné la revanche."
    with pytest.raises(SalleError, match="Aucune revanche"):
        answer(cast[3], finished_game)
    again = offer(bixente, finished_game)  # a new offer after a lapse
    assert again.status == Revanche.Status.OPEN and again.host_id == bixente.pk


def test_one_answer_each_and_one_offer_at_a_time(finished_game, cast):
    offer(cast[0], finished_game)
    answer(cast[1], finished_game)
    with pytest.raises(SalleError, match="déjà répondu"):
        answer(cast[1], finished_game)
    with pytest.raises(SalleError, match="déjà proposée"):
        offer(cast[2], finished_game)


def test_the_offer_lapses_after_its_time(finished_game, cast, settings):
    offer(cast[0], finished_game)
    later = timezone.now() + timedelta(seconds=settings.REVANCHE_SECONDS + 1)
    assert revanche.revanche_lapse_if_due(game_id=finished_game.pk) is None  # not yet
    assert sweep.sweep(now=later)["revanches_lapsed"] == 1
    made = Revanche.objects.get()
    assert made.status == Revanche.Status.LAPSED and made.reason == {"code": "expired"}
    assert sweep.sweep(now=later)["revanches_lapsed"] == 0  # idempotent


def test_an_answer_after_the_time_is_refused_and_lapses_it(finished_game, cast):
    offer(cast[0], finished_game)
    Revanche.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(SalleError, match="expiré"):
        answer(cast[1], finished_game)
    assert Revanche.objects.get().status == Revanche.Status.LAPSED


def test_robots_accept_at_once(finished_game, cast):
    ane, _, _, dani = cast
    dani.is_robot = True
    dani.save(update_fields=["is_robot"])
    GameSeat.objects.filter(game=finished_game, user=dani).update(robot=True)
    made = offer(ane, finished_game)
    assert made.robots == [3] and made.answers == ["yes", "", "", "yes"]
    answer(cast[1], finished_game)
    done = answer(cast[2], finished_game)
    assert done.status == Revanche.Status.STARTED
    robot_seat = Seat.objects.get(table=done.table, user=dani)
    assert robot_seat.robot and len(robot_seat.client_seed) == 32


def test_a_player_who_sat_elsewhere_makes_it_lapse_and_nothing_stays(
    finished_game, cast, make_user
):
    ane, bixente, camille, dani = cast
    offer(ane, finished_game)
    answer(bixente, finished_game)
    answer(camille, finished_game)
    other = salle.table_create(user=make_user("eve"), kings=Table.Kings.FOUR)
    salle.seat_take(user=bixente, table_id=other.pk, number=1)  # bixente leaves for another table
    tables_before = Table.objects.count()
    lapsed = answer(dani, finished_game)
    assert lapsed.status == Revanche.Status.LAPSED
    assert lapsed.reason == {"code": "seated_elsewhere", "name": "bixente"}
    assert "bixente est déjà assis" in lapsed.reason_text
    assert Table.objects.count() == tables_before  # the new table was rolled back
    assert not Seat.objects.filter(user__in=[ane, camille, dani], active=True).exists()


@pytest.mark.django_db(transaction=True)
def test_the_last_accept_races_a_player_leaving_for_another_table(cast, make_user):
    from tests.games.helpers import start_game

    ane, bixente, camille, dani = cast
    table = salle.table_create(user=ane, kings=Table.Kings.FOUR)
    for number, user in enumerate(cast[1:], start=1):
        salle.seat_take(user=user, table_id=table.pk, number=number)
    game = finish_game(start_game(table), cast)
    offer(ane, game)
    answer(bixente, game)
    answer(camille, game)
    other = salle.table_create(user=make_user("eve"), kings=Table.Kings.FOUR)
    results = run_together(
        lambda: answer(dani, game),
        lambda: salle.seat_take(user=bixente, table_id=other.pk, number=1),
    )
    made = Revanche.objects.get(game=game)
    bixente_seats = Seat.objects.filter(user=bixente, active=True)
    assert bixente_seats.count() == 1  # never two tables at once
    if made.status == Revanche.Status.STARTED:
        assert isinstance(results[1], SalleError)
        assert bixente_seats.get().table_id == made.table_id
    else:
        assert made.status == Revanche.Status.LAPSED and made.reason["name"] == "bixente"
        assert isinstance(results[1], Seat)
        assert not Seat.objects.filter(user__in=[ane, camille, dani], active=True).exists()


def test_the_table_page_shows_the_panel_and_the_answers(finished_game, cast, login):
    ane, bixente = cast[0], cast[1]
    page = login(bixente).get(reverse("games:table", args=[finished_game.table_id]))
    html = page.content.decode()
    assert 'id="revanche"' in html and "Votre partenaire" in html
    client = login(ane)
    answer_html = client.post(
        reverse("games:revanche_offer", args=[finished_game.table_id]), headers=HTMX
    ).content.decode()
    assert "ane propose une revanche" in answer_html
    assert 'data-revanche-answer="yes"' in answer_html
    html = login(bixente).get(reverse("games:table", args=[finished_game.table_id]))
    assert "Accepter la revanche" in html.content.decode()


def test_the_last_yes_over_htmx_goes_to_the_new_table(finished_game, cast, login):
    offer(cast[0], finished_game)
    answer(cast[1], finished_game)
    answer(cast[2], finished_game)
    response = login(cast[3]).post(
        reverse("games:revanche_answer", args=[finished_game.table_id]),
        {"answer": "yes"},
        headers=HTMX,
    )
    made = Revanche.objects.get()
    assert response["HX-Redirect"] == reverse("games:table", args=[made.table_id])


def test_a_refused_answer_is_a_french_flash(finished_game, cast, login):
    response = login(cast[1]).post(
        reverse("games:revanche_answer", args=[finished_game.table_id]),
        {"answer": "yes"},
        headers=HTMX,
    )
    assert response.status_code == 422
    assert "Aucune revanche n’est proposée" in response.content.decode()


def test_re_offers_after_declines_are_limited(finished_game, cast, login):
    ane, bixente = cast[0], cast[1]
    for _ in range(revanche.REVANCHE_OFFERS.count):
        offer(ane, finished_game)
        answer(bixente, finished_game, accept=False)
    response = login(ane).post(
        reverse("games:revanche_offer", args=[finished_game.table_id]), headers=HTMX
    )
    assert response.status_code == 422
    assert "Vous avez déjà proposé plusieurs revanches" in response.content.decode()
    assert Revanche.objects.get(game=finished_game).status == Revanche.Status.LAPSED
    assert offer(bixente, finished_game).status == Revanche.Status.OPEN  # the others may


def test_the_lapse_is_read_in_each_readers_language(finished_game, cast):
    """A Basque player's « Décliner » is read in French, Spanish and English by the others: the
    offer stores a code, never the decliner's words."""
    offer(cast[0], finished_game)
    with translation.override("eu"):
        lapsed = answer(cast[1], finished_game, accept=False)
    assert lapsed.reason == {"code": "declined", "name": "bixente"}
    texts = {}
    for language in ("fr", "es", "eu", "en"):
        with translation.override(language):
            texts[language] = Revanche.objects.get(pk=lapsed.pk).reason_text
    assert texts["fr"] == "bixente a décliné la revanche."
    assert len(set(texts.values())) == 4 and all("bixente" in t for t in texts.values())
