"""Reputation in the salle: every name with its rating and completion rate (one query for
all of them), and the host's minimum completion rate."""

import pytest
from django.urls import reverse

from games.display import fragments
from games.models import Table
from games.services import salle
from games.services.errors import SalleError
from records.selectors import reputations
from tests.records.helpers import cancel_by_absence, play_out, start

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_salle_shows_each_players_rating_and_completion(cast, make_user, client):
    ane, bixente, camille, dani = cast
    play_out(start(cast))
    cancel_by_absence(start(cast), seat=1)  # bixente: 1 of 2 parties abandoned
    eve = make_user("eve")
    table = salle.table_create(user=bixente, kings=4)
    salle.seat_take(user=eve, table_id=table.pk, number=1)
    client.force_login(ane)
    page = client.get(reverse("games:salle")).content.decode()
    known = reputations([bixente.pk, eve.pk])
    assert known[bixente.pk].completion == 50
    assert known[bixente.pk].points is not None
    assert known[eve.pk].points is None and known[eve.pk].completion is None
    assert known[bixente.pk].label in page
    assert "nouveau" in page
    assert f'href="{reverse("records:profile", args=["eve"])}"' in page


def test_the_names_reputations_cost_one_query_whatever_the_tables(
    cast, make_user, django_assert_num_queries
):
    ane = cast[0]
    for n in range(6):
        host = make_user(f"hote{n}")
        salle.table_create(user=host, kings=4)
    fragments.salle_fragment(ane, reputations=reputations)  # draws ane's next commitment
    # the salle's four, the friends, the names' reputations, the next table's commitment, the
    # player's parejas (« avec ma pareja »: the player is not seated)
    with django_assert_num_queries(8):
        html, _page = fragments.salle_fragment(ane, reputations=reputations)
    assert html.count('class="reputation"') == 6


def test_a_host_may_require_a_completion_rate(cast, make_user):
    ane, bixente, camille, dani = cast
    cancel_by_absence(start(cast), seat=1)  # bixente: 0 %, the others 100 %
    newcomer = make_user("eve")
    with pytest.raises(SalleError, match="de 1 à 100"):
        salle.table_create(user=ane, kings=4, min_completion=0)
    table = salle.table_create(user=ane, kings=4, min_completion=80)
    assert Table.objects.get(pk=table.pk).min_completion == 80
    with pytest.raises(SalleError, match="au moins 80 %.*vous en êtes à 0 %"):
        salle.seat_take(user=bixente, table_id=table.pk, number=1)
    salle.seat_take(user=camille, table_id=table.pk, number=1)
    salle.seat_take(user=newcomer, table_id=table.pk, number=2)  # no partie yet: welcome


def test_the_open_table_form_posts_the_minimum(cast, client):
    ane = cast[0]
    client.force_login(ane)
    client.post(reverse("games:table_create"), {"kings": "4", "min_completion": "75"})
    assert Table.objects.get(host=ane).min_completion == 75
    page = client.get(reverse("games:salle")).content.decode()
    assert "exige 75 % de parties menées à terme" in page


def test_a_minimum_that_is_no_number_is_refused_in_french(cast, client):
    client.force_login(cast[0])
    response = client.post(reverse("games:table_create"), {"kings": "4", "min_completion": "x"})
    assert response.status_code == 302
    assert not Table.objects.exists()
    page = client.get(reverse("games:salle")).content.decode()
    assert "Le taux exigé est un nombre de 1 à 100" in page
