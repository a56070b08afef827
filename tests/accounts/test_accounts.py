import pytest
from django.urls import reverse

from tests.helpers import PASSWORD

pytestmark = pytest.mark.django_db


def test_signup_creates_the_account_and_logs_in(client, django_user_model):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "eneko", "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("games:salle")
    user = django_user_model.objects.get(username="eneko")
    assert user.email == ""
    assert client.get(reverse("games:salle")).status_code == 200


def test_signup_page_is_french(client):
    content = client.get(reverse("accounts:signup")).content.decode()
    assert "Créer un compte" in content
    assert "Nom de joueur" in content


def test_signup_refuses_a_weak_password_in_french(client, django_user_model):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "eneko", "password1": "123", "password2": "123"},
    )
    assert response.status_code == 200
    assert "trop court" in response.content.decode()
    assert not django_user_model.objects.filter(username="eneko").exists()


def test_signup_refuses_a_taken_username(client, ane, django_user_model):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "ane", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 200
    assert "existe déjà" in response.content.decode()
    assert django_user_model.objects.filter(username="ane").count() == 1


def test_login_then_logout_by_post(client, ane):
    response = client.post(reverse("accounts:login"), {"username": "ane", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("games:salle")
    assert client.get(reverse("accounts:logout")).status_code == 405  # logout is POST only
    assert client.post(reverse("accounts:logout")).status_code == 302
    assert client.get(reverse("games:salle")).status_code == 302


def test_wrong_password_is_refused_in_french(client, ane):
    response = client.post(reverse("accounts:login"), {"username": "ane", "password": "faux"})
    assert response.status_code == 200
    assert "Nom de joueur ou mot de passe incorrect" in response.content.decode()


def test_change_password(login, ane):
    client = login(ane)
    new = "Pelota-Mahaia-77"
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
    )
    assert response.status_code == 302
    ane.refresh_from_db()
    assert ane.check_password(new)
    assert client.get(reverse("games:salle")).status_code == 200  # session kept


def test_change_password_needs_the_old_one(login, ane):
    response = login(ane).post(
        reverse("accounts:password_change"),
        {"old_password": "faux", "new_password1": "Pelota-77x", "new_password2": "Pelota-77x"},
    )
    assert response.status_code == 200
    ane.refresh_from_db()
    assert ane.check_password(PASSWORD)


@pytest.mark.parametrize("name", ["home", "rules", "accounts:login", "accounts:signup"])
def test_public_pages(client, name):
    assert client.get(reverse(name)).status_code == 200


def test_rules_page_is_linked_from_the_header(client):
    assert f'href="{reverse("rules")}"' in client.get(reverse("home")).content.decode()


@pytest.mark.parametrize(
    "url", ["/salle/", "/tables/1/", "/comptes/mot-de-passe/", "/salle/tables/"]
)
def test_everything_else_needs_a_login(client, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_anonymous_htmx_request_is_sent_to_login_page(client):
    response = client.post(
        reverse("games:table_create"), {"kings": 4}, headers={"HX-Request": "true"}
    )
    assert response["HX-Redirect"] == reverse("accounts:login")


def test_admin_login_works_for_staff(client, make_user):
    make_user("garazi", is_staff=True, is_superuser=True)
    response = client.post(reverse("admin:login"), {"username": "garazi", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("admin:index")).status_code == 200
