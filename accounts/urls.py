from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("inscription/", views.signup, name="signup"),
    path("connexion/", views.Login.as_view(), name="login"),
    path("langue/", views.set_language, name="set_language"),
    path("deconnexion/", auth_views.LogoutView.as_view(), name="logout"),
    path("mot-de-passe/", views.PasswordChange.as_view(), name="password_change"),
    path("mot-de-passe/oublie/", views.PasswordReset.as_view(), name="password_reset"),
    path(
        "mot-de-passe/oublie/envoye/",
        views.PasswordResetDone.as_view(),
        name="password_reset_done",
    ),
    path(
        "mot-de-passe/nouveau/<uidb64>/<token>/",
        views.PasswordResetConfirm.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "mot-de-passe/nouveau/fait/",
        views.PasswordResetComplete.as_view(),
        name="password_reset_complete",
    ),
]
