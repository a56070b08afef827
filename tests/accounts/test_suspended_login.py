"""A suspended player is told so, and why, after the right password only; the log-in forms'
refusals read as errors and point at the inputs."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from moderation import services
from tests.helpers import PASSWORD

pytestmark = pytest.mark.django_db

REASON = "Triche avec un complice"


@pytest.fixture
def banned(make_user):
    staff = make_user("maite", is_staff=True, is_superuser=True)
    player = make_user("bixente")
    services.user_ban(user=player, by=staff, reason=REASON)
    player.refresh_from_db()
    return player


def log_in(username, password, url=None):
    client = Client()
    return client, client.post(
        url or reverse("accounts:login"), {"username": username, "password": password}
    )


def test_a_suspended_player_with_the_right_password_reads_why(banned):
    client, response = log_in("bixente", PASSWORD)
    body = response.content.decode()
    assert response.status_code == 200
    assert "Votre compte est suspendu depuis le" in body
    assert REASON in body
    assert "nom d’utilisateur" not in body.lower()
    assert "_auth_user_id" not in client.session


def test_a_wrong_password_reveals_nothing_of_the_suspension(banned, make_user):
    make_user("camille")
    _, banned_wrong = log_in("bixente", "faux")
    _, active_wrong = log_in("camille", "faux")
    for response in (banned_wrong, active_wrong):
        body = response.content.decode()
        assert "Nom de joueur ou mot de passe incorrect" in body
        assert "suspendu" not in body and REASON not in body
    strip = re.compile(r'(name="(csrfmiddlewaretoken|username)" value=|"X-CSRFToken": )"[^"]*"')
    assert strip.sub("", banned_wrong.content.decode()) == strip.sub(
        "", active_wrong.content.decode()
    )


def test_the_admin_log_in_says_it_too(banned):
    _, response = log_in("bixente", PASSWORD, reverse("admin:login"))
    assert REASON in response.content.decode()


def test_the_page_a_ban_sends_to_says_the_session_was_closed_without_the_reason():
    body = Client().get(reverse("accounts:login") + "?motif=suspension").content.decode()
    assert "Votre session a été fermée par la modération" in body
    plain = Client().get(reverse("accounts:login") + "?motif=nimportequoi").content.decode()
    assert "fermée" not in plain


def test_login_labels_say_nom_de_joueur_and_errors_point_at_the_inputs(make_user):
    make_user("camille")
    _, response = log_in("camille", "faux")
    body = response.content.decode()
    assert "Nom de joueur" in body
    assert '<div role="alert"><ul class="errorlist nonfield" id="erreurs-du-formulaire">' in body
    for name in ("username", "password"):
        tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', body).group(0)
        assert 'aria-invalid="true"' in tag
        assert 'aria-describedby="erreurs-du-formulaire"' in tag


def test_signup_field_errors_are_linked_to_their_input(client):
    response = client.post(
        reverse("accounts:signup"), {"username": "eneko", "password1": "1", "password2": "2"}
    )
    body = response.content.decode()
    tag = re.search(r'<input[^>]*name="password2"[^>]*>', body).group(0)
    assert 'aria-invalid="true"' in tag
    assert "id_password2_error" in tag
    assert 'id="id_password2_error"' in body


def test_errors_are_styled_as_errors_not_as_help():
    from pathlib import Path

    from django.contrib.staticfiles import finders

    css = Path(finders.find("css/site.css")).read_text()
    assert ".stack .helptext, .stack ul" not in css  # the rule that greyed the error lists
    rule = re.search(r"\.errorlist \{([^}]*)\}", css).group(1)
    assert "color: #9b1c2a" in rule and "background: #fdecee" in rule
