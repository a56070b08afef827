"""The salle over HTTP: full pages, htmx fragments, and every bad input answered in French."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.display import fragments
from games.models import Seat, Table
from games.selectors import SALLE_PAGE_SIZE
from games.services import salle

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def state():
    """Everything a salle action could change, to check that a refusal changed nothing."""
    tables = list(Table.objects.order_by("pk").values_list("pk", "host_id", "status"))
    seats = list(Seat.objects.order_by("pk").values_list("table_id", "number", "user_id"))
    return tables, seats


def test_salle_page_lists_tables_with_players_and_teams(login, bixente, full_table):
    content = login(bixente).get(reverse("games:salle")).content.decode()
    # bixente sits at the waiting table: its socket names it (a start it misses still redirects)
    assert f'ws-connect="/ws/salle/?waiting={full_table.pk}"' in content
    assert f'id="table-{full_table.pk}"' in content
    assert "Mus · 4 rois" in content
    assert "hôte : ane" in content
    for name in ("ane", "bixente", "camille", "dani"):
        assert name in content
    assert "Équipe 1" in content and "Équipe 2" in content


def test_empty_salle_invites_to_open_a_table(login, ane):
    content = login(ane).get(reverse("games:salle")).content.decode()
    assert "Ouvrir la table" in content
    assert "Aucune table" in content


def test_create_table_htmx_returns_the_salle_fragment(login, ane):
    response = login(ane).post(reverse("games:table_create"), {"kings": "8"}, headers=HTMX)
    content = response.content.decode()
    assert response.status_code == 200
    assert content.lstrip().startswith('<div id="salle"')
    assert "<html" not in content
    assert "Mus · 8 rois" in content
    assert Table.objects.get().host == ane


def test_a_salle_answer_carries_messages_only_when_it_has_something_to_say(
    login, bixente, open_table
):
    """The push of a change often replaces the form before its answer lands; htmx then finds no
    out-of-band target under the detached form, so an empty #messages must not be sent."""
    client = login(bixente)
    url = reverse("games:seat_take", args=[open_table.pk])
    taken = client.post(url, {"number": "1"}, headers=HTMX).content.decode()
    assert "hx-swap-oob" not in taken
    assert 'id="messages"' not in taken
    refused = client.post(url, {"number": "0"}, headers=HTMX).content.decode()
    oob = re.search(r'<div id="messages"[^>]*hx-swap-oob="true">(.*?)</div>', refused, re.S)
    assert oob and 'class="error"' in oob.group(1)


def test_create_table_without_htmx_redirects_to_the_salle(login, ane):
    response = login(ane).post(reverse("games:table_create"), {"kings": "4"})
    assert response.status_code == 302
    assert response["Location"] == reverse("games:salle")
    assert Table.objects.filter(host=ane).exists()


def test_take_seat_htmx(login, bixente, open_table):
    url = reverse("games:seat_take", args=[open_table.pk])
    response = login(bixente).post(url, {"number": "1"}, headers=HTMX)
    assert "Vous êtes à la table" in response.content.decode()
    assert Seat.objects.get(user=bixente).number == 1


def test_leave_htmx(login, ane, open_table):
    response = login(ane).post(reverse("games:seat_leave", args=[open_table.pk]), headers=HTMX)
    assert "Ouvrir la table" in response.content.decode()
    assert not Table.objects.filter(pk=open_table.pk).exists()  # nothing was played there


def test_start_sends_the_host_to_the_table_page(login, ane, full_table):
    response = login(ane).post(reverse("games:table_start", args=[full_table.pk]), headers=HTMX)
    assert response["HX-Redirect"] == reverse("games:table", args=[full_table.pk])
    full_table.refresh_from_db()
    assert full_table.status == Table.Status.PLAYING


def test_start_without_htmx_redirects_to_the_table_page(login, ane, full_table):
    response = login(ane).post(reverse("games:table_start", args=[full_table.pk]))
    assert response["Location"] == reverse("games:table", args=[full_table.pk])


BAD_INPUTS = {
    "no modality": ("table_create", None, {}, "modalité"),
    "bad modality": ("table_create", None, {"kings": "5"}, "modalité"),
    "text modality": ("table_create", None, {"kings": "huit"}, "modalité"),
    "seat taken": ("seat_take", "open", {"number": "0"}, "prise"),
    "forged seat 4": ("seat_take", "open", {"number": "4"}, "n’existe pas"),
    "forged seat -1": ("seat_take", "open", {"number": "-1"}, "n’existe pas"),
    "forged seat text": ("seat_take", "open", {"number": "zéro"}, "n’existe pas"),
    "no seat number": ("seat_take", "open", {}, "n’existe pas"),
    "unknown table": ("seat_take", 999999, {"number": "1"}, "n’existe pas"),
    "leave unseated": ("seat_leave", "open", {}, "pas assis"),
    "start by a non-host": ("table_start", "open", {}, "hôte"),
}


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
@pytest.mark.parametrize("case", BAD_INPUTS.values(), ids=BAD_INPUTS.keys())
def test_bad_input_gets_a_french_message_and_changes_nothing(
    login, bixente, open_table, case, htmx
):
    name, table, data, message = case
    table_id = open_table.pk if table == "open" else table
    args = [] if table_id is None else [table_id]
    client = login(bixente)
    before = state()
    response = client.post(reverse(f"games:{name}", args=args), data, headers=HTMX if htmx else {})
    assert state() == before
    if htmx:
        assert response.status_code == 200
        body = response.content.decode()
    else:
        assert response.status_code == 302
        body = client.get(response["Location"]).content.decode()
    assert message in body


def refused(client, url, data=None):
    """POST as htmx; return the body, checking the refusal changed nothing."""
    before = state()
    response = client.post(url, data or {}, headers=HTMX)
    assert response.status_code == 200
    assert state() == before
    return response.content.decode()


def test_second_table_is_refused(login, ane, open_table):
    assert "déjà assis" in refused(login(ane), reverse("games:table_create"), {"kings": "4"})


def test_seat_at_another_table_is_refused(login, ane, bixente, open_table):
    salle.table_create(user=bixente, kings=8)
    url = reverse("games:seat_take", args=[open_table.pk])
    assert "déjà assis" in refused(login(bixente), url, {"number": "1"})


def test_start_with_fewer_than_four_is_refused(login, ane, open_table):
    url = reverse("games:table_start", args=[open_table.pk])
    assert "quatre joueurs" in refused(login(ane), url)


def test_seat_at_a_full_table_is_refused(login, full_table, make_user):
    url = reverse("games:seat_take", args=[full_table.pk])
    assert "complète" in refused(login(make_user("eneko")), url, {"number": "2"})


def test_seat_at_a_started_table_is_refused(login, ane, full_table, make_user):
    salle.table_start(user=ane, table_id=full_table.pk)
    url = reverse("games:seat_take", args=[full_table.pk])
    assert "commencé" in refused(login(make_user("eneko")), url, {"number": "2"})


def test_seat_at_a_closed_table_is_refused(login, ane, bixente, open_table):
    later = timezone.now() + timedelta(hours=1)
    assert salle.table_close_if_idle(table_id=open_table.pk, now=later) is not None
    url = reverse("games:seat_take", args=[open_table.pk])
    assert "fermée" in refused(login(bixente), url, {"number": "1"})


def test_seat_at_a_table_its_last_player_left_is_refused(login, ane, bixente, open_table):
    salle.seat_leave(user=ane, table_id=open_table.pk)
    url = reverse("games:seat_take", args=[open_table.pk])
    assert "n’existe pas" in refused(login(bixente), url, {"number": "1"})


def test_open_and_leave_cycles_leave_no_rows_and_are_limited(login, ane, bixente):
    client = login(ane)
    for _ in range(salle.TABLE_OPENINGS.count):
        client.post(reverse("games:table_create"), {"kings": "4"}, headers=HTMX)
        table = Table.objects.get()
        client.post(reverse("games:seat_leave", args=[table.pk]), headers=HTMX)
    assert not Table.objects.exists()
    body = refused(client, reverse("games:table_create"), {"kings": "4"})
    assert "Trop d’actions dans la salle : réessayez dans" in body
    seconds = int(re.search(r"réessayez dans (\d+) s", body).group(1))
    assert 0 < seconds <= salle.TABLE_OPENINGS.seconds
    assert not Table.objects.exists()
    # The limit is ane's own: bixente opens a table.
    login(bixente).post(reverse("games:table_create"), {"kings": "4"}, headers=HTMX)
    assert Table.objects.filter(host__username="bixente").exists()


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_seat_changes_are_limited_per_player(login, ane, bixente, open_table, htmx):
    client = login(bixente)
    url = reverse("games:seat_take", args=[open_table.pk])
    for write in range(salle.SALLE_WRITES.count):
        response = client.post(url, {"number": str(1 + write % 3)}, headers=HTMX)
        assert "Trop d’actions" not in response.content.decode()
    before = state()
    response = client.post(url, {"number": "1"}, headers=HTMX if htmx else {})
    assert state() == before
    if htmx:
        assert response.status_code == 200
        body = response.content.decode()
    else:
        assert response.status_code == 302
        body = client.get(response["Location"]).content.decode()
    assert "Trop d’actions dans la salle : réessayez dans" in body
    leave = client.post(reverse("games:seat_leave", args=[open_table.pk]), headers=HTMX)
    assert "Trop d’actions" in leave.content.decode()
    assert state() == before
    # Not the services: a ban (moderation) still frees the seat.
    salle.seat_leave(user=bixente, table_id=open_table.pk)
    assert not Seat.objects.filter(user=bixente).exists()
    # Nor the other players.
    response = login(ane).post(url, {"number": "2"}, headers=HTMX)
    assert "Trop d’actions" not in response.content.decode()
    assert Seat.objects.get(user=ane).number == 2


def test_get_on_a_write_endpoint_is_405(login, ane, open_table):
    assert login(ane).get(reverse("games:table_start", args=[open_table.pk])).status_code == 405


def test_anonymous_writes_go_to_login_and_change_nothing(client, open_table):
    before = state()
    response = client.post(reverse("games:seat_take", args=[open_table.pk]), {"number": "1"})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))
    assert state() == before


def test_table_page_shows_players_around_the_live_table(login, ane, camille, full_table):
    salle.table_start(user=ane, table_id=full_table.pk)
    response = login(camille).get(reverse("games:table", args=[full_table.pk]))
    content = response.content.decode()
    assert response.status_code == 200
    assert "Mus · 4 rois" in content
    assert f'ws-connect="/ws/tables/{full_table.pk}/"' in content
    for name in ("ane", "bixente", "camille", "dani"):
        assert f"<strong>{name}</strong>" in content
    assert "Nous" in content and "Eux" in content  # camille (seat 2) plays with ane (seat 0)
    assert content.count("card card--back") == 12


def test_table_page_is_for_seated_players_only(login, ane, full_table, make_user):
    salle.table_start(user=ane, table_id=full_table.pk)
    client = login(make_user("eneko"))
    response = client.get(reverse("games:table", args=[full_table.pk]))
    assert response["Location"] == reverse("games:salle")
    assert "Seuls les joueurs assis" in client.get(response["Location"]).content.decode()


# ---------------------------------------------------------------- a salle of many tables


@pytest.fixture
def many_tables(django_user_model):
    """many_tables(n, status="open") -> n tables (oldest first), each with its host at seat 0,
    made in bulk: the hosts are named host1, host2..."""
    made = []

    def make(count, status=Table.Status.OPEN):
        names = [f"host{len(made) + i + 1}" for i in range(count)]
        made.extend(names)
        hosts = django_user_model.objects.bulk_create(
            [django_user_model(username=name, password="!") for name in names]
        )
        tables = Table.objects.bulk_create(
            [Table(host=host, kings=Table.Kings.FOUR, status=status) for host in hosts]
        )
        Seat.objects.bulk_create([Seat(table=t, user=t.host, number=0) for t in tables])
        return tables

    return make


def listed(content):
    """The ids of the table cards of a salle, in order."""
    return [int(pk) for pk in re.findall(r'<li class="table-card[^"]*" id="table-(\d+)"', content)]


def newest_first(tables):
    return [t.pk for t in reversed(tables)]


def test_salle_shows_the_open_tables_newest_first_a_page_at_a_time(login, bixente, many_tables):
    tables = newest_first(many_tables(2 * SALLE_PAGE_SIZE + 5))
    client = login(bixente)
    first = client.get(reverse("games:salle")).content.decode()
    assert listed(first) == tables[:SALLE_PAGE_SIZE]
    assert f"{len(tables)} tables ouvertes" in first
    assert "Page 1 sur 3" in first
    assert 'rel="prev"' not in first
    assert 'href="/salle/?page=2" hx-get="/salle/?page=2" hx-target="#salle"' in first
    second = client.get(reverse("games:salle"), {"page": "2"}).content.decode()
    assert listed(second) == tables[SALLE_PAGE_SIZE : 2 * SALLE_PAGE_SIZE]
    assert 'href="/salle/" hx-get="/salle/"' in second  # Tables précédentes: the first page
    assert 'ws-connect="/ws/salle/?page=2"' in second  # its pushes refresh page 2
    last = client.get(reverse("games:salle"), {"page": "3"}).content.decode()
    assert listed(last) == tables[2 * SALLE_PAGE_SIZE :]
    assert 'rel="prev">Tables précédentes</a>' in last and 'rel="next"' not in last


@pytest.mark.parametrize(("asked", "shown"), [("99", 3), ("0", 1), ("-2", 1), ("deux", 1)])
def test_a_page_out_of_range_shows_the_nearest(login, bixente, many_tables, asked, shown):
    many_tables(2 * SALLE_PAGE_SIZE + 1)
    response = login(bixente).get(reverse("games:salle"), {"page": asked})
    assert response.status_code == 200
    assert f'data-page="{shown}"' in response.content.decode()


def test_htmx_page_link_returns_only_the_salle_fragment(login, bixente, many_tables):
    tables = newest_first(many_tables(SALLE_PAGE_SIZE + 3))
    response = login(bixente).get(reverse("games:salle"), {"page": "2"}, headers=HTMX)
    content = response.content.decode()
    assert content.lstrip().startswith('<div id="salle" class="salle" data-page="2"')
    assert "<html" not in content and "ws-connect" not in content
    assert listed(content) == tables[SALLE_PAGE_SIZE:]


def test_my_table_comes_first_whatever_the_page(login, bixente, many_tables):
    oldest = many_tables(1)[0]  # the last table of the last page
    others = newest_first(many_tables(2 * SALLE_PAGE_SIZE))
    salle.seat_take(user=bixente, table_id=oldest.pk, number=1)
    client = login(bixente)
    for page, expected in ((1, others[:SALLE_PAGE_SIZE]), (2, others[SALLE_PAGE_SIZE:])):
        content = client.get(reverse("games:salle"), {"page": page}).content.decode()
        assert listed(content) == [oldest.pk, *expected]
        assert "Votre table" in content
        assert f"{len(others)} tables ouvertes (sans compter la vôtre)" in content
        assert "Page 3" not in content  # the player's own table is not counted in the pages


def test_tables_in_play_are_counted_not_listed(login, cast, full_table, many_tables, make_user):
    many_tables(3, status=Table.Status.PLAYING)
    salle.table_start(user=cast[0], table_id=full_table.pk)
    open_ones = newest_first(many_tables(2))
    watcher = login(make_user("eneko")).get(reverse("games:salle")).content.decode()
    assert listed(watcher) == open_ones
    assert "4 parties en cours" in watcher
    player = login(cast[2]).get(reverse("games:salle")).content.decode()
    assert listed(player) == [full_table.pk, *open_ones]  # their own table, in play, on top
    assert "Rejoindre la partie" in player


def test_no_open_table_but_parties_in_play(login, bixente, many_tables):
    many_tables(1, status=Table.Status.PLAYING)
    content = login(bixente).get(reverse("games:salle")).content.decode()
    assert "Aucune table ouverte pour l’instant" in content
    assert "1 partie en cours" in content


def test_the_forms_answer_with_the_page_they_were_on(login, bixente, many_tables):
    tables = newest_first(many_tables(SALLE_PAGE_SIZE + 3))
    client = login(bixente)
    page = client.get(reverse("games:salle"), {"page": "2"}).content.decode()
    seat_url = reverse("games:seat_take", args=[tables[-1]]) + "?page=2"
    assert f'hx-post="{seat_url}"' in page
    answer = client.post(seat_url, {"number": "2"}, headers=HTMX).content.decode()
    assert 'data-page="2"' in answer
    assert listed(answer)[0] == tables[-1]  # now their table, on top
    leave_url = reverse("games:seat_leave", args=[tables[-1]]) + "?page=2"
    response = client.post(leave_url)  # without htmx: back to the same page
    assert response["Location"] == "/salle/?page=2"


@pytest.mark.parametrize("count", [5, 60])
@pytest.mark.parametrize("seated", [False, True], ids=["watcher", "seated"])
def test_the_salle_render_costs_the_same_queries_whatever_the_tables(
    django_assert_num_queries, bixente, many_tables, count, seated
):
    tables = many_tables(count)
    many_tables(count // 2, status=Table.Status.PLAYING)
    if seated:
        salle.seat_take(user=bixente, table_id=tables[0].pk, number=1)
    fragments.salle_fragment(bixente)  # a watcher's next commitment is drawn once
    # the seat (with its table and host), the counts, one page of tables, their seats, the
    # friends among the seated players; a watcher's next table's commitment and parejas, a
    # seated player's usual wait (the last started tables); the parties in play to watch
    # (docs/spectators.md); a player seated at an open table, its phrases and their mutes
    # (docs/phrases.md)
    with django_assert_num_queries(9 if seated else 8):
        html, page = fragments.salle_fragment(bixente)
    others = count - 1 if seated else count
    assert len(listed(html)) == min(others, SALLE_PAGE_SIZE) + (1 if seated else 0)


@pytest.mark.parametrize("count", [5, 60])
def test_the_salle_page_link_costs_the_same_queries_whatever_the_tables(
    django_assert_num_queries, login, bixente, many_tables, count
):
    many_tables(count)
    client = login(bixente)
    client.get(reverse("games:salle"))  # bixente's next commitment is drawn once
    # the session and the user, then the salle's five, the names' reputations, the next
    # table's commitment, the watcher's parejas (« avec ma pareja »)
    with django_assert_num_queries(10):
        client.get(reverse("games:salle"), {"page": "2"}, headers=HTMX)
