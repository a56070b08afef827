from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("salle/", views.salle, name="salle"),
    path("salle/tables/", views.table_create, name="table_create"),
    path("salle/tables/<int:table_id>/place/", views.seat_take, name="seat_take"),
    path("salle/tables/<int:table_id>/graine/", views.seat_seed_set, name="seat_seed_set"),
    path("salle/tables/<int:table_id>/quitter/", views.seat_leave, name="seat_leave"),
    path("salle/tables/<int:table_id>/lancer/", views.table_start, name="table_start"),
    path("salle/tables/<int:table_id>/robot/", views.robot_seat, name="robot_seat"),
    path("salle/tables/<int:table_id>/robot/retirer/", views.robot_unseat, name="robot_unseat"),
    path("salle/entrainement/", views.practice_table, name="practice_table"),
    path("tables/<int:table_id>/", views.table, name="table"),
    path("tables/<int:table_id>/jouer/", views.act, name="act"),
    path("tables/<int:table_id>/conseil/", views.hint, name="hint"),
    path("tables/<int:table_id>/regarder/", views.watch, name="watch"),
    path("tables/<int:table_id>/phrase/", views.phrase_say, name="phrase_say"),
    path("tables/<int:table_id>/phrase/masquer/", views.phrase_mute, name="phrase_mute"),
    path("tables/<int:table_id>/phrase/signaler/", views.phrase_report, name="phrase_report"),
    path("parties/<int:game_id>/dossier.json", views.partie_dossier, name="partie_record"),
    path("melange-verifiable/", views.fair_shuffle, name="fair_shuffle"),
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
