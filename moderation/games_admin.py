"""Tables and parties in the admin, for the staff moderators (moderation.can_moderate): lists,
a game's page and its log, cancelling a partie or its rating with a reason, and the read-only
"Rejouer" page. Services are the only writers: nobody edits stored state here.

Hidden information of a game in play is shown on the Rejouer page only, never to a staff member
seated at that game, and every other view of it is journalled (docs/services.md,
« Moderation »).
"""

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import vocabulary
from games.display.replay import replay_game
from games.models import Game, GameAction, GameSeat, Seat, Table
from moderation import services
from moderation.admin import ModeratorMixin, ReadOnlyInline, reason_action


class ReadOnlyModelAdmin(ModeratorMixin, admin.ModelAdmin):
    """Every field read-only, nothing added or deleted; only superusers reach the change form
    (which has nothing left to change)."""

    def get_readonly_fields(self, request, obj=None):
        return [*(f.name for f in self.model._meta.fields), *self.readonly_fields]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return request.user.is_superuser


def players_of(seats) -> str:
    """« 1 · ane, 2 · Amaia (robot), … »: the computer players marked."""
    robot = _("robot")
    return ", ".join(
        f"{seat.number + 1} · {seat.user.username}" + (f" ({robot})" if seat.robot else "")
        for seat in seats
    )


def rating_correction(game) -> str | None:
    """The rating correction a moderator may make to `game` (seats prefetched): "void" for a
    rated partie (finished, four people), "restore" for a voided one, None otherwise."""
    if hasattr(game, "rating_void"):
        return "restore"
    seats = game.seats.all()
    if game.status == Game.Status.FINISHED and len(seats) == 4 and not any(s.robot for s in seats):
        return "void"
    return None


class SeatNumberInline(ReadOnlyInline):
    """Seats are stored 0-3 and shown 1-4, as on the salle's and the table's pages."""

    @admin.display(description=gettext_lazy("place"))
    def seat_number(self, seat):
        return seat.number + 1


class SeatInline(SeatNumberInline):
    model = Seat
    fields = ["seat_number", "user", "robot", "active", "seed_origin", "created"]


@admin.register(Table)
class TableAdmin(ReadOnlyModelAdmin):
    list_display = ["id", "host", "kings", "status", "players", "created"]
    list_filter = ["status", "kings", "created"]
    search_fields = ["host__username", "seats__user__username"]
    date_hierarchy = "created"
    list_select_related = ["host"]
    inlines = [SeatInline]
    # Table.server_seed is never among them: its partie's page reveals it once ended.
    fields = [
        "host",
        "kings",
        "clock",
        "status",
        "created",
        "updated",
        "last_seen",
        "commitment",
        "min_completion",
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__user")

    @admin.display(description=gettext_lazy("joueurs"))
    def players(self, table):
        return players_of(table.seats.all())


class GameSeatInline(SeatNumberInline):
    model = GameSeat
    fields = ["seat_number", "user", "robot", "team_label", "result", "away_since"]
    readonly_fields = ["team_label"]

    @admin.display(description=gettext_lazy("équipe"))
    def team_label(self, seat):
        return seat.team + 1


class GameActionInline(ReadOnlyInline):
    """The whole log, read-only (PostgreSQL refuses UPDATE and DELETE of its rows as well).
    While the game is played, `decision` stands for `payload`: the discarded cards are hidden."""

    model = GameAction
    fields = ["seq", "kind", "seat_number", "player", "payload", "at"]
    readonly_fields = ["seat_number", "player", "decision"]
    verbose_name_plural = gettext_lazy("journal des actions")

    def get_fields(self, request, obj=None):
        if obj is not None and obj.status == Game.Status.PLAYING:
            return ["decision" if name == "payload" else name for name in self.fields]
        return self.fields

    def get_readonly_fields(self, request, obj=None):
        return [*self.get_fields(request, obj), *self.readonly_fields]

    @admin.display(description=gettext_lazy("décision"))
    def decision(self, action):
        payload = action.payload
        if action.kind != GameAction.Kind.PLAY or not isinstance(payload, dict):
            return "—"
        if payload.get("type") == "discard":
            return vocabulary.word_text({"type": "discard", "count": len(payload.get("cards", []))})
        return vocabulary.word_text(payload)

    @admin.display(description=gettext_lazy("place"))
    def seat_number(self, action):
        return "—" if action.seat is None else action.seat + 1

    @admin.display(description=gettext_lazy("joueur"))
    def player(self, action):
        if action.seat is None:
            return "—"
        seat = next((s for s in action.game.seats.all() if s.number == action.seat), None)
        return seat.user.username if seat else "?"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("game")


@admin.register(Game)
class GameAdmin(ReadOnlyModelAdmin):
    list_display = ["id", "table", "kings", "status", "players", "scores", "created"]
    list_filter = [
        "status",
        "kings",
        ("seats__robot", admin.BooleanFieldListFilter),
        "created",
        "finished_at",
    ]
    search_fields = ["seats__user__username"]
    date_hierarchy = "created"
    readonly_fields = [
        "players",
        "scores",
        "end_reason_shown",
        "replay_link",
        "revealed_server_seed",
        "record_link",
        "rating_state",
    ]
    fieldsets = [
        (None, {"fields": ["table", "kings", "status", "players", "scores", "replay_link"]}),
        (
            gettext_lazy("Fin"),
            {"fields": ["winning_team", "finished_at", "end_reason_shown", "rating_state"]},
        ),
        (
            gettext_lazy("Mélange vérifiable"),
            {
                "fields": [
                    "fairness",
                    "commitment",
                    "client_seeds",
                    "seed_origins",
                    "revealed_server_seed",
                    "record_link",
                ]
            },
        ),
        (
            gettext_lazy("État enregistré (lecture seule)"),
            {
                "classes": ["collapse"],
                "fields": ["version", "state", "created", "updated", "last_action_at"],
            },
        ),
    ]
    inlines = [GameSeatInline, GameActionInline]
    actions = [
        reason_action(
            "cancel_games",
            apply=lambda game, reason, by: services.game_cancel(game=game, by=by, reason=reason),
            title=gettext_lazy("Annuler la partie"),
            intro=gettext_lazy(
                "Les joueurs sont renvoyés à la salle à l’instant, avec ce motif ; "
                "la partie n’aura pas de vainqueur."
            ),
            done=gettext_lazy("%(count)d partie(s) annulée(s)."),
        ),
        reason_action(
            "void_ratings",
            apply=lambda game, reason, by: services.partie_rating_void(
                game=game, by=by, reason=reason
            ),
            title=gettext_lazy("Annuler le classement de la partie"),
            intro=gettext_lazy(
                "La partie et son résultat restent, mais elle ne compte plus dans le classement "
                "de ses quatre joueurs : tous les classements sont recalculés sans elle. La page "
                "de la partie dira « Classement annulé par la modération », sans ce motif, qui "
                "reste dans le journal de modération."
            ),
            done=gettext_lazy("Classement annulé pour %(count)d partie(s)."),
        ),
        reason_action(
            "restore_ratings",
            apply=lambda game, reason, by: services.partie_rating_restore(
                game=game, by=by, reason=reason
            ),
            title=gettext_lazy("Rétablir le classement de la partie"),
            intro=gettext_lazy(
                "La partie compte de nouveau dans le classement de ses quatre joueurs : tous "
                "les classements sont recalculés avec elle."
            ),
            done=gettext_lazy("Classement rétabli pour %(count)d partie(s)."),
        ),
    ]
    change_form_template = "admin/games/game/change_form.html"

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__user")

    def get_fieldsets(self, request, obj=None):
        if obj is None or obj.status != Game.Status.PLAYING:
            return self.fieldsets
        return [
            (name, {**options, "fields": [f for f in options["fields"] if f != "state"]})
            for name, options in self.fieldsets
        ]

    @admin.display(description=gettext_lazy("joueurs"))
    def players(self, game):
        return players_of(game.seats.all())

    @admin.display(description=gettext_lazy("score"))
    def scores(self, game):
        ours, theirs = (game.state or {}).get("scores", [0, 0])
        return f"{ours} – {theirs}"

    @admin.display(description=gettext_lazy("motif de fin"))
    def end_reason_shown(self, game):
        """The stored code and its parameters, as the players read them (the staff's language)."""
        return game.end_reason_text

    @admin.display(description=gettext_lazy("classement"))
    def rating_state(self, game):
        correction = rating_correction(game)
        if correction == "restore":
            return _("annulé par la modération")
        if correction == "void":
            return _("compte dans le classement")
        return _("non classée")

    def change_view(self, request, object_id, form_url="", extra_context=None):
        game = self.get_object(request, unquote(object_id))
        extra_context = {**(extra_context or {}), "rating_correction": None}
        if game is not None:
            extra_context["rating_correction"] = rating_correction(game)
        return super().change_view(request, object_id, form_url, extra_context)

    @admin.display(description=gettext_lazy("graine du site"))
    def revealed_server_seed(self, game):
        """The secret, for an ended game only: never shown while it is played (its column is
        in no fieldset; this stands for it)."""
        if game.status == Game.Status.PLAYING:
            return _("révélée à la fin de la partie")
        return game.server_seed or "—"

    @admin.display(description=gettext_lazy("dossier"))
    def record_link(self, game):
        if game.status == Game.Status.PLAYING:
            return "—"
        url = reverse("games:partie_record", args=[game.pk])
        return format_html('<a href="{}">{}</a>', url, _("Télécharger le dossier de la partie"))

    @admin.display(description=gettext_lazy("rejeu"))
    def replay_link(self, game):
        url = reverse("admin:games_game_replay", args=[game.pk])
        return format_html('<a href="{}">{}</a>', url, _("Rejouer la partie main par main"))

    def get_urls(self):
        replay = path(
            "<path:object_id>/rejouer/",
            self.admin_site.admin_view(self.replay_view),
            name="games_game_replay",
        )
        return [replay, *super().get_urls()]

    def replay_view(self, request, object_id):
        # get_object: None for an id that is no number or no game, rather than a 500.
        game = self.get_object(request, unquote(object_id))
        if game is None:
            raise Http404(_("Cette partie n’existe pas."))
        if not self.has_view_permission(request, game):
            raise PermissionDenied
        if game.status == Game.Status.PLAYING:
            refused = self._hidden_state_refused(request, game)
            if refused is not None:
                return refused
            services.game_hidden_state_viewed(game=game, by=request.user, where=_("rejeu"))
        context = {
            **self.admin_site.each_context(request),
            "title": _("Rejeu de la partie %(id)s") % {"id": game.pk},
            "opts": self.model._meta,
            "original": game,
            "replay": replay_game(game),
        }
        return TemplateResponse(request, "admin/games/game/replay.html", context)

    def _hidden_state_refused(self, request, game):
        """A staff member seated at a game in play sees it as a player: no replay until it ends."""
        if not game.seats.filter(user=request.user).exists():
            return None
        self.message_user(
            request,
            _("Vous jouez cette partie : son rejeu vous sera ouvert quand elle sera terminée."),
            messages.ERROR,
        )
        url = reverse("admin:games_game_change", args=[game.pk])
        return HttpResponseRedirect(url)
