from django.contrib.auth.models import AbstractUser
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.db import models
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """The site's user, custom from the first migration so it can grow without pain.

    A ban (moderation.services.user_ban) sets `is_active` to False, so Django's ModelBackend
    refuses the log-in and no longer loads the user from a session or a socket; `banned_at` and
    `ban_reason` say when and why, and are cleared by an unban.

    `session_epoch` is mixed into the session auth hash, so a ban, which bumps it, ends every
    session of the user for good, including one whose key no index knows (a key cycled at a
    password change), and the unban brings none back.
    """

    # Django's field, named as the site names it everywhere ("Nom de joueur").
    username = models.CharField(
        _("nom de joueur"),
        max_length=150,
        unique=True,
        help_text=_("Lettres d’un seul alphabet, chiffres et . _ - ; 150 caractères au plus."),
        validators=[UnicodeUsernameValidator()],
        error_messages={"unique": _("Un joueur de ce nom existe déjà.")},
    )
    banned_at = models.DateTimeField(_("banni le"), null=True, blank=True)
    ban_reason = models.TextField(_("motif du bannissement"), blank=True)
    session_epoch = models.PositiveIntegerField(_("génération des sessions"), default=0)
    # A computer player (games.services.robots): it has no password, never logs in, and may
    # sit at several tables at once (Seat.robot lifts the one-active-seat rule for it).
    is_robot = models.BooleanField(_("robot"), default=False)
    # The language the player chose (a code of settings.LANGUAGES), applied on every device it
    # logs in from (accounts.middleware.account_language); empty: the browser's.
    language = models.CharField(_("langue"), max_length=8, blank=True, default="")

    @property
    def is_banned(self) -> bool:
        return self.banned_at is not None

    def _get_session_auth_hash(self, secret=None):
        # Django's own hash (and its SECRET_KEY_FALLBACKS) call this; at epoch 0 it is Django's,
        # so the sessions opened before the field existed stay valid.
        if not self.session_epoch:
            return super()._get_session_auth_hash(secret=secret)
        return salted_hmac(
            "accounts.User.session_epoch",
            f"{self.session_epoch}:{self.password}",
            secret=secret,
            algorithm="sha256",
        ).hexdigest()
