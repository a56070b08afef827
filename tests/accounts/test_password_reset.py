"""Mot de passe oublié: Django's reset flow end to end (the mail is the memory backend's),
without telling whether an address has an account, limited per client and per address, and
closed to suspended players."""

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts import throttle
from moderation import services
from tests.helpers import PASSWORD

pytestmark = pytest.mark.django_db

NEW = "Pelota-Mahaia-77"
LINK = re.compile(r"http://testserver(/comptes/mot-de-passe/nouveau/[^\s]+/)")


def ask(client, email):
    return client.post(reverse("accounts:password_reset"), {"email": email})


def log_in(username, password):
    client = Client()
    client.post(reverse("accounts:login"), {"username": username, "password": password})
    return "_auth_user_id" in client.session


def test_the_login_page_leads_to_the_reset(client):
    body = client.get(reverse("accounts:login")).content.decode()
    assert f'href="{reverse("accounts:password_reset")}"' in body
    assert "Mot de passe oublié ?" in body


def test_request_mail_link_new_password_login(client, make_user):
    make_user("ane", email="ane@example.org")

    response = ask(client, "ane@example.org")

    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert "Regardez votre boîte e-mail" in client.get(response["Location"]).content.decode()
    [message] = mail.outbox
    assert message.to == ["ane@example.org"]
    assert message.subject == "Barajamos : choisir un nouveau mot de passe"
    assert "Votre nom de joueur : ane" in message.body
    path = LINK.search(message.body).group(1)

    form_page = client.get(path, follow=True)  # Django moves the token into the session
    assert "Nouveau mot de passe" in form_page.content.decode()
    set_url = form_page.redirect_chain[-1][0]
    done = client.post(set_url, {"new_password1": NEW, "new_password2": NEW})
    assert done.status_code == 302
    assert done["Location"] == reverse("accounts:password_reset_complete")
    assert "l’ancien ne marche plus" in client.get(done["Location"]).content.decode()

    assert log_in("ane", NEW)
    assert not log_in("ane", PASSWORD)
    used = Client().get(path, follow=True).content.decode()
    assert "Ce lien n’est plus valable" in used


def test_the_answer_is_the_same_for_an_unknown_address(client, make_user):
    make_user("ane", email="ane@example.org")
    known = ask(Client(), "ane@example.org")
    unknown = ask(Client(), "personne@example.org")
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert len(mail.outbox) == 1


def test_a_suspended_player_cannot_reset_their_way_back(make_user):
    staff = make_user("maite", is_staff=True, is_superuser=True)
    player = make_user("bixente", email="bixente@example.org")
    services.user_ban(user=player, by=staff, reason="Triche")

    response = ask(Client(), "bixente@example.org")

    assert response["Location"] == reverse("accounts:password_reset_done")
    assert mail.outbox == []
    player.refresh_from_db()
    assert not player.is_active


def test_a_link_from_before_the_ban_does_not_reactivate(make_user):
    staff = make_user("maite", is_staff=True, is_superuser=True)
    player = make_user("bixente", email="bixente@example.org")
    client = Client()
    ask(client, "bixente@example.org")
    path = LINK.search(mail.outbox[0].body).group(1)
    services.user_ban(user=player, by=staff, reason="Triche")

    page = client.get(path, follow=True)
    if "Ce lien n’est plus valable" not in page.content.decode():
        client.post(page.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    player.refresh_from_db()
    assert not player.is_active
    assert not log_in("bixente", NEW)


def test_an_address_gets_few_mails_with_the_same_answer(make_user):
    make_user("ane", email="ane@example.org")
    answers = {ask(Client(), "ANE@example.org ")["Location"] for _ in range(5)}
    assert answers == {reverse("accounts:password_reset_done")}
    assert len(mail.outbox) == throttle.RESETS_PER_ADDRESS.count


def test_a_client_asking_too_often_waits(client):
    for n in range(throttle.RESETS_PER_IP.count):
        assert ask(client, f"x{n}@example.org").status_code == 302
    response = ask(client, "y@example.org")
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert "Trop de tentatives" in response.content.decode()
