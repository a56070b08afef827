from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReviewsConfig(AppConfig):
    name = "reviews"
    verbose_name = _("Revues avec le robot")

    def ready(self):
        from reviews import receivers  # noqa: F401  (a review queued as each partie ends)
