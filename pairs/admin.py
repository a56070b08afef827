"""Parejas in the admin: looked at, searched; written only by their players (pairs.services),
so nothing is edited here (a pair's name or members changed by hand would rewrite its record)."""

from django.contrib import admin

from core.read_only_admin import ReadOnlyModelAdmin
from pairs.models import Pair


@admin.register(Pair)
class PairAdmin(ReadOnlyModelAdmin):
    list_display = ["name", "proposer", "partner", "status", "created", "accepted_at", "ended_at"]
    list_filter = ["status"]
    search_fields = ["name", "proposer__username", "partner__username"]
    list_select_related = ["proposer", "partner"]
