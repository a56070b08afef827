from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts import throttle, usernames
from accounts.models import User


class ThrottledLoginMixin:
    """A log-in form that asks accounts.throttle before hashing any password and counts failures.

    A refused try is marked on the request (`login_wait`) and a successful one too
    (`login_username`): accounts.middleware.login_throttle turns them into a 429 and a device
    cookie, for the site's form and the admin's alike."""

    def clean(self):
        username = self.cleaned_data.get("username")
        if username is None or not self.cleaned_data.get("password"):
            return super().clean()
        wait = throttle.login_wait(self.request, username)
        if wait:
            self.request.login_wait = wait
            raise ValidationError(throttle.wait_message(wait), code="throttled")
        if len(username) > self.username_field.max_length:
            # No such user can exist: refused as any wrong name, without a query or a hash.
            throttle.login_failed(self.request, username)
            raise self.get_invalid_login_error()
        try:
            cleaned_data = super().clean()
        except ValidationError:
            if self.user_cache is None:
                throttle.login_failed(self.request, username)
            raise
        self.request.login_username = username
        return cleaned_data


class LoginForm(ThrottledLoginMixin, AuthenticationForm):
    pass


class AdminLoginForm(ThrottledLoginMixin, AdminAuthenticationForm):
    pass


class SignupForm(UserCreationForm):
    """Username, optional e-mail, and a password checked by Django's validators.

    Look-alike names are refused (accounts.usernames)."""

    email = forms.EmailField(
        label=_("Adresse e-mail (facultative)"),
        required=False,
        help_text=_("Seulement pour retrouver votre compte ; jamais affichée."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")
        labels = {"username": _("Nom de joueur")}
        help_texts = {
            "username": _("Lettres d’un seul alphabet, chiffres et . _ - ; 150 caractères au plus.")
        }

    def clean_username(self):
        username = super().clean_username()
        if username:  # None: already refused as taken
            usernames.validate_new(username)
        return username
