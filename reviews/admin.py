"""Reviews in the admin, read-only: they are made by the worker from an ended partie, never
by hand (and a partie in play has none)."""

from django.contrib import admin

from reviews.models import Review


@admin.register(Review)
class ReviewAdmin(admin.ModelAdmin):
    list_display = ["game", "status", "version", "done", "total", "cpu_seconds", "updated"]
    list_filter = ["status"]
    exclude = ["seats"]  # the decisions are read on the review page

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
