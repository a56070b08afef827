"""Costs that must not grow with a player's history (issue 30): the salle's reputations are
counters kept as parties end (records.models.PlayerTally), the profile counts and lists in SQL
with limits. Asserted by query counts and by what the queries read, at 1 and 5,000 parties
(bulk-created: the Finisher's counters are then filled as the migrations fill them). Taking a
seat at a table that asks for a completion rate, and the salle's friends, read those rows too."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.display import fragments
from games.models import Game, GameSeat, Table
from games.services import robots, salle
from records import services
from records.models import PlayerTally
from records.selectors import LAST_PARTIES, reputations
from tests.records.helpers import cancel_by_absence, play_out, start

pytestmark = pytest.mark.django_db

ABANDONED_EVERY = 5  # one partie in five cancelled by bixente's absence: 80 % menées


def bulk_parties(cast, count: int, *, first: int = 0) -> None:
    """`count` ended parties of the cast (bixente abandons one in ABANDONED_EVERY), written
    with bulk_create, then the tallies counted again as the migration counts them."""
    tables = Table.objects.bulk_create(
        [Table(host=cast[0], kings=4, status=Table.Status.CLOSED) for _ in range(count)]
    )
    now = timezone.now()
    games = []
    for n, table in enumerate(tables, start=first):
        cancelled = n % ABANDONED_EVERY == 0
        games.append(
            Game(
                table=table,
                kings=4 if n % 3 else 8,
                status=Game.Status.CANCELLED if cancelled else Game.Status.FINISHED,
                winning_team=None if cancelled else n % 2,
                state={},
                finished_at=now - timedelta(minutes=n),
            )
        )
    Game.objects.bulk_create(games)
    seats = []
    for game in games:
        for number, user in enumerate(cast):
            if game.winning_team is None:
                result = GameSeat.Result.CANCELLED
            else:
                won = number % 2 == game.winning_team
                result = GameSeat.Result.WON if won else GameSeat.Result.LOST
            abandoned = game.winning_team is None and number == 1
            seats.append(
                GameSeat(game=game, number=number, user=user, result=result, abandoned=abandoned)
            )
    GameSeat.objects.bulk_create(seats, batch_size=4000)
    services.tallies_rebuild()
    services.played_with_rebuild()


def captured(call) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        call()
    return [q["sql"] for q in queries.captured_queries]


def test_the_salle_reads_counters_not_the_history(cast, make_user):
    ane, bixente, camille, dani = cast
    table = salle.table_create(user=make_user("eve"), kings=4)
    for number, user in enumerate((bixente, camille, dani), start=1):
        salle.seat_take(user=user, table_id=table.pk, number=number)

    def render():
        return fragments.salle_fragment(ane, reputations=reputations)[0]

    bulk_parties(cast, 1, first=1)
    render()  # ane's pending shuffle secret is drawn at her first salle (FAIR-SHUFFLE 1.1)
    at_one = captured(render)
    bulk_parties(cast, 4999, first=2)
    at_five_thousand = captured(render)
    assert len(at_one) == len(at_five_thousand)
    # The parties are not counted (the friends: records.models.PlayedWith, one row each)
    history = [sql for sql in at_five_thousand if "games_gameseat" in sql]
    assert not [sql for sql in history if "abandoned" in sql or "COUNT(" in sql], history
    assert reputations([bixente.pk])[bixente.pk].completion == 80
    assert "80 % menées" in render()


def test_the_profile_counts_and_lists_in_sql_with_limits(cast, client):
    client.force_login(cast[2])
    url = reverse("records:profile", args=["bixente"])
    bulk_parties(cast, 1, first=1)
    at_one = captured(lambda: client.get(url))
    bulk_parties(cast, 4999, first=2)
    at_five_thousand = captured(lambda: client.get(url))
    assert len(at_one) == len(at_five_thousand)
    history = [sql for sql in at_five_thousand if "games_gameseat" in sql]
    listed = re.compile(rf'"games_gameseat"\."game_id" IN \((\d+(, )?){{1,{LAST_PARTIES}}}\)')
    bounded = [sql for sql in history if "LIMIT" in sql or "COUNT(" in sql or listed.search(sql)]
    assert history and bounded == history, set(history) - set(bounded)
    page = client.get(url).content.decode()
    assert "5000" in page.replace("\u202f", "").replace(" ", "")


@pytest.mark.django_db(transaction=True)
def test_the_finisher_keeps_the_counters(cast, make_user):
    ane, bixente, camille, dani = cast
    play_out(start(cast))
    cancel_by_absence(start(cast), seat=1)
    eve = make_user("eve")
    practice = robots.practice_table(user=eve, kings=4)
    cancel_by_absence(Game.objects.get(table=practice), seat=0)  # training: counted nowhere
    tallies = {t.user_id: (t.ended, t.abandoned) for t in PlayerTally.objects.all()}
    assert tallies == {ane.pk: (2, 0), bixente.pk: (2, 1), camille.pk: (2, 0), dani.pk: (2, 0)}
    assert services.tallies_rebuild() == 4  # the same counts from the history
    assert {t.user_id: (t.ended, t.abandoned) for t in PlayerTally.objects.all()} == tallies


def test_seat_take_reads_the_rate_from_a_counter(cast, make_user):
    """A host's minimum completion rate is checked against the player's tally: taking a seat
    costs the same queries at 1 and 5,000 parties, none of them counting the history."""
    ane, bixente, camille, dani = cast
    table = salle.table_create(user=make_user("eve"), kings=4, min_completion=50)

    def sit_and_leave():
        salle.seat_take(user=bixente, table_id=table.pk, number=1)
        salle.seat_leave(user=bixente, table_id=table.pk)

    bulk_parties(cast, 1, first=1)
    sit_and_leave()  # bixente's first seat of the day: his pending shuffle secret is drawn
    at_one = captured(sit_and_leave)
    bulk_parties(cast, 4999, first=2)
    at_five_thousand = captured(sit_and_leave)
    assert len(at_one) == len(at_five_thousand)
    history = [sql for sql in at_five_thousand if "games_gameseat" in sql]
    assert not [sql for sql in history if "abandoned" in sql or "COUNT(" in sql], history
    assert any("records_playertally" in sql for sql in at_five_thousand)
    # bixente abandoned one partie in five (80 %): below a minimum of 90, he may not sit
    stricter = salle.table_create(user=make_user("fermin"), kings=4, min_completion=90)
    with pytest.raises(salle.SalleError, match="vous en êtes à 80 %"):
        salle.seat_take(user=bixente, table_id=stricter.pk, number=1)


def test_the_salles_friends_are_looked_up_not_found_in_the_history(cast, make_user):
    """Friends are the pairs noted as parties end (records.models.PlayedWith): the salle looks
    up the names it shows, in one query on those pairs, whatever the history."""
    ane, bixente, camille, dani = cast
    table = salle.table_create(user=make_user("eve"), kings=4)
    for number, user in enumerate((bixente, camille), start=1):
        salle.seat_take(user=user, table_id=table.pk, number=number)

    def friends():
        return fragments.friends_context(ane, None, [{"seats": list(table.seats.all())}])

    bulk_parties(cast, 1, first=1)
    assert friends()["friends"] == {bixente.pk, camille.pk}
    at_one = captured(friends)
    bulk_parties(cast, 4999, first=2)
    at_five_thousand = captured(friends)
    assert len(at_one) == len(at_five_thousand)
    assert not [sql for sql in at_five_thousand if "games_gameseat" in sql], at_five_thousand
    [lookup] = [sql for sql in at_five_thousand if "records_playedwith" in sql]
    assert f'"records_playedwith"."user_id" = {ane.pk}' in lookup
    assert friends()["friends"] == {bixente.pk, camille.pk}
    assert fragments.friends_context(make_user("gorka"), None, [])["friends"] == set()
