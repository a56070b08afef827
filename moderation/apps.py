from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = _("Modération")

    def ready(self):
        from moderation import signals  # noqa: F401  (connects the session index)
