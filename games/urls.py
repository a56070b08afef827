from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("salle/", views.salle, name="salle"),
    path("salle/tables/", views.table_create, name="table_create"),
    path("salle/tables/<int:table_id>/place/", views.seat_take, name="seat_take"),
    path("salle/tables/<int:table_id>/quitter/", views.seat_leave, name="seat_leave"),
    path("salle/tables/<int:table_id>/lancer/", views.table_start, name="table_start"),
    path("tables/<int:table_id>/", views.table, name="table"),
    path("tables/<int:table_id>/jouer/", views.act, name="act"),
    path("salle/jouer-maintenant/", views.play_now, name="play_now"),
    path("salle/tables/<int:table_id>/robots/", views.fill_with_robots, name="fill_with_robots"),
    path("salle/tables/<int:table_id>/lien/", views.invitation_renew, name="invitation_renew"),
    path("salle/tables/<int:table_id>/retirer/", views.guest_remove, name="guest_remove"),
    path("tables/<int:table_id>/invitation/<str:token>/", views.invitation, name="invitation"),
    path(
        "tables/<int:table_id>/invitation/<str:token>/place/",
        views.invitation_seat,
        name="invitation_seat",
    ),
    path("tables/<int:table_id>/revanche/", views.revanche_offer, name="revanche_offer"),
    path("tables/<int:table_id>/revanche/reponse/", views.revanche_answer, name="revanche_answer"),
]
