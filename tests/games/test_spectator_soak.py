"""The spectators' leak soak (docs/spectators.md): more than a thousand hands, at a people's
table and at a robots' table, each decision rendered as every spectator socket receives it
(the public render of games.display.fragments.PublicRenders), and no render ever holds a card
before the table shows the four hands. At engine + render speed: the two parties are stored
games (their seats, names and table read once), played on in memory by the engine, so that
the thousand hands take a couple of minutes rather than an hour of transactions; the sockets
themselves carry these renders in tests/games/test_table_consumer.py and test_robots_live.py."""

import html
import os
import time

import pytest

from games import engine, selectors
from games.display import fragments, shared_regions
from games.engine import SeededShuffler, to_act
from games.engine.random_play import pick_action
from games.engine.robot import robot_action
from games.models import Game
from games.services import robots
from tests.games.helpers import LONG_PLAY, leaked_cards, public_cards, start_game

pytestmark = pytest.mark.django_db

HANDS = int(os.environ.get("SOAK_HANDS", 1000))


def public_render(game: Game) -> str:
    """What every spectator socket of the game receives for its current version."""
    return fragments.watch_version(game.state["version"], oob=True) + shared_regions.render_regions(
        fragments.public_context(game), scope=game.pk, names=fragments.PUBLIC_REGIONS
    )


def decision(state: dict, robot_seats: set[int], rng, weights) -> tuple[int, dict]:
    seats = to_act(state)
    seat = seats[rng.randbelow(len(seats))]
    if seat in robot_seats:
        return seat, robot_action(engine.observation(state, seat))
    return seat, pick_action(state, seat, rng, weights)


@pytest.mark.timeout(900)
def test_a_thousand_hands_watched_and_no_card_before_the_table_shows_it(
    full_table, make_user, django_assert_max_num_queries
):
    people = start_game(full_table)
    practice = robots.practice_table(user=make_user("eneko"), kings=8)
    tables = [
        (selectors.game_with_seats(people.pk), set()),
        (selectors.game_with_seats(Game.objects.get(table=practice).pk), {1, 2, 3}),
    ]
    rng = SeededShuffler(2026)
    hands = renders = showdowns = parties = 0
    started = time.monotonic()
    with django_assert_max_num_queries(0):  # engine + render only: no transaction
        while hands < HANDS:
            for game, robot_seats in tables:
                state = game.state
                if state["status"] == "finished":  # a new partie at the same table
                    parties += 1
                    state = engine.new_partie(
                        kings=state["kings"], first_mano=rng.randbelow(4), shuffler=rng
                    )
                else:
                    weights = LONG_PLAY if parties % 2 else None
                    seat, action = decision(state, robot_seats, rng, weights)
                    before = state["status"]
                    state = engine.apply(state, seat, action, shuffler=rng)
                    if before == "playing" and state["status"] != "playing":
                        hands += 1
                game.state, game.version = state, state["version"]
                payload = html.unescape(public_render(game))
                renders += 1
                shown = public_cards(state)
                showdowns += bool(shown)
                assert leaked_cards(payload, shown) == set(), (state["hand_number"], payload)
    elapsed = time.monotonic() - started
    print(f"\n{hands} hands, {parties} parties, {renders} public renders in {elapsed:.0f} s")
    assert showdowns > HANDS // 10  # the hands shown at the end of a hand were scanned too
