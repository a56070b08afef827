"""The site's own French error pages: no setting, URL, traceback or exception text shown."""

import io
import logging

import pytest
from django.test import Client
from django.urls import reverse

LEAKS = ("Traceback", "DATABASES", "postgres://", "secret detail", "URLconf", "musweb")


def assert_french_error_page(response, status, title):
    content = response.content.decode()
    assert response.status_code == status
    assert response["Content-Type"].startswith("text/html")
    assert '<html lang="fr">' in content
    assert f"<h1>{title}</h1>" in content
    assert "Retour à l’accueil" in content
    for leak in LEAKS:
        assert leak not in content, leak


@pytest.mark.django_db
@pytest.mark.parametrize("logged_in", [False, True], ids=["anonymous", "player"])
def test_an_unknown_address_gets_the_french_404(client, login, ane, logged_in):
    client = login(ane) if logged_in else client
    response = client.get("/nope/")
    assert_french_error_page(response, 404, "Page introuvable")


@pytest.fixture
def failing_client(settings):
    settings.ROOT_URLCONF = "tests.site.error_urls"
    client = Client()
    client.raise_request_exception = False
    return client


@pytest.mark.django_db
def test_a_crash_gets_the_french_500(failing_client, caplog):
    response = failing_client.get("/boom/")
    assert_french_error_page(response, 500, "Erreur du serveur")
    # The server's log keeps the detail, for us only.
    assert "secret detail" in caplog.text


@pytest.mark.django_db
def test_a_refusal_gets_the_french_403(failing_client):
    assert_french_error_page(failing_client.get("/interdit/"), 403, "Accès refusé")


@pytest.mark.django_db
def test_a_suspicious_request_gets_the_french_400(failing_client):
    assert_french_error_page(failing_client.get("/louche/"), 400, "Requête invalide")


@pytest.mark.django_db
def test_an_unknown_host_gets_the_french_400(client):
    response = client.get("/", headers={"host": "evil.example"})
    assert_french_error_page(response, 400, "Requête invalide")


@pytest.mark.django_db
def test_a_form_without_its_csrf_token_gets_the_french_403(ane):
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        reverse("accounts:login"), {"username": "ane", "password": "Txistu-eta-mus-2026"}
    )
    assert_french_error_page(response, 403, "Formulaire expiré")
    assert "_auth_user_id" not in client.session


def test_the_500_page_renders_with_no_request_and_no_database():
    from django.template import loader

    content = loader.get_template("500.html").render()
    assert "<h1>Erreur du serveur</h1>" in content


@pytest.fixture
def site_log():
    """What the site's own console handler (settings.LOGGING) writes, during the test."""
    from core.log_filters import SuspiciousRequestWithoutTraceback

    handler = next(
        handler
        for handler in logging.getLogger().handlers
        if any(isinstance(f, SuspiciousRequestWithoutTraceback) for f in handler.filters)
    )
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield stream
    handler.setStream(previous)


@pytest.mark.django_db
def test_a_forged_host_is_logged_in_one_line_without_traceback(client, site_log):
    client.get("/", headers={"host": "evil.example"})
    logged = site_log.getvalue()
    assert "Invalid HTTP_HOST header: 'evil.example'" in logged
    assert "Traceback" not in logged


@pytest.mark.django_db
def test_a_crash_keeps_its_traceback_in_the_log(failing_client, site_log):
    failing_client.get("/boom/")
    assert "Traceback" in site_log.getvalue()
