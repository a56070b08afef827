from django.urls import path

from reviews import views

app_name = "reviews"

urlpatterns = [
    path("parties/<int:game_id>/revue/", views.review, name="review"),
    path("parties/<int:game_id>/revue/avancement/", views.progress, name="progress"),
]
