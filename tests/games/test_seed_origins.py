"""Who chooses each seed (docs/FAIR-SHUFFLE.md, protocol 1.1), through the real views: a robot's
seed follows the public rule, a person's comes from their browser on every form that seats them
(after the form showed the commitment of the table it opens), a seed the site draws is recorded
as the site's, and the record's `seed_origins` tells `fairness verify` whether the proof holds."""

import hashlib
import re

import pytest
from django.urls import reverse

from games.display.dossier import partie_dossier
from games.models import Game, PendingShuffle, Revanche, Seat, Table
from games.services import play, robots, salle
from tests.games.friends import finish_game
from tests.games.helpers import HTMX, verify

pytestmark = pytest.mark.django_db

SEED = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"


def rule(commitment: str, seat: int) -> str:
    """The contract's robot seed, written again from its text."""
    text = "barajamos-robot|" + commitment + "|" + str(seat)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def shown_commitment(client, url=None) -> str:
    """The commitment a page shows in its « Mélange vérifiable : votre graine » box."""
    html = client.get(url or reverse("games:salle")).content.decode()
    found = set(re.findall(r'name="commitment" value="([0-9a-f]{64})"', html))
    assert len(found) == 1, found
    (commitment,) = found
    assert f"data-next-commitment>{commitment}</code>" in html
    return commitment


def origins(table: Table) -> list[str]:
    return [seat.seed_origin for seat in table.seats.order_by("number")]


# ------------------------------------------------------------------ robots


def test_a_robot_placed_by_the_host_gets_the_rule_seed(open_table, ane, login):
    client = login(ane)
    client.post(reverse("games:robot_seat", args=[open_table.pk]), {"number": 2})
    robot = Seat.objects.get(table=open_table, number=2)
    assert robot.robot and robot.seed_origin == "robot"
    assert robot.client_seed == rule(open_table.commitment, 2)
    html = client.get(reverse("games:salle")).content.decode()
    assert f'{robot.client_seed}</code> <span data-seed-origin="robot">' in html


def test_practice_table_shows_the_commitment_it_opens_and_seeds_from_the_browser(ane, login):
    client = login(ane)
    commitment = shown_commitment(client)
    response = client.post(
        reverse("games:practice_table"), {"kings": 4, "seed": SEED, "commitment": commitment}
    )
    assert response.status_code == 302
    table = Table.objects.get(host=ane)
    assert table.commitment == commitment  # the very table the form showed
    assert not PendingShuffle.objects.filter(user=ane).exists()  # taken, never reused
    game = Game.objects.get(table=table)
    assert game.client_seeds == [SEED] + [rule(commitment, seat) for seat in (1, 2, 3)]
    assert game.seed_origins == ["person", "robot", "robot", "robot"]


def test_practice_table_without_javascript_records_a_site_seed(ane, login):
    client = login(ane)
    commitment = shown_commitment(client)
    client.post(reverse("games:practice_table"), {"kings": 4, "seed": "", "commitment": commitment})
    game = Game.objects.get(table__host=ane)
    assert game.seed_origins == ["site", "robot", "robot", "robot"]
    assert re.fullmatch(r"[0-9a-f]{32}", game.client_seeds[0])


def test_a_form_whose_commitment_changed_is_refused_and_nothing_opens(ane, login):
    client = login(ane)
    stale = shown_commitment(client)
    PendingShuffle.objects.filter(user=ane).delete()  # taken meanwhile (another tab)
    response = client.post(
        reverse("games:practice_table"),
        {"kings": 4, "seed": SEED, "commitment": stale},
        headers=HTMX,
    )
    assert response.status_code == 200
    assert "Le mélange de votre future table a changé" in response.content.decode()
    assert not Table.objects.filter(host=ane).exists()


# ------------------------------------------------------------------ people, every form


def test_open_a_table_uses_the_commitment_its_form_showed(ane, login):
    client = login(ane)
    commitment = shown_commitment(client)
    client.post(reverse("games:table_create"), {"kings": 4, "seed": SEED, "commitment": commitment})
    table = Table.objects.get(host=ane)
    assert table.commitment == commitment
    assert origins(table) == ["person"]


def test_play_now_opening_a_table_seeds_from_the_browser(ane, login):
    client = login(ane)
    commitment = shown_commitment(client)
    client.post(reverse("games:play_now"), {"kings": 8, "seed": SEED, "commitment": commitment})
    seat = Seat.objects.get(user=ane)
    assert seat.table.commitment == commitment
    assert (seat.client_seed, seat.seed_origin) == (SEED, "person")


def test_play_now_at_an_open_table_seeds_from_the_browser_or_the_site(open_table, cast, login):
    _, bixente, camille, _ = cast
    login(bixente).post(reverse("games:play_now"), {"kings": 4, "seed": SEED})
    login(camille).post(reverse("games:play_now"), {"kings": 4})  # no JavaScript
    seats = {s.user_id: s for s in Seat.objects.filter(table=open_table)}
    assert (seats[bixente.pk].client_seed, seats[bixente.pk].seed_origin) == (SEED, "person")
    assert seats[camille.pk].seed_origin == "site"


def test_a_seat_without_javascript_is_the_sites_until_the_player_sets_one(
    open_table, bixente, login
):
    client = login(bixente)
    client.post(reverse("games:seat_take", args=[open_table.pk]), {"number": 1})
    seat = Seat.objects.get(user=bixente)
    assert seat.seed_origin == "site"
    client.post(reverse("games:seat_seed_set", args=[open_table.pk]), {"seed": "mienne"})
    seat.refresh_from_db()
    assert (seat.client_seed, seat.seed_origin) == ("mienne", "person")


def test_an_invitation_seat_carries_the_browser_seed(ane, bixente, login):
    table = salle.table_create(user=ane, kings=4, private=True)
    login(bixente).post(
        reverse("games:invitation_seat", args=[table.pk, table.invite_token]),
        {"number": 1, "seed": SEED},
    )
    seat = Seat.objects.get(user=bixente)
    assert (seat.client_seed, seat.seed_origin) == (SEED, "person")


def test_the_salle_puts_the_seed_one_click_away(open_table, bixente, login):
    html = login(bixente).get(reverse("games:salle")).content.decode()
    boxes = re.findall(r'<details class="seed-choice"[^>]*>', html)
    # « Jouer maintenant », « Ouvrir une table », « Jouer contre les robots », the open table
    assert len(boxes) == 4 and not any(" open" in box for box in boxes)
    assert html.count("Mélange vérifiable : votre graine") == 4


# ------------------------------------------------------------------ the revanche


@pytest.fixture
def finished_game(started_game, cast):
    return finish_game(started_game, cast)


def test_revanche_shows_its_commitment_and_each_yes_carries_its_seed(finished_game, cast, login):
    ane, bixente, camille, dani = cast
    url = reverse("games:table", args=[finished_game.table_id])
    offer_commitment = shown_commitment(login(ane), url)
    login(ane).post(
        reverse("games:revanche_offer", args=[finished_game.table_id]),
        {"seed": "aaa", "commitment": offer_commitment},
    )
    offer = Revanche.objects.get(game=finished_game)
    assert offer.commitment == offer_commitment
    page = login(bixente).get(url).content.decode()
    assert f"data-next-commitment>{offer.commitment}</code>" in page  # before bixente's « oui »
    answer = reverse("games:revanche_answer", args=[finished_game.table_id])
    login(bixente).post(answer, {"answer": "yes", "seed": "bbb"})
    login(camille).post(answer, {"answer": "yes"})  # no JavaScript
    login(dani).post(answer, {"answer": "yes", "seed": "ddd"})
    offer.refresh_from_db()
    game = Game.objects.get(table=offer.table)
    assert game.commitment == offer_commitment
    assert game.client_seeds[0] == "aaa" and game.client_seeds[1] == "bbb"
    assert game.client_seeds[3] == "ddd"
    assert game.seed_origins == ["person", "person", "site", "person"]


# ------------------------------------------------------------------ the record


def play_out(game: Game) -> Game:
    users = [s.user for s in game.seats.order_by("number")]
    return finish_game(game, users, seed=11)


def test_the_record_has_seed_origins_and_verify_says_the_proof_holds(ane, bixente, login):
    client = login(ane)
    commitment = shown_commitment(client)
    client.post(reverse("games:table_create"), {"kings": 4, "seed": SEED, "commitment": commitment})
    table = Table.objects.get(host=ane)
    login(bixente).post(reverse("games:seat_take", args=[table.pk]), {"number": 1})
    for number in (2, 3):
        client.post(reverse("games:robot_seat", args=[table.pk]), {"number": number})
    client.post(reverse("games:table_start", args=[table.pk]))
    game = play_out(Game.objects.get(table=table))
    record = partie_dossier(game)
    assert record["fairness"]["seed_origins"] == ["person", "site", "robot", "robot"]
    done = verify(record)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok   robot seed of seat 2: follows the public rule" in done.stdout
    assert "proof: holds: the seed of seat 0" in done.stdout
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'data-proof="holds"' in page and 'data-seed-origin="site"' in page


def test_a_partie_with_no_person_seed_says_the_proof_does_not_hold(ane, login):
    client = login(ane)
    client.post(reverse("games:practice_table"), {"kings": 4})  # no JavaScript: a site seed
    game = play_out(Game.objects.get(table__host=ane))
    record = partie_dossier(game)
    done = verify(record)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "proof: does not hold" in done.stdout
    page = client.get(reverse("games:table", args=[game.table_id])).content.decode()
    assert 'data-proof="none"' in page


def test_verify_fails_a_robot_seed_the_site_drew(ane, login):
    client = login(ane)
    client.post(reverse("games:practice_table"), {"kings": 4, "seed": SEED})
    game = Game.objects.get(table__host=ane)
    # A site that drew seat 1's seed instead of following the rule (the deal still derives)
    game.client_seeds[1] = "7101"
    deal = play.engine.FairDeal(bytes.fromhex(game.server_seed), game.client_seeds)
    state = play.engine.new_partie(
        kings=game.kings, first_mano=deal.first_mano(), shuffler=deal.shuffler()
    )
    game.state = state
    game.version = state["version"]
    game.save()
    game = play_out(game)
    assert game.seed_origins[1] == "robot"
    done = verify(partie_dossier(game))
    assert done.returncode == 1
    assert "FAIL robot seed of seat 1" in done.stdout


def test_a_game_dealt_from_a_robot_seed_off_the_rule_gets_the_rule(open_table, ane, login):
    client = login(ane)
    robots.robots_fill(user=ane, table_id=open_table.pk)
    Seat.objects.filter(table=open_table, number=1).update(client_seed="7101")
    client.post(reverse("games:table_start", args=[open_table.pk]))
    game = Game.objects.get(table=open_table)
    assert game.client_seeds[1] == rule(open_table.commitment, 1)


def test_the_migration_gives_robots_already_seated_the_rule_seed(open_table):
    """Robots seated at open tables before protocol 1.1 had a drawn seed: 0011 replaces it."""
    from importlib import import_module

    from django.apps import apps

    migration = import_module("games.migrations.0011_seed_origins")
    robot = robots.robot_accounts()[0]
    Seat.objects.create(
        table=open_table, user=robot, number=3, robot=True, client_seed="drawn", seed_origin="site"
    )
    migration.robots_follow_the_rule(apps, None)
    seat = Seat.objects.get(table=open_table, number=3)
    assert (seat.client_seed, seat.seed_origin) == (rule(open_table.commitment, 3), "robot")
    assert Seat.objects.get(table=open_table, number=0).seed_origin == "site"  # kept


def test_a_bad_seed_on_a_practice_form_or_a_yes_is_refused_in_french(finished_game, cast, login):
    ane, bixente, *_ = cast
    client = login(ane)
    commitment = shown_commitment(client)
    response = client.post(
        reverse("games:practice_table"),
        {"kings": 4, "seed": "Pas-Bon!", "commitment": commitment},
        headers=HTMX,
    )
    assert "Une graine compte de 1 à 64 caractères" in response.content.decode()
    assert PendingShuffle.objects.get(user=ane).commitment == commitment  # still to come
    client.post(reverse("games:revanche_offer", args=[finished_game.table_id]))
    response = login(bixente).post(
        reverse("games:revanche_answer", args=[finished_game.table_id]),
        {"answer": "yes", "seed": "É"},
        headers=HTMX,
    )
    assert response.status_code == 422
    assert "Une graine compte" in response.content.decode()
    assert Revanche.objects.get(game=finished_game).answers[1] == ""
