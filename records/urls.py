from django.urls import path

from records import views

app_name = "records"

# parties/<id>/ is this app's; parties/<id>/dossier.json (games:partie_record) is games'.
urlpatterns = [
    path("parties/<int:game_id>/", views.partie, name="partie"),
    path("joueurs/<str:name>/", views.profile, name="profile"),
    path("classement/", views.classement, name="classement"),
    path("classement/parejas/", views.pair_classement, name="pair_classement"),
    path("parejas/<str:slug>/", views.pair, name="pair"),
]
