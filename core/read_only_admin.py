"""The admin of a record written only by the site (ratings, pairs, matches, reviews, the staff's
journal): staff read it, nobody adds, changes or deletes it there, superusers included."""

from django.contrib import admin


class ReadOnlyModelAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
