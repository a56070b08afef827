"""Tournaments in the admin: staff create public ones here (name, formula, modality, clock,
start, rounds or window, parties per round, minimum completion rate). Once created, a
tournament is run by the site (tournaments.services.advance): its rounds, matches and
registrations are looked at, never edited by hand (a result typed in would not match the
partie)."""

from django import forms
from django.contrib import admin
from django.utils import timezone

from core.read_only_admin import ReadOnlyModelAdmin
from tournaments import services
from tournaments.models import Match, Tournament, TournamentPair


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = [
            "name",
            "format",
            "kings",
            "clock",
            "starts_at",
            "rounds",
            "window_minutes",
            "best_of",
            "min_completion",
        ]

    def clean(self):
        data = super().clean()
        try:
            services.check_fields(
                name=data.get("name"),
                format=data.get("format"),
                kings=data.get("kings"),
                clock=data.get("clock"),
                starts_at=data.get("starts_at"),
                rounds=data.get("rounds"),
                window_minutes=data.get("window_minutes"),
                best_of=data.get("best_of") or 1,
                min_completion=data.get("min_completion"),
                now=timezone.now(),
            )
        except services.TournamentError as error:
            raise forms.ValidationError(error.message) from None
        return data


class EntryInline(admin.TabularInline):
    model = TournamentPair
    fields = ["pair", "registered_by", "proposer_checked_in", "partner_checked_in", "playing"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = ["name", "format", "kings", "starts_at", "state", "private", "created_by"]
    list_filter = ["state", "format", "private"]
    search_fields = ["name"]
    inlines = [EntryInline]

    def get_readonly_fields(self, request, obj=None):
        return TournamentForm.Meta.fields if obj is not None else []

    def save_model(self, request, obj, form, change):
        """A new public tournament goes through the service (its checks, its scheduled start)."""
        if change:
            return
        data = form.cleaned_data
        created = services.tournament_create(
            user=request.user,
            name=data["name"],
            format=data["format"],
            kings=data["kings"],
            clock=data["clock"],
            starts_at=data["starts_at"],
            rounds=data.get("rounds"),
            window_minutes=data.get("window_minutes"),
            best_of=data.get("best_of") or 1,
            min_completion=data.get("min_completion"),
        )
        obj.pk = created.pk
        obj.refresh_from_db()

    def has_change_permission(self, request, obj=None):
        return obj is None

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(ReadOnlyModelAdmin):
    list_display = ["tournament", "round", "pair_a", "pair_b", "done", "winner", "started_at"]
    list_filter = ["done"]
    list_select_related = ["tournament", "round", "pair_a__pair", "pair_b__pair"]
