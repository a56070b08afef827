"""Computer players at the site (docs/robots.md, « At the site »).

A robot is a user account with `is_robot` that can neither log in nor reset a password; one may
sit at many tables at once. Its seats are written like a person's (the table row locked
first), and its decision (`robot_play`) goes through play.game_play_locked like a click, from
its own observation only. Seats and play in detail: docs/services.md (« Robots »).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import usernames
from accounts.robot_names import ROBOT_NAMES, robot_forms
from games import broadcast, engine
from games.models import SEAT_COUNT, Game, RobotLevel, Seat, SeedOrigin, Table
from games.services import locks, play, salle
from games.services.errors import IllegalMove, SalleError

log = logging.getLogger(__name__)


def robot_accounts(excluded_ids=()) -> list:
    """The robot accounts, in ROBOT_NAMES order, but `excluded_ids`: made by the migration
    accounts/0006_robot_accounts; those missing (a database emptied since, as the tests do)
    are made again, never next to a person's look-alike (accounts.usernames.robot_username).
    One query once they all exist."""
    users = get_user_model()
    names = [form for name in ROBOT_NAMES for form in robot_forms(name)]
    robots = list(users.objects.filter(username__in=names, is_robot=True))
    if len(robots) < len(ROBOT_NAMES):
        try:
            with transaction.atomic():
                usernames.robot_accounts_create(users)
        except IntegrityError:  # made meanwhile by another request: read below
            pass
        robots = list(users.objects.filter(username__in=names, is_robot=True))
    order = {name: n for n, name in enumerate(names)}
    robots.sort(key=lambda robot: order[robot.username])
    excluded = set(excluded_ids)
    return [robot for robot in robots if robot.pk not in excluded]


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
    """Every empty seat of an open table filled with robots of `level` (Expert): by its host at
    any time, or by any person seated there once the table has waited ROBOT_OFFER_SECONDS
    (« Compléter avec des robots », offered to all of them: whoever is there first)."""
    level = robot_level(level)
    with transaction.atomic():
        table = salle.lock_table(table_id)
        if table.host_id == user.pk:
            table, seats = _lock_host_table(table_id, user)
        else:
            seats = _seats_if_offer_due(table, user)
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
    *,
    user,
    kings: int,
    clock: str | None = None,
    client_seed: str | None = None,
    shown_commitment: str | None = None,
    level: str | None = None,
) -> Table:
    """« Jouer contre les robots »: a table of `kings` opened by `user` (seat 0, with their
    browser's `client_seed`) with three robots of `level` (Expert by default), started at once;
    one transaction (nothing is left half made). Its secret is the one whose commitment the
    form showed (`shown_commitment`, games.services.pending_shuffle): the player's seed is the
    only one not fixed by the commitment, so it must come after it."""
    level = robot_level(level)
    with transaction.atomic():
        table = salle.table_create(
            user=user,
            kings=kings,
            clock=clock,
            client_seed=client_seed,
            shown_commitment=shown_commitment,
        )
        robots_fill(user=user, table_id=table.pk, level=level)
        return salle.table_start(user=user, table_id=table.pk)


def robot_seat_to_act(state: dict, robot_seats) -> int | None:
    """The robot seat (the lowest) among those that must act in `state`, or None: the game
    waits on a person (or on the host's deal at the score screen)."""
    if state["status"] != "playing":
        return None
    return min((s for s in engine.to_act(state) if s in robot_seats), default=None)


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
        seat = robot_seat_to_act(state, robots)
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


def _seats_if_offer_due(table: Table, user) -> dict[int, Seat]:
    """The seats of the locked `table` by number, if `user` sits there and the robots offer is
    due (the table open for ROBOT_OFFER_SECONDS)."""
    if table.status != Table.Status.OPEN:
        raise SalleError(_("La partie a déjà commencé à cette table."))
    seats = {seat.number: seat for seat in table.seats.select_related("user")}
    if not any(seat.user_id == user.pk for seat in seats.values()):
        raise SalleError(_("Seuls les joueurs assis à cette table peuvent la compléter."))
    waited = (timezone.now() - table.created).total_seconds()
    if waited < settings.ROBOT_OFFER_SECONDS:
        raise SalleError(_("Attendez encore un peu avant d’appeler des robots."))
    return seats


def _robot_insert(table: Table, seats: dict[int, Seat], number: int, level: str) -> Seat:
    """A robot of `level` not yet at this table sits at `number`, with the robots' public seed."""
    seated = {seat.user_id for seat in seats.values()}
    robot = next(iter(robot_accounts(seated)), None)
    if robot is None:  # every name taken by people: never with eight names and three seats
        raise SalleError(_("Aucun robot n’est disponible."))
    return robot_seat_insert(table, robot, number, level)


def robot_seat_insert(table: Table, robot_user, number: int, level: str) -> Seat:
    """A robot's seat, with its seed by the public rule of the table's commitment and the seat
    (engine.robot_seed: never drawn, so the site has no choice left after committing). Robots
    sit at many tables at once, so none of the people's checks (the revanche seats its robots
    again through this too)."""
    return Seat.objects.create(
        table=table,
        user=robot_user,
        number=number,
        robot=True,
        robot_level=level,
        client_seed=engine.robot_seed(table.commitment, number),
        seed_origin=SeedOrigin.ROBOT,
    )
