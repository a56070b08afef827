from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.views import PasswordChangeView
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.debug import sensitive_post_parameters

from accounts import throttle
from accounts.forms import LoginForm, ResetRequestForm, SignupForm


@login_not_required
@sensitive_post_parameters("password1", "password2")
def signup(request):
    # Where to go once signed up (an invitation link): only an address of this site.
    next_url = _safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_url or "games:salle")
    if request.method == "POST" and (wait := throttle.signup_wait(request)):
        context = {
            "form": SignupForm(),
            "refusal": throttle.signup_wait_message(wait),
            "next": next_url,
        }
        response = render(request, "accounts/signup.html", context, status=429)
        response["Retry-After"] = str(wait)
        return response
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        throttle.signed_up(request)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request, _("Bienvenue, %(name)s ! Votre compte est créé.") % {"name": user.username}
        )
        return redirect(next_url or "games:salle")
    return render(request, "accounts/signup.html", {"form": form, "next": next_url})


@login_not_required
def set_language(request):
    """Django's set_language (POST, CSRF, back to `next`, the cookie set); a player's choice is
    kept on the account too, so every device they log in from speaks it."""
    response = i18n.set_language(request)
    language = request.POST.get("language", "")
    user = request.user
    known = language in dict(settings.LANGUAGES)
    if request.method == "POST" and user.is_authenticated and known and user.language != language:
        user.language = language
        user.save(update_fields=["language"])
    return response


def _safe_next(request) -> str:
    """The `next` address of the request (POST, else GET) if it is on this site, else ""."""
    candidate = request.POST.get("next") or request.GET.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return candidate if allowed else ""


class PasswordChange(PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("games:salle")

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(self.request, _("Votre mot de passe a été changé."))
        return response


#: The log-in page's `?motif=` codes, each with the notice it shows to anyone who opens it. A
#: code, never free text: the address says nothing about an account, and the reason of a
#: suspension is shown only after the right password (accounts.forms.suspended_message).
LOGIN_NOTICES = {
    "suspension": _(
        "Votre session a été fermée par la modération. Connectez-vous pour en connaître la raison."
    ),
}


class Login(auth_views.LoginView):
    template_name = "accounts/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True

    def get_context_data(self, **kwargs):
        notice = LOGIN_NOTICES.get(self.request.GET.get("motif", ""))
        return super().get_context_data(**kwargs, notice=notice)


class PasswordReset(auth_views.PasswordResetView):
    """Django's reset request, throttled per client and per address (accounts.throttle); the
    answer is the same whether the address belongs to an account or not."""

    form_class = ResetRequestForm
    template_name = "accounts/password_reset_form.html"
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def post(self, request, *args, **kwargs):
        if wait := throttle.reset_wait(request):
            context = self.get_context_data(refusal=throttle.wait_message(wait))
            response = self.render_to_response(context, status=429)
            response["Retry-After"] = str(wait)
            return response
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        if not throttle.reset_requested(self.request, form.cleaned_data["email"]):
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)


class PasswordResetDone(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class PasswordResetConfirm(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")


class PasswordResetComplete(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"
