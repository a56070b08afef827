"""Ratings in the admin, read-only: they are derived from the games' records (the Finisher,
`manage.py ratings_rebuild`), never edited by hand. A correction is a moderation act on the
game itself (moderation.services: "Annuler le classement" on the game's admin page), journalled,
which rebuilds the ratings without it."""

from django.contrib import admin

from core.read_only_admin import ReadOnlyModelAdmin
from records.models import PairRating, PairRatingChange, Rating, RatingChange, RatingVoid


@admin.register(Rating)
class RatingAdmin(ReadOnlyModelAdmin):
    list_display = ["user", "points", "parties", "mu", "sigma", "updated"]
    search_fields = ["user__username"]
    ordering = ["-points"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyModelAdmin):
    list_display = ["game", "user", "won", "points_before", "points", "at"]
    search_fields = ["user__username"]
    list_select_related = ["user", "game"]


@admin.register(RatingVoid)
class RatingVoidAdmin(ReadOnlyModelAdmin):
    """The parties taken out of the ratings; the why is in the moderation journal."""

    list_display = ["game", "at"]
    list_select_related = ["game"]


@admin.register(PairRating)
class PairRatingAdmin(ReadOnlyModelAdmin):
    list_display = ["pair", "points", "parties", "mu", "sigma", "updated"]
    search_fields = ["pair__name"]
    ordering = ["-points"]


@admin.register(PairRatingChange)
class PairRatingChangeAdmin(ReadOnlyModelAdmin):
    list_display = ["game", "pair", "won", "points_before", "points", "at"]
    search_fields = ["pair__name"]
    list_select_related = ["pair", "game"]
