"""Micro-benchmark of one table push: `fragments.table_regions(game, seat)`, the body each of a
game's four sockets renders after every decision (and, with the request, a POST's answer).

    .venv/bin/python -m bench.render [--renders 200] [--profile]

No database, no server: the game is built in memory from a seeded random partie, so the render
alone is timed. Not part of the tests: figures on a shared machine are noisy, run it more than
once. The cases and the options: docs/bench.md.
"""

import argparse
import os
import statistics
import time
from functools import partial

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "musweb.settings")
os.environ.setdefault("DEBUG", "0")
django.setup()

from django.conf import settings  # noqa: E402
from django.template import loader  # noqa: E402
from django.template.backends.django import Template  # noqa: E402
from django.test import RequestFactory  # noqa: E402
from django.utils import translation  # noqa: E402

from accounts.models import User  # noqa: E402
from bench.decide import LONG_HANDS  # noqa: E402
from games import engine  # noqa: E402
from games.display import fragments, game_cache, regions, shared_regions  # noqa: E402
from games.engine.random_play import DEFAULT_WEIGHTS, pick_action  # noqa: E402
from games.models import Game, GameSeat, Table  # noqa: E402

NAMES = ("ane", "bixente", "camille", "dani")


def mid_hand_state(seed: int = 7, kings: int = 4) -> dict:
    """Random play until a betting lance of a hand that had a mus round and a discard."""
    rng = engine.SeededShuffler(seed)
    weights = dict(DEFAULT_WEIGHTS, mus=100, ordago=0, ordago_vote=0)
    state = engine.new_partie(kings=kings, first_mano=0, shuffler=rng)
    for _ in range(10_000):
        hand = state["hand"]
        betting = state["status"] == "playing" and hand.get("lance") in ("paires", "jeu")
        bet = any(word["type"] == "bet" for word in _words(state))
        if betting and bet and hand.get("discard_rounds"):
            return state
        seats = [0] if state["status"] == "hand_over" else engine.to_act(state)
        seat = seats[rng.randbelow(len(seats))]
        state = engine.apply(state, seat, pick_action(state, seat, rng, weights), shuffler=rng)
        if weights["mus"] == 100 and state["hand"].get("discard_rounds"):
            weights["mus"] = 0  # one mus round, then cut
        if state["status"] == "hand_over":
            weights["mus"] = 100
    raise RuntimeError("no mid-hand state found")


def _words(state: dict) -> list[dict]:
    return engine.observation(state, 0).get("words") or []


def game_in_memory(state: dict) -> Game:
    users = [User(pk=i + 1, username=name) for i, name in enumerate(NAMES)]
    table = Table(pk=1, host_id=1, kings=state.get("kings", 4), status=Table.Status.PLAYING)
    game = Game(pk=1, table=table, kings=table.kings, state=state, version=state["version"])
    game.status = Game.Status.PLAYING
    seats = [GameSeat(game=game, number=n, user=users[n]) for n in range(4)]
    game._prefetched_objects_cache = {"seats": seats}
    return game


class Counter:
    """Counts render_to_string calls and the template renders they start (the backend's
    Template.render: one per whole template or partial rendered from Python)."""

    def __init__(self):
        self.template_renders = 0
        self.render_to_string = 0

    def __enter__(self):
        self._render, self._rts = Template.render, loader.render_to_string
        counter = self

        def render(template, *args, **kwargs):
            counter.template_renders += 1
            return counter._render(template, *args, **kwargs)

        def rts(*args, **kwargs):
            counter.render_to_string += 1
            return counter._rts(*args, **kwargs)

        Template.render = render
        loader.render_to_string = rts
        return self

    def __exit__(self, *exc):
        Template.render, loader.render_to_string = self._render, self._rts


#: What `timed` reads: the wall clock, or with --cpu this thread's CPU time (steadier on a
#: machine other processes share).
timer = time.perf_counter


def timed(render, count: int, before=None) -> list[float]:
    """Sorted ms of `count` calls of `render`; `before` (untimed) runs ahead of each call."""
    timings = []
    for _ in range(count):
        if before is not None:
            before()
        start = timer()
        render()
        timings.append((timer() - start) * 1000)
    return sorted(timings)


class Decisions:
    """The states of a random partie after each decision from `state` on (dealing again after
    each hand, a new partie after the last): what the live renders see, version by version, so
    a region is reused from one version to the next only when a decision left it unchanged."""

    def __init__(self, state: dict, seed: int = 7, *, long_hands: bool = False):
        self.start = state
        self.state = state
        self.rng = engine.SeededShuffler(seed)
        self.weights = (
            dict(LONG_HANDS)  # bench.cpu's and bench.decide's players
            if long_hands
            else dict(DEFAULT_WEIGHTS, ordago=1, ordago_vote=1)
        )

    def next(self) -> dict:
        state = self.state
        if state["status"] == "finished":
            state = self.start
        seats = [0] if state["status"] == "hand_over" else engine.to_act(state)
        seat = seats[self.rng.randbelow(len(seats))]
        action = pick_action(state, seat, self.rng, self.weights)
        self.state = engine.apply(state, seat, action, shuffler=self.rng)
        return self.state


def next_version(game: Game, decisions: Decisions) -> None:
    """Move the in-memory game to the state of the next decision, at a version of its own."""
    game.state = dict(decisions.next())
    game.version += 1
    game.state["version"] = game.version
    game_cache.remember(game)


def seat_to_act(game: Game) -> int:
    return engine.to_act(game.state)[0] if game.state["status"] == "playing" else 0


def version_renders(game: Game, request_for, languages=None) -> str:
    """One version for the four seats: the actor's answer, then the other three pushes
    (`languages`: each seat's, by seat number; default the site's for all four)."""
    actor = seat_to_act(game)
    request = request_for(actor)
    languages = languages or [settings.LANGUAGE_CODE] * 4
    others = [(s.user, languages[s.number]) for s in game.seats.all() if s.number != actor]
    with translation.override(languages[actor]):  # the actor's socket reads its own language
        answer = fragments.table_regions(game, actor, request=request)
    pushes = fragments.table_pushes(game.pk, others, min_version=game.version)
    return answer + "".join(html for html, _ in filter(None, pushes.values()))


def region_timings(game: Game, seat: int, count: int) -> dict[str, float]:
    """Median ms of the context build and of each region's template rendered alone, out of
    band as a push renders it."""
    medians = {
        "context": statistics.median(timed(lambda: fragments.table_context(game, seat), count))
    }
    context = dict(fragments.table_context(game, seat), oob=True)
    for region in regions.REGIONS:
        render = lambda region=region: regions.render_region(region, context)  # noqa: E731
        render()
        medians[region] = statistics.median(timed(render, count))
    return medians


def post_request(user):
    """A POST as the act view answers it: the request's context processors and CSRF token."""
    request = RequestFactory().post("/tables/1/action/", HTTP_HX_REQUEST="true")
    request.user = user
    request.session = {}
    return request


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=200)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--profile-version", action="store_true")
    parser.add_argument("--regions", action="store_true")
    parser.add_argument("--cpu", action="store_true", help="time the thread's CPU, not the wall")
    parser.add_argument("--case", action="append", help="run only this case (repeatable)")
    parser.add_argument(
        "--long-hands",
        action="store_true",
        help="the decisions bench.cpu's players make (mostly mus, no órdago)",
    )
    args = parser.parse_args()
    if args.cpu:
        global timer
        timer = time.thread_time
    start = mid_hand_state()
    game = game_in_memory(start)
    game_cache.remember(game)  # the pushes read the game from the sockets' cache
    requests = [post_request(seat.user) for seat in game.seats.all()]
    cases = {
        "push, seat to act": lambda: fragments.table_regions(game, seat_to_act(game)),
        "push, waiting seat": lambda: fragments.table_regions(game, (seat_to_act(game) + 1) % 4),
        "POST answer, seat to act": lambda: fragments.table_regions(
            game, seat_to_act(game), request=requests[seat_to_act(game)]
        ),
        "version, four seats": lambda: version_renders(game, requests.__getitem__),
        "version, four seats in four languages": lambda: version_renders(
            game, requests.__getitem__, ["fr", "es", "eu", "en"]
        ),
    }
    for name, render in cases.items():
        if args.case and name not in args.case:
            continue
        # each case sees the same decisions, from no region kept
        decisions = Decisions(start, long_hands=args.long_hands)
        shared_regions.MEMO.clear()
        body = render()  # warms the cached loader
        with Counter() as counter:
            next_version(game, decisions)
            render()
        timings = timed(render, args.renders, before=partial(next_version, game, decisions))
        print(
            f"{name}: median {statistics.median(timings):.3f} ms, "
            f"p90 {timings[int(len(timings) * 0.9)]:.3f} ms, min {timings[0]:.3f} ms "
            f"({args.renders} renders, {len(body)} chars; per render "
            f"{counter.render_to_string} render_to_string, {counter.template_renders} "
            "template renders)"
        )
    if args.regions:
        game = game_in_memory(start)
        waiting = (seat_to_act(game) + 1) % 4
        medians = region_timings(game, waiting, args.renders)
        print(
            f"waiting seat ({waiting}), median ms: "
            + ", ".join(f"{name} {ms:.3f}" for name, ms in medians.items())
        )
    if args.profile or args.profile_version:
        import cProfile
        import pstats

        profile = cProfile.Profile()
        decisions = Decisions(start)
        for _ in range(args.renders):
            next_version(game, decisions)
            profile.enable()
            if args.profile_version:
                version_renders(game, requests.__getitem__)
            else:
                fragments.table_regions(game, seat_to_act(game))
            profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(45)
        pstats.Stats(profile).sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
