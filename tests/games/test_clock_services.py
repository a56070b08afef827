"""The turn clock at the site: the clock kept in the game row by every decision, the decision
made for a seat out of time in each phase (games.services.time_outs), the reserve, three
misses in a row, the race with a last-instant click, the sweep, the salle's choice of speed."""

from datetime import timedelta
from unittest import mock

import pytest
from django.urls import reverse

from games import engine, vocabulary
from games.models import Game, GameAction, Table
from games.services import clock, errors, play, salle, sweep, time_outs
from tests.games.helpers import run_together, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_broker():
    """The clock's task is enqueued by name on commit; here it is only recorded."""
    with mock.patch("games.services.play.current_app") as app:
        yield app.send_task


def user_at(game, seat):
    return game.seats.get(number=seat).user


def click(game, action, seat=None):
    """`seat` (the first to act when None) plays `action` at the game's current version."""
    game.refresh_from_db()
    seat = engine.to_act(game.state)[0] if seat is None else seat
    return play.game_apply_action(
        game_id=game.pk, user=user_at(game, seat), version=game.version, action=action
    )


def time_out(game, *, now=None) -> int:
    """The clock's check, run at the game's earliest deadline (or `now`)."""
    game.refresh_from_db()
    return time_outs.turn_time_out(game_id=game.pk, now=now or game.turn_deadline)


def seat_clock(game, seat):
    game.refresh_from_db()
    return game.clock["seats"][seat]


def plays(game):
    rows = GameAction.objects.filter(game=game, kind="play").order_by("seq")
    return [(row.seat, row.payload) for row in rows]


def to_hand_over(game):
    """Play the first hand out with the most conservative decisions, clicked."""
    game.refresh_from_db()
    while game.state["phase"] != "hand_over":
        seat = engine.to_act(game.state)[0]
        click(game, engine.timeout_action(game.state, seat), seat)
        game.refresh_from_db()
    return game


def test_the_deal_starts_the_first_speaker_s_clock_with_the_table_s_speed(started_game):
    c = started_game.clock
    assert (c["speed"], c["turn"], c["reserve"]) == ("normal", 30, 120)
    assert c["seats"][0]["deadline"] - c["seats"][0]["started"] == 150_000
    assert started_game.turn_deadline == clock.to_datetime(c["seats"][0]["deadline"])
    assert all(c["seats"][n]["deadline"] is None for n in (1, 2, 3))


def test_the_mus_question_out_of_time_is_cut(started_game, ane):
    assert time_out(started_game) == 1
    started_game.refresh_from_db()
    assert plays(started_game) == [(0, {"type": "cut"})]
    assert started_game.clock["timed_out"] == [{"hand": 1, "seat": 0, "words": 0, "type": "cut"}]
    mine = started_game.clock["seats"][0]
    assert mine["reserve_ms"] == 0 and mine["misses"] == 1
    # the mano speaks first at Grand, its turn alone left
    assert mine["deadline"] - mine["started"] == 30_000


def test_the_discard_out_of_time_throws_the_least_useful_card_of_each_silent_seat(
    started_game,
):
    for _ in range(4):
        click(started_game, {"type": "mus"})
    started_game.refresh_from_db()
    state = started_game.state
    assert state["phase"] == "discard"
    chooser = 2
    card = state["hand"]["cards"][chooser][0]
    click(started_game, {"type": "discard", "cards": [card]}, chooser)
    assert seat_clock(started_game, chooser)["deadline"] is None
    assert time_out(started_game) == 3  # one clock per seat that had not chosen
    timed = [(s, a) for s, a in plays(started_game)[5:]]
    expected = [
        (s, {"type": "discard", "cards": [engine.least_useful_card(state["hand"]["cards"][s], 4)]})
        for s in (0, 1, 3)
    ]
    assert timed == expected
    started_game.refresh_from_db()
    assert [e["seat"] for e in started_game.clock["timed_out"]] == [0, 1, 3]
    assert seat_clock(started_game, chooser)["misses"] == 0


def test_opening_a_bet_out_of_time_is_a_pass(started_game):
    click(started_game, {"type": "cut"})
    assert time_out(started_game) == 1
    assert plays(started_game)[-1] == (0, {"type": "pass"})


def test_answering_a_bet_out_of_time_is_refusing(started_game):
    click(started_game, {"type": "cut"})
    click(started_game, {"type": "bet", "amount": 2})
    started_game.refresh_from_db()
    answering = engine.to_act(started_game.state)
    assert time_out(started_game) >= 1
    refused = [(s, a) for s, a in plays(started_game)[2:]]
    assert refused[0] == (answering[0], {"type": "refuse"})
    assert all(a == {"type": "refuse"} for _, a in refused)


def test_the_host_s_deal_out_of_time_deals(full_table, settings):
    settings.DEAL_SECONDS = 7  # copied into the game's clock when it starts
    game = to_hand_over(start_game(full_table))
    running = [n for n in range(4) if game.clock["seats"][n]["deadline"] is not None]
    assert running == [0]  # ane hosts, at seat 0
    assert game.clock["seats"][0]["deadline"] - game.clock["seats"][0]["started"] == 7000
    assert time_out(game) == 1
    game.refresh_from_db()
    assert plays(game)[-1] == (0, {"type": "deal"}) and game.state["hand_number"] == 2


def test_the_reserve_pays_for_a_slow_decision_then_is_spent(started_game):
    Game.objects.filter(pk=started_game.pk).update(
        clock={
            **started_game.clock,
            "seats": [
                {**s, "started": s["started"] - 40_000} if n == 0 else s
                for n, s in enumerate(started_game.clock["seats"])
            ],
        }
    )
    click(started_game, {"type": "cut"})  # 40 s: 10 s beyond the turn
    mine = seat_clock(started_game, 0)
    assert 109_000 <= mine["reserve_ms"] <= 110_000
    assert mine["deadline"] - mine["started"] == 30_000 + mine["reserve_ms"]
    assert time_out(started_game) == 1  # at Grand: all of it spent
    mine = seat_clock(started_game, 0)
    assert mine["reserve_ms"] == 0


def test_run_three_times_the_decision_is_made_once(started_game):
    started_game.refresh_from_db()
    due = started_game.turn_deadline
    assert [time_out(started_game, now=due) for _ in range(3)] == [1, 0, 0]
    assert len(plays(started_game)) == 1


def test_a_player_who_acted_in_time_is_never_played_for(started_game):
    due = started_game.turn_deadline
    click(started_game, {"type": "mus"})
    assert time_out(started_game, now=due) == 0
    assert plays(started_game) == [(0, {"type": "mus"})]


def test_three_misses_in_a_row_cancel_the_partie_naming_the_player(started_game, ane):
    results = []
    for _ in range(20):
        results.append(time_out(started_game))
        started_game.refresh_from_db()
        if started_game.status != Game.Status.PLAYING:
            break
    assert started_game.status == Game.Status.CANCELLED
    # seat 0 cut, passed at Grand (so did the others), and was silent once more at Petit
    reason = vocabulary.ABSENT_AT_TABLE % {"name": ane.username, "count": 3}
    assert started_game.end_reason_text == reason
    assert GameAction.objects.get(game=started_game, kind="end").payload["reason"] == (
        started_game.end_reason
    )
    assert started_game.turn_deadline is None
    assert clock.earliest_deadline(started_game.clock) is None
    assert Table.objects.get(pk=started_game.table_id).status == Table.Status.CLOSED


def test_a_decision_of_the_player_resets_the_misses(started_game):
    time_out(started_game)  # seat 0: cut
    time_out(started_game)  # seat 0: pass at Grand
    assert seat_clock(started_game, 0)["misses"] == 2
    for _ in range(3):
        click(started_game, {"type": "pass"})
    started_game.refresh_from_db()
    assert engine.to_act(started_game.state) == [0]
    click(started_game, {"type": "pass"})
    assert seat_clock(started_game, 0)["misses"] == 0


def test_a_check_is_queued_on_commit_for_the_earliest_deadline_unless_one_comes_first(
    full_table, no_broker, django_capture_on_commit_callbacks
):
    def queued():
        game.refresh_from_db()
        due = game.turn_deadline
        return mock.call("games.tasks.turn_time_out", args=(game.pk, clock.ms(due)), eta=due)

    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(full_table)
    assert no_broker.call_args_list == [queued()]
    first_due = game.turn_deadline
    no_broker.reset_mock()
    with django_capture_on_commit_callbacks(execute=True):
        click(game, {"type": "mus"})  # the next deadline is later: the pending check comes first
    assert no_broker.call_count == 0
    with django_capture_on_commit_callbacks(execute=True):
        assert time_outs.turn_time_out(game_id=game.pk, now=first_due) == 0
    assert no_broker.call_args_list == [queued()]  # that check queues the next one, once
    with django_capture_on_commit_callbacks(execute=True):
        assert time_outs.turn_time_out(game_id=game.pk, now=first_due) == 0
    assert no_broker.call_count == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert time_out(game) == 1  # seat 1 cut: seat 0 speaks at Grand, sooner than any
    assert no_broker.call_args_list[-1] == queued()


def test_a_check_whose_timer_fired_a_hair_early_still_decides(started_game):
    started_game.refresh_from_db()
    due_ms = clock.ms(started_game.turn_deadline)
    early = started_game.turn_deadline - timedelta(milliseconds=5)
    assert time_outs.turn_time_out(game_id=started_game.pk, now=early) == 0
    assert time_outs.turn_time_out(game_id=started_game.pk, now=early, due_ms=due_ms) == 1


def test_the_sweep_makes_the_decisions_past_their_deadline(started_game):
    started_game.refresh_from_db()
    assert sweep.sweep(now=started_game.turn_deadline - timedelta(seconds=1))["timed_out"] == 0
    assert sweep.sweep(now=started_game.turn_deadline)["timed_out"] == 1
    assert plays(started_game) == [(0, {"type": "cut"})]


def test_a_game_started_without_a_clock_plays_on_and_is_never_timed_out(started_game):
    Game.objects.filter(pk=started_game.pk).update(clock={}, turn_deadline=None)
    click(started_game, {"type": "mus"})
    started_game.refresh_from_db()
    assert started_game.clock == {} and started_game.turn_deadline is None
    assert time_out(started_game, now=started_game.last_action_at + timedelta(hours=1)) == 0


def test_a_table_is_opened_with_the_chosen_clock_and_its_game_copies_it(cast, settings):
    settings.TURN_CLOCKS = {**settings.TURN_CLOCKS, "rapide": (2, 3)}
    table = salle.table_create(user=cast[0], kings=4, clock="rapide")
    for number, user in enumerate(cast[1:], start=1):
        salle.seat_take(user=user, table_id=table.pk, number=number)
    game = start_game(table)
    assert game.clock["speed"] == "rapide" and game.clock["turn"] == 2
    assert game.clock["seats"][0]["deadline"] - game.clock["seats"][0]["started"] == 5000


def test_a_table_opened_without_a_clock_is_normal_and_a_wrong_one_refused(ane, settings):
    settings.TURN_CLOCK_DEFAULT = "lent"
    with pytest.raises(errors.SalleError, match="temps de jeu"):
        salle.table_create(user=ane, kings=4, clock="turbo")
    assert salle.table_create(user=ane, kings=4).clock == "lent"


def test_the_salle_s_open_form_sends_the_clock_and_a_wrong_one_is_refused_in_french(
    login, ane, bixente
):
    url = reverse("games:table_create")
    response = login(ane).post(url, {"kings": "4", "clock": "turbo"}, follow=True)
    assert "Choisissez un temps de jeu" in response.content.decode()
    assert not Table.objects.filter(host=ane).exists()
    login(bixente).post(url, {"kings": "8", "clock": "lent"})
    assert Table.objects.get(host=bixente).clock == "lent"


def test_the_clock_choices_say_their_seconds(settings):
    from games import forms

    settings.TURN_CLOCKS = {"rapide": (15, 60), "normal": (30, 120), "lent": (90, 330)}
    assert forms.clock_choices() == [
        ("rapide", "Rapide (15 s + 1 min de réserve)"),
        ("normal", "Normal (30 s + 2 min de réserve)"),
        ("lent", "Lent (1 min 30 s + 5 min 30 s de réserve)"),
    ]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(6))
def test_a_click_at_the_last_instant_against_the_check_exactly_one_wins(round_, started_game):
    started_game.refresh_from_db()
    user, version, due = user_at(started_game, 0), started_game.version, started_game.turn_deadline

    def player():
        return play.game_apply_action(
            game_id=started_game.pk, user=user, version=version, action={"type": "mus"}
        )

    def check():
        return time_outs.turn_time_out(game_id=started_game.pk, now=due)

    clicked, made = run_together(player, check) if round_ % 2 else run_together(check, player)[::-1]
    if isinstance(clicked, Game):
        assert made == 0
        assert plays(started_game) == [(0, {"type": "mus"})]
    else:
        assert isinstance(clicked, errors.StaleVersion), clicked
        assert made == 1
        assert plays(started_game) == [(0, {"type": "cut"})]
