"""The verifiable shuffle at the site (docs/fair-shuffle.md, "At the site"): the secret drawn
when a table opens, the players' seeds until the start, parties dealt from the derivation only,
the secret in no page, admin page or log line before the end, revealed at the end with a
record the engine's `fairness verify` command accepts, and refuses once a single card, seed or
action is changed."""

import copy
import json
import logging

import pytest
from django.urls import reverse

from games import engine
from games.display.dossier import partie_dossier
from games.engine import SeededShuffler
from games.models import Game, Seat, Table
from games.services import play, salle
from games.services.errors import SalleError
from tests.games.helpers import (
    LONG_PLAY,
    fair_start,
    form_data,
    leaks_secret,
    next_move,
    start_game,
    verify,
)

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def play_to_the_end(game: Game, rng, *, limit: int = 4000, on_step=None) -> Game:
    """Random legal decisions through the service (the table's POST does the same) until the
    partie is won; `on_step(game)` after each decision."""
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        seat, action = next_move(game, rng)
        user = game.seats.get(number=seat).user
        play.game_apply_action(
            user=user, version=game.version, action=action, table_id=game.table_id
        )
        if on_step is not None:
            on_step(game)
    game.refresh_from_db()
    return game


# ------------------------------------------------------------------ the table and its seeds


def test_a_new_table_commits_to_a_drawn_secret_and_seats_get_seeds(full_table, cast):
    assert len(full_table.server_seed) == 64
    assert full_table.commitment == engine.commitment(bytes.fromhex(full_table.server_seed))
    seeds = [seat.client_seed for seat in full_table.seats.order_by("number")]
    assert all(len(seed) == 32 and int(seed, 16) >= 0 for seed in seeds)  # drawn: token_hex(16)
    assert len(set(seeds)) == 4


def test_a_seed_given_at_the_sit_is_kept_and_a_bad_one_refused_in_french(open_table, bixente):
    with pytest.raises(SalleError, match="Une graine compte de 1 à 64 caractères"):
        salle.seat_take(user=bixente, table_id=open_table.pk, number=1, client_seed="Pas-bon")
    assert not Seat.objects.filter(user=bixente).exists()
    seat = salle.seat_take(user=bixente, table_id=open_table.pk, number=1, client_seed=" zorion ")
    assert seat.client_seed == "zorion"
    moved = salle.seat_take(user=bixente, table_id=open_table.pk, number=2, client_seed="other")
    assert moved.client_seed == "zorion"  # a move keeps the seed: changing it is seat_seed_set


def test_the_host_may_give_a_seed_when_opening(ane):
    table = salle.table_create(user=ane, kings=8, client_seed="x" * 64)
    assert table.seats.get().client_seed == "x" * 64
    with pytest.raises(SalleError):
        salle.table_create(user=ane, kings=8, client_seed="x" * 65)


def test_seeds_change_until_the_start_then_are_fixed(full_table, ane, bixente, login):
    salle.seat_seed_set(user=bixente, table_id=full_table.pk, seed="bixente2026")
    assert full_table.seats.get(user=bixente).client_seed == "bixente2026"
    with pytest.raises(SalleError, match="Une graine compte"):
        salle.seat_seed_set(user=bixente, table_id=full_table.pk, seed="")
    game = fair_start(full_table)
    assert game.client_seeds[1] == "bixente2026"
    with pytest.raises(SalleError) as refused:
        salle.seat_seed_set(user=bixente, table_id=full_table.pk, seed="changed")
    assert refused.value.message == "Les graines sont fixées : la partie a commencé."
    response = login(bixente).post(
        reverse("games:seat_seed_set", args=[full_table.pk]), {"seed": "changed"}, headers=HTMX
    )
    assert "Les graines sont fixées : la partie a commencé." in response.content.decode()
    game.refresh_from_db()
    assert game.client_seeds[1] == "bixente2026"
    assert full_table.seats.get(user=bixente).client_seed == "bixente2026"


def test_the_seed_form_of_the_salle_changes_ones_seed(full_table, camille, login):
    client = login(camille)
    page = client.get(reverse("games:salle")).content.decode()
    assert "data-seed-edit" in page and full_table.commitment[:12] in page
    for seat in full_table.seats.all():
        assert seat.client_seed in page  # every seed is visible to the table
    response = client.post(
        reverse("games:seat_seed_set", args=[full_table.pk]), {"seed": "camille"}, headers=HTMX
    )
    assert response.status_code == 200
    assert full_table.seats.get(user=camille).client_seed == "camille"


def test_without_javascript_the_site_draws_the_seed(open_table, dani, login):
    login(dani).post(reverse("games:seat_take", args=[open_table.pk]), {"number": "3", "seed": ""})
    assert len(open_table.seats.get(user=dani).client_seed) == 32


# ------------------------------------------------------------------ the derived partie


def test_a_started_partie_is_dealt_from_the_derivation(full_table):
    game = fair_start(full_table)
    seeds = [seat.client_seed for seat in full_table.seats.order_by("number")]
    assert game.fairness == Game.FAIRNESS_V1
    assert (game.server_seed, game.commitment) == (full_table.server_seed, full_table.commitment)
    assert game.client_seeds == seeds
    deal = engine.FairDeal(bytes.fromhex(game.server_seed), seeds)
    assert game.state["first_mano"] == deal.first_mano()
    assert game.state["decks"] == [deal.deck(1)]


def test_the_test_hooks_deal_with_the_old_randomness(full_table):
    game = start_game(full_table, first_mano=0)
    assert game.fairness == "" and game.server_seed == "" and game.client_seeds == []


def test_a_table_opened_before_the_shuffle_still_starts_with_the_old_randomness(full_table):
    Table.objects.filter(pk=full_table.pk).update(server_seed="", commitment="")
    Seat.objects.filter(table=full_table).update(client_seed="")
    game = fair_start(full_table)
    assert game.fairness == "" and game.server_seed == ""
    assert engine.replay(
        kings=game.kings, first_mano=game.state["first_mano"], decks=game.state["decks"], actions=[]
    )
    play.game_finish(game=game, status="cancelled", reason="Test.", by=None)
    game.refresh_from_db()
    record = partie_dossier(game)
    assert record["fairness"]["version"] is None
    assert "avant le mélange vérifiable" in record["fairness"]["explanation"]
    checked = verify(record)
    assert checked.returncode == 2
    assert checked.stderr.startswith("not verifiable:")


def test_a_finished_partie_passes_verify_and_a_single_change_fails_it(
    full_table, cast, login, caplog
):
    caplog.set_level(logging.DEBUG)
    game = fair_start(full_table)
    secret = game.server_seed
    game = play_to_the_end(game, SeededShuffler(3))
    assert game.status == Game.Status.FINISHED
    assert not any(leaks_secret(r.getMessage(), secret) for r in caplog.records)
    response = login(cast[2]).get(reverse("games:partie_record", args=[game.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        f'attachment; filename="barajamos-partie-{game.pk}.json"'
    )
    record = json.loads(response.content)
    assert record["fairness"]["server_seed"] == secret
    assert record["result"]["status"] == "finished"
    passed = verify(record)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert passed.stdout.strip().endswith(
        "verified: every card and the result follow from the commitment and the seeds"
    )

    one_card = copy.deepcopy(record)
    deck = one_card["decks"][-1]
    deck[0], deck[1] = deck[1], deck[0]
    one_seed = copy.deepcopy(record)
    one_seed["fairness"]["client_seeds"][2] += "x"
    one_action = copy.deepcopy(record)
    first = one_action["actions"][0][1]
    one_action["actions"][0][1] = {"type": "cut" if first["type"] == "mus" else "mus"}
    for changed in (one_card, one_seed, one_action):
        refused = verify(changed)
        assert refused.returncode == 1, refused.stdout
        assert "FAIL" in refused.stdout and "not verified" in refused.stderr


def test_a_partie_with_reshuffles_records_their_labels(full_table):
    # Fixed secret and seeds: the same cards every run, so the 400 decisions surely reach a
    # reshuffle (drawn ones made it a matter of luck).
    secret = bytes(range(32))
    Table.objects.filter(pk=full_table.pk).update(
        server_seed=secret.hex(), commitment=engine.commitment(secret)
    )
    for number in range(4):
        Seat.objects.filter(table=full_table, number=number).update(client_seed=f"seed{number}")
    game = fair_start(full_table)
    rng = SeededShuffler(21)
    for _ in range(400):
        game.refresh_from_db()
        if game.state["reshuffles"] or game.status != Game.Status.PLAYING:
            break
        seat, action = next_move(game, rng, LONG_PLAY)
        user = game.seats.get(number=seat).user
        play.game_apply_action(
            user=user, version=game.version, action=action, table_id=game.table_id
        )
    assert game.state["reshuffles"], "no reshuffle in 400 decisions of many mus rounds"
    play.game_finish(game=game, status="cancelled", reason="Test.", by=None)
    game.refresh_from_db()
    record = partie_dossier(game)
    labels = record["fairness"]["reshuffle_labels"]
    assert len(labels) == len(record["reshuffles"])
    deal = engine.FairDeal(bytes.fromhex(game.server_seed), game.client_seeds)
    for label, order in zip(labels, record["reshuffles"], strict=True):
        assert deal.reshuffle(label["hand"], label["round"], order) == order
    assert verify(record).returncode == 0


# ------------------------------------------------------------------ the reveal, only at the end


def pages_of_a_player(client, game: Game) -> dict[str, str]:
    """Every page and fragment a player of `game` can ask for."""
    table_url = reverse("games:table", args=[game.table_id])
    act = client.post(
        reverse("games:act", args=[game.table_id]), {"version": "999", "type": "mus"}, headers=HTMX
    )
    return {
        "salle": client.get(reverse("games:salle")).content.decode(),
        "salle fragment": client.get(reverse("games:salle"), headers=HTMX).content.decode(),
        "table": client.get(table_url, follow=True).content.decode(),
        "refused decision": act.content.decode(),
        "record": client.get(reverse("games:partie_record", args=[game.pk])).content.decode(),
        "explainer": client.get(reverse("games:fair_shuffle")).content.decode(),
        "unknown record": client.get("/parties/999999/dossier.json").content.decode(),
    }


def test_the_secret_is_in_no_page_before_the_end_and_revealed_after(
    full_table, cast, login, caplog
):
    caplog.set_level(logging.DEBUG)
    secret = full_table.server_seed
    clients = [login(user) for user in cast]
    open_pages = clients[0].get(reverse("games:salle")).content.decode()
    assert full_table.commitment in open_pages and not leaks_secret(open_pages, secret)
    game = fair_start(full_table)
    rng = SeededShuffler(5)
    for step in range(40):  # long play: no bet, no órdago, so the partie is still played after
        seat, action = next_move(game, rng, LONG_PLAY)
        act_url = reverse("games:act", args=[game.table_id])
        response = clients[seat].post(act_url, form_data(game.version, action), headers=HTMX)
        assert response.status_code == 200
        assert not leaks_secret(response.content.decode(), secret)
        game.refresh_from_db()
        if step % 10 == 0:
            for name, page in pages_of_a_player(clients[step % 4], game).items():
                assert not leaks_secret(page, secret), name
    assert game.status == Game.Status.PLAYING
    record = clients[1].get(reverse("games:partie_record", args=[game.pk]))
    assert record.status_code == 404
    assert "Page introuvable" in record.content.decode()
    table_page = clients[1].get(reverse("games:table", args=[game.table_id])).content.decode()
    assert game.commitment in table_page and game.client_seeds[3] in table_page
    assert not any(leaks_secret(r.getMessage(), secret) for r in caplog.records)

    play.game_finish(game=game, status="cancelled", reason="Abandon de dani.", by=None)
    page = clients[1].get(reverse("games:table", args=[game.table_id]))
    text = page.content.decode()
    assert page.status_code == 200
    assert "La partie a été annulée : Abandon de dani." in text
    assert secret in text and game.commitment in text
    assert all(seed in text for seed in game.client_seeds)
    assert reverse("games:partie_record", args=[game.pk]) in text
    assert "Télécharger le dossier de la partie" in text and "Mélange vérifiable" in text
    record = json.loads(clients[1].get(reverse("games:partie_record", args=[game.pk])).content)
    assert record["fairness"]["server_seed"] == secret
    assert record["partie"]["status"] == "cancelled"
    assert verify(record).returncode == 0  # a cancelled partie verifies up to where it stopped


def test_the_record_is_for_the_four_players_and_staff_only(full_table, make_user, login):
    game = fair_start(full_table)
    play.game_finish(game=game, status="cancelled", reason="Test.", by=None)
    url = reverse("games:partie_record", args=[game.pk])
    outsider = login(make_user("xabi"))
    assert outsider.get(url).status_code == 404
    assert "Page introuvable" in outsider.get(url).content.decode()
    assert login(full_table.host).get(url).status_code == 200


def test_the_admin_shows_the_secret_only_once_the_partie_has_ended(full_table, make_user, login):
    from django.contrib.auth.models import Permission

    staff = make_user("staff", is_staff=True, is_superuser=True)
    staff.user_permissions.add(Permission.objects.get(codename="can_moderate"))
    client = login(staff)
    game = fair_start(full_table)
    secret = game.server_seed
    pages = [
        client.get(reverse("admin:games_game_change", args=[game.pk])),
        client.get(reverse("admin:games_table_change", args=[full_table.pk])),
        client.get(reverse("admin:games_game_changelist")),
        client.get(reverse("admin:games_table_changelist")),
        client.get(reverse("admin:games_game_replay", args=[game.pk])),
    ]
    for page in pages:
        assert page.status_code == 200
        assert not leaks_secret(page.content.decode(), secret)
    assert game.commitment in pages[0].content.decode()
    play.game_finish(game=game, status="cancelled", reason="Test.", by=staff)
    ended = client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert secret in ended
    assert reverse("games:partie_record", args=[game.pk]) in ended
    table_page = client.get(reverse("admin:games_table_change", args=[full_table.pk]))
    assert not leaks_secret(table_page.content.decode(), secret)  # the game's page has it
    assert client.get(reverse("games:partie_record", args=[game.pk])).status_code == 200
