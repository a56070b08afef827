from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RecordsConfig(AppConfig):
    name = "records"
    verbose_name = _("Palmarès")

    def ready(self):
        from records import receivers  # noqa: F401  (ratings and reputations for games)
