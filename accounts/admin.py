from django.contrib import admin
from django.contrib.admin import SimpleListFilter
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from moderation import services
from moderation.admin import ModeratorMixin, reason_action


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

    list_display = ["username", "email", "is_active", "banned_at", "is_staff", "date_joined"]
    list_filter = [BannedFilter, "is_staff", "is_superuser", "is_active"]
    search_fields = ["username", "email", "first_name", "last_name"]
    readonly_fields = ["is_active", "banned_at", "ban_reason", "last_login", "date_joined"]
    fieldsets = [
        *DjangoUserAdmin.fieldsets,
        (gettext_lazy("Modération"), {"fields": ["banned_at", "ban_reason"]}),
    ]
    actions = ["ban_users", "unban_users"]
    change_form_template = "admin/accounts/user/change_form.html"

    @admin.action(description=gettext_lazy("Bannir"), permissions=["moderate"])
    def ban_users(self, request, queryset):
        return reason_action(
            self,
            request,
            queryset,
            apply=lambda user, reason, by: services.user_ban(user=user, by=by, reason=reason),
            title=_("Bannir"),
            intro=_(
                "Le joueur sera déconnecté partout, quittera sa table et toute partie en cours "
                "sera annulée avec ce motif, que les autres joueurs verront."
            ),
            done=_("%(count)d joueur(s) banni(s)."),
        )

    @admin.action(description=gettext_lazy("Débannir"), permissions=["moderate"])
    def unban_users(self, request, queryset):
        return reason_action(
            self,
            request,
            queryset,
            apply=lambda user, reason, by: services.user_unban(user=user, by=by, reason=reason),
            title=_("Débannir"),
            intro=_("Le joueur pourra de nouveau se connecter."),
            done=_("%(count)d joueur(s) débanni(s)."),
        )
