from django.contrib import admin

from games.models import Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["id", "host", "kings", "status", "created"]
    list_filter = ["status", "kings"]
    raw_id_fields = ["host"]
    inlines = [SeatInline]
