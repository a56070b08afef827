"""The turn clock's arithmetic (games.services.clock), without the database."""

import pytest

from games import engine
from games.services import clock

T0 = 1_700_000_000_000  # an instant, in epoch milliseconds


@pytest.fixture
def fast(settings):
    settings.TURN_CLOCKS = {"rapide": (1, 2), "normal": (30, 120), "lent": (90, 300)}
    settings.DEAL_SECONDS = 5


def at_hand_over():
    """A partie played at random to its first score screen, and the seeded chooser."""
    from games.engine.random_play import pick_action

    state, rng = new_state(), engine.SeededShuffler(3)
    while state["phase"] != "hand_over":
        speaker = engine.to_act(state)[0]
        state = engine.apply(state, speaker, pick_action(state, speaker, rng))
    return state, rng


def new_state(first_mano=0):
    return engine.new_partie(kings=4, first_mano=first_mano, shuffler=engine.SeededShuffler(1))


def started(state, speed="normal", host_seat=0):
    return clock.advance(clock.new_clock(speed), state, host_seat=host_seat, now=T0)


def seat(c, number):
    return c["seats"][number]


def test_a_new_clock_has_the_speed_s_seconds_and_full_reserves(settings):
    c = clock.new_clock("lent")
    assert (c["speed"], c["turn"], c["reserve"], c["deal"]) == ("lent", 90, 300, 60)
    assert [s["reserve_ms"] for s in c["seats"]] == [300_000] * 4
    assert clock.earliest_deadline(c) is None and c["timed_out"] == []


def test_the_first_speaker_s_clock_starts_with_the_deal():
    state = new_state(first_mano=2)
    c = started(state)
    assert seat(c, 2) == {
        "started": T0,
        "deadline": T0 + 30_000 + 120_000,
        "reserve_ms": 120_000,
        "misses": 0,
    }
    assert all(seat(c, n)["deadline"] is None for n in (0, 1, 3))
    assert clock.earliest_deadline(c) == T0 + 150_000


def test_acting_within_the_turn_costs_no_reserve_and_starts_the_next_clock():
    state = new_state()
    c = started(state)
    after = engine.apply(state, 0, {"type": "mus"})
    c = clock.advance(c, after, host_seat=0, now=T0 + 29_000, acted=0)
    assert seat(c, 0)["deadline"] is None and seat(c, 0)["reserve_ms"] == 120_000
    nxt = engine.to_act(after)[0]
    assert seat(c, nxt)["started"] == T0 + 29_000
    assert seat(c, nxt)["deadline"] == T0 + 29_000 + 150_000


def test_overtime_comes_off_the_reserve_and_the_next_decision_has_less():
    state = new_state()
    c = started(state)
    after = engine.apply(state, 0, {"type": "mus"})
    c = clock.advance(c, after, host_seat=0, now=T0 + 45_000, acted=0)
    assert seat(c, 0)["reserve_ms"] == 105_000
    # a reserve is never below 0, however late the decision
    c["seats"][0].update(started=T0, deadline=T0 + 1)
    c = clock.advance(c, after, host_seat=0, now=T0 + 999_000, acted=0)
    assert seat(c, 0)["reserve_ms"] == 0


def test_a_time_out_spends_the_reserve_and_counts_a_miss_an_action_resets_it():
    state = new_state()
    c = started(state)
    after = engine.apply(state, 0, {"type": "cut"})
    c = clock.advance(c, after, host_seat=0, now=T0 + 150_000, acted=0, timed_out=True)
    assert seat(c, 0)["reserve_ms"] == 0 and seat(c, 0)["misses"] == 1
    # the mano speaks first at Grand: its next decision has the turn alone, no reserve left
    assert engine.to_act(after) == [0]
    assert seat(c, 0)["deadline"] == T0 + 150_000 + 30_000
    c["seats"][0].update(started=T0, deadline=T0 + 30_000)
    c = clock.advance(c, after, host_seat=0, now=T0 + 10_000, acted=0)
    assert seat(c, 0)["misses"] == 0


def test_the_simultaneous_discard_runs_one_clock_per_seat_that_has_not_chosen():
    state = new_state()
    c = started(state)
    now = T0
    for _ in range(4):
        speaker = engine.to_act(state)[0]
        state = engine.apply(state, speaker, {"type": "mus"})
        now += 1000
        c = clock.advance(c, state, host_seat=0, now=now, acted=speaker)
    assert state["phase"] == "discard"
    assert {n for n in range(4) if seat(c, n)["deadline"] is not None} == {0, 1, 2, 3}
    deadlines = [seat(c, n)["deadline"] for n in range(4)]
    chooser = engine.to_act(state)[1]
    card = state["hand"]["cards"][chooser][0]
    state = engine.apply(state, chooser, {"type": "discard", "cards": [card]})
    c = clock.advance(c, state, host_seat=0, now=now + 5000, acted=chooser)
    assert seat(c, chooser)["deadline"] is None
    # the others' clocks run on, unchanged
    assert all(seat(c, n)["deadline"] == deadlines[n] for n in range(4) if n != chooser)


def test_a_seat_that_stops_having_to_act_without_acting_is_charged_nothing():
    state = new_state()
    c = started(state)
    c["seats"][1].update(started=T0 - 200_000, deadline=T0 + 5)  # as if it had to answer
    state2 = engine.apply(state, 0, {"type": "mus"})
    c = clock.advance(c, state2, host_seat=0, now=T0 + 1000, acted=0)
    if 1 not in engine.to_act(state2):
        assert seat(c, 1)["reserve_ms"] == 120_000


def test_on_the_score_screen_only_the_host_s_clock_runs_with_the_deal_s_limit(fast):
    state, rng = at_hand_over()
    c = clock.advance(clock.new_clock("rapide"), state, host_seat=3, now=T0)
    assert [n for n in range(4) if seat(c, n)["deadline"] is not None] == [3]
    assert seat(c, 3)["deadline"] == T0 + 5000  # DEAL_SECONDS, no reserve


def test_due_seats_in_seat_order_and_a_finished_partie_stops_every_clock():
    c = clock.new_clock("normal")
    c["seats"][3].update(started=T0, deadline=T0 + 10)
    c["seats"][1].update(started=T0, deadline=T0 + 10)
    assert clock.first_due(c, T0 + 9) is None
    assert clock.first_due(c, T0 + 10) == 1
    assert clock.earliest_deadline(clock.stopped(c)) is None
    assert clock.earliest_deadline(clock.stopped_seat(c, 1)) == T0 + 10


def test_a_game_without_a_clock_never_has_one():
    state = new_state()
    assert clock.advance({}, state, host_seat=0, now=T0) == {}
    assert clock.earliest_deadline({}) is None and clock.first_due({}, T0) is None
    assert clock.stopped({}) == {}


def test_a_time_out_is_recorded_with_the_hand_and_the_words_said_before_it():
    state = new_state()
    c = clock.record_timeout(clock.new_clock("normal"), state, 0, {"type": "cut"})
    assert c["timed_out"] == [{"hand": 1, "seat": 0, "words": 0, "type": "cut"}]


def test_a_check_is_queued_only_when_none_pending_comes_first():
    c = clock.new_clock("normal")
    assert clock.task_due(c, T0) is None  # nobody's clock runs
    c["seats"][2].update(started=T0, deadline=T0 + 150_000)
    assert clock.task_due(c, T0) == T0 + 150_000  # none pending
    c["scheduled"] = T0 + 100_000
    assert clock.task_due(c, T0 + 1000) is None  # the pending one comes first
    c["scheduled"] = T0 + 200_000
    assert clock.task_due(c, T0 + 1000) == T0 + 150_000  # a sooner deadline: a new check
    c["scheduled"] = T0 + 500
    assert clock.task_due(c, T0 + 1000) == T0 + 150_000  # the pending one has run


def test_the_hosts_deal_never_touches_the_reserve(fast):
    state, rng = at_hand_over()
    c = clock.advance(clock.new_clock("rapide"), state, host_seat=3, now=T0)
    reserve = seat(c, 3)["reserve_ms"]
    dealt = engine.apply(state, 3, {"type": "deal"}, shuffler=rng)
    slow = clock.advance(c, dealt, host_seat=3, now=T0 + 4900, acted=3, dealt=True)
    assert (seat(slow, 3)["reserve_ms"], seat(slow, 3)["misses"]) == (reserve, 0)
    late = clock.advance(c, dealt, host_seat=3, now=T0 + 5000, acted=3, timed_out=True, dealt=True)
    assert (seat(late, 3)["reserve_ms"], seat(late, 3)["misses"]) == (reserve, 1)
