from django.contrib import admin
from django.contrib.auth.decorators import login_not_required
from django.http import HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import include, path
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.generic import RedirectView

from games import views as games_views

admin.site.site_header = _("Barajamos · administration")
admin.site.site_title = _("Barajamos · administration")
admin.site.index_title = _("Tables, parties, joueurs et modération")


class FaviconRedirect(RedirectView):
    """Browsers ask /favicon.ico whatever the page links: send them to the site's SVG icon (a
    temporary redirect, as the static URL changes with the icon's hash)."""

    def get_redirect_url(self, *args, **kwargs):
        return static("favicon.svg")


@login_not_required
def health(request):
    """The proxy's health check of a web process (deploy.serve): it answers, nothing more (no
    database: a slow query must not take every process out of the proxy at once)."""
    return HttpResponse("ok", content_type="text/plain")


@login_not_required
def web_manifest(request):
    """The web app manifest: a phone can put Barajamos on its home screen and open it full
    screen. Served by a view, as its icons' static URLs change with their hash."""
    manifest = {
        "name": "Barajamos",
        "short_name": "Barajamos",
        "description": str(_("Le mus en direct, à quatre.")),
        "lang": get_language(),
        "start_url": "/salle/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#fbf8f1",
        "theme_color": "#0f5132",
        "icons": [
            {
                "src": static(f"icons/barajamos-{size}.png"),
                "sizes": f"{size}x{size}",
                "type": "image/png",
            }
            for size in (192, 512)
        ],
    }
    return JsonResponse(
        manifest,
        content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False},
    )


urlpatterns = [
    path("manifest.webmanifest", web_manifest, name="web_manifest"),
    path("sante/", health, name="health"),
    path("favicon.ico", login_not_required(FaviconRedirect.as_view()), name="favicon"),
    path("", games_views.home, name="home"),
    path("regles/", games_views.rules, name="rules"),
    path("comptes/", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("pairs.urls")),
    path("", include("records.urls")),
    path("", include("tournaments.urls")),
    path("", include("reviews.urls")),
    path("admin/", admin.site.urls),
]
