"""Sign-up: a rate limit per address, and no look-alike user names."""

import importlib

import pytest
from django.test import Client
from django.urls import reverse

from accounts import throttle
from accounts.usernames import skeleton
from tests.helpers import PASSWORD

pytestmark = pytest.mark.django_db


def _signup(username, ip="198.51.100.7"):
    return Client(REMOTE_ADDR=ip).post(
        reverse("accounts:signup"),
        {"username": username, "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )


@pytest.mark.usefixtures("cheap_hashing")
def test_one_address_creates_a_few_accounts_an_hour(django_user_model):
    for number in range(throttle.SIGNUPS_PER_IP.count):
        assert _signup(f"joueur{number}").status_code == 302

    response = _signup("un-de-trop")
    assert response.status_code == 429
    assert (
        "Trop de comptes créés depuis cette adresse : réessayez dans 60 minutes."
        in response.content.decode()
    )
    assert not django_user_model.objects.filter(username="un-de-trop").exists()
    assert django_user_model.objects.filter(is_robot=False).count() == throttle.SIGNUPS_PER_IP.count

    assert _signup("ailleurs", ip="192.0.2.1").status_code == 302


@pytest.mark.usefixtures("cheap_hashing")
@pytest.mark.parametrize(
    ("taken", "username", "message"),
    [
        ("admin", "аdmin", "d’un seul alphabet"),  # a Cyrillic а
        ("ane", "аnе", "d’un seul alphabet"),  # Cyrillic а and е
        ("admin", "adrnin", "ressemble trop"),
        ("paco", "расо", "ressemble trop"),  # all Cyrillic
        ("рара", "papa", "ressemble trop"),  # an older Cyrillic name, now in Latin
        ("Ibai", "lbai", "ressemble trop"),
        ("camille", "CAMILLE", "existe déjà"),
        (None, "ane+1", "lettres, des chiffres"),
        (None, "ane@mus", "lettres, des chiffres"),
        (None, "ane\u200bx", "lettres, des chiffres"),  # a zero-width space
        (None, "i\u0307ker", "d’un seul alphabet"),  # a combining dot on a Latin letter
    ],
)
def test_look_alike_names_are_refused(make_user, django_user_model, taken, username, message):
    if taken:
        make_user(taken)
    response = _signup(username)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not django_user_model.objects.filter(username=username).exists()


@pytest.mark.usefixtures("cheap_hashing")
@pytest.mark.parametrize("username", ["Jérôme", "Iñaki", "Олег", "山田たろう", "eneko_2", "x.y-z"])
def test_names_of_one_script_are_welcome(make_user, username):
    make_user("admin")
    assert _signup(username).status_code == 302


def test_skeletons():
    assert skeleton("аdmin") == skeleton("adrnin") == "admin"
    assert skeleton("ADMIN") == skeleton("admln") == skeleton("adm1n")
    assert skeleton("Ibai") == skeleton("lbai") != skeleton("ibai")


@pytest.mark.usefixtures("cheap_hashing")
@pytest.mark.parametrize(
    "username",
    ["Amaia", "amaia", "Pei0", "MARGOT", "Maddi-robot", "xabi-robot", "zorion-robot", "Peio-ROBOT"],
)
def test_robot_names_their_look_alikes_and_robot_forms_are_reserved(django_user_model, username):
    """Even with no robot account (a database emptied since the migration made them)."""
    django_user_model.objects.filter(is_robot=True).delete()
    response = _signup(username)
    assert response.status_code == 200
    assert "Ce nom est réservé aux robots du site" in response.content.decode()
    assert not django_user_model.objects.filter(username=username).exists()


def test_the_migration_makes_the_robots_beside_the_people_who_came_first(make_user):
    """An older site where people took robots' names (or look-alikes): the robots take their
    "-robot" form, never a name next to a person's; a new site has every robot before anyone."""
    from django.apps import apps
    from django.contrib.auth import get_user_model

    from accounts.robot_names import ROBOT_NAMES

    migration = importlib.import_module("accounts.migrations.0006_robot_accounts")
    users = get_user_model()
    users.objects.filter(is_robot=True).delete()
    make_user("maddi")
    make_user("Xabi")
    make_user("Xabi-robot")
    migration.robot_accounts_create(apps, None)
    robots = dict(users.objects.filter(is_robot=True).values_list("username", "password"))
    expected = {name for name in ROBOT_NAMES if name not in ("Maddi", "Xabi")} | {"Maddi-robot"}
    assert set(robots) == expected
    assert all(password.startswith("!") for password in robots.values())  # unusable
    migration.robot_accounts_create(apps, None)  # again: nothing more
    assert users.objects.filter(is_robot=True).count() == len(expected)
