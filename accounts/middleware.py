from asgiref.sync import iscoroutinefunction
from django.contrib.auth.middleware import LoginRequiredMiddleware
from django.shortcuts import resolve_url
from django.utils.decorators import sync_and_async_middleware
from django_htmx.http import HttpResponseClientRedirect

from accounts import throttle


class LoginRequired(LoginRequiredMiddleware):
    """Django's login-required middleware; htmx requests get a full-page redirect instead of
    a login form swapped into a fragment."""

    def handle_no_permission(self, request, view_func):
        if getattr(request, "htmx", False):
            return HttpResponseClientRedirect(resolve_url(self.get_login_url(view_func)))
        return super().handle_no_permission(request, view_func)


@sync_and_async_middleware
def login_throttle(get_response):
    """Finishes what the log-in forms (accounts.forms.ThrottledLoginMixin) decided, for the
    site's form and the admin's: a throttled try is answered 429 with Retry-After, and a
    successful log-in leaves the device cookie that lets this browser past the per-name limit."""

    def finish(request, response):
        wait = getattr(request, "login_wait", 0)
        if wait:
            response.status_code = 429
            response["Retry-After"] = str(wait)
        username = getattr(request, "login_username", None)
        if username is not None:
            throttle.set_device_cookie(response, username)
        return response

    if iscoroutinefunction(get_response):

        async def middleware(request):
            return finish(request, await get_response(request))

    else:

        def middleware(request):
            return finish(request, get_response(request))

    return middleware
