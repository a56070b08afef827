from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

SEAT_COUNT = 4


class Table(models.Model):
    """A table of the salle: a host, a modality and four seats (see Seat)."""

    class Kings(models.IntegerChoices):
        FOUR = 4, _("Mus · 4 rois")
        EIGHT = 8, _("Mus · 8 rois")

    class Status(models.TextChoices):
        OPEN = "open", _("ouverte")
        PLAYING = "playing", _("en jeu")
        CLOSED = "closed", _("fermée")

    ACTIVE_STATUSES = (Status.OPEN, Status.PLAYING)

    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_tables"
    )
    kings = models.IntegerField(_("modalité"), choices=Kings.choices)
    status = models.CharField(
        _("statut"), max_length=8, choices=Status.choices, default=Status.OPEN
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("table")
        ordering = ["-created"]
        constraints = [
            models.CheckConstraint(condition=Q(kings__in=[4, 8]), name="table_kings_4_or_8"),
            models.CheckConstraint(
                condition=Q(status__in=["open", "playing", "closed"]), name="table_status_valid"
            ),
        ]
        indexes = [
            models.Index(
                fields=["-created"],
                condition=Q(status__in=["open", "playing"]),
                name="table_active_idx",
            )
        ]

    def __str__(self):
        return f"Table {self.pk} ({self.get_kings_display()}, {self.get_status_display()})"

    def get_absolute_url(self):
        return reverse("games:table", args=[self.pk])


class Seat(models.Model):
    """One player at one table. Leaving an open table deletes the row; `active` is True while
    the table is open or playing, so a player holds at most one seat at active tables."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(_("place"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    active = models.BooleanField(default=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("place")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_unique_number"),
            models.UniqueConstraint(fields=["table", "user"], name="seat_unique_user_per_table"),
            models.UniqueConstraint(
                fields=["user"], condition=Q(active=True), name="seat_one_active_per_user"
            ),
            models.CheckConstraint(condition=Q(number__lt=SEAT_COUNT), name="seat_number_0_3"),
        ]

    def __str__(self):
        return f"{self.user} à la place {self.number} de la table {self.table_id}"

    @property
    def team(self) -> int:
        """Team 0 holds seats 0 and 2, team 1 seats 1 and 3: partners face each other."""
        return self.number % 2
