"""ASGI entry point: HTTP goes to Django, WebSockets through the exact origin check
(core.origins), auth, then routing."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "musweb.settings")
# Django must be set up before the consumers (and their models) are imported.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from core.origins import SiteOriginValidator  # noqa: E402
from games.live.routing import websocket_urlpatterns  # noqa: E402

GC_YOUNG_THRESHOLD = 20_000

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SiteOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# Everything loaded so far (Django, the apps, the URL conf, the templates' modules) lives as
# long as the process: out of the collector's sight, a full collection no longer walks it
# (hundreds of milliseconds of pause with a thousand sockets); and a young generation of
# 2,000 objects filled many times per render: collect it less often.
gc.collect()
gc.freeze()
gc.set_threshold(GC_YOUNG_THRESHOLD, 20, 20)
