from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from games import views as games_views

admin.site.site_header = _("Barajamos · administration")
admin.site.site_title = _("Barajamos · administration")
admin.site.index_title = _("Tables, parties, joueurs et modération")

urlpatterns = [
    path("", games_views.home, name="home"),
    path("regles/", games_views.rules, name="rules"),
    path("comptes/", include("accounts.urls")),
    path("", include("games.urls")),
    path("admin/", admin.site.urls),
]
