"""Ratings: each player's current skill estimate and its history, one row per rated partie.

Written only by records.services (the Finisher's signal, and the rebuild from the games'
records); read-only in the admin: a correction is a moderation act, journalled."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Skill(models.Model):
    """A current rating (openskill's Plackett-Luce: mean `mu`, uncertainty `sigma`) after
    `parties` rated parties: a player's (Rating) or a pareja's (PairRating)."""

    mu = models.FloatField(_("niveau estimé"))
    sigma = models.FloatField(_("incertitude"))
    # The rating shown (records.rating.points), kept to sort the classement by it.
    points = models.IntegerField(_("classement"))
    parties = models.PositiveIntegerField(_("parties classées"), default=0)
    updated = models.DateTimeField(_("modifié le"))

    class Meta:
        abstract = True


class SkillChange(models.Model):
    """What one rated partie did to one rating: a player's (RatingChange) or a pareja's
    (PairRatingChange)."""

    at = models.DateTimeField(_("le"))
    won = models.BooleanField(_("gagnée"))
    mu_before = models.FloatField(_("niveau avant"))
    sigma_before = models.FloatField(_("incertitude avant"))
    mu = models.FloatField(_("niveau après"))
    sigma = models.FloatField(_("incertitude après"))
    points_before = models.IntegerField(_("classement avant"))
    points = models.IntegerField(_("classement après"))

    class Meta:
        abstract = True


class Rating(Skill):
    """A player's current rating (openskill's Plackett-Luce: mean `mu`, uncertainty `sigma`)
    after `parties` rated parties. No row: never rated (the model's starting values)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        primary_key=True,
        related_name="rating",
        verbose_name=_("joueur"),
    )

    class Meta:
        verbose_name = _("classement d’un joueur")
        verbose_name_plural = _("classements des joueurs")
        indexes = [models.Index(fields=["-points"], name="rating_points_idx")]

    def __str__(self):
        return f"{self.user} · {self.points}"


class RatingChange(SkillChange):
    """What one rated partie did to one player's rating: the history the profile charts. One
    row per (partie, player): the unique constraint is the "exactly once"."""

    game = models.ForeignKey(
        "games.Game",
        on_delete=models.PROTECT,
        related_name="rating_changes",
        verbose_name=_("partie"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="rating_changes",
        verbose_name=_("joueur"),
    )

    class Meta:
        verbose_name = _("évolution du classement")
        verbose_name_plural = _("évolutions du classement")
        ordering = ["at", "game_id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="ratingchange_once"),
        ]
        indexes = [models.Index(fields=["user", "at"], name="ratingchange_user_at_idx")]

    def __str__(self):
        return f"{self.user} · partie {self.game_id} · {self.points_before} → {self.points}"


class RatingVoid(models.Model):
    """A finished partie the moderation took out of the ratings ("Annuler le classement"):
    the four colluded, a player cheated. Written and deleted only by moderation.services,
    which journals each act (StaffAction: who, when, why) and rebuilds the ratings without it;
    ratings_rebuild skips every partie with a row here. The partie itself, its result and its
    record, stay as they were."""

    game = models.OneToOneField(
        "games.Game",
        on_delete=models.PROTECT,
        primary_key=True,
        related_name="rating_void",
        verbose_name=_("partie"),
    )
    at = models.DateTimeField(_("annulé le"))

    class Meta:
        verbose_name = _("classement annulé d’une partie")
        verbose_name_plural = _("classements annulés des parties")

    def __str__(self):
        return f"partie {self.game_id} · {self.at:%d/%m/%Y %H:%M}"


class PlayerTally(models.Model):
    """What the salle shows of a player's record besides the rating: the ended parties between
    four people the player sat at, and how many of them the player's own absence or clock
    cancelled (games.selectors.Completion). Counted once, when each partie ends (records'
    receiver, in the Finisher's transaction), so a render reads one row per name whatever the
    history. No row: no such partie yet."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="tally",
        verbose_name=_("joueur"),
    )
    ended = models.PositiveIntegerField(_("parties terminées entre joueurs"), default=0)
    abandoned = models.PositiveIntegerField(_("parties abandonnées"), default=0)

    class Meta:
        verbose_name = _("bilan d’un joueur")
        verbose_name_plural = _("bilans des joueurs")

    def __str__(self):
        return f"{self.user} · {self.ended} / {self.abandoned}"


class PlayedWith(models.Model):
    """Two people who sat at the same ended partie, one row each way: the salle marks a seated
    friend by looking up the few names it shows (one indexed row each), whatever either's
    history. Written when a partie ends (records' receiver, in the Finisher's transaction);
    robot seats are nobody's friends."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("joueur"),
    )
    other = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("a joué avec"),
    )

    class Meta:
        verbose_name = _("partie jouée ensemble")
        verbose_name_plural = _("parties jouées ensemble")
        constraints = [
            models.UniqueConstraint(fields=["user", "other"], name="playedwith_unique_pair")
        ]

    def __str__(self):
        return f"{self.user} · {self.other}"


class PairRating(Skill):
    """A pareja's current rating, the pair as its own entity (records.services: moved only by
    rated parties where its two members sat as partners while it was formed)."""

    pair = models.OneToOneField(
        "pairs.Pair",
        on_delete=models.PROTECT,
        primary_key=True,
        related_name="rating",
        verbose_name=_("pareja"),
    )

    class Meta:
        verbose_name = _("classement d’une pareja")
        verbose_name_plural = _("classements des parejas")
        indexes = [models.Index(fields=["-points"], name="pairrating_points_idx")]

    def __str__(self):
        return f"{self.pair} · {self.points}"


class PairRatingChange(SkillChange):
    """What one rated partie did to one pareja's rating; unique per (partie, pair)."""

    game = models.ForeignKey(
        "games.Game",
        on_delete=models.PROTECT,
        related_name="pair_rating_changes",
        verbose_name=_("partie"),
    )
    pair = models.ForeignKey(
        "pairs.Pair",
        on_delete=models.PROTECT,
        related_name="rating_changes",
        verbose_name=_("pareja"),
    )

    class Meta:
        verbose_name = _("évolution du classement d’une pareja")
        verbose_name_plural = _("évolutions du classement des parejas")
        ordering = ["at", "game_id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "pair"], name="pairratingchange_once"),
        ]
        indexes = [models.Index(fields=["pair", "at"], name="pairratingchange_pair_at_idx")]

    def __str__(self):
        return f"{self.pair} · partie {self.game_id} · {self.points_before} → {self.points}"
