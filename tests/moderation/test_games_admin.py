"""Tables and parties in the admin: lists, search, the read-only log, Annuler la partie,
Rejouer, and who may do what."""

import pytest
from django.urls import reverse
from django.utils.html import escape

from games import engine
from games.display.table_view import card_view
from games.engine import SeededShuffler
from games.engine.cards import CARD_CODES
from games.models import Game, GameAction, GameSeat, Seat, Table
from games.services import play
from moderation import services
from moderation.models import StaffAction
from tests.games.helpers import next_move, start_game
from tests.moderation.helpers import run_action

pytestmark = pytest.mark.django_db

#: pick_action's weights for a slow partie: bets are always refused (a point each), no órdago.
CALM = {"pass": 60, "bet": 40, "ordago": 0, "refuse": 1, "hold": 0, "raise": 0}
CALM |= {"ordago_vote": 0, "mus": 30}


def play_until(game, rng, *, hands=None, actions=10_000):
    """Play random legal actions through the service until `hands` hands are closed (or the
    partie ends, or `actions` were played)."""
    for _ in range(actions):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        if hands is not None and len(game.state["hands"]) >= hands:
            break
        seat, action = next_move(game, rng, CALM)
        user = game.seats.get(number=seat).user
        play.game_apply_action(game_id=game.pk, user=user, version=game.version, action=action)
    game.refresh_from_db()
    return game


def cancel_via_admin(client, game, reason="Triche avérée"):
    return run_action(client, "admin:games_game_changelist", "cancel_games", game.pk, reason)


@pytest.fixture
def game(full_table):
    return start_game(full_table, first_mano=1)


def test_lists_filter_and_search_by_player(game, maite, login, make_user, open_table):
    client = login(maite)
    games = reverse("admin:games_game_changelist")
    change = reverse("admin:games_game_change", args=[game.pk])
    assert change in client.get(games, {"q": "camille"}).content.decode()
    assert change not in client.get(games, {"q": "personne"}).content.decode()
    assert change in client.get(games, {"status__exact": "playing"}).content.decode()
    assert change not in client.get(games, {"status__exact": "cancelled"}).content.decode()
    assert change in client.get(games, {"kings__exact": "4"}).content.decode()
    assert change not in client.get(games, {"kings__exact": "8"}).content.decode()
    tables = reverse("admin:games_table_changelist")
    html = client.get(tables, {"q": "dani", "status__exact": "playing"}).content.decode()
    assert reverse("admin:games_table_change", args=[game.table_id]) in html


def test_game_page_shows_seats_scores_and_the_whole_log_read_only(game, maite, login):
    game = play_until(game, SeededShuffler(7), actions=6)
    html = login(maite).get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    for name in ("ane", "bixente", "camille", "dani"):
        assert name in html
    assert "journal des actions" in html.lower()
    assert f"{game.state['scores'][0]} – {game.state['scores'][1]}" in html
    assert html.count('class="field-seq"') >= GameAction.objects.filter(game=game).count()
    assert 'name="actions-0-payload"' not in html  # rendered as text, not an input
    assert 'name="state"' not in html
    assert 'name="version"' not in html


def test_the_log_has_no_add_change_or_delete_in_the_admin(game, maite, login, rf):
    from django.contrib.admin.sites import site

    from moderation.games_admin import GameActionInline, GameSeatInline

    request = rf.get("/")
    request.user = maite
    for inline in (GameActionInline(Game, site), GameSeatInline(Game, site)):
        assert not inline.has_add_permission(request, game)
        assert not inline.has_change_permission(request, game)
        assert not inline.has_delete_permission(request, game)
        assert inline.has_view_permission(request, game)
    assert GameAction not in site._registry
    client = login(maite)
    assert client.get(reverse("admin:games_game_add")).status_code == 403
    assert client.post(reverse("admin:games_game_delete", args=[game.pk])).status_code == 403


def test_cancel_from_the_admin_ends_the_game_and_records_who_and_why(
    game, mikel, login, full_table
):
    response = cancel_via_admin(login(mikel), game, "Comportement abusif")
    assert response.status_code == 302
    game.refresh_from_db()
    full_table.refresh_from_db()
    assert game.status == Game.Status.CANCELLED
    assert "Comportement abusif" in game.end_reason_text
    assert full_table.status == Table.Status.CLOSED
    assert not Seat.objects.filter(table=full_table, active=True).exists()
    assert set(GameSeat.objects.filter(game=game).values_list("result", flat=True)) == {"cancelled"}
    end = GameAction.objects.filter(game=game).last()
    assert end.kind == "end" and end.payload["by"] == mikel.pk
    # the game's page says why as a sentence, not the stored code
    page = login(mikel).get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    shown = page.split("field-end_reason_shown")[1].split("</div>\n</div>")[0]
    assert "décision de la modération (Comportement abusif)" in shown
    action = StaffAction.objects.get()
    assert (action.kind, action.staff, action.game, action.reason) == (
        "cancel",
        mikel,
        game,
        "Comportement abusif",
    )


def test_cancel_asks_the_reason_first_and_refuses_an_ended_game(game, maite, login):
    client = login(maite)
    response = cancel_via_admin(client, game, reason=None)
    assert response.status_code == 200
    assert "Annuler la partie" in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    services.game_cancel(game=game, by=maite, reason="Test")
    with pytest.raises(services.ModerationError, match="déjà terminée"):
        services.game_cancel(game=game, by=maite, reason="Encore")
    assert StaffAction.objects.count() == 1


def test_the_game_page_links_rejouer_and_annuler(game, maite, login):
    html = login(maite).get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert reverse("admin:games_game_replay", args=[game.pk]) in html
    assert 'value="cancel_games"' in html


def test_rejouer_shows_every_hand_all_cards_lances_and_scores(game, mikel, login):
    game = play_until(game, SeededShuffler(11), hands=3)
    game = play_until(game, SeededShuffler(12), actions=3)  # the 4th hand under way
    services.game_cancel(game=game, by=mikel, reason="Fin du test")
    game.refresh_from_db()
    response = login(mikel).get(reverse("admin:games_game_replay", args=[game.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    plays = [[a.seat, a.payload] for a in game.actions.filter(kind="play").order_by("seq")]
    state = engine.replay(
        kings=game.kings,
        first_mano=game.state["first_mano"],
        decks=game.state["decks"],
        reshuffles=game.state["reshuffles"],
        actions=plays,
    )
    records = engine.hand_records(state)
    assert len(records) == 4
    assert "Le rejeu concorde avec l’état enregistré." in html
    for number, record in enumerate(records, start=1):
        assert f"Main {number} · mano" in html
        if "hands_shown" in record:
            for cards in record["hands_shown"].values():
                for code in cards:
                    assert f'aria-label="{escape(card_view(code)["name"])}"' in html
    for hand_index, deck in enumerate(game.state["decks"][:4]):
        assert f'data-card="{deck[0]}"' in html, hand_index  # dealt cards shown
    for code in state["hand"]["cards"][0]:  # the interrupted hand, as held
        assert f'data-card="{code}"' in html
    scores = [
        f"Score après la main : {r['scores_after'][0]} – {r['scores_after'][1]}" for r in records
    ]
    for line in scores:
        assert line in html
    assert html.count('class="replay-lance"') == sum(len(r["lances"]) for r in records)
    assert "Grand" in html and "Petit" in html


def test_non_staff_get_nothing_of_the_admin(game, bixente, login):
    client = login(bixente)
    for url in (
        reverse("admin:index"),
        reverse("admin:games_game_changelist"),
        reverse("admin:games_game_change", args=[game.pk]),
        reverse("admin:games_game_replay", args=[game.pk]),
        reverse("admin:accounts_user_changelist"),
        reverse("admin:moderation_staffaction_changelist"),
    ):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("admin:login"))
    response = cancel_via_admin(client, game)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING


def test_staff_without_the_permission_cannot_moderate(game, bixente, peio, login):
    client = login(peio)
    assert client.get(reverse("admin:games_game_changelist")).status_code == 403
    assert client.get(reverse("admin:games_game_replay", args=[game.pk])).status_code == 403
    assert cancel_via_admin(client, game).status_code == 403
    response = run_action(client, "admin:accounts_user_changelist", "ban_users", bixente.pk, "X")
    assert response.status_code == 403
    game.refresh_from_db()
    bixente.refresh_from_db()
    assert game.status == Game.Status.PLAYING and bixente.is_active
    assert not StaffAction.objects.exists()


def test_a_moderator_sees_and_moderates_but_cannot_change_a_game(game, mikel, login, bixente):
    client = login(mikel)
    index = client.get(reverse("admin:index")).content.decode()
    for model in ("games/game", "games/table", "accounts/user", "moderation/staffaction"):
        assert f"/admin/{model}/" in index
    change = reverse("admin:games_game_change", args=[game.pk])
    page = client.get(change)
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()
    version, state = game.version, game.state
    response = client.post(change, {"status": "cancelled", "version": "99", "state": "{}"})
    assert response.status_code == 403
    user_page = client.get(reverse("admin:accounts_user_change", args=[bixente.pk]))
    assert user_page.status_code == 200
    assert 'name="_save"' not in user_page.content.decode()
    game.refresh_from_db()
    assert (game.version, game.state, game.status) == (version, state, "playing")


def test_state_and_version_are_read_only_even_for_a_superuser(game, maite, login):
    client = login(maite)
    change = reverse("admin:games_game_change", args=[game.pk])
    html = client.get(change).content.decode()
    assert 'name="state"' not in html and 'name="version"' not in html
    version = game.version
    client.post(change, {"version": "99", "state": "{}", "status": "finished"})
    game.refresh_from_db()
    assert game.version == version and game.status == "playing"
    assert game.state["status"] == "playing"


def test_the_journal_is_read_only_for_everyone(maite, bixente, login):
    services.user_ban(user=bixente, by=maite, reason="Spam")
    client = login(maite)
    action = StaffAction.objects.get()
    listing = client.get(reverse("admin:moderation_staffaction_changelist")).content.decode()
    assert "Spam" in listing and "maite" in listing
    assert client.get(reverse("admin:moderation_staffaction_add")).status_code == 403
    url = reverse("admin:moderation_staffaction_change", args=[action.pk])
    page = client.get(url)
    assert page.status_code == 200 and 'name="reason"' not in page.content.decode()
    client.post(url, {"reason": "Rien"})
    delete = reverse("admin:moderation_staffaction_delete", args=[action.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    action.refresh_from_db()
    assert action.reason == "Spam"


def test_the_user_page_lists_their_parties_and_results(game, maite, login, camille):
    services.game_cancel(game=game, by=maite, reason="Test")
    html = login(maite).get(reverse("admin:accounts_user_change", args=[camille.pk]))
    html = html.content.decode()
    assert "parties jouées" in html.lower()
    assert reverse("admin:games_game_change", args=[game.pk]) in html
    assert "annulée" in html


def test_rejouer_in_8_rois_says_what_threes_and_twos_count_as(full_table, mikel, login):
    Table.objects.filter(pk=full_table.pk).update(kings=Table.Kings.EIGHT)
    full_table.refresh_from_db()
    deck = sorted(CARD_CODES, key=lambda code: code[0] not in "23")  # the 3s and 2s dealt
    game = start_game(full_table, decks=[deck], first_mano=0)
    html = login(mikel).get(reverse("admin:games_game_replay", args=[game.pk])).content.decode()
    dealt = [code for cards in game.state["hand"]["cards"] for code in cards]
    assert {"3o", "2o"} <= set(dealt)
    assert 'aria-label="Trois de deniers (compte comme un roi)"' in html
    for code in dealt:
        assert f'aria-label="{escape(card_view(code, 8)["name"])}"' in html
