"""A partie's review with the robot (docs/review.md), kept with the partie: computed once by
the worker after the partie ended, again only when the robot's version changes."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game


class Review(models.Model):
    """Per seat played by a person, every decision weighed (games.engine.review); `version`
    names the robot and the method it was computed with. `done` / `total` count the decisions
    analysed so far, for the page's progress."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("en attente")
        RUNNING = "running", _("en cours")
        READY = "ready", _("prête")

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="review", verbose_name=_("partie")
    )
    version = models.CharField(_("version du robot"), max_length=32)
    status = models.CharField(
        _("statut"), max_length=8, choices=Status.choices, default=Status.QUEUED
    )
    done = models.PositiveIntegerField(_("décisions analysées"), default=0)
    total = models.PositiveIntegerField(_("décisions à analyser"), default=0)
    seats = models.JSONField(_("décisions par place"), default=dict, blank=True)
    cpu_seconds = models.FloatField(_("temps de calcul (s)"), default=0)
    created = models.DateTimeField(_("demandée le"), auto_now_add=True)
    updated = models.DateTimeField(_("modifiée le"), auto_now=True)

    class Meta:
        verbose_name = _("revue avec le robot")
        verbose_name_plural = _("revues avec le robot")

    def __str__(self):
        return f"Revue de la partie {self.game_id} ({self.get_status_display()})"
