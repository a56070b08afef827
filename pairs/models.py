"""Parejas: two players who play as partners, under a name, and are ranked as a pair.

One proposes, the other accepts; either dissolves it. A pair is a pair for the parties that
began (Game.created) while it was active, from `accepted_at` to `ended_at`: the Finisher's
rating and the rebuild both read that interval, so a dissolution during a partie changes
nothing for that partie, and the history of a dissolved pair stays as it was."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Greatest, Least
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

#: The statuses that hold the name (and its look-alikes): a declined or withdrawn proposal
#: frees it; a dissolved pair keeps it, as its page and record stay.
NAME_HOLDING = ["proposed", "active", "dissolved"]


class Pair(models.Model):
    class Status(models.TextChoices):
        PROPOSED = "proposed", _("proposée")
        ACTIVE = "active", _("active")
        DECLINED = "declined", _("refusée")
        DISSOLVED = "dissolved", _("dissoute")

    name = models.CharField(_("nom"), max_length=40)
    # pairs.names.skeleton(name): equal skeletons look alike (the user names' rule).
    skeleton = models.CharField(_("forme comparée"), max_length=40, editable=False)
    slug = models.CharField(_("adresse"), max_length=80, editable=False)
    proposer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="pairs_proposed",
        verbose_name=_("proposée par"),
    )
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="pairs_invited",
        verbose_name=_("proposée à"),
    )
    status = models.CharField(
        _("statut"), max_length=10, choices=Status.choices, default=Status.PROPOSED
    )
    created = models.DateTimeField(_("proposée le"), auto_now_add=True)
    accepted_at = models.DateTimeField(_("formée le"), null=True, blank=True)
    ended_at = models.DateTimeField(_("finie le"), null=True, blank=True)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("finie par"),
    )

    class Meta:
        verbose_name = _("pareja")
        verbose_name_plural = _("parejas")
        ordering = ["-created"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["proposed", "active", "declined", "dissolved"]),
                name="pair_status_valid",
            ),
            models.CheckConstraint(
                condition=~Q(proposer=models.F("partner")), name="pair_two_players"
            ),
            # Two players form one pair at a time (proposed or active): the last word on two
            # proposals or two acceptances at once.
            models.UniqueConstraint(
                Least("proposer", "partner"),
                Greatest("proposer", "partner"),
                condition=Q(status__in=["proposed", "active"]),
                name="pair_one_current_per_players",
            ),
            models.UniqueConstraint(
                fields=["skeleton"], condition=Q(status__in=NAME_HOLDING), name="pair_name_once"
            ),
            models.UniqueConstraint(
                fields=["slug"], condition=Q(status__in=NAME_HOLDING), name="pair_slug_once"
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("records:pair", args=[self.slug])

    @property
    def members(self) -> tuple:
        return self.proposer, self.partner

    def member_ids(self) -> tuple[int, int]:
        return self.proposer_id, self.partner_id

    def other(self, user):
        return self.partner if user.pk == self.proposer_id else self.proposer
