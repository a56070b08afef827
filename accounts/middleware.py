from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.contrib.auth.middleware import LoginRequiredMiddleware
from django.shortcuts import resolve_url
from django.utils import translation
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


def chosen_language(user) -> str | None:
    """The language a logged-in player chose on the account, if it is one the site offers."""
    language = getattr(user, "language", "") if user.is_authenticated else ""
    return language if language in dict(settings.LANGUAGES) else None


@sync_and_async_middleware
def account_language(get_response):
    """A player's page in the language of their account, on any device, whatever the browser
    says (LocaleMiddleware, above, chose the visitor's: the cookie, else Accept-Language, else
    French); the cookie follows, so the sockets and a later logged-out page agree."""

    def apply(request, user) -> str | None:
        language = chosen_language(user)
        if language and language != request.LANGUAGE_CODE:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return language

    def finish(request, response, language):
        cookie = settings.LANGUAGE_COOKIE_NAME
        if language and request.COOKIES.get(cookie) != language:
            response.set_cookie(
                cookie,
                language,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            )
        return response

    if iscoroutinefunction(get_response):

        async def middleware(request):
            language = apply(request, await request.auser())
            return finish(request, await get_response(request), language)

    else:

        def middleware(request):
            language = apply(request, request.user)
            return finish(request, get_response(request), language)

    return middleware
