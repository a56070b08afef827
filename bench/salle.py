"""`python -m bench.salle`: the CPU time and the queries of one salle change for N open salles.

A salle change makes every open salle socket of a process push its reader's salle. This seats
open tables and parties in play, then renders, for READERS readers (one salle each) in one
language or in four, the salle of one change two ways: each socket reading and rendering all
of it for itself (`change=None`, as every socket did before games.display.salle_shared), and
the sockets sharing what they show alike under the change's name. One thread, the renders one
after the other (the sockets' threads would share the same CPU). Rounds alternate the ways.

DATABASE_URL names the database to use (migrated here; its bench rows are kept)."""

import argparse
import json
import statistics
import time
import uuid

from bench.decide import setup

LANGUAGES = ["fr", "es", "eu", "en"]


def seat_the_salle(run: str, open_tables: int, playing: int, readers: int):
    """Open tables (one to three seated), parties in play, and readers not seated."""
    from django.contrib.auth import get_user_model

    from games.models import Table
    from games.services import salle

    users = get_user_model().objects

    def user(name: str):
        return users.create(username=f"s{run}{name}")

    for n in range(open_tables):
        table = salle.table_create(user=user(f"o{n}h"), kings=Table.Kings.FOUR)
        for seat in range(1, 1 + n % 3):
            salle.seat_take(user=user(f"o{n}s{seat}"), table_id=table.pk, number=seat)
    for n in range(playing):
        host = user(f"p{n}h")
        table = salle.table_create(user=host, kings=Table.Kings.FOUR)
        for seat in range(1, 4):
            salle.seat_take(user=user(f"p{n}s{seat}"), table_id=table.pk, number=seat)
        salle.table_start(user=host, table_id=table.pk)
    return [user(f"r{n}") for n in range(readers)]


def one_change(readers, languages: list[str], shared: bool) -> tuple[float, int]:
    """(thread CPU ms, queries) of every reader's salle after one change."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import translation

    from games import signals
    from games.display import fragments

    change = uuid.uuid4().hex if shared else None
    with CaptureQueriesContext(connection) as queries:
        start = time.thread_time()
        for n, reader in enumerate(readers):
            with translation.override(languages[n % len(languages)]):
                fragments.salle_fragment(
                    reader, fragments.SalleAsked(change=change), reputations=signals.reputations
                )
        spent = time.thread_time() - start
    return spent * 1000, len(queries.captured_queries)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.salle")
    parser.add_argument("--readers", type=int, nargs="+", default=[10, 40])
    parser.add_argument("--open-tables", type=int, default=30)
    parser.add_argument("--playing", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    setup()
    run = uuid.uuid4().hex[:6]
    everyone = seat_the_salle(run, args.open_tables, args.playing, max(args.readers))
    out: dict = {"open_tables": args.open_tables, "playing": args.playing}
    for count in args.readers:
        readers = everyone[:count]
        for languages in (LANGUAGES[:1], LANGUAGES):
            ways: dict[str, list] = {"per socket": [], "shared": []}
            for round_ in range(args.rounds + 1):
                order = ["per socket", "shared"] if round_ % 2 else ["shared", "per socket"]
                for way in order:
                    measured = one_change(readers, languages, way == "shared")
                    if round_:  # the first round warms the templates and the caches
                        ways[way].append(measured)
            for way, runs in ways.items():
                key = f"{count} readers, {len(languages)} language(s), {way}"
                out[key] = {
                    "ms": round(statistics.median(ms for ms, _q in runs), 1),
                    "queries": runs[-1][1],
                }
                print(key, out[key], flush=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
