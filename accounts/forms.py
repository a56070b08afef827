from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.utils import formats, timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts import throttle, usernames
from accounts.models import User

NON_FIELD_ERRORS_ID = "erreurs-du-formulaire"


class ErrorsDescribeFieldsMixin:
    """A refusal of the whole form (a wrong password, a suspended account) is read with every
    input: each points at the form's error list (`NON_FIELD_ERRORS_ID`, the id the templates give
    it) and is marked invalid. Django links a field's own errors already."""

    def full_clean(self):
        super().full_clean()
        if not self.non_field_errors():
            return
        for name, field in self.fields.items():
            described = [NON_FIELD_ERRORS_ID]
            if field.help_text:
                described.append(f"{self[name].auto_id}_helptext")
            field.widget.attrs["aria-describedby"] = " ".join(described)
            field.widget.attrs["aria-invalid"] = "true"


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
        self.refuse_inactive_with_right_password(username, self.cleaned_data["password"])
        try:
            cleaned_data = super().clean()
        except ValidationError:
            if self.user_cache is None:
                throttle.login_failed(self.request, username)
            raise
        self.request.login_username = username
        return cleaned_data

    def refuse_inactive_with_right_password(self, username: str, password: str) -> None:
        """A suspended player who gives the right password is told why they cannot come in;
        anyone else (a wrong password) gets the usual refusal and learns nothing.

        Django's ModelBackend refuses an inactive user before the form sees them, so this checks
        the password itself, once: the backend is not asked again for such a user, and the
        password is hashed as many times as for an active one."""
        user = User.objects.filter(**{User.USERNAME_FIELD: username}, is_active=False).first()
        if user is None:
            return
        if not user.check_password(password):
            throttle.login_failed(self.request, username)
            raise self.get_invalid_login_error()
        if user.is_banned:
            raise ValidationError(suspended_message(user), code="suspended")
        raise ValidationError(self.error_messages["inactive"], code="inactive")


def suspended_message(user: User) -> str:
    """Why a banned player cannot log in: since when, and the moderator's reason."""
    date = formats.date_format(timezone.localtime(user.banned_at), "j F Y")
    if user.ban_reason:
        return gettext("Votre compte est suspendu depuis le %(date)s. Motif : %(reason)s") % {
            "date": date,
            "reason": user.ban_reason,
        }
    return gettext("Votre compte est suspendu depuis le %(date)s.") % {"date": date}


LOGIN_ERROR_MESSAGES = {
    "invalid_login": _(
        "Nom de joueur ou mot de passe incorrect. Les majuscules comptent dans les deux."
    ),
    "inactive": _("Ce compte est désactivé."),
}


class LoginForm(ErrorsDescribeFieldsMixin, ThrottledLoginMixin, AuthenticationForm):
    error_messages = {**AuthenticationForm.error_messages, **LOGIN_ERROR_MESSAGES}

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        self.fields["username"].label = _("Nom de joueur")


class AdminLoginForm(ThrottledLoginMixin, AdminAuthenticationForm):
    pass


class ResetRequestForm(ErrorsDescribeFieldsMixin, PasswordResetForm):
    """Django's reset request (it skips inactive users: a suspended player cannot reset their
    way back in), with the site's words."""

    email = forms.EmailField(
        label=_("Adresse e-mail du compte"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )


class SignupForm(ErrorsDescribeFieldsMixin, UserCreationForm):
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
