"""The regions rendered once per game version and reused for the other seats
(games.display.shared_regions) say byte for byte what the plain render
(regions.render_regions) says, for every seat of many moments of random parties, with and
without a request: a shared region that read anything outside its declared slice would render
it empty, and a slice missing something a viewer sees differently would be reused wrongly."""

import re
import threading

import pytest
from django.test import RequestFactory

from games import engine, selectors
from games.display import fragments, regions, shared_regions
from tests.presentation import table_states as T

FLASH = "La table a changé : voici la situation à jour."


@pytest.fixture
def frozen(monkeypatch):
    """One moment and one CSRF token, so that two renders of a context can be compared."""
    monkeypatch.setattr("django.template.context_processors.get_token", lambda request: "tok")
    monkeypatch.setattr(selectors.timezone, "now", lambda: T.NOW)
    monkeypatch.setattr(fragments.time, "time", lambda: T.NOW_MS / 1000)
    monkeypatch.setattr(selectors, "open_revanche", lambda game: None)
    # the revanche offer form's commitment (games.services.pending_shuffle, a row per player)
    monkeypatch.setattr(fragments.pending_shuffle, "commitment_for", lambda user: "c0" * 32)


def post(game, seat):
    request = RequestFactory().post("/tables/1/action/", HTTP_HX_REQUEST="true")
    request.user = game.seats.all()[seat].user
    request.session = {}
    return request


def seats_in_push_order(game):
    """The actor first (their POST answer), then the others, as a decision renders them."""
    acting = engine.to_act(game.state) if game.state["status"] == "playing" else [0]
    first = acting[game.version % len(acting)]
    return [(first + n) % 4 for n in range(4)]


def renders(game):
    """(context, request) of each seat at this moment: the actor's POST answer, a push, and a
    push carrying a flash or a refusal, by turns."""
    for n, seat in enumerate(seats_in_push_order(game)):
        request = post(game, seat) if n == 0 else None
        flash = FLASH if (game.version + n) % 3 == 0 else None
        refusal = FLASH if (game.version + n) % 5 == 0 else None
        yield fragments.table_context(game, seat, flash=flash, refusal=refusal), request


def differences(games, memo):
    """The (game, version, seat) whose shared render is not the plain one."""
    for game in games:
        for context, request in renders(game):
            plain = regions.render_regions(context, request=request)
            shared = shared_regions.render_regions(
                context, request=request, scope=game.pk, memo=memo
            )
            if shared != plain:
                yield game.pk, game.version, context["table_view"]["viewer"]


def test_every_seat_of_every_moment_gets_the_plain_render_byte_for_byte(frozen):
    memo = shared_regions.RegionMemo()
    games = list(T.random_parties(range(1, 13), every=2))
    statuses = {game.state["status"] for game in games}
    assert statuses == {"playing", "hand_over", "finished"}
    assert {game.kings for game in games} == {4, 8}
    assert list(differences(games, memo)) == []
    assert memo.hits > 3 * len(games)  # lance-status alone is shared by the four seats


def test_a_slice_missing_what_its_region_reads_is_caught(frozen, monkeypatch):
    """The comparison above can fail: a scoreboard slice without the hand number."""
    view_keys = ("scoreboard", "kings_label")
    monkeypatch.setitem(
        shared_regions.SLICES,
        "scoreboard",
        lambda context: {"table_view": {key: context["table_view"][key] for key in view_keys}},
    )
    games = list(T.random_parties([1], every=4))
    assert next(differences(games, shared_regions.RegionMemo()), None)


def test_a_slice_missing_what_tells_viewers_apart_is_caught(frozen, monkeypatch):
    """... and a lance-status slice that leaves out whose answer is awaited (« de votre
    équipe », « d'eux ») would serve one team's words to the other."""

    def without_answering(context):
        status = dict(context["table_view"]["lance_status"])
        if status["envite"]:
            status["envite"] = {**status["envite"], "answering": ""}
        return {"table_view": {"lance_status": status}}

    monkeypatch.setitem(shared_regions.SLICES, "lance-status", without_answering)
    games = list(T.random_parties(range(1, 5), every=1))
    assert next(differences(games, shared_regions.RegionMemo()), None)


def test_no_card_and_no_form_is_ever_shared(frozen):
    """A region reused across viewers holds no card and no form; the viewer's own hand is kept
    under that viewer's seat, with that seat's cards only, and never a form or a token."""
    memo = shared_regions.RegionMemo()
    games = list(T.random_parties(range(1, 7), every=2))
    assert list(differences(games, memo)) == []
    hands: dict[tuple[int, int], list[set[str]]] = {}  # each seat's hand at each moment
    for game in games:
        for seat, cards in enumerate(game.state["hand"].get("cards") or []):
            hands.setdefault((game.pk, seat), []).append(set(cards))
    own = 0
    for (scope, name, _slice), html in memo.entries():
        assert "<form" not in html and 'name="csrf' not in html
        if name not in shared_regions.OWN_SLICES:
            assert len(scope) == 2 and "data-card=" not in html
            continue
        own += 1
        game_id, _language, viewer = scope
        shown = set(re.findall(r'data-card="([^"]+)"', html))
        assert shown in hands[(game_id, viewer)]  # this viewer's hand at some moment
    assert own


def test_unchanged_regions_are_not_rendered_again_at_the_next_version(frozen):
    """The scoreboard and a player's cards, unchanged from one moment of a hand to the next,
    come from the memo."""
    memo = shared_regions.RegionMemo()
    moments = [g for g in T.random_parties([3], every=1) if g.state["status"] == "playing"]
    first, later = moments[0], moments[1]
    assert first.state["hand_number"] == later.state["hand_number"]
    for game in (first, later):
        context = fragments.table_context(game, 1)
        shared_regions.render_regions(context, scope=game.pk, memo=memo)
    assert memo.hits >= 2


def test_renders_in_several_threads_share_one_memo(frozen):
    memo = shared_regions.RegionMemo()
    games = list(T.random_parties([2, 3], every=3))
    expected = {}
    for game in games:
        for context, request in renders(game):
            if request is None:
                expected[(game.pk, game.version, id(context))] = (
                    game,
                    context,
                    regions.render_regions(context),
                )
    wrong = []

    def render_all():
        for game, context, plain in expected.values():
            if shared_regions.render_regions(context, scope=game.pk, memo=memo) != plain:
                wrong.append((game.pk, game.version))

    threads = [threading.Thread(target=render_all) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []
    assert memo.hits


def test_the_memo_stays_within_its_bounds():
    memo = shared_regions.RegionMemo(max_entries=3, max_chars=100)
    for n in range(10):
        memo.put(("scope", "flash", str(n).encode()), "x" * 20)
    assert len(memo) == 3
    assert memo.get(("scope", "flash", b"9")) == "x" * 20
    assert memo.get(("scope", "flash", b"0")) is None
    memo.put(("scope", "hand-log", b"big"), "y" * 90)  # alone, it leaves no room for the rest
    assert len(memo) == 1 and memo.chars <= 100
    memo.put(("scope", "hand-log", b"huge"), "z" * 200)  # never kept
    assert memo.get(("scope", "hand-log", b"huge")) is None
