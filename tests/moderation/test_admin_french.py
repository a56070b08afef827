"""The admin speaks French from the title to the column headers, and numbers seats 1-4 as
every other page does."""

import re

import pytest
from django.urls import reverse

from games.engine import SeededShuffler
from games.models import Game, GameAction
from games.services import play
from moderation import services
from moderation.models import StaffAction
from tests.games.helpers import next_move

pytestmark = pytest.mark.django_db

#: English words Django writes when a field has no French name ("Par created", "Finished at").
ENGLISH = re.compile(
    r"\b(created|updated|finished|last seen|last action|started at|connected at|session key|"
    r"payload|seq|kind|host|active|deadline|presence epoch|turn deadline|django "
    r"administration|site administration|username|user name)\b",
    re.IGNORECASE,
)


def visible_text(html: str) -> str:
    """The page as read: no tags, scripts, attributes or the admin's hidden filter names."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.DOTALL)
    return re.sub(r"<[^>]+>", " ", html)


def english_words(client, url) -> list[str]:
    response = client.get(url)
    assert response.status_code == 200, url
    text = visible_text(response.content.decode())
    assert "Barajamos · administration" in text
    return ENGLISH.findall(text)


@pytest.fixture
def admin_client_fr(login, make_user):
    return login(make_user("maite", is_staff=True, is_superuser=True))


@pytest.fixture
def ban_journal(make_user):
    staff = make_user("mikel", is_staff=True, is_superuser=True)
    target = make_user("eneko")
    services.user_ban(user=target, by=staff, reason="Insultes")
    return StaffAction.objects.get(target_user=target)


def test_the_site_title_and_index(admin_client_fr):
    body = admin_client_fr.get(reverse("admin:index")).content.decode()
    assert (
        "<title>Tables, parties, joueurs et modération | Barajamos · administration</title>" in body
    )
    assert english_words(admin_client_fr, reverse("admin:index")) == []


def test_players_and_journal_pages_have_no_english_header(
    admin_client_fr, started_game, ban_journal
):
    player = started_game.seats.get(number=2).user
    urls = [
        reverse("admin:accounts_user_changelist"),
        reverse("admin:accounts_user_change", args=[player.pk]),
        reverse("admin:moderation_staffaction_changelist"),
        reverse("admin:moderation_staffaction_change", args=[ban_journal.pk]),
    ]
    for url in urls:
        assert english_words(admin_client_fr, url) == [], url


def test_the_log_in_says_nom_de_joueur(client):
    body = client.get(reverse("admin:login")).content.decode()
    assert "Nom de joueur" in body
    assert "utilisateur" not in body


def test_tables_and_games_pages_have_no_english_header(admin_client_fr, started_game):
    urls = [
        reverse("admin:games_table_changelist"),
        reverse("admin:games_table_change", args=[started_game.table_id]),
        reverse("admin:games_game_changelist"),
        reverse("admin:games_game_change", args=[started_game.pk]),
    ]
    found = {url: english_words(admin_client_fr, url) for url in urls}
    assert found == {url: [] for url in urls}


def test_seats_are_numbered_1_to_4_in_the_admin(admin_client_fr, started_game):
    seat, action = next_move(started_game, SeededShuffler(3))
    play.game_apply_action(
        game_id=started_game.pk,
        user=started_game.seats.get(number=seat).user,
        version=started_game.version,
        action=action,
    )
    last = GameAction.objects.filter(game=started_game).order_by("-seq").first()
    assert last.seat == seat
    game_page = visible_text(
        admin_client_fr.get(
            reverse("admin:games_game_change", args=[started_game.pk])
        ).content.decode()
    )
    assert "1 · ane, 2 · bixente, 3 · camille, 4 · dani" in game_page
    table_list = visible_text(
        admin_client_fr.get(reverse("admin:games_table_changelist")).content.decode()
    )
    assert "1 · ane, 2 · bixente, 3 · camille, 4 · dani" in table_list
    player = started_game.seats.get(number=3).user
    user_page = admin_client_fr.get(reverse("admin:accounts_user_change", args=[player.pk]))
    assert re.search(r'<td class="field-seat_number">\s*<p>4</p>', user_page.content.decode())
    assert Game.objects.get(pk=started_game.pk).seats.get(number=3).user == player
