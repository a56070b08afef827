from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PairsConfig(AppConfig):
    name = "pairs"
    verbose_name = _("Parejas")

    def ready(self):
        from games.display import fragments
        from pairs import selectors

        # The salle names the pairs seated as partners (games never imports pairs).
        fragments.register_pairs(selectors)
