"""Parejas in the admin: looked at, searched; written only by their players (pairs.services),
so nothing is edited here (a pair's name or members changed by hand would rewrite its record)."""

from django.contrib import admin

from pairs.models import Pair


@admin.register(Pair)
class PairAdmin(admin.ModelAdmin):
    list_display = ["name", "proposer", "partner", "status", "created", "accepted_at", "ended_at"]
    list_filter = ["status"]
    search_fields = ["name", "proposer__username", "partner__username"]
    list_select_related = ["proposer", "partner"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
