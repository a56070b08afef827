"""The table's quick phrases (docs/phrases.md): said, answered by a robot, muted, reported.

A phrase is said only when no hand is being played (before the partie, on the score screen,
after the end): it is written under the lock of the row that decides that moment, the game's
(or the open table's), so a deal and a phrase never cross. What is stored is the phrase's id;
each reader's page renders it in their language."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import broadcast, engine, phrases, signals
from games.engine import robot_talk
from games.models import Game, GameSeat, PhraseMute, Seat, Table, TablePhrase
from games.services import locks
from games.services.errors import Refused

log = logging.getLogger(__name__)

ROBOT_PHRASE = "games.tasks.robot_phrase"
NOT_AT_TABLE = gettext_lazy("Seuls les joueurs assis à cette table peuvent y parler.")


class PhraseRefused(Refused):
    """A phrase, a mute or a report refused."""


class NotAtTable(PhraseRefused):
    status = 403


@dataclass(frozen=True)
class Seated:
    """A table as a phrase sees it: its game (None before the partie), the speaker's seat, every
    seat's user id and whether it is a robot's."""

    table_id: int
    game: Game | None
    seat: int
    users: dict[int, int]
    robots: frozenset[int]


def phrase_say(*, user, table_id: int, phrase: str) -> TablePhrase:
    """`user`, seated at the table, says `phrase` (an id of games.phrases) if no hand is being
    played; a robot's answer is queued on commit."""
    if phrase not in phrases.PHRASES:
        raise PhraseRefused(_("Cette phrase n’existe pas."))
    with transaction.atomic():
        seated = _lock_seated(table_id=table_id, user=user)
        said = _write(seated, user_id=user.pk, phrase=phrase)
        if not said.robot and seated.robots:
            _queue_robot_answer(said)
    return said


def robot_answer(*, phrase_id: int) -> TablePhrase | None:
    """The queued answer of a robot to a person's phrase: the first robot after the speaker
    answers (games.engine.robot_talk, from its own observation) if the table is still between
    the same two hands and nothing answered yet; else nothing."""
    with transaction.atomic():
        heard = TablePhrase.objects.filter(pk=phrase_id, robot=False).first()
        if heard is None or heard.game_id is None:
            return None
        game = locks.game(heard.game_id)
        if game is None or TablePhrase.objects.filter(reply_to=heard).exists():
            return None
        if not _between_hands(game) or game.state["hand_number"] != heard.hand_number:
            return None
        seats = list(GameSeat.objects.filter(game=game).order_by("number"))
        robots = frozenset(s.number for s in seats if s.robot)
        seat = robot_talk.answering_seat(heard.seat, robots)
        if seat is None:
            return None
        view = engine.observation(game.state, seat)
        reply = robot_talk.robot_reply(view, heard.seat, heard.phrase)
        if reply is None:
            return None
        users = {s.number: s.user_id for s in seats}
        seated = Seated(game.table_id, game, seat, users, robots)
        return _write(seated, user_id=users[seat], phrase=reply, reply_to=heard)


def phrase_mute(*, user, table_id: int, seat: int, muted: bool) -> None:
    """`user` stops (or starts again) seeing the phrases of the player at `seat` at this table."""
    seated = _seated(table_id=table_id, user=user)
    target = seated.users.get(seat)
    if target is None or target == user.pk:
        raise PhraseRefused(_("Choisissez un autre joueur de la table."))
    if muted:
        PhraseMute.objects.get_or_create(table_id=table_id, muter=user, muted_id=target)
    else:
        PhraseMute.objects.filter(table_id=table_id, muter=user, muted_id=target).delete()


def phrase_report(*, user, table_id: int, phrase_id: int) -> bool:
    """`user`, a player of the table, reports a phrase another person said there: recorded by
    the moderation (games.signals.phrase_reported). False if they had already reported it."""
    _seated(table_id=table_id, user=user)
    said = TablePhrase.objects.filter(pk=phrase_id, table_id=table_id).first()
    if said is None or said.robot or said.user_id == user.pk:
        raise PhraseRefused(_("Cette phrase ne peut pas être signalée."))
    with transaction.atomic():
        return signals.report_phrase(phrase=said, reporter=user)


def _lock_seated(*, table_id: int, user) -> Seated:
    """The table as `user` speaks at it, its deciding row locked: the game's, or the open
    table's before the partie. Refused during a hand."""
    game_id = Game.objects.filter(table_id=table_id).values_list("pk", flat=True).first()
    game = None
    if game_id is None:
        table = locks.table(table_id)
        if table is None or table.status != Table.Status.OPEN:
            raise NotAtTable(str(NOT_AT_TABLE))
    else:
        game = locks.game(game_id)
        seated = _seated(table_id=table_id, user=user, game=game)
        if game is None or not _between_hands(game):
            raise PhraseRefused(str(phrases.REFUSED_DURING_HAND))
        return seated
    return _seated(table_id=table_id, user=user, game=None)


def _seated(*, table_id: int, user, game: Game | None | bool = True) -> Seated:
    """`user`'s place at the table (`game`: the table's, if already read). Refused to anyone
    not seated there, and at a cancelled partie."""
    if game is True:
        game = Game.objects.filter(table_id=table_id).first()
    if isinstance(game, Game):
        rows = GameSeat.objects.filter(game=game).values_list("number", "user_id", "robot")
    else:
        rows = Seat.objects.filter(table_id=table_id, active=True).values_list(
            "number", "user_id", "robot"
        )
    users = {number: user_id for number, user_id, _robot in rows}
    seat = next((n for n, user_id in users.items() if user_id == user.pk), None)
    if seat is None or (isinstance(game, Game) and game.status == Game.Status.CANCELLED):
        raise NotAtTable(str(NOT_AT_TABLE))
    robots = frozenset(n for n, _user, robot in rows if robot)
    return Seated(table_id, game if isinstance(game, Game) else None, seat, users, robots)


def _between_hands(game: Game) -> bool:
    """No hand is being played: the score screen, or the partie over (not cancelled)."""
    if game.status == Game.Status.FINISHED:
        return True
    return game.status == Game.Status.PLAYING and game.state["phase"] == "hand_over"


def _write(seated: Seated, *, user_id: int, phrase: str, reply_to=None) -> TablePhrase:
    game = seated.game
    said = TablePhrase.objects.create(
        table_id=seated.table_id,
        game=game,
        user_id=user_id,
        seat=seated.seat,
        phrase=phrase,
        hand_number=game.state["hand_number"] if game is not None else 0,
        robot=seated.seat in seated.robots,
        reply_to=reply_to,
    )
    muters = PhraseMute.objects.filter(table_id=seated.table_id, muted_id=user_id)
    broadcast.phrase_said(
        game_id=game.pk if game is not None else None,
        user_ids=sorted(set(seated.users.values()) - {user_id}),
        phrase=phrases.said_event(said),
        muted_by=list(muters.values_list("muter_id", flat=True)),
    )
    return said


def _queue_robot_answer(said: TablePhrase) -> None:
    if said.phrase not in robot_talk.PRAISE and said.phrase != robot_talk.GREETING:
        return
    phrase_id = said.pk

    def send():
        try:
            current_app.send_task(
                ROBOT_PHRASE, args=(phrase_id,), countdown=settings.ROBOT_PAUSE_SECONDS
            )
        except Exception:
            log.warning("phrase %s: the robot's answer was not queued", phrase_id)

    transaction.on_commit(send)
