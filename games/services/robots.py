"""Computer players at the site (docs/robots.md, « At the site »).

A robot is a user account with `is_robot` (a small pool of named accounts, created on first
use): no e-mail, an unusable password, so it can neither log in nor reset a password. One robot
account may sit at many tables at once (`Seat.robot` lifts the one-active-seat rule).

- Seats: the host of an open table places a robot in an empty seat (`robot_seat`), takes it out
  (`robot_unseat`), fills every empty seat (`robots_fill`); « Jouer contre les robots » opens a
  table for one player and three robots and starts it (`practice_table`). Each runs in one
  transaction that locks the table row first, as games.services.salle does. The host is always a
  person (salle.seat_leave hands over to the next person and deletes a table left to robots).
- Play: `robot_play`, the task's service (games.tasks.robot_play, queued on commit by
  play.schedule_robot_play when a robot must act). It locks the game, does nothing if the game
  ended or moved past the version it was queued at, and otherwise applies ONE robot's decision,
  `engine.robot_action(engine.observation(state, seat), level)` (its own view, never the
  state; the level the robot was placed with),
  through play.game_play_locked: the version check, engine call, log and broadcast of a click.
  That call queues the next robot's task if one must act, so robots chain until a person must.
"""

from __future__ import annotations

import logging
import secrets

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games import broadcast, engine
from games.models import SEAT_COUNT, Game, RobotLevel, Seat, Table
from games.services import locks, play, salle
from games.services.errors import IllegalMove, SalleError

log = logging.getLogger(__name__)

#: The robots' names, in the order they are seated: Basque and French first names. An account
#: of that name that is a person's is skipped (its "-robot" form is tried instead).
ROBOT_NAMES = ("Amaia", "Beñat", "Maddi", "Peio", "Ainhoa", "Manex", "Margot", "Xabi")


def robot_accounts(excluded_ids=()) -> list:
    """The robot accounts, in ROBOT_NAMES order, but `excluded_ids`; created if missing (a
    flushed database, a new site), with no e-mail and an unusable password. One query once
    they all exist."""
    users = get_user_model()
    candidates = [(name, f"{name}-robot") for name in ROBOT_NAMES]
    names = [username for pair in candidates for username in pair]
    found = {u.username: u for u in users.objects.filter(username__in=names)}
    robots = []
    for pair in candidates:
        for username in pair:
            user = found.get(username) or _robot_create(username)
            if user is not None and user.is_robot:
                robots.append(user)
                break
    excluded = set(excluded_ids)
    return [robot for robot in robots if robot.pk not in excluded]


def _robot_create(username: str):
    users = get_user_model()
    robot = users(username=username, is_robot=True, email="")
    robot.set_unusable_password()
    try:
        with transaction.atomic():
            robot.save()
    except IntegrityError:  # the same name created meanwhile: read it back
        return users.objects.filter(username=username).first()
    return robot


def robot_level(level: str | None) -> str:
    """The level asked for (a RobotLevel value; None or blank: Expert), else a SalleError."""
    if not level:
        return RobotLevel.EXPERT
    if level not in RobotLevel.values:
        raise SalleError(_("Choisissez un niveau de robot : débutant, confirmé ou expert."))
    return level


def robot_seat(*, user, table_id: int, number: int, level: str | None = None) -> Seat:
    """The host places a robot of `level` (default Expert) in the empty seat `number` of their
    open table."""
    if not isinstance(number, int) or not 0 <= number < SEAT_COUNT:
        raise SalleError(_("Cette place n’existe pas."))
    level = robot_level(level)
    with transaction.atomic():
        table, seats = _lock_host_table(table_id, user)
        if number in seats:
            raise SalleError(_("Cette place est déjà prise."))
        seat = _robot_insert(table, seats, number, level)
        broadcast.salle_changed()
    return seat


def robot_unseat(*, user, table_id: int, number: int) -> None:
    """The host takes the robot out of seat `number` of their open table."""
    with transaction.atomic():
        _table, seats = _lock_host_table(table_id, user)
        seat = seats.get(number) if isinstance(number, int) else None
        if seat is None or not seat.robot:
            raise SalleError(_("Il n’y a pas de robot à cette place."))
        seat.delete()
        broadcast.salle_changed()


def robots_fill(*, user, table_id: int, level: str | None = None) -> list[Seat]:
    """The host fills every empty seat of their open table with robots of `level` (Expert)."""
    level = robot_level(level)
    with transaction.atomic():
        table, seats = _lock_host_table(table_id, user)
        empty = [n for n in range(SEAT_COUNT) if n not in seats]
        if not empty:
            raise SalleError(_("Cette table est complète."))
        added = []
        for number in empty:
            added.append(_robot_insert(table, seats, number, level))
            seats[number] = added[-1]
        broadcast.salle_changed()
    return added


def practice_table(
    *, user, kings: int, clock: str | None = None, level: str | None = None
) -> Table:
    """« Jouer contre les robots »: a table of `kings` opened by `user` (seat 0) with three
    robots of `level` (Expert by default), started at once; one transaction (nothing is left
    half made)."""
    level = robot_level(level)
    with transaction.atomic():
        table = salle.table_create(user=user, kings=kings, clock=clock)
        robots_fill(user=user, table_id=table.pk, level=level)
        return salle.table_start(user=user, table_id=table.pk)


def robot_play(*, game_id: int, version: int) -> bool:
    """The queued decision of a robot: if the game is still playing at `version`, the robot
    seat among those that must act (the lowest) decides from its own observation, applied as a
    click. Returns whether a decision was made; a game that moved on or ended: nothing."""
    with transaction.atomic():
        game = locks.game_to_play(game_id=game_id)
        if game is None or game.status != Game.Status.PLAYING or game.version != version:
            return False
        state = game.state
        if state["status"] != "playing":
            return False  # the score screen: the host (a person) deals
        robots = {s.number: s.robot_level for s in game.seats.all() if s.robot}
        seat = min((s for s in engine.to_act(state) if s in robots), default=None)
        if seat is None:
            return False
        # a seat from before the levels has none: the default (Expert)
        level = robots[seat] or RobotLevel.EXPERT
        action = engine.robot_action(engine.observation(state, seat), level)
        try:
            play.game_play_locked(game=game, seat=seat, version=version, action=action)
        except IllegalMove as error:
            # Never expected (robot_action reads the legal actions); a robot must not stall
            # the table, so it makes the decision the clock would.
            log.error(
                "game %s: robot seat %s chose an illegal %s (%s)", game_id, seat, action, error.code
            )
            fallback = engine.timeout_action(state, seat)
            play.game_play_locked(game=game, seat=seat, version=version, action=fallback)
    return True


def _lock_host_table(table_id, user) -> tuple[Table, dict[int, Seat]]:
    """The locked open table, if `user` hosts it, and its seats by number."""
    table = salle.lock_table(table_id)
    if table.status != Table.Status.OPEN:
        raise SalleError(_("La partie a déjà commencé à cette table."))
    if table.host_id != user.pk:
        raise SalleError(_("Seul l’hôte de la table peut placer ou retirer un robot."))
    seats = {seat.number: seat for seat in table.seats.select_related("user")}
    return table, seats


def _robot_insert(table: Table, seats: dict[int, Seat], number: int, level: str) -> Seat:
    """A robot of `level` not yet at this table sits at `number`, with a seed of the site's."""
    seated = {seat.user_id for seat in seats.values()}
    robot = next(iter(robot_accounts(seated)), None)
    if robot is None:  # every name taken by people: never with eight names and three seats
        raise SalleError(_("Aucun robot n’est disponible."))
    return robot_seat_insert(table, robot, number, level)


def robot_seat_insert(table: Table, robot_user, number: int, level: str) -> Seat:
    """A robot's seat, with a seed of the site's: robots sit at many tables at once, so none of
    the people's checks (the revanche seats its robots again through this too)."""
    return Seat.objects.create(
        table=table,
        user=robot_user,
        number=number,
        robot=True,
        robot_level=level,
        client_seed=secrets.token_hex(16),
    )
