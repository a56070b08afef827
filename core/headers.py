"""Headers every page and fragment of the site carries (static files are served before this,
by WhiteNoise, with their own caching)."""

from django.conf import settings
from django.utils.cache import patch_cache_control


class PrivatePageHeaders:
    """`Cache-Control: no-store, private` and the Permissions-Policy on every response.

    Every page is per user (the CSRF token, the name in the header) and the table and its
    fragments show a player's own cards: nothing may be kept by a browser, a shared computer's
    history or a proxy. Marking all of them, rather than listing the views that show cards,
    cannot miss a new one; the pages are rendered per request anyway, so nothing is lost."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        patch_cache_control(response, no_store=True, private=True)
        response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response
