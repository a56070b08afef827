from django.contrib.auth.middleware import LoginRequiredMiddleware
from django.shortcuts import resolve_url
from django_htmx.http import HttpResponseClientRedirect


class LoginRequired(LoginRequiredMiddleware):
    """Django's login-required middleware; htmx requests get a full-page redirect instead of
    a login form swapped into a fragment."""

    def handle_no_permission(self, request, view_func):
        if getattr(request, "htmx", False):
            return HttpResponseClientRedirect(resolve_url(self.get_login_url(view_func)))
        return super().handle_no_permission(request, view_func)
