"""The parejas' pages in records: the classement des parejas (five rated parties, formed
pairs, active members), a pair's page (its record counted while it was formed, a fixed number
of queries whatever its history), the profile's list."""

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from moderation.services import user_ban
from pairs import services
from records import selectors
from records.models import PairRating
from tests.pairs.helpers import form_pair
from tests.records.helpers import play_out, start

pytestmark = pytest.mark.django_db


def rated(pair, parties: int, points: int) -> None:
    PairRating.objects.create(
        pair=pair, mu=25, sigma=5, points=points, parties=parties, updated=timezone.now()
    )


def test_the_classement_des_parejas_lists_formed_pairs_after_five_parties(login, cast, make_user):
    ane, bixente, camille, dani = cast
    rated(form_pair(ane, bixente, "Los Txapelas"), 5, 1100)
    rated(form_pair(camille, dani, "Hegoak"), 4, 1300)  # one partie short
    gone = form_pair(ane, camille, "Itsasoa")
    rated(gone, 9, 1200)
    services.pair_dissolve(user=ane, pair_id=gone.pk)
    banned = make_user("eder")
    rated(form_pair(banned, dani, "Mendiak"), 7, 1250)
    user_ban(user=banned, by=make_user("staff", is_superuser=True, is_staff=True), reason="x")
    first, second = make_user("f1"), make_user("f2")
    rated(form_pair(first, second, "Bi Lagun"), 6, 1150)
    html = login(dani).get(reverse("records:pair_classement")).content.decode()
    assert [r.pair.name for r in selectors.pair_classement()] == ["Bi Lagun", "Los Txapelas"]
    assert html.index("Bi Lagun") < html.index("Los Txapelas")
    for absent in ("Hegoak", "Itsasoa", "Mendiak"):
        assert absent not in html
    assert (
        reverse("records:pair_classement")
        in login(dani).get(reverse("records:classement")).content.decode()
    )


def test_the_pair_page_counts_the_parties_played_as_partners_while_formed(
    login, cast, django_assert_num_queries
):
    ane, bixente, camille, dani = cast
    before = play_out(start(cast), 1)  # before the pair was formed
    pair = form_pair(ane, camille)
    together = [play_out(start(cast), seed) for seed in (2, 3)]
    play_out(start([ane, camille, bixente, dani]), 4)  # opponents: not the pair's
    pair = selectors.pair_by_slug(pair.slug)
    ane.has_perm("moderation.can_moderate")  # the viewer's permissions: read once per request
    with django_assert_num_queries(4):
        page = selectors.pair_page(pair, ane)
    assert page.played == 2
    assert page.won + page.lost == 2
    assert page.won == sum(g.winning_team == 0 for g in together)
    assert [line.game_id for line in page.last_parties] == [g.pk for g in reversed(together)]
    assert page.points is not None and page.rated == 2 and len(page.history) == 3
    assert before.pk not in [line.game_id for line in page.last_parties]
    html = login(bixente).get(pair.get_absolute_url()).content.decode()
    assert "Parties jouées ensemble" in html and "contre bixente, dani" in html
    assert reverse("records:partie", args=[together[0].pk]) in html  # bixente played it


def test_the_pair_page_costs_the_same_queries_whatever_the_history(cast, django_assert_num_queries):
    ane, bixente, camille, dani = cast
    pair = form_pair(ane, camille)
    for seed in range(1, 4):
        play_out(start(cast), seed)
    assert Game.objects.filter(status="finished").count() == 3
    pair = selectors.pair_by_slug(pair.slug)
    dani.has_perm("moderation.can_moderate")
    with django_assert_num_queries(4):
        selectors.pair_page(pair, dani)


def test_a_profile_lists_the_players_pairs(login, cast):
    ane, bixente, camille, dani = cast
    ours = form_pair(ane, bixente)
    gone = form_pair(camille, ane, "Hegoak")
    services.pair_dissolve(user=camille, pair_id=gone.pk)
    html = login(dani).get(reverse("records:profile", args=["ane"])).content.decode()
    assert f'href="{ours.get_absolute_url()}">Los Txapelas</a>' in html
    assert "Hegoak</a> · camille et ane · pas encore classée · dissoute" in html
    assert "Proposer une pareja à ane" in html
    assert (
        "Proposer une pareja"
        not in login(ane).get(reverse("records:profile", args=["ane"])).content.decode()
    )
