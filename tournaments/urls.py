from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("salle/tournois/", views.index, name="index"),
    path("salle/tournois/nouveau/", views.create, name="create"),
    path("tournois/<int:pk>/", views.detail, name="detail"),
    path("tournois/<int:pk>/lien/<str:token>/", views.detail, name="private"),
    path("tournois/<int:pk>/direct/", views.live, name="live"),
    path("tournois/<int:pk>/inscription/", views.register, name="register"),
    path("tournois/<int:pk>/desinscription/", views.withdraw, name="withdraw"),
    path("tournois/<int:pk>/presence/", views.check_in, name="check_in"),
    path("tournois/<int:pk>/arrivee/", views.arrive, name="arrive"),
]
