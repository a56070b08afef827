"""A URLconf for tests/site/test_error_pages.py: the site's URLs plus views that fail."""

from django.contrib.auth.decorators import login_not_required
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.urls import path

from musweb.urls import urlpatterns as site_urlpatterns


@login_not_required
def crash(request):
    raise RuntimeError("secret detail: postgres://postgres@127.0.0.1:5432/barajamos")


@login_not_required
def forbidden(request):
    raise PermissionDenied("secret detail")


@login_not_required
def suspicious(request):
    raise SuspiciousOperation("secret detail")


urlpatterns = [
    path("boom/", crash),
    path("interdit/", forbidden),
    path("louche/", suspicious),
    *site_urlpatterns,
]
