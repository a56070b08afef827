"""The turn clock on the table: every seat's reserve, the running clock of whoever must act
(and in the actor's own panel), the last seconds marked, the words the clock made."""

import re

from games.display.clocks import seat_clock
from games.display.table_view import build_table
from games.display.view_model import TableFacts
from tests.presentation import observations as O
from tests.presentation.helpers import render_partial

P = O.PLAYERS
NOW = 1_800_000_000_000


def game_clock(running: dict[int, int] | None = None, timed_out=(), reserve_ms=120_000) -> dict:
    """A Normal clock (30 s + 120 s); ``running``: {seat: ms since its decision started}."""
    seats = []
    for seat in range(4):
        started = NOW - running[seat] if running and seat in running else None
        seats.append(
            {
                "started": started,
                "deadline": started + 30_000 + reserve_ms if started is not None else None,
                "reserve_ms": reserve_ms,
                "misses": 0,
            }
        )
    return {
        "speed": "normal",
        "turn": 30,
        "reserve": 120,
        "deal": 60,
        "seats": seats,
        "timed_out": list(timed_out),
    }


def clock_of(html: str, name: str) -> str:
    seat = html.split(f"<strong>{name}</strong>")[1].split('class="tseat__presence"')[0]
    found = re.search(r'<p class="tclock.*?</p>', seat, re.S)
    assert found, seat
    return found[0]


def test_a_seat_deciding_shows_its_time_and_reserve_the_others_their_reserve():
    html = render_partial(
        "table-seats", O.base(2), P, 2, game_clock=game_clock({0: 12_000}), now_ms=NOW
    )
    ane = clock_of(html, "Ane")
    assert "tclock--running" in ane and 'role="timer"' in ane
    assert f'data-clock-now="{NOW}"' in ane
    assert f'data-clock-turn-ends="{NOW + 18_000}"' in ane
    assert f'data-clock-deadline="{NOW + 138_000}"' in ane
    assert "<span data-clock-turn>0:18</span>" in ane
    assert "réserve <span data-clock-reserve>2:00</span>" in ane
    assert "tclock--urgent" not in ane and "data-clock-urgent hidden" in ane
    dani = clock_of(html, "Dani")
    assert "data-clock" not in dani.replace("data-clock-reserve", "")
    assert "réserve <span data-clock-reserve>2:00</span>" in dani


def test_once_the_decision_time_is_spent_the_reserve_runs_and_its_last_seconds_are_marked():
    vm = build_table(TableFacts(O.base(0), P, 0, game_clock=game_clock({0: 40_000}), now_ms=NOW))
    ane = vm["seats"][0]["clock"]
    assert ane["in_reserve"] and ane["turn_left"] == "0:00" and ane["reserve_left"] == "1:50"
    assert not ane["urgent"]
    late = game_clock({0: 146_000})
    html = render_partial("table-seats", O.base(0), P, 0, game_clock=late, now_ms=NOW)
    ane_html = clock_of(html, "Ane")
    assert "tclock--reserve" in ane_html and "tclock--urgent" in ane_html
    assert "<span data-clock-reserve>0:04</span>" in ane_html
    assert "dernières secondes" in ane_html and "data-clock-urgent hidden" not in ane_html


def test_a_partly_spent_reserve_is_shown_while_waiting():
    vm = build_table(
        TableFacts(O.base(3), P, 3, game_clock=game_clock(reserve_ms=75_000), now_ms=NOW)
    )
    assert [s["clock"]["reserve_left"] for s in vm["seats"]] == ["1:15"] * 4
    assert not any(s["clock"]["running"] for s in vm["seats"])


def test_the_player_to_act_sees_their_clock_in_their_panel_the_others_do_not():
    clock = game_clock({0: 25_500})
    mine = render_partial("decision-panel", O.base(0), P, 0, game_clock=clock, now_ms=NOW)
    assert "<span data-clock-turn>0:05</span>" in mine and "tclock--urgent" not in mine
    theirs = render_partial("decision-panel", O.base(1), P, 1, game_clock=clock, now_ms=NOW)
    assert "tclock" not in theirs


def test_the_discard_runs_one_clock_per_seat_still_choosing():
    clock = game_clock({0: 3_000, 2: 3_000})
    vm = build_table(TableFacts(O.discard(0), P, 0, game_clock=clock, now_ms=NOW))
    assert [s["clock"]["running"] for s in vm["seats"]] == [True, False, True, False]
    assert vm["panel"]["clock"]["turn_left"] == "0:27"


def test_the_host_deal_has_its_own_limit_on_the_score_screen():
    clock = game_clock()
    clock["seats"][0].update(started=NOW - 10_000, deadline=NOW + 50_000)
    html = render_partial("score-screen", O.hand_over(0), P, 0, game_clock=clock, now_ms=NOW)
    assert "<span data-clock-turn>0:50</span>" in html
    assert "réserve <span data-clock-reserve>2:00</span>" in html
    other = render_partial("score-screen", O.hand_over(1), P, 1, game_clock=clock, now_ms=NOW)
    assert "tclock" not in other


def test_a_game_without_a_clock_shows_none():
    html = render_partial("table-seats", O.base(0), P, 0)
    assert "tclock" not in html
    assert all(s["clock"] is None for s in build_table(TableFacts(O.base(0), P, 0))["seats"])


def test_seat_clock_rounds_up_and_never_goes_below_zero():
    entry = {"started": NOW - 30_000, "deadline": NOW - 1, "reserve_ms": 0, "misses": 3}
    view = seat_clock(entry, 30, NOW)
    assert view["turn_left"] == "0:00" and view["urgent"]
    running = {**entry, "deadline": NOW + 4_001, "reserve_ms": 120_000}
    assert seat_clock(running, 30, NOW)["reserve_left"] == "0:05"


def test_a_word_the_clock_made_says_temps_ecoule_in_the_log_and_on_the_seat():
    # Camille's first word from index 9 on is her pass at the Grand (index 11).
    clock = game_clock(timed_out=[{"hand": 1, "seat": 2, "words": 9, "type": "pass"}])
    vm = build_table(TableFacts(O.betting_open(0), P, 0, game_clock=clock, now_ms=NOW))
    lines = [line for section in vm["log"] for line in section["lines"]]
    assert [line for line in lines if "temps écoulé" in line] == [
        "Camille : Je passe (temps écoulé)"
    ]
    camille = next(s for s in vm["seats"] if s["seat"] == 2)
    assert camille["last_word_timed_out"] and camille["last_word"] == "Je passe (temps écoulé)"
    html = render_partial("table-seats", O.betting_open(0), P, 0, game_clock=clock, now_ms=NOW)
    assert '<span class="bubble bubble--timed-out">Je passe (temps écoulé)</span>' in html
    other_hand = game_clock(timed_out=[{"hand": 2, "seat": 2, "words": 9, "type": "pass"}])
    vm = build_table(TableFacts(O.betting_open(0), P, 0, game_clock=other_hand, now_ms=NOW))
    assert not any("temps écoulé" in line for s in vm["log"] for line in s["lines"])


def test_a_deal_made_by_the_clock_opens_the_next_hand_log():
    clock = game_clock(timed_out=[{"hand": 1, "seat": 0, "words": 0, "type": "deal"}])
    html = render_partial("hand-log", O.base(0, hand_number=2), P, 0, game_clock=clock, now_ms=NOW)
    assert "Main distribuée automatiquement (temps écoulé)." in html
    html = render_partial("hand-log", O.base(0), P, 0, game_clock=clock, now_ms=NOW)
    assert "temps écoulé" not in html
