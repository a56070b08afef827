"""Tournaments by pairs, run by the site: a Swiss (rounds of matches) or a tournoi éclair (a
window in which free pairs are paired at once). A match is one partie, or up to three
(`best_of`); each partie is a table the site opened (`MatchPartie.table`). Written only by
tournaments.services, under the tournament's row lock (docs/tournaments.md)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.models import Table
from tournaments import reasons


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Système suisse")
        ECLAIR = "eclair", _("Tournoi éclair")

    class State(models.TextChoices):
        REGISTRATION = "registration", _("inscriptions ouvertes")
        RUNNING = "running", _("en cours")
        FINISHED = "finished", _("terminé")
        CANCELLED = "cancelled", _("annulé")

    name = models.CharField(_("nom"), max_length=80)
    format = models.CharField(_("formule"), max_length=8, choices=Format.choices)
    kings = models.IntegerField(_("modalité"), choices=Table.Kings.choices, default=4)
    clock = models.CharField(
        _("temps de jeu"), max_length=8, choices=Table.Clock.choices, default=Table.Clock.NORMAL
    )
    starts_at = models.DateTimeField(_("début"))
    # Swiss: the number of rounds; éclair: the window's length in minutes.
    rounds = models.PositiveSmallIntegerField(_("rondes"), null=True, blank=True)
    window_minutes = models.PositiveSmallIntegerField(
        _("durée de la fenêtre (minutes)"), null=True, blank=True
    )
    best_of = models.PositiveSmallIntegerField(
        _("parties par ronde"),
        choices=[(1, _("une partie")), (3, _("au meilleur des trois"))],
        default=1,
    )
    min_completion = models.PositiveSmallIntegerField(
        _("taux de parties menées à terme exigé"), null=True, blank=True
    )
    private = models.BooleanField(_("privé"), default=False)
    # A private tournament is reached only by /tournois/<id>/<token>/ (secrets.token_urlsafe).
    link_token = models.CharField(  # noqa: DJ001 - null: public tournaments have none
        _("jeton du lien"), max_length=64, null=True, blank=True, unique=True
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="tournaments_created",
        verbose_name=_("créé par"),
    )
    state = models.CharField(
        _("état"), max_length=12, choices=State.choices, default=State.REGISTRATION
    )
    # why it was cancelled: {"code", parameters} of tournaments.reasons ({} otherwise)
    state_reason = models.JSONField(_("motif"), blank=True, default=dict)
    created = models.DateTimeField(_("créé le"), auto_now_add=True)
    finished_at = models.DateTimeField(_("fini le"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournoi")
        ordering = ["-starts_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(format__in=["swiss", "eclair"]), name="tournament_format_valid"
            ),
            models.CheckConstraint(
                condition=Q(state__in=["registration", "running", "finished", "cancelled"]),
                name="tournament_state_valid",
            ),
            models.CheckConstraint(condition=Q(kings__in=[4, 8]), name="tournament_kings_4_8"),
            models.CheckConstraint(condition=Q(best_of__in=[1, 3]), name="tournament_best_of"),
            models.CheckConstraint(
                condition=Q(format="eclair", best_of=1, window_minutes__isnull=False)
                | Q(format="swiss", rounds__isnull=False),
                name="tournament_format_fields",
            ),
        ]
        indexes = [
            models.Index(
                fields=["starts_at"],
                condition=Q(state__in=["registration", "running"]),
                name="tournament_live_idx",
            )
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        if self.private:
            return reverse("tournaments:private", args=[self.pk, self.link_token])
        return reverse("tournaments:detail", args=[self.pk])

    @property
    def state_reason_text(self) -> str:
        """Why it was cancelled, in the active language ("" if it was not)."""
        return reasons.state_reason_text(self.state_reason)


class TournamentPair(models.Model):
    """A pair registered in a tournament; each member checks in, in the last minutes before the
    start. Only the pairs whose two members checked in play (`playing`, set at the start)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", verbose_name=_("tournoi")
    )
    pair = models.ForeignKey(
        "pairs.Pair",
        on_delete=models.PROTECT,
        related_name="tournament_entries",
        verbose_name=_("pareja"),
    )
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("inscrite par"),
    )
    registered_at = models.DateTimeField(_("inscrite le"), auto_now_add=True)
    proposer_checked_in = models.DateTimeField(_("présence du premier"), null=True, blank=True)
    partner_checked_in = models.DateTimeField(_("présence du second"), null=True, blank=True)
    playing = models.BooleanField(_("joue"), default=False)
    # The pair's rating when the tournament started: the pairing's.
    rating = models.IntegerField(_("classement au départ"), default=0)
    # Its final standing, written once when the tournament finishes, so that a pair's page
    # reads its tournaments without replaying each one's matches (null before the end).
    final_rank = models.PositiveSmallIntegerField(_("rang final"), null=True, blank=True)
    final_points = models.PositiveSmallIntegerField(_("points finaux"), null=True, blank=True)
    final_field = models.PositiveSmallIntegerField(_("parejas classées"), null=True, blank=True)

    class Meta:
        verbose_name = _("pareja inscrite")
        verbose_name_plural = _("parejas inscrites")
        ordering = ["tournament", "registered_at"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "pair"], name="tournamentpair_once"),
        ]

    def __str__(self):
        return f"{self.pair} · {self.tournament}"

    @property
    def checked_in(self) -> bool:
        return self.proposer_checked_in is not None and self.partner_checked_in is not None


class Round(models.Model):
    """A Swiss round: planned at `starts_at`, its matches made and tables opened once then."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="round_set", verbose_name=_("tournoi")
    )
    number = models.PositiveSmallIntegerField(_("ronde"))
    starts_at = models.DateTimeField(_("début"))
    opened_at = models.DateTimeField(_("lancée le"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finie le"), null=True, blank=True)

    class Meta:
        verbose_name = _("ronde")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_once"),
        ]

    def __str__(self):
        return f"{self.tournament} · {self.number}"


class Match(models.Model):
    """Two pairs (pair_a at seats 0 and 2, pair_b at 1 and 3), or one pair's bye (pair_b
    null). `winner` 0 (pair_a), 1 (pair_b) or null with `done`: both lost (a double forfeit)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="matches", verbose_name=_("tournoi")
    )
    round = models.ForeignKey(
        Round,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="matches",
        verbose_name=_("ronde"),
    )
    pair_a = models.ForeignKey(
        TournamentPair, on_delete=models.CASCADE, related_name="+", verbose_name=_("pareja A")
    )
    pair_b = models.ForeignKey(
        TournamentPair,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("pareja B"),
    )
    started_at = models.DateTimeField(_("commencé le"))
    done = models.BooleanField(_("fini"), default=False)
    winner = models.PositiveSmallIntegerField(_("gagnant"), null=True, blank=True)
    points_a = models.PositiveSmallIntegerField(_("points A"), default=0)
    points_b = models.PositiveSmallIntegerField(_("points B"), default=0)
    diff_a = models.IntegerField(_("différence A"), default=0)
    finished_at = models.DateTimeField(_("fini le"), null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matchs")
        ordering = ["tournament", "started_at", "pk"]
        indexes = [
            models.Index(fields=["tournament"], condition=Q(done=False), name="match_playing_idx")
        ]

    def __str__(self):
        return f"{self.pair_a_id} / {self.pair_b_id}"


class MatchPartie(models.Model):
    """One partie of a match, at the table the site opened for it; `outcome` is written by the
    partie's end (tournaments.receivers): the side that won, or null and `ended`: both lost."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="parties", verbose_name=_("match")
    )
    number = models.PositiveSmallIntegerField(_("partie n°"))
    table = models.OneToOneField(
        Table,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_partie",
        verbose_name=_("table"),
    )
    ended = models.BooleanField(_("finie"), default=False)
    outcome = models.PositiveSmallIntegerField(_("gagnant"), null=True, blank=True)
    diff_a = models.IntegerField(_("différence A"), default=0)
    # why it counted without a winner at its table: {"code", parameters} of tournaments.reasons,
    # or its game's end reason ({} for a partie won at the table)
    note = models.JSONField(_("motif"), blank=True, default=dict)

    class Meta:
        verbose_name = _("partie de tournoi")
        verbose_name_plural = _("parties de tournoi")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="matchpartie_once"),
        ]

    def __str__(self):
        return f"{self.match_id} · {self.number}"

    @property
    def note_text(self) -> str:
        """Why it counted without a winner at its table, in the active language."""
        return reasons.partie_note_text(self.note)
