"""WebSocket routes: each consumer module lists its own; this file only gathers them."""

from django.urls import path

from games.live import consumers

websocket_urlpatterns: list = [
    path("ws/salle/", consumers.SalleConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/", consumers.TableConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/regarder/", consumers.WatchConsumer.as_asgi()),
]
