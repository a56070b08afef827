from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.views import PasswordChangeView
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters

from accounts import throttle
from accounts.forms import SignupForm


@login_not_required
@sensitive_post_parameters("password1", "password2")
def signup(request):
    if request.user.is_authenticated:
        return redirect("games:salle")
    if request.method == "POST" and (wait := throttle.signup_wait(request)):
        context = {"form": SignupForm(), "refusal": throttle.wait_message(wait)}
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
        return redirect("games:salle")
    return render(request, "accounts/signup.html", {"form": form})


class PasswordChange(PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("games:salle")

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(self.request, _("Votre mot de passe a été changé."))
        return response
