"""WebSocket consumers: thin. Authenticate, join the group, render on "changed"."""

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from games.broadcast import SALLE_GROUP
from games.rendering import salle_fragment


class SalleConsumer(AsyncWebsocketConsumer):
    """Pushes the #salle fragment (an htmx out-of-band swap) to one logged-in user: on connect,
    so a (re)connect always gets a full render, then at every "salle changed" event."""

    joined = False

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close()
            return
        await self.channel_layer.group_add(SALLE_GROUP, self.channel_name)
        self.joined = True
        await self.accept()
        await self.send_salle()

    async def disconnect(self, code):
        if self.joined:
            await self.channel_layer.group_discard(SALLE_GROUP, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """The salle is written over HTTP; anything sent up the socket is ignored."""

    async def salle_changed(self, event):
        await self.send_salle(started_table_id=event.get("started_table_id"))

    async def send_salle(self, started_table_id=None):
        # Not thread-sensitive: the renders of many open salles run side by side.
        html = await database_sync_to_async(salle_fragment, thread_sensitive=False)(
            self.scope["user"], started_table_id=started_table_id
        )
        await self.send(text_data=html)
