"""Reviews in the admin, read-only: they are made by the worker from an ended partie, never
by hand (and a partie in play has none)."""

from django.contrib import admin

from core.read_only_admin import ReadOnlyModelAdmin
from reviews.models import Review


@admin.register(Review)
class ReviewAdmin(ReadOnlyModelAdmin):
    list_display = ["game", "status", "version", "done", "total", "cpu_seconds", "updated"]
    list_filter = ["status"]
    exclude = ["seats"]  # the decisions are read on the review page
