from django.urls import path

from pairs import views

app_name = "pairs"

# The pair's page (parejas/<slug>/) and the classement des parejas are records'.
urlpatterns = [
    path("mes-parejas/", views.mine, name="mine"),
    path("mes-parejas/proposer/", views.propose, name="propose"),
    path("mes-parejas/<int:pair_id>/accepter/", views.accept, name="accept"),
    path("mes-parejas/<int:pair_id>/refuser/", views.decline, name="decline"),
    path("mes-parejas/<int:pair_id>/dissoudre/", views.dissolve, name="dissolve"),
    path("salle/pareja/table/", views.table_create, name="table_create"),
    path("salle/pareja/jouer-maintenant/", views.play_now, name="play_now"),
]
