"""Parejas: proposing, accepting, declining, dissolving, and every refusal (a French message,
nothing changed), through the services and the real views."""

import pytest
from django.urls import reverse

from moderation.services import user_ban
from pairs import services
from pairs.errors import PairError
from pairs.models import Pair
from tests.games.helpers import run_together
from tests.pairs.helpers import form_pair

pytestmark = pytest.mark.django_db


def refused(call, text: str) -> None:
    """`call` is refused with a message holding `text`, and no pair changed."""
    before = list(Pair.objects.order_by("pk").values())
    with pytest.raises(PairError) as error:
        call()
    assert text in error.value.message, error.value.message
    assert list(Pair.objects.order_by("pk").values()) == before


def test_a_proposal_accepted_forms_the_pair(ane, bixente):
    pair = services.pair_propose(user=ane, partner_name="bixente", name="  Los   Txapelas ")
    assert (pair.status, pair.name, pair.slug) == ("proposed", "Los Txapelas", "los-txapelas")
    pair = services.pair_accept(user=bixente, pair_id=pair.pk)
    pair.refresh_from_db()
    assert pair.status == Pair.Status.ACTIVE and pair.accepted_at is not None


def test_the_partner_is_found_whatever_the_case_of_the_name(ane, bixente):
    pair = services.pair_propose(user=ane, partner_name=" Bixente ", name="Hegoak")
    assert pair.partner == bixente


def test_a_player_may_belong_to_several_pairs(ane, bixente, camille):
    form_pair(ane, bixente, "Los Txapelas")
    form_pair(camille, ane, "Hegoak")
    assert Pair.objects.filter(status="active").count() == 2


def test_proposing_to_oneself_is_refused(ane):
    refused(lambda: services.pair_propose(user=ane, partner_name="ane", name="Solo"), "à deux")


def test_proposing_to_a_robot_is_refused(ane, make_user):
    make_user("Txomin", is_robot=True)
    refused(lambda: services.pair_propose(user=ane, partner_name="Txomin", name="Metal"), "robots")


def test_proposing_to_a_banned_player_is_refused(ane, bixente, make_user):
    staff = make_user("staff", is_superuser=True, is_staff=True)
    user_ban(user=bixente, by=staff, reason="triche")
    refused(
        lambda: services.pair_propose(user=ane, partner_name="bixente", name="Hegoak"),
        "compte est suspendu",
    )


def test_proposing_to_nobody_is_refused(ane):
    refused(
        lambda: services.pair_propose(user=ane, partner_name="personne", name="Hegoak"),
        "Aucun joueur",
    )


def test_proposing_twice_is_refused_whoever_proposes(ane, bixente):
    services.pair_propose(user=ane, partner_name="bixente", name="Los Txapelas")
    refused(
        lambda: services.pair_propose(user=ane, partner_name="bixente", name="Otra"),
        "attend déjà",
    )
    refused(
        lambda: services.pair_propose(user=bixente, partner_name="ane", name="Otra"),
        "attend déjà",
    )


def test_proposing_to_ones_partner_again_is_refused(ane, bixente):
    form_pair(ane, bixente)
    refused(
        lambda: services.pair_propose(user=bixente, partner_name="ane", name="Otra"),
        "Vous formez déjà la pareja « Los Txapelas »",
    )


@pytest.mark.parametrize(
    "name", ["Los Txapelas", "los-txapelas", "LOS TXAPELAS", "L0S TXAPELAS", "Los TxapeIas"]
)
def test_a_name_taken_or_looking_alike_is_refused(ane, bixente, camille, dani, name):
    form_pair(ane, bixente, "Los Txapelas")
    refused(
        lambda: services.pair_propose(user=camille, partner_name="dani", name=name),
        "déjà pris par une pareja, ou lui ressemble trop",
    )


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("ab", "de 3 à 40 caractères"),
        ("x" * 41, "de 3 à 40 caractères"),
        ("Los <b>", "ne peut contenir que"),
        ("Mus Мус", "un seul alphabet"),
        ("---", "au moins une lettre"),
    ],
)
def test_a_badly_written_name_is_refused(ane, bixente, name, said):
    refused(lambda: services.pair_propose(user=ane, partner_name="bixente", name=name), said)


def test_a_declined_proposal_frees_the_name(ane, bixente, camille, dani):
    pair = services.pair_propose(user=ane, partner_name="bixente", name="Los Txapelas")
    services.pair_decline(user=bixente, pair_id=pair.pk)
    again = services.pair_propose(user=camille, partner_name="dani", name="Los Txapelas")
    assert again.status == "proposed"


def test_a_dissolved_pair_keeps_its_name(ane, bixente, camille, dani):
    pair = form_pair(ane, bixente)
    services.pair_dissolve(user=bixente, pair_id=pair.pk)
    refused(
        lambda: services.pair_propose(user=camille, partner_name="dani", name="Los Txapelas"),
        "déjà pris",
    )


def test_accepting_for_someone_else_is_refused(ane, bixente, camille):
    pair = services.pair_propose(user=ane, partner_name="bixente", name="Los Txapelas")
    refused(lambda: services.pair_accept(user=ane, pair_id=pair.pk), "C’est à bixente")
    refused(lambda: services.pair_accept(user=camille, pair_id=pair.pk), "n’existe pas")
    refused(lambda: services.pair_accept(user=bixente, pair_id="x"), "n’existe pas")


def test_accepting_twice_is_refused(ane, bixente):
    pair = form_pair(ane, bixente)
    refused(lambda: services.pair_accept(user=bixente, pair_id=pair.pk), "déjà formée")


def test_a_proposer_banned_meanwhile_cannot_be_accepted(ane, bixente, make_user):
    pair = services.pair_propose(user=ane, partner_name="bixente", name="Los Txapelas")
    user_ban(user=ane, by=make_user("staff", is_superuser=True, is_staff=True), reason="triche")
    refused(lambda: services.pair_accept(user=bixente, pair_id=pair.pk), "ane ne peut pas")


def test_only_a_member_dissolves_and_only_once(ane, bixente, camille):
    pair = form_pair(ane, bixente)
    refused(lambda: services.pair_dissolve(user=camille, pair_id=pair.pk), "pas membre")
    services.pair_dissolve(user=ane, pair_id=pair.pk)
    pair.refresh_from_db()
    assert (pair.status, pair.ended_by) == ("dissolved", ane)
    refused(lambda: services.pair_dissolve(user=bixente, pair_id=pair.pk), "rien à dissoudre")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(3))
def test_two_accepts_at_once_form_the_pair_once(round_, ane, bixente, login):
    pair = services.pair_propose(user=ane, partner_name="bixente", name="Los Txapelas")
    results = run_together(
        lambda: services.pair_accept(user=bixente, pair_id=pair.pk),
        lambda: services.pair_accept(user=bixente, pair_id=pair.pk),
    )
    assert sum(isinstance(r, Pair) for r in results) == 1, results
    [loser] = [r for r in results if isinstance(r, PairError)]
    assert "déjà formée" in loser.message
    pair.refresh_from_db()
    assert pair.status == "active"


@pytest.mark.django_db(transaction=True)
def test_two_crossed_proposals_at_once_make_one(ane, bixente):
    results = run_together(
        lambda: services.pair_propose(user=ane, partner_name="bixente", name="Hegoak"),
        lambda: services.pair_propose(user=bixente, partner_name="ane", name="Itsasoa"),
    )
    assert sum(isinstance(r, Pair) for r in results) == 1, results
    assert "attend déjà" in next(r for r in results if isinstance(r, PairError)).message
    assert Pair.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_proposals_of_one_name_at_once_make_one(ane, bixente, camille, dani):
    results = run_together(
        lambda: services.pair_propose(user=ane, partner_name="bixente", name="Hegoak"),
        lambda: services.pair_propose(user=camille, partner_name="dani", name="HEGOAK"),
    )
    assert sum(isinstance(r, Pair) for r in results) == 1, results
    assert "déjà pris" in next(r for r in results if isinstance(r, PairError)).message


# ---------------------------------------------------------------- through the views


def test_the_pages_propose_and_accept(login, ane, bixente):
    answer = login(ane).post(
        reverse("pairs:propose"), {"partner": "bixente", "name": "Los Txapelas"}, follow=True
    )
    assert "Proposition envoyée à bixente" in answer.content.decode()
    page = login(bixente).get(reverse("pairs:mine")).content.decode()
    assert "ane vous propose la pareja « Los Txapelas »" in page
    pair = Pair.objects.get()
    answer = login(bixente).post(reverse("pairs:accept", args=[pair.pk]), follow=True)
    assert "Vous formez maintenant la pareja « Los Txapelas »" in answer.content.decode()
    profile = login(ane).get(reverse("records:profile", args=["bixente"])).content.decode()
    assert f'href="{pair.get_absolute_url()}">Los Txapelas</a>' in profile


def test_a_refusal_through_the_page_is_said_and_changes_nothing(login, ane):
    answer = login(ane).post(
        reverse("pairs:propose"), {"partner": "ane", "name": "Solo"}, follow=True
    )
    assert answer.status_code == 200
    assert "Une pareja se forme à deux" in answer.content.decode()
    assert not Pair.objects.exists()


def test_accepting_for_someone_else_through_the_page_is_refused(login, ane, bixente, camille):
    pair = services.pair_propose(user=ane, partner_name="bixente", name="Los Txapelas")
    answer = login(camille).post(reverse("pairs:accept", args=[pair.pk]), follow=True)
    assert "n’existe pas" in answer.content.decode()
    pair.refresh_from_db()
    assert pair.status == "proposed"


def test_proposals_are_rate_limited(login, ane, make_user, settings):
    client = login(ane)
    for n in range(services.PROPOSALS.count):
        make_user(f"joueur{n}")
        client.post(reverse("pairs:propose"), {"partner": f"joueur{n}", "name": f"Pareja {n}"})
    assert Pair.objects.count() == services.PROPOSALS.count
    make_user("encore")
    answer = client.post(
        reverse("pairs:propose"), {"partner": "encore", "name": "Encore"}, follow=True
    )
    assert "Trop de propositions de pareja" in answer.content.decode()
    assert Pair.objects.count() == services.PROPOSALS.count


def test_the_pair_page_shows_its_members_and_lets_a_member_dissolve(login, ane, bixente, camille):
    pair = form_pair(ane, bixente)
    page = login(camille).get(reverse("records:pair", args=[pair.slug])).content.decode()
    assert "Pareja « Los Txapelas »" in page and "bixente" in page
    assert "Dissoudre" not in page
    client = login(bixente)
    assert "Oui, dissoudre la pareja" in client.get(pair.get_absolute_url()).content.decode()
    answer = client.post(reverse("pairs:dissolve", args=[pair.pk]), follow=True)
    assert "est dissoute" in answer.content.decode()
    page = client.get(pair.get_absolute_url()).content.decode()
    assert "dissoute le" in page


def test_an_unknown_or_proposed_pair_has_no_page(login, ane, bixente):
    pair = services.pair_propose(user=ane, partner_name="bixente", name="Los Txapelas")
    assert login(ane).get(reverse("records:pair", args=[pair.slug])).status_code == 404
    assert login(ane).get(reverse("records:pair", args=["nadie"])).status_code == 404
