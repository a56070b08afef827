from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class StaffAction(models.Model):
    """One moderation act, kept for good: who did what, when, to whom (a user and/or a game)
    and why. Written only by moderation.services; read-only in the admin."""

    class Kind(models.TextChoices):
        BAN = "ban", _("bannissement")
        UNBAN = "unban", _("débannissement")
        CANCEL = "cancel", _("annulation de partie")
        # Staff saw the hidden state of a game in play (the Rejouer page).
        VIEW_HIDDEN = "view", _("consultation d’une partie en cours")
        # A finished partie taken out of the ratings, and put back (records.models.RatingVoid).
        RATING_VOID = "void", _("annulation du classement d’une partie")
        RATING_RESTORE = "restore", _("rétablissement du classement d’une partie")

    kind = models.CharField(_("action"), max_length=8, choices=Kind.choices)
    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="staff_actions",
        verbose_name=_("par"),
    )
    at = models.DateTimeField(_("le"), auto_now_add=True)
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="moderation_record",
        verbose_name=_("joueur visé"),
    )
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="staff_actions",
        verbose_name=_("partie"),
    )
    reason = models.TextField(_("motif"))

    class Meta:
        verbose_name = _("action de modération")
        verbose_name_plural = _("actions de modération")
        ordering = ["-at", "-pk"]
        permissions = [
            (
                "can_moderate",
                _("Peut modérer : bannir, débannir, annuler une partie ou son classement"),
            )
        ]

    def __str__(self):
        return f"{self.get_kind_display()} par {self.staff} le {self.at:%d/%m/%Y %H:%M}"


class UserSession(models.Model):
    """Which session belongs to which user, filled at every log-in, so a ban can end all of a
    user's sessions without decoding every session of the site."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="session_index",
        verbose_name=_("joueur"),
    )
    session_key = models.CharField(_("clé de session"), max_length=40, unique=True)
    created = models.DateTimeField(_("ouverte le"), auto_now_add=True)

    class Meta:
        verbose_name = _("session de joueur")
        verbose_name_plural = _("sessions de joueurs")

    def __str__(self):
        return f"{self.user} · {self.session_key[:8]}…"


class PhraseReport(models.Model):
    """A player's « Signaler » on a quick phrase said at their table (docs/phrases.md): the
    partie, the hand, the phrase's id and who said it, copied from the reported TablePhrase so
    the report outlives it (an open table left by all before its partie is deleted with its
    phrases). Written only by moderation.services (from games.signals.phrase_reported);
    read-only in the admin."""

    phrase = models.ForeignKey(
        "games.TablePhrase",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports",
        verbose_name=_("phrase"),
    )
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="phrase_reports",
        verbose_name=_("signalée par"),
    )
    speaker = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="reported_phrases",
        verbose_name=_("dite par"),
    )
    said = models.CharField(_("phrase"), max_length=16)  # its id in games.phrases
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="phrase_reports",
        verbose_name=_("partie"),
    )
    table_id = models.PositiveIntegerField(_("table"))
    hand_number = models.PositiveSmallIntegerField(pgettext_lazy("a hand of the partie", "main"))
    at = models.DateTimeField(_("le"), auto_now_add=True)

    class Meta:
        verbose_name = _("phrase signalée")
        verbose_name_plural = _("phrases signalées")
        ordering = ["-at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["phrase", "reporter"], name="phrasereport_once")
        ]

    def __str__(self):
        return f"{self.reporter} · {self.said}"
