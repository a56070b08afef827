from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = _("Modération")

    def ready(self):
        # the session index's receivers; the games' tables and parties in the admin
        from moderation import games_admin, signals  # noqa: F401
