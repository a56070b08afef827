"""Sign-up: a rate limit per address."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts import throttle
from tests.conftest import PASSWORD

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
    assert "Trop de tentatives : réessayez dans 60 minutes." in response.content.decode()
    assert not django_user_model.objects.filter(username="un-de-trop").exists()
    assert django_user_model.objects.count() == throttle.SIGNUPS_PER_IP.count

    assert _signup("ailleurs", ip="192.0.2.1").status_code == 302
