"""The moderation pieces of the admin: the moderator permission, actions that ask a reason on
an intermediate page, and the read-only journal of staff actions."""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy, pgettext_lazy

from core.permissions import can_moderate
from core.read_only_admin import ReadOnlyModelAdmin
from games.phrases import phrase_text
from games.vocabulary import labelled
from moderation.models import PhraseReport, StaffAction
from moderation.services import REASON_MAX, ModerationError


class ModeratorMixin:
    """Staff holding `moderation.can_moderate` see this model (read-only unless they hold the
    model's own permissions) and may run the actions marked `permissions=["moderate"]`.
    """

    def has_module_permission(self, request):
        return super().has_module_permission(request) or can_moderate(request.user)

    def has_view_permission(self, request, obj=None):
        return super().has_view_permission(request, obj) or can_moderate(request.user)

    def has_moderate_permission(self, request):
        return can_moderate(request.user)


class ReadOnlyInline(admin.TabularInline):
    """An inline nobody can add to, change or delete from; moderators may see it."""

    extra = 0
    max_num = 0
    can_delete = False
    show_change_link = False

    def get_readonly_fields(self, request, obj=None):
        return [*self.fields, *self.readonly_fields]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_view_permission(self, request, obj=None):
        return super().has_view_permission(request, obj) or can_moderate(request.user)


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Motif"),
        max_length=REASON_MAX,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 70}),
        help_text=gettext_lazy("Enregistré dans le journal de modération."),
    )


def reason_action(name, *, apply, title, intro, done):
    """An admin action `name` (moderators only) with an intermediate page asking the reason,
    then `apply(obj, reason, by)` for each selected object. Also reached from an object's page
    ("Bannir", "Annuler la partie"), which posts the action for that one object."""

    @admin.action(description=title, permissions=["moderate"])
    def action(modeladmin, request, queryset):
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            return _apply(modeladmin, request, queryset, apply, form.cleaned_data["reason"], done)
        context = {
            **modeladmin.admin_site.each_context(request),
            "title": title,
            "intro": intro,
            "objects": list(queryset),
            "form": form,
            "action_name": name,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "opts": modeladmin.model._meta,
        }
        return TemplateResponse(request, "admin/moderation/reason_form.html", context)

    action.__name__ = name
    return action


def _apply(modeladmin, request, queryset, apply, reason, done):
    """Apply to each object, report, and go back to the one object's page or the list."""
    count = 0
    for obj in queryset:
        try:
            apply(obj, reason, request.user)
        except ModerationError as exc:
            modeladmin.message_user(request, labelled(str(obj), exc.message), messages.ERROR)
        else:
            count += 1
    if count:
        modeladmin.message_user(request, done % {"count": count}, messages.SUCCESS)
    if len(queryset) != 1:
        return None
    opts = modeladmin.model._meta
    url = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[queryset[0].pk])
    return HttpResponseRedirect(url)


class ReadOnlyAdmin(ModeratorMixin, ReadOnlyModelAdmin):
    """A record moderators read and nobody writes here, superusers included."""


@admin.register(StaffAction)
class StaffActionAdmin(ReadOnlyAdmin):
    """The journal: read-only for everyone, superusers included."""

    list_display = ["at", "kind", "staff", "target_user", "reason"]
    list_filter = ["kind", "at"]
    search_fields = ["staff__username", "target_user__username", "reason"]
    date_hierarchy = "at"
    list_select_related = ["staff", "target_user"]

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in self.model._meta.fields]


@admin.register(PhraseReport)
class PhraseReportAdmin(ReadOnlyAdmin):
    """The quick phrases players reported (« Signaler »): who said what, in which partie and
    hand, read-only; the phrase in the moderator's language (docs/phrases.md)."""

    list_display = ["at", "reporter", "speaker", "phrase_text", "partie", "hand"]
    list_filter = ["at"]
    search_fields = ["reporter__username", "speaker__username"]
    date_hierarchy = "at"
    list_select_related = ["reporter", "speaker", "game"]
    fields = ["at", "reporter", "speaker", "phrase_text", "partie", "hand"]
    readonly_fields = fields

    @admin.display(description=gettext_lazy("phrase"))
    def phrase_text(self, report):
        return phrase_text(report.said)

    @admin.display(description=gettext_lazy("partie"))
    def partie(self, report):
        if report.game is None:
            return gettext_lazy("avant la partie (table %(table)s)") % {"table": report.table_id}
        url = reverse("admin:games_game_change", args=[report.game_id])
        return format_html('<a href="{}">{}</a>', url, report.game)

    @admin.display(description=pgettext_lazy("a hand of the partie", "main"))
    def hand(self, report):
        return report.hand_number or "—"
