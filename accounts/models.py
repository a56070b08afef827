from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """The site's user, custom from the first migration so it can grow without pain.

    A ban (moderation.services.user_ban) sets `is_active` to False, so Django's ModelBackend
    refuses the log-in and no longer loads the user from a session or a socket; `banned_at` and
    `ban_reason` say when and why, and are cleared by an unban.
    """

    banned_at = models.DateTimeField(_("banni le"), null=True, blank=True)
    ban_reason = models.TextField(_("motif du bannissement"), blank=True)

    @property
    def is_banned(self) -> bool:
        return self.banned_at is not None
