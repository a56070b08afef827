"""The first minute and the table as new players live them (issue 33), in Chromium at a phone's
and a laptop's size: what each sees first, where the focus goes, what a screen reader hears,
that every control is big enough to tap, and that the site installs on a home screen.
Screenshots under $SHOTS_DIR (default /tmp/shots-firstmin)."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("SHOTS_DIR", "/tmp/shots-firstmin"))
PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 800}


def shoot(page, name: str) -> None:
    """The page as it is at both sizes (the viewport is put back to what it was)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    was = page.viewport_size
    for label, size in (("phone", PHONE), ("laptop", LAPTOP)):
        page.set_viewport_size(size)
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"))
    page.set_viewport_size(was)


# ---------------------------------------------------------------- 11. installable


def test_the_site_installs_on_a_home_screen(new_page):
    page = new_page()
    page.goto("/")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    assert href
    answer = page.request.get(href)
    assert answer.ok and answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["name"] == "Barajamos" and manifest["short_name"]
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"].startswith("#") and manifest["start_url"]
    sizes = {icon["sizes"]: icon for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= set(sizes)
    for size in (192, 512):
        icon = sizes[f"{size}x{size}"]
        # the icon loads in the page (the policy allows it) at its stated size
        loaded = page.evaluate(
            """src => new Promise(done => { const img = new Image();
                 img.onload = () => done([img.naturalWidth, img.naturalHeight]);
                 img.onerror = () => done(null); img.src = src; })""",
            icon["src"],
        )
        assert loaded == [size, size], (icon, loaded)
    assert (
        page.locator("meta[name=theme-color]").get_attribute("content") == manifest["theme_color"]
    )
