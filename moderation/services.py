"""Every moderation write: ban, unban, cancel a partie, void a finished partie's rating and
restore it, and the journal of a look at a game's hidden state. Each is one transaction that
ends with a StaffAction row, so what staff did is recorded exactly when it took effect.

Lock order follows games.services.locks (the table row, then the user row, then the game row):
a ban first frees the user's seat through the salle and game services, then locks and
deactivates the user.
"""

from contextlib import suppress
from importlib import import_module

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.permissions import can_moderate
from games import broadcast, vocabulary
from games.models import Game, Seat, Table
from games.services import locks, play, salle
from games.services.errors import Refused, SalleError
from moderation.models import PhraseReport, StaffAction, UserSession
from records import services as records
from records.models import RatingVoid

REASON_MAX = 500


class ModerationError(Refused):
    """A refused moderation act, shown to the staff member."""


class NotModerator(ModerationError):
    status = 403


def user_ban(*, user, by, reason: str) -> StaffAction:
    """Ban `user`: out of any open table, any partie they play cancelled (the others are told
    why), every session ended, open sockets closed, log-in refused until an unban."""
    reason = _clean_reason(reason)
    _check_can_ban(user, by)
    # Two steps. First the user row, alone: once it commits, every salle write of the user is
    # refused (games.services.salle checks is_active under the user's row lock), and one that held
    # that lock first has committed, so its seat is seen by the second step. One transaction
    # could not do both without taking the table rows after the user row, against the salle's
    # lock order (table, then user): a deadlock with a seat request in flight.
    with transaction.atomic():
        user = _lock_user(user)
        if user.banned_at is not None:
            raise ModerationError(_("%(name)s est déjà banni.") % {"name": user.username})
        user.is_active = False
        user.banned_at = timezone.now()
        user.ban_reason = reason
        # Every session of the user fails the auth hash from now on, indexed or not, and
        # stays dead after an unban (accounts.models.User.session_epoch).
        user.session_epoch += 1
        # Registered before the save: the user's sockets get this message, with the reason,
        # before the "sessions changed" that the save itself sends (games.live.sessions_watch).
        kicked = _("Votre compte a été suspendu : %(reason)s") % {"reason": reason}
        broadcast.user_kicked(user.pk, kicked)
        user.save(update_fields=["is_active", "banned_at", "ban_reason", "session_epoch"])
    with transaction.atomic():
        cancelled = _leave_active_tables(user, by, reason)
        sessions_end(user=user)
        return _record(StaffAction.Kind.BAN, by=by, reason=reason, target_user=user, game=cancelled)


def user_unban(*, user, by, reason: str) -> StaffAction:
    """Lift a ban: the user may log in again (a fresh log-in: no old session comes back).
    Who may unban is who may ban."""
    reason = _clean_reason(reason)
    _check_can_ban(user, by)
    with transaction.atomic():
        user = _lock_user(user)
        if user.banned_at is None:
            raise ModerationError(_("%(name)s n’est pas banni.") % {"name": user.username})
        user.is_active = True
        user.banned_at = None
        user.ban_reason = ""
        user.save(update_fields=["is_active", "banned_at", "ban_reason"])
        return _record(StaffAction.Kind.UNBAN, by=by, reason=reason, target_user=user)


def sessions_end(*, user) -> int:
    """End every indexed session of `user` (whatever the session engine); returns how many."""
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    keys = list(UserSession.objects.filter(user=user).values_list("session_key", flat=True))
    for key in keys:
        store.delete(key)
    UserSession.objects.filter(user=user).delete()
    return len(keys)


def game_cancel(*, game, by, reason: str) -> StaffAction:
    """Cancel a partie in play ("Annuler la partie"): the players' browsers go to the salle
    and show them the reason."""
    reason = _clean_reason(reason)
    with transaction.atomic():
        locked = locks.game(game.pk)
        if locked.status != Game.Status.PLAYING:
            raise ModerationError(_("Cette partie est déjà terminée."))
        shown = vocabulary.end_reason("moderation", reason=reason)
        play.game_finish_locked(game=locked, status=Game.Status.CANCELLED, reason=shown, by=by)
        return _record(StaffAction.Kind.CANCEL, by=by, reason=reason, game=locked)


def partie_rating_void(*, game, by, reason: str) -> StaffAction:
    """ "Annuler le classement de la partie": a finished partie between four people stops
    counting in the ratings (the four colluded, a player cheated). Its result and record stay;
    the ratings are rebuilt without it from that partie on (records.services.ratings_rebuild,
    in this transaction), so the numbers are exactly a full rebuild's. The partie page says the
    moderation voided it."""
    reason = _clean_reason(reason)
    _check_can_moderate(by)
    with transaction.atomic():
        locked = locks.game(game.pk)
        _check_ratable(locked)
        if RatingVoid.objects.filter(game=locked).exists():
            raise ModerationError(_("Le classement de cette partie est déjà annulé."))
        RatingVoid.objects.create(game=locked, at=timezone.now())
        records.ratings_rebuild(since=locked)
        return _record(StaffAction.Kind.RATING_VOID, by=by, reason=reason, game=locked)


def partie_rating_restore(*, game, by, reason: str) -> StaffAction:
    """ "Rétablir le classement": undo a void; the ratings are rebuilt with the partie again from
    that partie on, which gives back exactly the numbers from before the void."""
    reason = _clean_reason(reason)
    _check_can_moderate(by)
    with transaction.atomic():
        locked = locks.game(game.pk)
        if not RatingVoid.objects.filter(game=locked).delete()[0]:
            raise ModerationError(_("Le classement de cette partie n’est pas annulé."))
        records.ratings_rebuild(since=locked)
        return _record(StaffAction.Kind.RATING_RESTORE, by=by, reason=reason, game=locked)


def game_hidden_state_viewed(*, game, by, where: str) -> StaffAction:
    """Journal that `by` is shown the hidden state (hands, pioche, discards) of `game`, in play,
    on the admin page `where`."""
    reason = _("Cartes cachées consultées (%(where)s) pendant la partie.") % {"where": where}
    return _record(StaffAction.Kind.VIEW_HIDDEN, by=by, reason=reason, game=game)


def _leave_active_tables(user, by, reason: str) -> Game | None:
    """Free the user's seat: leave an open table (host handed over), or cancel the partie
    played there (returned), the other players told why."""
    cancelled = None
    for seat in Seat.objects.filter(user=user, active=True).select_related("table"):
        if seat.table.status == Table.Status.OPEN:
            # SalleError: the table started or closed meanwhile; a started one is handled below.
            with suppress(SalleError):
                salle.seat_leave(user=user, table_id=seat.table_id)
        game = Game.objects.filter(table_id=seat.table_id, status=Game.Status.PLAYING).first()
        if game is not None:
            shown = vocabulary.end_reason("excluded", name=user.username, reason=reason)
            play.game_finish(game=game, status=Game.Status.CANCELLED, reason=shown, by=by)
            cancelled = game
    return cancelled


def _check_can_moderate(by) -> None:
    """The admin's own check (core.permissions.can_moderate), held by the service as well."""
    if not can_moderate(by):
        raise NotModerator(_("Seul un modérateur peut corriger le classement d’une partie."))


def _check_ratable(game) -> None:
    """Only a finished partie between four people has a rating to void."""
    if game.status == Game.Status.PLAYING:
        raise ModerationError(
            _("Cette partie est en cours : seul le classement d’une partie terminée s’annule.")
        )
    if game.status != Game.Status.FINISHED:
        raise ModerationError(
            _("Cette partie a été annulée : elle n’a pas été classée, il n’y a rien à annuler.")
        )
    if game.seats.filter(robot=True).exists():
        raise ModerationError(
            _("Cette partie d’entraînement (avec un robot) n’est pas classée : rien à annuler.")
        )


def _check_can_ban(user, by) -> None:
    """Both ways, ban and unban: not oneself, and a staff member only by a superuser."""
    if user.pk == by.pk:
        raise ModerationError(_("Vous ne pouvez pas vous bannir ni vous débannir vous-même."))
    if user.is_staff and not by.is_superuser:
        raise ModerationError(
            _("Seul un superutilisateur peut bannir ou débannir un membre de l’équipe.")
        )


def _clean_reason(reason) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ModerationError(_("Indiquez un motif."))
    if len(reason) > REASON_MAX:
        raise ModerationError(_("Le motif est trop long (500 caractères au plus)."))
    return reason


def _lock_user(user):
    locked = locks.user(user.pk)
    if locked is None:
        raise type(user).DoesNotExist
    return locked


def _record(kind, *, by, reason: str, **targets) -> StaffAction:
    return StaffAction.objects.create(kind=kind, staff=by, reason=reason, **targets)


def phrase_report_record(*, phrase, reporter) -> bool:
    """A player's « Signaler » on a phrase of their table (games.signals.phrase_reported):
    recorded once per reporter and phrase, for the moderators. True if new."""
    _report, created = PhraseReport.objects.get_or_create(
        phrase=phrase,
        reporter=reporter,
        defaults={
            "speaker_id": phrase.user_id,
            "said": phrase.phrase,
            "game_id": phrase.game_id,
            "table_id": phrase.table_id,
            "hand_number": phrase.hand_number,
        },
    )
    return created
