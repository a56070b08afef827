from django.contrib import admin
from django.urls import include, path

from games import views as games_views

urlpatterns = [
    path("", games_views.home, name="home"),
    path("regles/", games_views.rules, name="rules"),
    path("comptes/", include("accounts.urls")),
    path("", include("games.urls")),
    path("admin/", admin.site.urls),
]
