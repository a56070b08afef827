"""Database side of the bench, run as a subprocess with bench.settings (the harness itself stays
free of Django): `python -m bench.dbtool COMMAND ...`, one JSON line out where there is an answer.

    users N PASSWORD / spectators N PASSWORD   bench0000.. / watch0000.. (one pre-hashed password)
    games / log                 every game's state summary / every game's log, seq by seq
    ended TABLE_ID              its game's status and end time
    stage TABLE_ID FILE         the table's game becomes FILE's partie but for its last decision
    cancel TABLE_ID...          each table's partie in play cancelled (its players free again)
"""

import json
import sys

import django


def create_users(count: int, password: str, prefix: str = "bench") -> None:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    user_model = get_user_model()
    encoded = make_password(password)  # hashed once, shared by every bench user
    user_model.objects.bulk_create(
        [user_model(username=f"{prefix}{i:04d}", password=encoded) for i in range(count)],
        batch_size=500,
    )


def games_summary() -> dict:
    """Per game: table, status, version, the log's PLAY rows and their seqs (duplicates and
    gaps are what "no action applied twice / no state lost" checks), the state's own version."""
    from django.db.models import Count, Max, Min

    from games.models import Game, GameAction

    out = {}
    for game in Game.objects.all():
        log = GameAction.objects.filter(game=game).aggregate(
            n=Count("id"), plays=Count("id", filter=django.db.models.Q(kind="play")),
            lo=Min("seq"), hi=Max("seq"), distinct=Count("seq", distinct=True),
        )  # fmt: skip
        out[game.table_id] = {
            "game": game.pk,
            "status": game.status,
            "version": game.version,
            "state_version": game.state.get("version"),
            **log,
        }
    return out


def game_end(table_id: int) -> dict:
    """The status of a table's game and when its log's end row was written (epoch seconds)."""
    from games.models import Game, GameAction

    game = Game.objects.get(table_id=table_id)
    end = GameAction.objects.filter(game=game, kind=GameAction.Kind.END).first()
    return {"status": game.status, "ended_at": end.at.timestamp() if end else None}


def games_log() -> dict:
    """{table id: [[seq, seat, kind, decision type], ...]} of every game's action log."""
    from games.models import GameAction

    out: dict = {}
    rows = GameAction.objects.order_by("game_id", "seq").values_list(
        "game__table_id", "seq", "seat", "kind", "payload"
    )
    for table_id, seq, seat, kind, payload in rows:
        kind_of = payload.get("type") if isinstance(payload, dict) else None
        out.setdefault(table_id, []).append([seq, seat, kind, kind_of])
    return out


def stage(table_id: int, path: str) -> dict:
    """The game of a started table becomes the finished partie of `path` (an engine state)
    replayed but for its last decision, its log rows and its clock as the site would have
    written them; one JSON line: the seat to play that decision, the decision and the version
    it is played at (bench.review --live plays it through the site: the real end)."""
    from django.db import transaction
    from django.utils import timezone

    from games import engine
    from games.models import Game, GameAction
    from games.services import clock

    finished = json.loads(open(path).read())  # noqa: SIM115 (read whole)
    state = engine.new_partie(
        kings=finished["kings"],
        first_mano=finished["first_mano"],
        decks=finished["decks"],
        reshuffles=finished["reshuffles"],
    )
    *played, (last_seat, last) = finished["actions"]
    now = timezone.now()
    rows = []
    with transaction.atomic():
        game = Game.objects.select_for_update().select_related("table").get(table_id=table_id)
        for seat, action in played:
            state = engine.apply(state, seat, action)
            kind = GameAction.Kind.PLAY
            rows.append(
                GameAction(
                    game=game, seq=state["version"], seat=seat, kind=kind, payload=action, at=now
                )
            )
        GameAction.objects.filter(game=game).delete()
        GameAction.objects.bulk_create(rows)
        seats = list(game.seats.all())
        host = next(s.number for s in seats if s.user_id == game.table.host_id)
        turn_clock = clock.advance(
            clock.new_clock(game.table.clock, set()), state, host_seat=host, now=clock.ms(now)
        )
        Game.objects.filter(pk=game.pk).update(
            kings=state["kings"],
            state=state,
            version=state["version"],
            clock=turn_clock,
            turn_deadline=clock.to_datetime(clock.earliest_deadline(turn_clock)),
            fairness="",  # dealt from the file's decks, not derived from the table's seeds
            last_action_at=now,
        )
    return {"game": game.pk, "seat": last_seat, "action": last, "version": state["version"]}


def games_cancel(table_ids: list[int]) -> int:
    """Cancel the partie in play at each table through the Finisher, as a moderator's
    cancellation does (pushes, salle, records): how many were cancelled."""
    from django.db import transaction

    from games import vocabulary
    from games.models import Game
    from games.services import locks, play

    reason = vocabulary.end_reason("moderation", reason="bench")
    cancelled = 0
    ids = Game.objects.filter(table_id__in=table_ids, status=Game.Status.PLAYING)
    for game_id in ids.values_list("pk", flat=True):
        with transaction.atomic():
            game = locks.game(game_id)
            if game is not None and game.status == Game.Status.PLAYING:
                play.game_finish_locked(game=game, status=Game.Status.CANCELLED, reason=reason)
                cancelled += 1
    return cancelled


def main(argv: list[str]) -> None:
    django.setup()
    if argv[0] == "users":
        create_users(int(argv[1]), argv[2])
    elif argv[0] == "spectators":  # watch0000..: members who only watch (docs/spectators.md)
        create_users(int(argv[1]), argv[2], prefix="watch")
    elif argv[0] == "games":
        print(json.dumps(games_summary()))
    elif argv[0] == "log":
        print(json.dumps(games_log()))
    elif argv[0] == "stage":
        print(json.dumps(stage(int(argv[1]), argv[2])))
    elif argv[0] == "cancel":
        print(json.dumps(games_cancel([int(arg) for arg in argv[1:]])))
    elif argv[0] == "ended":
        print(json.dumps(game_end(int(argv[1]))))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
