"""Bannir / Débannir: sessions ended, log-in refused, seats freed, the journal written."""

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils.crypto import salted_hmac

from games.models import Seat, Table
from moderation import services
from moderation.models import StaffAction, UserSession
from tests.helpers import PASSWORD
from tests.moderation.helpers import ban_via_admin, run_action

pytestmark = pytest.mark.django_db


def sessions_of(user):
    return [
        s for s in Session.objects.all() if s.get_decoded().get("_auth_user_id") == str(user.pk)
    ]


def log_in(username):
    client = Client()
    response = client.post(reverse("accounts:login"), {"username": username, "password": PASSWORD})
    return client, response


def test_every_login_is_indexed_and_a_logout_unindexes_it(bixente, login):
    client, response = log_in("bixente")
    assert response.status_code == 302
    login(bixente)
    keys = set(UserSession.objects.filter(user=bixente).values_list("session_key", flat=True))
    assert keys == {s.session_key for s in sessions_of(bixente)}
    assert len(keys) == 2
    client.post(reverse("accounts:logout"))
    assert UserSession.objects.filter(user=bixente).count() == 1


def test_ban_ends_every_session_and_refuses_the_login(bixente, maite, login):
    phone, _ = log_in("bixente")
    laptop = login(bixente)
    assert laptop.get(reverse("games:salle")).status_code == 200

    response = ban_via_admin(login(maite), bixente, "Triche avec un complice")

    assert response.status_code == 302
    assert sessions_of(bixente) == []
    assert not UserSession.objects.filter(user=bixente).exists()
    for client in (phone, laptop):
        response = client.get(reverse("games:salle"))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:login"))
    client, response = log_in("bixente")
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
    bixente.refresh_from_db()
    assert not bixente.is_active
    assert bixente.ban_reason == "Triche avec un complice"
    assert bixente.banned_at is not None


def test_a_session_left_over_is_useless_once_inactive(bixente, login):
    """Not assumed, verified: is_active=False alone logs the user out of a surviving session
    (ModelBackend.get_user returns None), should a session escape the index."""
    client = login(bixente)
    UserSession.objects.all().delete()  # as if made before the index existed
    type(bixente).objects.filter(pk=bixente.pk).update(is_active=False)
    response = client.get(reverse("games:salle"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_a_session_whose_key_changed_stays_ended_after_the_unban(bixente, maite, login):
    """A password change cycles the session key past the index; the ban must end that session
    all the same, and the unban must not bring it back."""
    client, _ = log_in("bixente")
    new_password = "Pilota-eta-txakoli-2026"
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": PASSWORD, "new_password1": new_password, "new_password2": new_password},
    )
    assert response.status_code == 302
    assert client.get(reverse("games:salle")).status_code == 200
    key = client.session.session_key
    assert not UserSession.objects.filter(session_key=key).exists()  # unknown to the index

    staff = login(maite)
    ban_via_admin(staff, bixente, "Triche")
    run_action(staff, "admin:accounts_user_changelist", "unban_users", bixente.pk, "Erreur")

    bixente.refresh_from_db()
    assert bixente.is_active
    response = client.get(reverse("games:salle"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))
    fresh = Client()
    response = fresh.post(
        reverse("accounts:login"), {"username": "bixente", "password": new_password}
    )
    assert response.status_code == 302
    assert fresh.get(reverse("games:salle")).status_code == 200


def test_the_session_hash_is_djangos_until_a_first_ban(bixente, maite, login, make_user):
    """Sessions opened before session_epoch existed stay valid; other users' too after a ban."""
    expected = salted_hmac(
        "django.contrib.auth.models.AbstractBaseUser.get_session_auth_hash",
        bixente.password,
        algorithm="sha256",
    ).hexdigest()
    assert bixente.session_epoch == 0
    assert bixente.get_session_auth_hash() == expected
    client = login(bixente)
    services.user_ban(user=make_user("eneko"), by=maite, reason="Spam")
    assert client.get(reverse("games:salle")).status_code == 200
    services.user_ban(user=bixente, by=maite, reason="Spam")
    bixente.refresh_from_db()
    assert bixente.session_epoch == 1
    assert bixente.get_session_auth_hash() != expected


def test_ban_writes_the_journal(bixente, maite):
    action = services.user_ban(user=bixente, by=maite, reason="Pseudo injurieux")
    row = StaffAction.objects.get()
    assert row == action
    assert (row.kind, row.staff, row.target_user, row.reason) == (
        "ban",
        maite,
        bixente,
        "Pseudo injurieux",
    )
    assert row.at is not None


def test_ban_needs_a_reason_and_is_not_repeated(bixente, maite):
    with pytest.raises(services.ModerationError, match="motif"):
        services.user_ban(user=bixente, by=maite, reason="   ")
    services.user_ban(user=bixente, by=maite, reason="Spam")
    with pytest.raises(services.ModerationError, match="déjà banni"):
        services.user_ban(user=bixente, by=maite, reason="Spam")
    assert StaffAction.objects.count() == 1


def test_nobody_bans_themselves_and_only_a_superuser_bans_staff(maite, mikel, peio):
    with pytest.raises(services.ModerationError):
        services.user_ban(user=maite, by=maite, reason="Oups")
    with pytest.raises(services.ModerationError):
        services.user_ban(user=maite, by=mikel, reason="Coup d’État")
    with pytest.raises(services.ModerationError, match="superutilisateur"):
        services.user_ban(user=peio, by=mikel, reason="Collègue")
    services.user_ban(user=peio, by=maite, reason="Abus de pouvoir")
    maite.refresh_from_db()
    peio.refresh_from_db()
    assert maite.is_active and not peio.is_active


def test_the_intermediate_form_asks_the_reason_first(bixente, maite, login):
    client = login(maite)
    response = ban_via_admin(client, bixente, reason=None)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Motif" in html
    assert 'name="reason"' in html
    assert "bixente" in html
    bixente.refresh_from_db()
    assert bixente.is_active
    response = ban_via_admin(client, bixente, reason="")
    assert response.status_code == 200
    assert "Ce champ est obligatoire" in response.content.decode()
    assert not StaffAction.objects.exists()


def test_ban_while_seated_frees_the_seat_and_hands_the_table_over(ane, bixente, maite, open_table):
    from games.services import salle

    salle.seat_take(user=bixente, table_id=open_table.pk, number=2)
    services.user_ban(user=ane, by=maite, reason="Quitte toujours en cours de partie")
    open_table.refresh_from_db()
    assert open_table.status == Table.Status.OPEN
    assert open_table.host == bixente
    assert list(open_table.seats.values_list("user__username", flat=True)) == ["bixente"]
    assert not Seat.objects.filter(user=ane).exists()


def test_ban_of_the_last_seated_player_removes_the_unplayed_table(ane, maite, open_table):
    services.user_ban(user=ane, by=maite, reason="Spam")
    assert not Table.objects.filter(pk=open_table.pk).exists()
    assert not Seat.objects.filter(user=ane).exists()


def test_unban_lets_the_user_log_in_again(bixente, maite, login):
    services.user_ban(user=bixente, by=maite, reason="Spam")
    response = run_action(
        login(maite), "admin:accounts_user_changelist", "unban_users", bixente.pk, "Erreur"
    )
    assert response.status_code == 302
    bixente.refresh_from_db()
    assert bixente.is_active
    assert bixente.banned_at is None
    assert bixente.ban_reason == ""
    client, response = log_in("bixente")
    assert response.status_code == 302
    assert client.get(reverse("games:salle")).status_code == 200
    assert list(StaffAction.objects.order_by("pk").values_list("kind", "reason")) == [
        ("ban", "Spam"),
        ("unban", "Erreur"),
    ]


def test_only_a_superuser_unbans_staff_and_nobody_unbans_themselves(maite, mikel, peio):
    services.user_ban(user=peio, by=maite, reason="Abus de pouvoir")
    with pytest.raises(services.ModerationError, match="superutilisateur"):
        services.user_unban(user=peio, by=mikel, reason="Collègue")
    with pytest.raises(services.ModerationError, match="vous-même"):
        services.user_unban(user=peio, by=peio, reason="Moi")
    peio.refresh_from_db()
    assert not peio.is_active and peio.is_banned
    services.user_unban(user=peio, by=maite, reason="Erreur")
    peio.refresh_from_db()
    assert peio.is_active
    assert list(StaffAction.objects.order_by("pk").values_list("kind", flat=True)) == [
        "ban",
        "unban",
    ]


def test_the_admin_unban_of_staff_by_a_moderator_says_why_in_french(maite, mikel, peio, login):
    services.user_ban(user=peio, by=maite, reason="Abus de pouvoir")
    client = login(mikel)
    response = run_action(
        client, "admin:accounts_user_changelist", "unban_users", peio.pk, "Collègue"
    )
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "Seul un superutilisateur peut bannir ou débannir un membre de l’équipe." in page
    peio.refresh_from_db()
    assert not peio.is_active
    assert StaffAction.objects.filter(kind="unban").count() == 0


def test_unban_of_a_user_not_banned_is_refused(bixente, maite):
    with pytest.raises(services.ModerationError, match="pas banni"):
        services.user_unban(user=bixente, by=maite, reason="?")


def test_the_user_page_offers_bannir_then_debannir(bixente, maite, login):
    client = login(maite)
    url = reverse("admin:accounts_user_change", args=[bixente.pk])
    assert 'value="ban_users"' in client.get(url).content.decode()
    services.user_ban(user=bixente, by=maite, reason="Spam")
    html = client.get(url).content.decode()
    assert 'value="unban_users"' in html
    assert "Spam" in html


def test_user_search(ane, bixente, maite, login):
    response = login(maite).get(reverse("admin:accounts_user_changelist"), {"q": "bix"})
    html = response.content.decode()
    assert "bixente" in html
    assert f"/admin/accounts/user/{ane.pk}/change/" not in html
