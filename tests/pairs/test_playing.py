"""Playing as a pareja: a table opened « avec ma pareja », « Jouer maintenant à deux », the
salle naming the seated pairs, live, and the revanche keeping them; through the services, the
real views and the salle's socket."""

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from games.display import fragments
from games.models import Game, Seat, Table
from games.services import revanche, salle
from pairs import selectors, services
from pairs.errors import PairError
from tests.games.helpers import HTMX, run_together
from tests.pairs.helpers import form_pair
from tests.records.helpers import play_out
from tests.sockets import connect

pytestmark = pytest.mark.django_db


def seated(table_id) -> dict[int, str]:
    return {
        s.number: s.user.username
        for s in Seat.objects.filter(table_id=table_id).select_related("user")
    }


def test_a_table_opened_with_ones_pareja_gives_them_both_seats_of_the_team(ane, bixente):
    pair = form_pair(ane, bixente)
    table = services.table_create_with_pair(user=ane, pair_id=pair.pk, kings=4)
    assert seated(table.pk) == {0: "ane", 2: "bixente"}


def test_a_private_table_opened_with_ones_pareja_seats_the_partner_too(ane, bixente):
    pair = form_pair(ane, bixente)
    table = services.table_create_with_pair(user=ane, pair_id=pair.pk, kings=8, private=True)
    assert table.private and seated(table.pk) == {0: "ane", 2: "bixente"}


def test_a_partner_seated_elsewhere_is_named_and_nothing_opens(ane, bixente, camille):
    pair = form_pair(ane, bixente)
    salle.table_create(user=bixente, kings=4)
    with pytest.raises(PairError, match="bixente a déjà une place à une table"):
        services.table_create_with_pair(user=ane, pair_id=pair.pk, kings=4)
    with pytest.raises(PairError, match="bixente a déjà une place à une table"):
        services.play_now_as_pair(user=ane, pair_id=pair.pk, kings=4)
    assert not Seat.objects.filter(user=ane).exists()
    assert Table.objects.count() == 1


def test_a_player_seated_already_is_refused_at_once(ane, bixente, camille):
    pair = form_pair(ane, bixente)
    mine = salle.table_create(user=ane, kings=4)
    other = salle.table_create(user=camille, kings=4)
    with pytest.raises(PairError, match="Vous êtes déjà assis à une table"):
        services.play_now_as_pair(user=ane, pair_id=pair.pk, kings=4)
    assert seated(mine.pk) == {0: "ane"} and seated(other.pk) == {0: "camille"}


def test_someone_elses_or_a_dissolved_pair_is_refused(ane, bixente, camille):
    pair = form_pair(ane, bixente)
    with pytest.raises(PairError, match="Choisissez une de vos parejas"):
        services.play_now_as_pair(user=camille, pair_id=pair.pk, kings=4)
    services.pair_dissolve(user=bixente, pair_id=pair.pk)
    with pytest.raises(PairError, match="n’est plus formée"):
        services.table_create_with_pair(user=ane, pair_id=pair.pk, kings=4)
    assert not Table.objects.exists()


def test_the_host_s_minimum_applies_to_the_partner(ane, bixente, camille, dani, make_user):
    pair = form_pair(ane, bixente)
    # bixente abandoned his only partie: 0 % completed.
    from tests.records.helpers import cancel_by_absence, start

    cancel_by_absence(start([bixente, camille, dani, make_user("eder")]), seat=0)
    with pytest.raises(PairError, match="bixente ne peut pas s’asseoir à cette table : L’hôte"):
        services.table_create_with_pair(user=ane, pair_id=pair.pk, kings=4, min_completion=80)
    assert not Seat.objects.filter(user=ane, active=True).exists()


def test_play_now_as_a_pair_takes_the_free_team_of_the_fullest_table(
    ane, bixente, camille, dani, make_user
):
    pair = form_pair(ane, bixente)
    eder, fermin = make_user("eder"), make_user("fermin")
    no_free_team = salle.table_create(user=camille, kings=4)
    salle.seat_take(user=dani, table_id=no_free_team.pk, number=1)
    salle.table_create(user=eder, kings=4)  # one seated: team 1 free
    fullest = salle.table_create(user=fermin, kings=4)
    salle.seat_take(user=make_user("garazi"), table_id=fullest.pk, number=2)  # team 0 full
    salle.table_create(user=make_user("haritz"), kings=8)  # another modality
    seat = services.play_now_as_pair(user=ane, pair_id=pair.pk, kings=4)
    assert seat.table_id == fullest.pk
    assert seated(fullest.pk) == {0: "fermin", 1: "ane", 2: "garazi", 3: "bixente"}


def test_play_now_as_a_pair_opens_a_table_when_none_has_a_free_team(ane, bixente, camille, dani):
    pair = form_pair(ane, bixente)
    taken = salle.table_create(user=camille, kings=4)
    salle.seat_take(user=dani, table_id=taken.pk, number=3)
    seat = services.play_now_as_pair(user=bixente, pair_id=pair.pk, kings=4)
    assert seat.table_id != taken.pk
    assert seated(seat.table_id) == {0: "bixente", 2: "ane"}


def test_the_salle_names_a_seated_pair_and_tells_the_partner(login, ane, bixente, camille):
    pair = form_pair(ane, bixente)
    answer = login(ane).post(
        reverse("pairs:play_now"), {"pair": pair.pk, "kings": "4"}, headers=HTMX
    )
    html = answer.content.decode()
    assert answer.status_code == 200
    assert "face à votre pareja" in html
    assert "pareja « Los Txapelas » (équipe 1)" in html
    partner = login(bixente).get(reverse("games:salle")).content.decode()
    assert "Vous jouez en pareja : « Los Txapelas »" in partner
    other = login(camille).get(reverse("games:salle")).content.decode()
    assert "pareja « Los Txapelas » (équipe 1)" in other


def test_the_salle_offers_the_pair_forms_only_to_a_player_with_a_pair(
    login, ane, bixente, camille, dani
):
    form_pair(ane, bixente)
    mine = login(ane).get(reverse("games:salle")).content.decode()
    assert "Jouer maintenant à deux" in mine and "Ouvrir la table avec ma pareja" in mine
    assert "Avec votre pareja « Los Txapelas » (bixente)" in mine
    form_pair(camille, ane, "Hegoak")  # two pairs: a choice
    mine = login(ane).get(reverse("games:salle")).content.decode()
    assert mine.count('<select name="pair">') == 2  # à deux, and the table form
    assert '">Hegoak · camille</option>' in mine and '">Los Txapelas · bixente</option>' in mine
    assert "Ouvrir la table avec cette pareja" in mine
    assert "Jouer maintenant à deux" not in login(dani).get(reverse("games:salle")).content.decode()


def test_the_seated_pairs_cost_one_query_whatever_the_tables(
    cast, make_user, django_assert_num_queries
):
    ane, bixente, camille, dani = cast
    pair = form_pair(ane, bixente)
    services.table_create_with_pair(user=ane, pair_id=pair.pk, kings=4)
    for n in range(4):
        first, second = make_user(f"a{n}"), make_user(f"b{n}")
        other = form_pair(first, second, f"Pareja {n}")
        services.table_create_with_pair(user=first, pair_id=other.pk, kings=4)
    fragments.salle_fragment(camille)  # draws camille's next table's commitment, once
    # the salle's four, the friends, the seated parejas (camille is not seated: her parejas),
    # her next table's commitment
    with django_assert_num_queries(8):
        html, _page = fragments.salle_fragment(camille)
    assert html.count('class="pair-badge"') == 5


def test_the_salle_says_a_proposal_waits_for_an_answer(login, ane, bixente):
    services.pair_propose(user=ane, partner_name="bixente", name="Los Txapelas")
    html = login(bixente).get(reverse("games:salle")).content.decode()
    assert "ane vous propose la pareja « Los Txapelas »." in html
    assert f'<a href="{reverse("pairs:mine")}">Répondre</a>' in html
    assert "Jouer maintenant à deux" not in html  # not formed yet
    assert "vous propose" not in login(ane).get(reverse("games:salle")).content.decode()


def test_the_table_form_with_ones_pareja_through_the_view(login, ane, bixente):
    pair = form_pair(ane, bixente)
    answer = login(ane).post(
        reverse("pairs:table_create"),
        {"pair": pair.pk, "kings": "8", "clock": "lent", "min_completion": ""},
        headers=HTMX,
    )
    assert answer.status_code == 200
    table = Table.objects.get()
    assert (table.kings, table.clock) == (8, "lent")
    assert seated(table.pk) == {0: "ane", 2: "bixente"}


def test_a_refusal_through_the_view_is_said_and_opens_nothing(login, ane, bixente, camille):
    pair = form_pair(ane, bixente)
    answer = login(camille).post(
        reverse("pairs:play_now"), {"pair": pair.pk, "kings": "4"}, headers=HTMX
    )
    assert "Choisissez une de vos parejas" in answer.content.decode()
    answer = login(ane).post(reverse("pairs:play_now"), {"pair": pair.pk, "kings": "5"})
    assert answer.status_code == 302
    assert not Table.objects.exists()


@pytest.mark.django_db(transaction=True)
async def test_the_partner_s_open_salle_is_updated_live(ane, bixente):
    pair = await database_sync_to_async(form_pair)(ane, bixente)
    communicator, connected = await connect(bixente)
    assert connected
    await communicator.receive_from(timeout=2)
    seat = await database_sync_to_async(services.play_now_as_pair)(
        user=ane, pair_id=pair.pk, kings=4
    )
    html = await communicator.receive_from(timeout=2)
    assert f"Vous êtes à la table {seat.table_id}, place 3" in html
    assert "Vous jouez en pareja : « Los Txapelas »" in html
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
def test_the_revanche_keeps_the_pairs(cast):
    ane, bixente, camille, dani = cast
    pair = form_pair(ane, camille)
    table = services.table_create_with_pair(user=ane, pair_id=pair.pk, kings=4)
    for number, user in ((1, bixente), (3, dani)):
        salle.seat_take(user=user, table_id=table.pk, number=number)
    salle.table_start(user=ane, table_id=table.pk, first_mano=0)
    game = play_out(Game.objects.get(table=table))
    offer = revanche.revanche_offer(user=camille, table_id=table.pk)
    for user in (ane, bixente, dani):
        offer = revanche.revanche_answer(user=user, table_id=table.pk, accept=True)
    new = Game.objects.get(table_id=offer.table_id)
    seats = list(new.seats.all())
    assert selectors.pairs_at([(game, list(game.seats.all()))]) == {game.pk: {0: pair.pk}}
    assert selectors.pairs_at([(new, seats)]) == {new.pk: {0: pair.pk}}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(3))
def test_a_dissolve_while_the_pair_sits_down_is_one_or_the_other(round_, ane, bixente):
    pair = form_pair(ane, bixente)
    seat, dissolved = run_together(
        lambda: services.play_now_as_pair(user=ane, pair_id=pair.pk, kings=4),
        lambda: services.pair_dissolve(user=bixente, pair_id=pair.pk),
    )
    assert getattr(dissolved, "status", None) == "dissolved", dissolved
    if isinstance(seat, Seat):  # seated first, then dissolved: both seated, together
        assert seated(seat.table_id) == {0: "ane", 2: "bixente"}
    else:  # dissolved first: refused, nothing opened
        assert "n’est plus formée" in seat.message
        assert not Table.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(3))
def test_both_members_clicking_at_once_sit_once_together(round_, ane, bixente, camille):
    pair = form_pair(ane, bixente)
    salle.table_create(user=camille, kings=4)
    results = run_together(
        lambda: services.play_now_as_pair(user=ane, pair_id=pair.pk, kings=4),
        lambda: services.play_now_as_pair(user=bixente, pair_id=pair.pk, kings=4),
    )
    assert sum(isinstance(r, Seat) for r in results) == 1, results
    assert "Vous êtes déjà assis" in next(r for r in results if isinstance(r, PairError)).message
    assert Seat.objects.filter(user__in=[ane, bixente], active=True).count() == 2
    [table_id] = set(Seat.objects.filter(user=ane).values_list("table_id", flat=True))
    assert set(seated(table_id).values()) >= {"ane", "bixente"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(3))
def test_two_pairs_sharing_a_player_sitting_down_at_once(round_, ane, bixente, camille):
    ours, theirs = form_pair(ane, bixente), form_pair(bixente, camille, "Hegoak")
    results = run_together(
        lambda: services.play_now_as_pair(user=ane, pair_id=ours.pk, kings=4),
        lambda: services.play_now_as_pair(user=camille, pair_id=theirs.pk, kings=4),
    )
    assert sum(isinstance(r, Seat) for r in results) == 1, results
    assert "bixente" in next(r for r in results if isinstance(r, PairError)).message
    assert Seat.objects.filter(user=bixente, active=True).count() == 1
    assert Seat.objects.filter(active=True).count() == 2  # the winners, and no table left over
