"""Private tables and their invitation link (games.services.invitations, the views)."""

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Seat, Table
from games.services import invitations, salle
from games.services.errors import SalleError
from tests.games.helpers import HTMX, run_together, start_game
from tests.helpers import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_table(ane):
    return salle.table_create(user=ane, kings=Table.Kings.FOUR, private=True)


def link(table) -> str:
    return reverse("games:invitation", args=[table.pk, table.invite_token])


def seat_url(table, token=None) -> str:
    return reverse("games:invitation_seat", args=[table.pk, token or table.invite_token])


def test_a_private_table_gets_a_long_random_token_and_a_public_one_none(ane, bixente):
    private = salle.table_create(user=ane, kings=Table.Kings.FOUR, private=True)
    public = salle.table_create(user=bixente, kings=Table.Kings.FOUR)
    assert private.private and len(private.invite_token) >= 43
    assert public.invite_token is None and not public.private


def test_the_host_opens_a_private_table_from_the_salle_form(login, ane):
    client = login(ane)
    answer = client.post(
        reverse("games:table_create"), {"kings": "4", "private": "1"}, headers=HTMX
    ).content.decode()
    table = Table.objects.get(host=ane)
    assert table.private
    assert "Copier le lien" in answer
    assert link(table) in answer


def test_a_private_table_is_not_listed_for_others(login, private_table, bixente):
    html = login(bixente).get(reverse("games:salle")).content.decode()
    assert f'id="table-{private_table.pk}"' not in html
    assert private_table.invite_token not in html
    assert "0 table attend des joueurs" in html or "0 tables attendent" in html


def test_the_link_shows_the_table_and_takes_a_seat(login, private_table, bixente):
    client = login(bixente)
    page = client.get(link(private_table)).content.decode()
    assert "ane vous invite à sa table" in page
    assert "S’asseoir ici" in page
    response = client.post(seat_url(private_table), {"number": "2"})
    assert response["Location"] == reverse("games:salle")
    assert Seat.objects.get(user=bixente).table_id == private_table.pk
    salle_html = client.get(reverse("games:salle")).content.decode()
    assert f'id="table-{private_table.pk}"' in salle_html  # their table, on top
    assert private_table.invite_token not in salle_html  # only the host sees the link


def test_without_the_token_a_private_seat_is_refused(private_table, bixente, login):
    with pytest.raises(SalleError, match="plus valable"):
        salle.seat_take(user=bixente, table_id=private_table.pk, number=1)
    with pytest.raises(SalleError, match="plus valable"):
        salle.seat_take(user=bixente, table_id=private_table.pk, number=1, invite_token="x" * 43)
    client = login(bixente)  # the salle's public seat form, posted by hand
    client.post(reverse("games:seat_take", args=[private_table.pk]), {"number": "1"})
    assert not Seat.objects.filter(user=bixente).exists()


def test_a_wrong_token_gets_a_french_page_not_the_table(login, private_table, bixente):
    response = login(bixente).get(reverse("games:invitation", args=[private_table.pk, "x" * 43]))
    assert response.status_code == 404
    page = response.content.decode()
    assert "Ce lien d’invitation n’est plus valable" in page
    assert "ane" not in page


def test_a_public_table_has_no_link(login, open_table, bixente):
    response = login(bixente).get(reverse("games:invitation", args=[open_table.pk, "None"]))
    assert response.status_code == 404


def test_renewing_the_link_kills_the_old_one(login, private_table, ane, bixente):
    old = private_table.invite_token
    login(ane).post(reverse("games:invitation_renew", args=[private_table.pk]), headers=HTMX)
    private_table.refresh_from_db()
    assert private_table.invite_token != old and len(private_table.invite_token) >= 43
    client = login(bixente)
    assert client.get(reverse("games:invitation", args=[private_table.pk, old])).status_code == 404
    with pytest.raises(SalleError):
        salle.seat_take(user=bixente, table_id=private_table.pk, number=1, invite_token=old)
    salle.seat_take(
        user=bixente, table_id=private_table.pk, number=1, invite_token=private_table.invite_token
    )


def test_only_the_host_renews_or_removes(private_table, bixente):
    salle.seat_take(
        user=bixente, table_id=private_table.pk, number=1, invite_token=private_table.invite_token
    )
    with pytest.raises(SalleError, match="Seul l’hôte"):
        invitations.token_renew(user=bixente, table_id=private_table.pk)
    with pytest.raises(SalleError, match="Seul l’hôte"):
        invitations.guest_remove(user=bixente, table_id=private_table.pk, number=0)


def test_the_host_removes_a_guest_before_the_start(login, private_table, ane, bixente):
    salle.seat_take(
        user=bixente, table_id=private_table.pk, number=1, invite_token=private_table.invite_token
    )
    html = login(ane).get(reverse("games:salle")).content.decode()
    assert "Retirer bixente de la table" in html
    login(ane).post(
        reverse("games:guest_remove", args=[private_table.pk]), {"number": "1"}, headers=HTMX
    )
    assert not Seat.objects.filter(user=bixente).exists()
    with pytest.raises(SalleError, match="Pour partir vous-même"):
        invitations.guest_remove(user=ane, table_id=private_table.pk, number=0)


def test_a_removed_guest_stays_out_even_with_the_link(login, private_table, ane, bixente):
    token = private_table.invite_token
    guest = login(bixente)
    guest.post(seat_url(private_table), {"number": "1"})
    assert Seat.objects.filter(user=bixente, table=private_table).exists()
    login(ane).post(
        reverse("games:guest_remove", args=[private_table.pk]), {"number": "1"}, headers=HTMX
    )
    page = guest.get(link(private_table)).content.decode()
    assert "L’hôte vous a retiré de cette table" in page
    response = guest.post(seat_url(private_table), {"number": "2"}, follow=True)
    assert "L’hôte vous a retiré de cette table" in response.content.decode()
    with pytest.raises(SalleError, match="retiré"):
        salle.seat_take(user=bixente, table_id=private_table.pk, number=3, invite_token=token)
    assert not Seat.objects.filter(user=bixente).exists()


def test_a_started_full_or_closed_table_says_so(login, cast, make_user):
    ane, bixente, camille, dani = cast
    table = salle.table_create(user=ane, kings=Table.Kings.FOUR, private=True)
    for number, user in enumerate(cast[1:], start=1):
        salle.seat_take(
            user=user, table_id=table.pk, number=number, invite_token=table.invite_token
        )
    eve = login(make_user("eve"))
    assert "Cette table est complète" in eve.get(link(table)).content.decode()
    response = eve.post(seat_url(table), {"number": "1"}, follow=True)
    assert "Cette table est complète" in response.content.decode()
    start_game(table)
    assert "La partie a déjà commencé" in eve.get(link(table)).content.decode()
    Table.objects.filter(pk=table.pk).update(status=Table.Status.CLOSED)
    assert "Cette table est fermée" in eve.get(link(table)).content.decode()


def test_a_visitor_logs_in_and_lands_back_on_the_table(private_table, bixente):
    client = Client()
    response = client.get(link(private_table))
    login_url = reverse("accounts:login")
    assert response.status_code == 302 and response["Location"].startswith(login_url)
    login_page = client.get(response["Location"]).content.decode()
    assert "vous reviendrez ensuite à la table de ane" in login_page
    assert "inscription/?next=" in login_page  # the sign-up link keeps the way back
    answer = client.post(response["Location"], {"username": "bixente", "password": PASSWORD})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert answer["Location"] == link(private_table)


def test_a_visitor_signs_up_and_lands_back_on_the_table(private_table):
    client = Client()
    target = link(private_table)
    page = client.get(reverse("accounts:signup"), {"next": target}).content.decode()
    assert f'name="next" value="{target}"' in page
    answer = client.post(
        reverse("accounts:signup"),
        {
            "username": "eve",
            "email": "eve@example.org",
            "password1": "un-mot-de-passe-solide-42",
            "password2": "un-mot-de-passe-solide-42",
            "next": target,
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:3000]
    assert answer["Location"] == target


def test_the_sign_up_never_sends_elsewhere(private_table):
    answer = Client().post(
        reverse("accounts:signup"),
        {
            "username": "eve",
            "email": "eve@example.org",
            "password1": "un-mot-de-passe-solide-42",
            "password2": "un-mot-de-passe-solide-42",
            "next": "https://evil.example/",
        },
    )
    assert answer["Location"] == reverse("games:salle")


def test_a_banned_user_cannot_use_a_link(private_table, bixente):
    bixente.is_active = False
    bixente.save(update_fields=["is_active"])
    with pytest.raises(SalleError, match="suspendu"):
        salle.seat_take(
            user=bixente,
            table_id=private_table.pk,
            number=1,
            invite_token=private_table.invite_token,
        )
    client = Client()
    client.force_login(bixente)  # a session that predates the ban: the middleware ends it
    client.post(seat_url(private_table), {"number": "1"})
    assert not Seat.objects.filter(user=bixente).exists()


def test_link_use_is_rate_limited_per_address(login, private_table, bixente):
    client = login(bixente)
    wrong = reverse("games:invitation", args=[private_table.pk, "y" * 43])
    statuses = [client.get(wrong).status_code for _ in range(invitations.LINK_USES.count + 1)]
    assert statuses[:-1] == [404] * invitations.LINK_USES.count
    assert statuses[-1] == 429
    page = client.get(link(private_table)).content.decode()  # even the right one, for now
    assert "Trop de liens d’invitation" in page


@pytest.mark.django_db(transaction=True)
def test_two_guests_race_for_the_last_seat_from_the_link(cast, make_user):
    ane, bixente, camille, _ = cast
    table = salle.table_create(user=ane, kings=Table.Kings.FOUR, private=True)
    token = table.invite_token
    salle.seat_take(user=bixente, table_id=table.pk, number=1, invite_token=token)
    salle.seat_take(user=camille, table_id=table.pk, number=2, invite_token=token)
    eve, fred = make_user("eve"), make_user("fred")
    results = run_together(
        lambda: salle.seat_take(user=eve, table_id=table.pk, number=3, invite_token=token),
        lambda: salle.seat_take(user=fred, table_id=table.pk, number=3, invite_token=token),
    )
    seated = [r for r in results if isinstance(r, Seat)]
    refused = [r for r in results if isinstance(r, SalleError)]
    assert len(seated) == 1 and len(refused) == 1
    assert Seat.objects.filter(table=table).count() == 4


def test_a_started_private_table_shows_nothing_to_outsiders(login, cast, make_user):
    table = salle.table_create(user=cast[0], kings=Table.Kings.FOUR, private=True)
    for number, user in enumerate(cast[1:], start=1):
        salle.seat_take(
            user=user, table_id=table.pk, number=number, invite_token=table.invite_token
        )
    start_game(table)
    outsider = login(make_user("eve"))
    response = outsider.get(reverse("games:table", args=[table.pk]), follow=True)
    assert "Seuls les joueurs assis à cette table peuvent la voir." in response.content.decode()
    assert "ane" not in response.content.decode().split("<main")[-1].split("Seuls")[0]


@pytest.mark.django_db(transaction=True)
async def test_the_socket_of_a_private_table_refuses_outsiders(cast, make_user):
    from channels.db import database_sync_to_async

    from tests.sockets import connect_table

    @database_sync_to_async
    def started_private():
        table = salle.table_create(user=cast[0], kings=Table.Kings.FOUR, private=True)
        for number, user in enumerate(cast[1:], start=1):
            salle.seat_take(
                user=user, table_id=table.pk, number=number, invite_token=table.invite_token
            )
        start_game(table)
        return table, make_user("eve")

    table, eve = await started_private()
    communicator, connected = await connect_table(eve, table.pk)
    assert not connected
    communicator, connected = await connect_table(cast[1], table.pk)
    assert connected
    await communicator.disconnect()
