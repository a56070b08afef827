"""WebSocket routes: each consumer module lists its own; this file only gathers them."""

websocket_urlpatterns: list = []
