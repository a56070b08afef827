"""`python -m bench.decide`: the CPU time of one decision's sync part alone, in one process.

Random legal decisions at several tables, each through games.decisions.decide in a thread's hop
as a socket's decision runs it: thread CPU per decision, the whole decide and its apply apart.
No web server, Redis or worker (the broadcasts and tasks after commit are dropped): steadier
than bench.cpu on a shared machine. ``--peers fr|four``: each decision with the pushes of the
table's three other players, in French or a language per seat, as the site renders them when
their sockets are in the process (docs/bench.md). The site's seeds come from --seed here, so
two runs deal the same cards and make the same decisions. DATABASE_URL names the database."""

import argparse
import asyncio
import hashlib
import itertools
import json
import os
import secrets
import statistics
import time
from collections import defaultdict
from pathlib import Path

from games.engine.random_play import DEFAULT_WEIGHTS

#: The decisions these players make, as bench.cpu's (bench/players.py): mostly mus, so long
#: hands, and no órdago, so long parties (bench.render --long-hands makes them too).
LONG_HANDS = dict(DEFAULT_WEIGHTS, mus=85, ordago=0, ordago_vote=0)


def setup() -> None:
    # The bench counters (queries, connections) and a static manifest of its own (DEBUG=0).
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    os.environ.setdefault("BENCH_STATIC_ROOT", "/tmp/barajamos-decide/static")
    # A table's decisions come far faster than a person's here: the per-player limit would
    # refuse some (a refusal renders nothing, so it would only thin the measure).
    os.environ.setdefault("DECISIONS_PER_SECOND", "1000")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if not (Path(settings.STATIC_ROOT) / "staticfiles.json").exists():
        call_command("collectstatic", interactive=False, verbosity=0)
    # After commit a decision broadcasts and queues its robot and clock tasks: out of this
    # measure (another process's work, or a message to Redis), and there is no broker here.
    from celery import current_app

    from games import broadcast

    broadcast._send = lambda *args, **kwargs: None
    current_app.send_task = lambda *args, **kwargs: None


def seeded_secrets(seed: int) -> None:
    """The site's seeds (each table's server seed, each seat's client seed) drawn from `seed`,
    not the system: a French and a four-language run then play the same parties, so their
    difference is the languages' alone (the shuffle derives every deck from these seeds)."""
    counter = itertools.count()

    def token_bytes(nbytes: int | None = None) -> bytes:
        digest = hashlib.sha256(f"bench.decide {seed} {next(counter)}".encode()).digest()
        return digest[: nbytes or 32]

    secrets.token_bytes = token_bytes  # type: ignore[assignment]
    secrets.token_hex = lambda nbytes=None: token_bytes(nbytes).hex()  # type: ignore[assignment]


def new_game(run: str, number: int):
    from django.contrib.auth import get_user_model

    from games.models import Game, Table
    from games.services import salle

    users = [
        get_user_model().objects.create(username=f"b{run}t{number}s{seat}") for seat in range(4)
    ]
    table = salle.table_create(user=users[0], kings=Table.Kings.FOUR)
    for seat, user in enumerate(users[1:], start=1):
        salle.seat_take(user=user, table_id=table.pk, number=seat)
    salle.table_start(user=users[0], table_id=table.pk)
    return Game.objects.get(table=table), users


def form(version: int, action: dict):
    from django.http import QueryDict

    data = QueryDict(mutable=True)
    data["version"], data["type"] = str(version), action["type"]
    for name in ("amount", "to"):
        if name in action:
            data[name] = str(action[name])
    if "cards" in action:
        data.setlist("cards", list(action["cards"]))
    return data


FOUR_LANGUAGES = ("fr", "es", "eu", "en")


def in_language(language: str, call):
    from django.utils import translation

    def called(**kwargs):
        with translation.override(language):
            return call(**kwargs)

    return called


async def play(decisions: int, tables: int, seed: int, peers: str | None = None) -> dict:
    from games import decisions as decide_module
    from games.display import game_cache
    from games.engine import SeededShuffler, to_act
    from games.engine.random_play import pick_action
    from games.live.threads import hop

    def timed(call, **kwargs):
        start = time.thread_time()
        result = call(**kwargs)
        return result, time.thread_time() - start

    from bench.instrument import COUNTERS

    rng = SeededShuffler(seed)
    seeded_secrets(seed)
    weights = LONG_HANDS
    run = f"{os.getpid() % 100000:05d}x{int(time.time())}"
    games = [await hop(new_game, run, n) for n in range(tables)]
    samples: dict[str, list[float]] = defaultdict(list)

    async def measured(name: str, call, **kwargs):
        """`call` in a hop: its thread CPU, the hop's process CPU (the hop's connection
        handling included), its queries and new connections."""
        cpu, queries, connects = (
            time.process_time(),
            COUNTERS["queries.ws"],
            COUNTERS["db_connects.ws"],
        )
        result, seconds = await hop(timed, call=call, **kwargs)
        samples[name].append(seconds)
        samples[f"{name}_hop"].append(time.process_time() - cpu)
        samples[f"{name}_queries"].append(COUNTERS["queries.ws"] - queries)
        samples[f"{name}_db_connects"].append(COUNTERS["db_connects.ws"] - connects)
        return result

    refused = 0
    for n in range(decisions):
        index = n % len(games)
        game, users = games[index]
        # The state the players were shown: the copy the last decision left in the cache
        # (a push renders that one), else the game as dealt.
        state = (game_cache.cached(game.pk, game.version) or game).state
        if state["status"] == "finished":
            games[index] = await hop(new_game, run, tables + n)
            continue
        seats = [0] if state["status"] == "hand_over" else to_act(state)
        seat = seats[rng.randbelow(len(seats))]
        action = pick_action(state, seat, rng, weights)
        kwargs = dict(user=users[seat], table_id=game.table_id, data=form(state["version"], action))
        if peers:
            languages = FOUR_LANGUAGES if peers == "four" else ("fr",) * 4
            readers = [(users[s], languages[s]) for s in range(4) if s != seat]
            answer = await measured(
                "decision",
                in_language(languages[seat], decide_module.decide),
                peers=readers,
                **kwargs,
            )
            refused += answer.status != 200
            game.version = answer.version or game.version
            continue
        # every other decision is rendered for its actor: the apply apart, then the whole
        if n % 2:
            answer = await measured("decide", decide_module.decide, **kwargs)
            refused += answer.status != 200
            game.version = answer.version or game.version
        else:
            game.version = (await measured("apply", decide_module.apply, **kwargs)).version
    out = {"decisions": decisions, "refused": refused}
    for name, values in samples.items():
        if name.endswith(("_queries", "_db_connects")):
            out[name] = round(statistics.mean(values), 2)
        else:
            out[f"{name}_ms"] = round(1000 * statistics.mean(values), 3)
            out[f"{name}_ms_median"] = round(1000 * statistics.median(values), 3)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.decide")
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--peers",
        choices=["fr", "four"],
        help="each decision with the three other players' pushes (French, or a language each)",
    )
    args = parser.parse_args()
    setup()
    print(json.dumps(asyncio.run(play(args.decisions, args.tables, args.seed, args.peers))))


if __name__ == "__main__":
    main()
