from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import User


class SignupForm(UserCreationForm):
    """Username, optional e-mail, and a password checked by Django's validators."""

    email = forms.EmailField(
        label=_("Adresse e-mail (facultative)"),
        required=False,
        help_text=_("Seulement pour retrouver votre compte ; jamais affichée."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")
        labels = {"username": _("Nom de joueur")}
