"""A visitor's language choice, made before logging in, becomes the account's if it had none."""

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver


@receiver(user_logged_in, dispatch_uid="accounts.keep_visitor_language")
def keep_visitor_language(sender, request, user, **kwargs):
    if request is None or getattr(user, "language", None) != "":
        return
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    if chosen in dict(settings.LANGUAGES):
        user.language = chosen
        user.save(update_fields=["language"])
