"""The site's icon: every page links static/favicon.svg, and /favicon.ico (which browsers ask
for anyway) redirects to it instead of a 404."""

from django.contrib.staticfiles import finders
from django.templatetags.static import static


def test_favicon_ico_redirects_to_the_svg_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == static("favicon.svg")
    assert finders.find("favicon.svg")


def test_every_page_links_the_icon(client):
    response = client.get("/")
    assert f'<link rel="icon" href="{static("favicon.svg")}" type="image/svg+xml">' in (
        response.content.decode()
    )
