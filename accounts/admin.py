from django.contrib import admin
from django.contrib.admin import SimpleListFilter
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.forms import AdminLoginForm
from accounts.models import User
from games.models import GameSeat
from moderation import services
from moderation.admin import ModeratorMixin, ReadOnlyInline, reason_action

# The admin's log-in is throttled like the site's (accounts.throttle).
admin.site.login_form = AdminLoginForm


class GameSeatInline(ReadOnlyInline):
    """The player's parties, newest first, with the result stored for them."""

    model = GameSeat
    fk_name = "user"
    fields = ["partie", "started", "seat_number", "status", "score", "result"]
    readonly_fields = ["partie", "started", "seat_number", "status", "score"]
    verbose_name_plural = gettext_lazy("parties jouées")

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("game").order_by("-game__created")

    @admin.display(description=gettext_lazy("partie"))
    def partie(self, seat):
        url = reverse("admin:games_game_change", args=[seat.game_id])
        return format_html('<a href="{}">{}</a>', url, seat.game)

    @admin.display(description=gettext_lazy("commencée le"))
    def started(self, seat):
        return seat.game.created

    @admin.display(description=gettext_lazy("place"))
    def seat_number(self, seat):
        # Stored 0-3, shown 1-4 as on every page of the site.
        return seat.number + 1

    @admin.display(description=gettext_lazy("statut"))
    def status(self, seat):
        return seat.game.get_status_display()

    @admin.display(description=gettext_lazy("score (son équipe – l’autre)"))
    def score(self, seat):
        scores = (seat.game.state or {}).get("scores", [0, 0])
        return f"{scores[seat.team]} – {scores[1 - seat.team]}"


class BannedFilter(SimpleListFilter):
    title = gettext_lazy("bannissement")
    parameter_name = "banni"

    def lookups(self, request, model_admin):
        return [("oui", _("bannis")), ("non", _("non bannis"))]

    def queryset(self, request, queryset):
        if self.value() == "oui":
            return queryset.filter(banned_at__isnull=False)
        if self.value() == "non":
            return queryset.filter(banned_at__isnull=True)
        return queryset


@admin.register(User)
class UserAdmin(ModeratorMixin, DjangoUserAdmin):
    """Players: search, their parties and results, Bannir / Débannir with a reason.

    `is_active` and the ban fields change only through the two actions, so every ban is
    recorded in the moderation journal."""

    list_display = [
        "username",
        "email",
        "is_robot",
        "is_active",
        "banned_at",
        "is_staff",
        "date_joined",
    ]
    list_filter = [BannedFilter, "is_robot", "is_staff", "is_superuser", "is_active"]
    search_fields = ["username", "email", "first_name", "last_name"]
    readonly_fields = [
        "is_robot",
        "is_active",
        "banned_at",
        "ban_reason",
        "last_login",
        "date_joined",
    ]
    fieldsets = [
        *DjangoUserAdmin.fieldsets,
        (gettext_lazy("Modération"), {"fields": ["banned_at", "ban_reason", "is_robot"]}),
    ]
    actions = [
        reason_action(
            "ban_users",
            apply=lambda user, reason, by: services.user_ban(user=user, by=by, reason=reason),
            title=gettext_lazy("Bannir"),
            intro=gettext_lazy(
                "Le joueur sera déconnecté partout, quittera sa table et toute partie en cours "
                "sera annulée avec ce motif, que les autres joueurs verront."
            ),
            done=gettext_lazy("%(count)d joueur(s) banni(s)."),
        ),
        reason_action(
            "unban_users",
            apply=lambda user, reason, by: services.user_unban(user=user, by=by, reason=reason),
            title=gettext_lazy("Débannir"),
            intro=gettext_lazy("Le joueur pourra de nouveau se connecter."),
            done=gettext_lazy("%(count)d joueur(s) débanni(s)."),
        ),
    ]
    inlines = [GameSeatInline]
    change_form_template = "admin/accounts/user/change_form.html"
